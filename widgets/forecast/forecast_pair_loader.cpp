// ForecastPairLoader; see forecast_pair_loader.h.
#include "widgets/forecast/forecast_pair_loader.h"

#include "core/forecasters/forecast_queue.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {
namespace {

struct Loaded
{
    quint64 generation = 0;
    Result<PairForecasts> pair = Error {};
};

} // namespace

ForecastPairLoader::ForecastPairLoader(
    StoreSession *session, Selection *selection, ForecastQueue *queue, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    connect(selection, &Selection::pairChanged, this, &ForecastPairLoader::load);
    // A change (after a batch, a measurement, an import) may bring new forecasts or a measured truth.
    connect(session, &StoreSession::opened, this, &ForecastPairLoader::reload);
    connect(session, &StoreSession::changed, this, &ForecastPairLoader::reload);
    connect(session, &StoreSession::closed, this, [this] { load(0, 0); });
    connect(queue, &ForecastQueue::forecastStored, this, [this](const Forecast &forecast) {
        if (forecast.candidateKernelId == m_candidateId && forecast.referenceKernelId == m_baselineId)
            reload();
    });
}

void ForecastPairLoader::load(RowId candidateId, RowId baselineId)
{
    const quint64 generation = ++m_generation;
    m_candidateId = candidateId;
    m_baselineId = baselineId;
    if (candidateId <= 0 || baselineId <= 0 || !m_session->isOpen()) {
        m_loading = false;
        Q_EMIT cleared();
        return;
    }
    m_loading = true;
    auto *watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        const Loaded result = watcher->result();
        if (result.generation != m_generation)
            return;
        m_loading = false;
        if (result.pair)
            Q_EMIT loaded(*result.pair);
        else
            Q_EMIT failed(result.pair.error());
    });
    watcher->setFuture(QtConcurrent::run([path = m_session->path(), candidateId, baselineId, generation]() {
        return Loaded {generation, loadPairForecasts(path, candidateId, baselineId)};
    }));
}

} // namespace gpuf
