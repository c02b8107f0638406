// Mutators that need no generator: the recorded pool (a replay world's kernels, or an imported search log's proposals,
// in a fixed order) and the injected mutator (kernels the user adds to a search).
#pragma once

#include "core/domain/search.h"
#include "core/mutators/mutator.h"
#include "core/search/replay_world.h"

#include <QMutex>

#include <memory>

namespace gpuf::search {

struct PoolEntry
{
    QString source;
    QString language;
    QString origin;
    QString name;
    QJsonObject parameters;
};

// Request n (by ordinal) gets entry n of the pool; past its end a request fails ("the recorded pool is exhausted").
// A pool built from a replay world is shuffled with the search's seed (so seeds give different searches over the same
// world); one built from a recorded log keeps the log's order.
class PoolMutator : public Mutator
{
public:
    PoolMutator(QList<PoolEntry> pool, QJsonObject configuration, bool shuffle);
    static std::unique_ptr<PoolMutator> fromWorld(const ReplayWorld &world);
    // The proposals of a stored search's log (mutation_completed code, in the log's order), for replaying it.
    static std::unique_ptr<PoolMutator> fromRecordedLog(const QString &searchName, const QList<PoolEntry> &proposals);

    QString kind() const override { return QStringLiteral("pool"); }
    QJsonObject configuration() const override { return m_configuration; }
    Status prepare(const MutatorSetup &setup) override;
    void request(const QList<MutationRequest> &requests, Done done) override;
    void cancel() override { }

    int size() const { return int(m_pool.size()); }

private:
    QList<PoolEntry> m_pool;
    QList<int> m_order;
    QJsonObject m_configuration;
    bool m_shuffle = true;
};

// Kernels the user adds: each request takes the oldest kernel not yet proposed; with none waiting it fails
// ("nothing injected"). add() may be called from any thread.
class InjectedMutator : public Mutator
{
public:
    QString kind() const override { return QStringLiteral("injected"); }
    QJsonObject configuration() const override { return {{QStringLiteral("kind"), QStringLiteral("injected")}}; }
    Status prepare(const MutatorSetup &) override { return {}; }
    void request(const QList<MutationRequest> &requests, Done done) override;
    void cancel() override { }
    void add(const Proposal &proposal);
    int waiting() const;

private:
    mutable QMutex m_mutex;
    QList<Proposal> m_waiting;
    QHash<QString, Proposal> m_given; // request id → proposal, so a re-asked request gets the same answer
};

// splitmix64: the search's only source of pseudo-random numbers (seeds derive from the search seed).
quint64 mix64(quint64 x);

} // namespace gpuf::search

namespace gpuf::search {

// A recorded search log's proposals, in the log's order, each with the outcome the log recorded for it (when it was
// measured). Our own logs link a proposal to its measurement by node id; other logs (the paper's) by order: the n-th
// evaluation requested in a step measures the n-th proposal completed in it.
struct RecordedProposal
{
    PoolEntry entry;
    std::optional<EvaluationFeedback> feedback; // replayed = true
};
QList<RecordedProposal> recordedProposals(const QList<SearchEvent> &events);

} // namespace gpuf::search
