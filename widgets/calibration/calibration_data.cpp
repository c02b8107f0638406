// CalibrationData; see calibration_data.h.
#include "widgets/calibration/calibration_data.h"

#include "core/forecasters/training_scope.h"
#include "core/store/forecast_repo.h"

#include "core/session/store_session.h"
#include "core/store/store.h"

#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {

metrics::MetricsOptions CalibrationRequest::options() const
{
    metrics::MetricsOptions options;
    options.bootstrapResamples = bootstrapResamples;
    options.bootstrapSeed = bootstrapSeed;
    return options;
}

namespace {

std::shared_ptr<const CalibrationSnapshot> loadSnapshot(
    const QString &path, const CalibrationRequest &request, quint64 generation, const CancelToken &cancel)
{
    auto snapshot = std::make_shared<CalibrationSnapshot>();
    snapshot->generation = generation;
    snapshot->storePath = path;
    snapshot->request = request;
    // The session opened and checked the file; this connection only reads.
    auto store = Store::open(path, Store::Mode::ReadOnly, Store::Check::Header);
    if (!store) {
        snapshot->error = store.error();
        return snapshot;
    }
    auto pairs = loadScoredPairs(**store, request.filter(), cancel);
    if (!pairs) {
        snapshot->error = pairs.error();
        return snapshot;
    }
    snapshot->pairs = std::move(*pairs);
    if (cancel.isCancelled())
        return snapshot; // dropped by the generation check anyway
    snapshot->metrics = metrics::computeStoreMetrics(snapshot->pairs, request.options());
    if (auto forecasters = ForecasterRepo(**store).list()) {
        snapshot->inSample = inSampleRows(snapshot->pairs, snapshot->metrics.rows, *forecasters);
        snapshot->inSampleSamePairs = inSampleRows(snapshot->pairs, snapshot->metrics.samePairRows, *forecasters);
    }
    return snapshot;
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
        }
        startLoad();
    });
    connect(session, &StoreSession::changed, this, &CalibrationData::startLoad);
    connect(session, &StoreSession::closed, this, &CalibrationData::clear);
    if (session->isOpen())
        startLoad();
}

CalibrationData::~CalibrationData()
{
    m_cancel.cancel(); // the job holds only values; it ends early and its result is dropped
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
    m_cancel.cancel();
    m_cancel = CancelToken::create();
    const quint64 generation = ++m_generation;
    if (!m_loading) {
        m_loading = true;
        Q_EMIT loadingChanged(true);
    }
    auto *watcher = new QFutureWatcher<std::shared_ptr<const CalibrationSnapshot>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<const CalibrationSnapshot>>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        applyResult(watcher->result());
    });
    watcher->setFuture(
        QtConcurrent::run([path = m_session->path(), request = m_request, generation, cancel = m_cancel]() {
            return loadSnapshot(path, request, generation, cancel);
        }));
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
    m_cancel.cancel();
    ++m_generation;
    m_snapshot = std::make_shared<const CalibrationSnapshot>();
    if (m_loading) {
        m_loading = false;
        Q_EMIT loadingChanged(false);
    }
    Q_EMIT changed();
}

} // namespace gpuf
