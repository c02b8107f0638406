// Mutators from search configurations; see mutator_factory.h.
#include "core/mutators/mutator_factory.h"

#include "core/forecasters/forecaster_config.h"
#include "core/mutators/family_mutator.h"
#include "core/mutators/llm_mutator.h"
#include "core/mutators/shipped_families.h"

namespace gpuf::families {

Result<std::unique_ptr<search::Mutator>> makeFamilyMutator(const QJsonObject &config)
{
    const QString name = config.value(QStringLiteral("family")).toString();
    if (name.isEmpty())
        return Error {QStringLiteral("the family mutator needs a family name (mutator configuration 'family')")};
    auto family = findFamily(name, config.value(QStringLiteral("families_dir")).toString(),
        config.value(QStringLiteral("corpus_dir")).toString());
    if (!family)
        return Error {family.error()};
    return std::unique_ptr<search::Mutator>(std::make_unique<FamilyMutator>(*family));
}

Result<std::unique_ptr<search::Mutator>> makeLlmMutator(
    Store &store, RowId problemId, const QJsonObject &config, const QString &hardware)
{
    auto settings = forecasters::llmSettings(config, QStringLiteral("llm mutator"));
    if (!settings)
        return Error {QStringLiteral("the LLM mutator's configuration: %1").arg(settings.error())};
    auto task = loadGenerationTask(store, problemId, hardware);
    if (!task)
        return Error {task.error()};
    return std::unique_ptr<search::Mutator>(std::make_unique<LlmMutator>(settings->endpoint, *task));
}

} // namespace gpuf::families
