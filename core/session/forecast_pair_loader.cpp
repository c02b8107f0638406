// ForecastPairLoader; see forecast_pair_loader.h.
#include "core/session/forecast_pair_loader.h"

#include "core/forecasters/forecast_queue.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"

namespace gpuf {

ForecastPairLoader::ForecastPairLoader(
    StoreSession *session, Selection *selection, ForecastQueue *queue, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    connect(selection, &Selection::pairChanged, this, &ForecastPairLoader::load);
    connect(session, &StoreSession::opened, this, &ForecastPairLoader::reload);
    connect(session, &StoreSession::changed, this, &ForecastPairLoader::followChange);
    connect(session, &StoreSession::closed, this, [this] { load(0, 0); });
    connect(queue, &ForecastQueue::forecastStored, this, [this](const Forecast &forecast) {
        if (forecast.candidateKernelId == m_candidateId && forecast.referenceKernelId == m_baselineId)
            reload();
    });
}

// A write that stored forecasts or measurements of either kernel (or may have changed anything) brings new values.
void ForecastPairLoader::followChange(const StoreChange &change)
{
    if (change.mayAffectKernel(m_candidateId) || change.mayAffectKernel(m_baselineId))
        reload();
}

void ForecastPairLoader::load(RowId candidateId, RowId baselineId)
{
    m_candidateId = candidateId;
    m_baselineId = baselineId;
    if (candidateId <= 0 || baselineId <= 0 || !m_session->isOpen()) {
        m_session->cancelReads(this);
        m_loading = false;
        Q_EMIT cleared();
        return;
    }
    m_loading = true;
    m_session->read<PairForecasts>(
        QStringLiteral("pair"),
        [candidateId, baselineId](Store &store, const CancelToken &cancel) {
            return loadPairForecasts(store, candidateId, baselineId, cancel);
        },
        this,
        [this](Result<PairForecasts> pair) {
            m_loading = false;
            if (pair)
                Q_EMIT loaded(*pair);
            else if (!pair.isCancelled())
                Q_EMIT failed(pair.error());
        });
}

} // namespace gpuf
