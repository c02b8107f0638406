// The family mutator; see family_mutator.h.
#include "core/mutators/family_mutator.h"

#include <QJsonArray>

namespace gpuf::families {

FamilyMutator::FamilyMutator(KernelFamily family)
    : m_family(std::move(family))
{ }

QString FamilyMutator::kind() const { return QStringLiteral("family"); }

QJsonObject FamilyMutator::configuration() const
{
    return QJsonObject {
        {QStringLiteral("family"), m_family.name}, {QStringLiteral("family_hash"), m_family.contentHash}};
}

Status FamilyMutator::prepare(const search::MutatorSetup &setup)
{
    if (!setup.problemName.isEmpty() && setup.problemName != m_family.problem)
        return Error {QStringLiteral("family '%1' writes kernels for problem '%2', not '%3'")
                          .arg(m_family.name, m_family.problem, setup.problemName)};
    auto valid = validConfigurations(m_family);
    if (!valid)
        return Error {valid.error()};
    m_valid = *valid;
    return {};
}

search::Proposal FamilyMutator::proposal(const Expansion &expansion, const QString &notes) const
{
    search::Proposal p;
    p.source = expansion.source;
    p.language = QStringLiteral("cuda");
    p.parameters = expansion.parameters;
    p.origin = QStringLiteral("param");
    p.name = expansion.name;
    p.notes = notes;
    return p;
}

std::optional<search::Proposal> FamilyMutator::seed() const
{
    auto e = expand(m_family, defaultConfiguration(m_family));
    if (!e)
        return std::nullopt;
    return proposal(*e, QStringLiteral("The default configuration of %1. %2").arg(m_family.name, m_family.description));
}

search::MutationResult FamilyMutator::answer(const search::MutationRequest &request) const
{
    search::MutationResult result;
    result.requestId = request.requestId;
    if (m_valid.isEmpty()) {
        result.error = QStringLiteral("family '%1': the mutator was not prepared").arg(m_family.name);
        return result;
    }
    Configuration chosen;
    QString notes;
    QJsonObject details {{QStringLiteral("family"), m_family.name}};
    auto parent = configurationOfParameters(m_family, request.parent.parameters);
    if (!parent) {
        // A parent from elsewhere (the problem's reference, an injected kernel) has no tunables to move: start at a
        // configuration drawn with the request's seed.
        chosen = randomConfiguration(m_valid, request.seed);
        notes = QStringLiteral("The parent is not a %1 configuration; this is one drawn at random.").arg(m_family.name);
        details.insert(QStringLiteral("moved"), QJsonArray());
    } else {
        auto move = neighbour(m_family, m_valid, *parent, request.seed);
        if (!move) {
            result.error = move.error();
            return result;
        }
        chosen = move->configuration;
        QStringList lines;
        QJsonArray moved;
        for (const QString &name : std::as_const(move->changed)) {
            const int i = m_family.tunableIndex(name);
            lines.append(QStringLiteral("%1: %2 → %3. %4")
                             .arg(name)
                             .arg((*parent)[i])
                             .arg(chosen[i])
                             .arg(m_family.tunables[i].note));
            moved.append(name);
        }
        notes = lines.join(QLatin1Char('\n'));
        details.insert(QStringLiteral("moved"), moved);
        details.insert(QStringLiteral("from"), configurationJson(m_family, *parent));
    }
    auto expansion = expand(m_family, chosen);
    if (!expansion) {
        result.error = expansion.error();
        return result;
    }
    details.insert(QStringLiteral("to"), configurationJson(m_family, chosen));
    result.proposal = proposal(*expansion, notes);
    result.details = details;
    return result;
}

void FamilyMutator::request(const QList<search::MutationRequest> &requests, Done done)
{
    for (const search::MutationRequest &r : requests)
        done(answer(r));
}

void FamilyMutator::cancel()
{
    // Answers are given inside request(); nothing is ever pending.
}

} // namespace gpuf::families
