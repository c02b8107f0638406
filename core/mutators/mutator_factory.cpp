// Mutators from search configurations; see mutator_factory.h.
#include "core/mutators/mutator_factory.h"

#include "core/forecasters/forecaster_config.h"
#include "core/mutators/family_mutator.h"
#include "core/mutators/llm_mutator.h"
#include "core/mutators/shipped_families.h"
#include "core/store/forecast_repo.h"

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
    // {"generator": NAME} takes the endpoint of the store's LLM forecaster NAME (gpuf forecaster add), so a user
    // configures an endpoint once; keys given beside it override that profile's.
    QJsonObject endpoint = config;
    const QString generator = config.value(QStringLiteral("generator")).toString();
    if (!generator.isEmpty()) {
        auto profile = ForecasterRepo(store).findByName(generator);
        if (!profile)
            return Error {profile.error()};
        if (!profile->has_value() || (*profile)->kind != ForecasterKind::Llm)
            return Error {QStringLiteral("the LLM mutator's generator '%1' is not an LLM forecaster of this store "
                                         "(gpuf forecaster list)")
                              .arg(generator)};
        endpoint = (*profile)->config;
        for (auto it = config.begin(); it != config.end(); ++it) {
            if (it.key() != QLatin1StringView("generator"))
                endpoint.insert(it.key(), it.value());
        }
    }
    auto settings = forecasters::llmSettings(endpoint, QStringLiteral("llm mutator"));
    if (!settings)
        return Error {QStringLiteral("the LLM mutator's configuration: %1").arg(settings.error())};
    auto task = loadGenerationTask(store, problemId, hardware);
    if (!task)
        return Error {task.error()};
    return std::unique_ptr<search::Mutator>(std::make_unique<LlmMutator>(settings->endpoint, *task));
}

} // namespace gpuf::families
