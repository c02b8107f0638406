// ForecastPairLoader: follows the Selection's pair and reads its forecasts, forecasters and measurements off the GUI
// thread (latest request wins), again whenever a forecast of that pair is stored or the store is refreshed.
#pragma once

#include "widgets/forecast/pair_forecasts.h"

#include <QObject>

namespace gpuf {

class ForecastQueue;
class Selection;
class StoreSession;

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
    StoreSession *m_session;
    quint64 m_generation = 0;
    RowId m_candidateId = 0;
    RowId m_baselineId = 0;
    bool m_loading = false;
};

} // namespace gpuf
