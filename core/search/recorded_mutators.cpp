// Recorded-pool and injected mutators; see recorded_mutators.h.
#include "core/search/recorded_mutators.h"

#include "core/domain/search_event_kind.h"
#include "core/search/feedback_json.h"

namespace gpuf::search {

quint64 mix64(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

PoolMutator::PoolMutator(QList<PoolEntry> pool, QJsonObject configuration, bool shuffle)
    : m_pool(std::move(pool))
    , m_configuration(std::move(configuration))
    , m_shuffle(shuffle)
{ }

std::unique_ptr<PoolMutator> PoolMutator::fromWorld(const ReplayWorld &world)
{
    QList<PoolEntry> pool;
    for (const RecordedKernel &k : world.kernels)
        pool.append({k.kernel.source, k.kernel.language, k.kernel.origin, k.kernel.name, k.kernel.parameters});
    QJsonObject config {{QStringLiteral("kind"), QStringLiteral("pool")},
        {QStringLiteral("source"), QStringLiteral("store")}, {QStringLiteral("problem"), world.problem.name},
        {QStringLiteral("hardware"), world.hardware.name},
        {QStringLiteral("order"), QStringLiteral("shuffled by seed")}};
    return std::make_unique<PoolMutator>(pool, config, true);
}

std::unique_ptr<PoolMutator> PoolMutator::fromRecordedLog(const QString &searchName, const QList<PoolEntry> &proposals)
{
    QJsonObject config {{QStringLiteral("kind"), QStringLiteral("pool")},
        {QStringLiteral("source"), QStringLiteral("search")}, {QStringLiteral("search"), searchName},
        {QStringLiteral("order"), QStringLiteral("recorded")}};
    return std::make_unique<PoolMutator>(proposals, config, false);
}

Status PoolMutator::prepare(const MutatorSetup &setup)
{
    if (m_pool.isEmpty())
        return Error {QStringLiteral("the recorded pool is empty: there is nothing to propose")};
    m_order.clear();
    for (int i = 0; i < m_pool.size(); ++i)
        m_order.append(i);
    if (m_shuffle) {
        // Fisher–Yates with the search's seed: the same seed gives the same order, on every machine.
        quint64 state = setup.seed;
        for (int i = int(m_order.size()) - 1; i > 0; --i) {
            state = mix64(state);
            const int j = int(state % quint64(i + 1));
            std::swap(m_order[i], m_order[j]);
        }
    }
    return {};
}

void PoolMutator::request(const QList<MutationRequest> &requests, Done done)
{
    for (const MutationRequest &r : requests) {
        MutationResult result;
        result.requestId = r.requestId;
        if (r.ordinal >= 0 && r.ordinal < m_order.size()) {
            const PoolEntry &e = m_pool.at(m_order.at(int(r.ordinal)));
            result.proposal = Proposal {e.source, e.language, e.parameters, e.origin, e.name, {}};
            result.details = {{QStringLiteral("pool_index"), m_order.at(int(r.ordinal))}};
        } else {
            result.error
                = QStringLiteral("the recorded pool is exhausted: its %1 kernels were all proposed").arg(m_pool.size());
            result.exhausted = true;
        }
        done(result);
    }
}

void InjectedMutator::add(const Proposal &proposal)
{
    QMutexLocker lock(&m_mutex);
    m_waiting.append(proposal);
}

int InjectedMutator::waiting() const
{
    QMutexLocker lock(&m_mutex);
    return int(m_waiting.size());
}

void InjectedMutator::request(const QList<MutationRequest> &requests, Done done)
{
    QList<MutationResult> results;
    {
        QMutexLocker lock(&m_mutex);
        for (const MutationRequest &r : requests) {
            MutationResult result;
            result.requestId = r.requestId;
            if (m_given.contains(r.requestId)) {
                result.proposal = m_given.value(r.requestId);
            } else if (!m_waiting.isEmpty()) {
                result.proposal = m_waiting.takeFirst();
                m_given.insert(r.requestId, *result.proposal);
            } else {
                result.error = QStringLiteral("nothing injected");
            }
            results.append(result);
        }
    }
    for (const MutationResult &r : std::as_const(results))
        done(r);
}

} // namespace gpuf::search

namespace gpuf::search {

QList<RecordedProposal> recordedProposals(const QList<SearchEvent> &events)
{
    QList<RecordedProposal> out;
    QHash<QString, int> byNode; // node id → proposal
    QHash<QString, int> byEvaluation; // evaluation request id → proposal
    QList<int> unmeasured; // this step's proposals not yet linked to an evaluation (logs without node ids)
    for (const SearchEvent &e : events) {
        const QJsonObject &p = e.payload;
        const std::optional<SearchEventKind> kind = eventKindOf(e);
        if (kind == SearchEventKind::StepStarted) {
            unmeasured.clear();
        } else if (kind == SearchEventKind::MutationCompleted) {
            const QString code = p.value(QStringLiteral("code")).toString();
            if (code.isEmpty())
                continue;
            RecordedProposal r;
            r.entry.source = code;
            r.entry.language = p.value(QStringLiteral("language")).toString();
            if (r.entry.language.isEmpty())
                r.entry.language = guessLanguage(code);
            r.entry.origin = QStringLiteral("import:search");
            r.entry.name = p.value(QStringLiteral("name")).toString();
            r.entry.parameters = p.value(QStringLiteral("parameters")).toObject();
            const int index = int(out.size());
            out.append(r);
            const QString node = p.value(QStringLiteral("node_id")).toString();
            if (!node.isEmpty())
                byNode.insert(node, index);
            else
                unmeasured.append(index);
        } else if (kind == SearchEventKind::EvaluationRequested) {
            const QString node = p.value(QStringLiteral("node_id")).toString();
            int index = byNode.value(node, -1);
            if (index < 0 && !unmeasured.isEmpty())
                index = unmeasured.takeFirst();
            if (index >= 0)
                byEvaluation.insert(p.value(QStringLiteral("request_id")).toString(), index);
        } else if (kind == SearchEventKind::EvaluationCompleted) {
            const int index = byEvaluation.value(p.value(QStringLiteral("request_id")).toString(), -1);
            if (index < 0)
                continue;
            auto feedback = feedbackFromJson(p.value(QStringLiteral("feedback")).toObject());
            if (feedback) {
                feedback->replayed = true;
                out[index].feedback = *feedback;
            }
        }
    }
    return out;
}

} // namespace gpuf::search
