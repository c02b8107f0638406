// ForecastPairLoader: follows the Selection's pair and reads its forecasts, forecasters and measurements off the GUI
// thread (latest request wins), again whenever a forecast of that pair is stored or a write touches its kernels.
#pragma once

#include "core/session/pair_forecasts.h"

#include <QObject>

namespace gpuf {

class ForecastQueue;
class Selection;
class StoreSession;
struct StoreChange;

class ForecastPairLoader : public QObject
{
    Q_OBJECT

public:
    ForecastPairLoader(StoreSession *session, Selection *selection, ForecastQueue *queue, QObject *parent = nullptr);

    RowId candidateId() const { return m_candidateId; }
    RowId baselineId() const { return m_baselineId; }
    bool isLoading() const { return m_loading; }

    void load(RowId candidateId, RowId baselineId);
    void reload() { load(m_candidateId, m_baselineId); }

Q_SIGNALS:
    void loaded(const gpuf::PairForecasts &pair);
    void cleared();
    void failed(const QString &message);

private:
    void followChange(const StoreChange &change);

    StoreSession *m_session;
    RowId m_candidateId = 0;
    RowId m_baselineId = 0;
    bool m_loading = false;
};

} // namespace gpuf
