// CalibrationData; see calibration_data.h.
#include "core/session/calibration_data.h"

#include "core/forecasters/roofline_prior.h"
#include "core/forecasters/training_scope.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"

namespace gpuf {

metrics::MetricsOptions CalibrationRequest::options() const
{
    metrics::MetricsOptions options;
    options.bootstrapResamples = bootstrapResamples;
    options.bootstrapSeed = bootstrapSeed;
    // The Cumulative reliability tab can draw the bin-free fit beside the bucketed curves; a PAV fit per edge is cheap.
    options.isotonicReliability = true;
    return options;
}

const QHash<qint64, qint64> &CalibrationSnapshot::inSampleFor(metrics::Comparison c) const
{
    switch (c) {
    case metrics::Comparison::SamePairs:
        return inSampleSamePairs;
    case metrics::Comparison::ComparedPairs:
        return inSampleCompared;
    case metrics::Comparison::AllPairs:
        break;
    }
    return inSample;
}

const QHash<qint64, metrics::ReferenceSkill> &CalibrationSnapshot::physicsPriorFor(metrics::Comparison c) const
{
    switch (c) {
    case metrics::Comparison::SamePairs:
        return physicsPriorSamePairs;
    case metrics::Comparison::ComparedPairs:
        return physicsPriorCompared;
    case metrics::Comparison::AllPairs:
        break;
    }
    return physicsPrior;
}

namespace {

using SnapshotPtr = std::shared_ptr<const CalibrationSnapshot>;

SnapshotPtr failedSnapshot(const QString &path, const CalibrationRequest &request, quint64 generation, QString error)
{
    auto snapshot = std::make_shared<CalibrationSnapshot>();
    snapshot->generation = generation;
    snapshot->storePath = path;
    snapshot->request = request;
    snapshot->error = std::move(error);
    return snapshot;
}

Result<SnapshotPtr> loadSnapshot(
    Store &store, const CalibrationRequest &request, quint64 generation, const CancelToken &cancel)
{
    auto snapshot = std::make_shared<CalibrationSnapshot>();
    snapshot->generation = generation;
    snapshot->storePath = store.path();
    snapshot->request = request;
    auto pairs = loadScoredPairs(store, request.filter(), cancel);
    if (pairs.isCancelled())
        return pairs.failure();
    if (!pairs) {
        snapshot->error = pairs.error();
        return SnapshotPtr(snapshot);
    }
    if (cancel.isCancelled())
        return Error::cancelled();
    snapshot->labelNoise = metrics::labelNoise(*pairs, false);
    snapshot->pairs = metrics::applyStraddlingRule(std::move(*pairs), request.straddling);
    if (cancel.isCancelled())
        return Error::cancelled();
    snapshot->metrics = metrics::computeStoreMetrics(snapshot->pairs, request.options());
    if (request.compared.size() == 2)
        metrics::compareTwo(
            snapshot->metrics, snapshot->pairs, request.compared[0], request.compared[1], request.options());
    const metrics::StoreMetrics &m = snapshot->metrics;
    if (auto prior = metrics::physicsPriorRows(store, request.filter(), request.straddling)) {
        const QString name = QLatin1StringView(kRooflineForecasterName);
        snapshot->physicsPrior = metrics::skillsAgainst(m.rows, *prior, name);
        snapshot->physicsPriorSamePairs = metrics::skillsAgainst(m.samePairRows, *prior, name);
        snapshot->physicsPriorCompared = metrics::skillsAgainst(m.comparedRows, *prior, name);
    }
    if (auto forecasters = ForecasterRepo(store).list()) {
        snapshot->inSample = inSampleRows(snapshot->pairs, m.rows, *forecasters);
        snapshot->inSampleSamePairs = inSampleRows(snapshot->pairs, m.samePairRows, *forecasters);
        snapshot->inSampleCompared = inSampleRows(snapshot->pairs, m.comparedRows, *forecasters);
    }
    return SnapshotPtr(snapshot);
}

} // namespace

CalibrationData::CalibrationData(StoreSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_snapshot(std::make_shared<const CalibrationSnapshot>())
{
    if (!session)
        return;
    connect(session, &StoreSession::opened, this, [this](const StoreSnapshot &opened) {
        // Names chosen in another store mean nothing here; the bootstrap settings carry over.
        if (opened.path != m_snapshot->storePath && !m_snapshot->storePath.isEmpty()) {
            m_request.forecasters.clear();
            m_request.problem.clear();
            m_request.hardware.clear();
            m_request.compared.clear();
        }
        startLoad();
    });
    connect(session, &StoreSession::changed, this, &CalibrationData::followChange);
    connect(session, &StoreSession::closed, this, &CalibrationData::clear);
    if (session->isOpen())
        startLoad();
}

CalibrationData::~CalibrationData() = default;

// The metrics rest on forecasts and measurements (and labels, which imports bring); added kernels, search events and
// lessons change none of them.
void CalibrationData::followChange(const StoreChange &change)
{
    using Kind = StoreChange::Kind;
    if (change.kind != Kind::Kernels && change.kind != Kind::Searches && change.kind != Kind::Lessons)
        startLoad();
}

void CalibrationData::setRequest(const CalibrationRequest &request)
{
    if (request == m_request)
        return;
    m_request = request;
    startLoad();
}

void CalibrationData::reload() { startLoad(); }

void CalibrationData::startLoad()
{
    if (!m_session || !m_session->isOpen())
        return;
    const quint64 generation = ++m_generation;
    if (!m_loading) {
        m_loading = true;
        Q_EMIT loadingChanged(true);
    }
    m_session->read<SnapshotPtr>(
        QStringLiteral("calibration"),
        [request = m_request, generation](
            Store &store, const CancelToken &cancel) { return loadSnapshot(store, request, generation, cancel); },
        this,
        [this, path = m_session->path(), request = m_request, generation](Result<SnapshotPtr> snapshot) {
            if (snapshot.isCancelled())
                return;
            applyResult(snapshot ? *snapshot : failedSnapshot(path, request, generation, snapshot.error()));
        });
}

void CalibrationData::applyResult(std::shared_ptr<const CalibrationSnapshot> result)
{
    if (!result || result->generation != m_generation)
        return; // a newer request replaced this one
    m_snapshot = std::move(result);
    m_loading = false;
    Q_EMIT loadingChanged(false);
    Q_EMIT changed();
}

void CalibrationData::clear()
{
    m_session->cancelReads(this);
    ++m_generation;
    m_snapshot = std::make_shared<const CalibrationSnapshot>();
    if (m_loading) {
        m_loading = false;
        Q_EMIT loadingChanged(false);
    }
    Q_EMIT changed();
}

} // namespace gpuf
