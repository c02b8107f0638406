// Proposals from a recorded tuning space; see space_mutator.h.
#include "core/search/space_mutator.h"

#include "core/search/replay_world.h"

#include <random>

namespace gpuf::search {

SpaceMutator::SpaceMutator(TuningSpace space, QList<Kernel> kernels)
    : m_space(std::move(space))
    , m_kernels(std::move(kernels))
{ }

Result<std::unique_ptr<SpaceMutator>> SpaceMutator::fromWorld(const ReplayWorld &world, const QString &family)
{
    auto space = spaceFromWorld(world, family);
    if (!space)
        return Error {space.error()};
    if (space->tunables.isEmpty())
        return Error {QStringLiteral("'%1' has no tunables to move").arg(family)};
    QList<Kernel> kernels(space->size());
    for (const RecordedKernel &recorded : world.kernels) {
        if (const int i = space->indexOfHash(recorded.kernel.contentHash); i >= 0)
            kernels[i] = recorded.kernel;
    }
    if (const int i = space->indexOfHash(world.reference.contentHash); i >= 0)
        kernels[i] = world.reference;
    return std::make_unique<SpaceMutator>(std::move(*space), std::move(kernels));
}

QJsonObject SpaceMutator::configuration() const
{
    return {{QStringLiteral("family"), m_space.name}, {QStringLiteral("space"), QStringLiteral("recorded")}};
}

Status SpaceMutator::prepare(const MutatorSetup &) { return {}; }

void SpaceMutator::request(const QList<MutationRequest> &requests, Done done)
{
    for (const MutationRequest &r : requests)
        done(answer(r));
}

MutationResult SpaceMutator::answer(const MutationRequest &request) const
{
    MutationResult result;
    result.requestId = request.requestId;
    std::mt19937_64 rng(request.seed);
    // The parent's configuration; a parent outside the space (a corpus kernel) starts from a drawn configuration.
    const QJsonObject tunables = request.parent.parameters.value(QStringLiteral("tunables")).toObject();
    QList<qint64> from;
    for (const QString &name : m_space.tunables)
        from << qint64(tunables.value(name).toDouble(-1));
    int at = m_space.indexOf(from);
    QList<int> moves;
    if (at < 0) {
        moves << int(rng() % quint64(m_space.size()));
    } else {
        // One tunable one step (its neighbours), or, half of the time when there are any, two tunables one step each.
        const QList<int> single = m_space.neighbours(at);
        QList<int> pairs;
        for (int n : single) {
            for (int m : m_space.neighbours(n)) {
                int differing = 0;
                for (qsizetype t = 0; t < from.size(); ++t)
                    differing += m_space.points.at(m).configuration.at(t) != from.at(t) ? 1 : 0;
                if (differing == 2 && !pairs.contains(m))
                    pairs << m;
            }
        }
        const bool two = !pairs.isEmpty() && (single.isEmpty() || rng() % 2 == 1);
        moves = two ? pairs : single;
    }
    if (moves.isEmpty()) {
        result.error = QStringLiteral("no configuration of '%1' is one step from %2")
                           .arg(m_space.name, at >= 0 ? m_space.label(at) : QStringLiteral("the parent"));
        return result;
    }
    const int chosen = moves.at(int(rng() % quint64(moves.size())));
    const Kernel &k = m_kernels.at(chosen);
    result.proposal = Proposal {k.source, k.language, k.parameters, k.origin, k.name, k.notes};
    return result;
}

} // namespace gpuf::search
