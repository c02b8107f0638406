// ForecastPanel's rows: the pair's stored forecasts and its open requests, the reasoning streamed for them, and which
// row is shown (the user's choice, a followed request once stored, else the newest of the window's forecaster).
#include "widgets/forecast/forecast_panel.h"

#include "core/forecasters/forecast_queue.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "widgets/forecast/forecast_controller.h"
#include "widgets/forecast/forecast_detail.h"
#include "widgets/forecast/forecast_rows_model.h"

#include <QTableView>

namespace gpuf {

QString ForecastPanel::streamKey(RowId forecasterId, int repeat)
{
    return QStringLiteral("%1:%2").arg(forecasterId).arg(repeat);
}

const ForecastRow *ForecastPanel::currentRow() const { return m_model->rowAt(m_view->currentIndex().row()); }

QString ForecastPanel::currentKey() const
{
    const ForecastRow *row = currentRow();
    return row ? row->key() : QString();
}

bool ForecastPanel::showKey(const QString &key)
{
    const int row = m_model->rowOfKey(key);
    if (row < 0)
        return false;
    // A choice like the user's: connectSources()'s slot on the current row marks it so.
    m_view->setCurrentIndex(m_model->index(row, 0));
    return true;
}

void ForecastPanel::pairChanged(RowId candidateId, RowId baselineId)
{
    m_controller->queue()->watch(ForecastPair {baselineId, candidateId});
    m_streamed.clear();
    m_userChoice = false;
    m_pendingKey.clear();
    m_pairLoaded = false;
    m_pair = {};
    m_pair.candidateId = candidateId;
    m_pair.baselineId = baselineId;
    m_live.clear();
    m_model->setRows({}, {});
    if (candidateId != 0)
        m_detail->showMessage(tr("Reading the forecasts of this pair…"));
    updateHeader();
    updateMeasureAction();
}

void ForecastPanel::applyPair(const PairForecasts &pair)
{
    m_pair = pair;
    m_pairLoaded = true;
    applySnapshot(m_controller->queue()->snapshot()); // the open requests of this pair, then the rows
    rebuildRows();
    updateHeader();
    updateMeasureAction();
}

void ForecastPanel::applySnapshot(const ForecastSnapshot &snapshot)
{
    const ForecastPair pair {m_pair.baselineId, m_pair.candidateId};
    QList<ForecastItem> live;
    const QString current = currentKey();
    for (const ForecastItem &item : snapshot.items) {
        if (!(item.pair == pair))
            continue;
        const bool open = item.state == ForecastItemState::Queued || item.state == ForecastItemState::Running;
        if (open) {
            live.append(item);
            continue;
        }
        // A request of this pair finished: its streamed reasoning stays with the stored forecast, and a followed
        // request's row becomes that forecast's row once the pair is read again.
        const QString key = streamKey(item.forecasterId, item.repeat);
        if (item.forecastId != 0 && m_streamed.contains(key))
            m_streamedByForecast.insert(item.forecastId, m_streamed.take(key));
        if (item.forecastId != 0 && current == QStringLiteral("l%1").arg(item.id))
            m_pendingKey = QStringLiteral("s%1").arg(item.forecastId);
    }
    const auto ids = [](const QList<ForecastItem> &items) {
        QList<std::pair<quint64, ForecastItemState>> out;
        for (const ForecastItem &item : items)
            out.append({item.id, item.state});
        return out;
    };
    if (ids(live) == ids(m_live))
        return;
    m_live = live;
    if (m_pairLoaded)
        rebuildRows();
}

void ForecastPanel::applyReasoning(const ForecastReasoning &reasoning)
{
    if (reasoning.pair.candidateKernelId != m_pair.candidateId || reasoning.pair.referenceKernelId != m_pair.baselineId)
        return;
    const QString key = streamKey(reasoning.forecasterId, reasoning.repeat);
    QString &text = m_streamed[key];
    text = reasoning.replace ? reasoning.text : text + reasoning.text;
    const ForecastRow *row = currentRow();
    if (!row || row->kind != ForecastRow::Kind::Live || streamKey(row->forecasterId, row->repeat) != key)
        return;
    if (reasoning.replace)
        m_detail->setReasoning(text);
    else
        m_detail->appendReasoning(reasoning.text);
}

QString ForecastPanel::automaticKey() const
{
    const QList<ForecastRow> rows = [this] {
        QList<ForecastRow> out;
        for (int i = 0; i < m_model->rowCount(); ++i)
            out.append(*m_model->rowAt(i));
        return out;
    }();
    for (const ForecastRow &row : rows) {
        if (row.kind == ForecastRow::Kind::Live && row.item.state == ForecastItemState::Running)
            return row.key();
    }
    // The newest forecast of the window's forecaster for the window's GPU, else of that forecaster for any GPU, else
    // the newest of any: what the table beside it shows comes first.
    const QString chosen = m_settings->forecasterName();
    const QString gpu = m_selection->hardwareName();
    const ForecastRow *newest = nullptr;
    const ForecastRow *newestChosen = nullptr;
    const ForecastRow *newestOnGpu = nullptr;
    for (const ForecastRow &row : rows) {
        if (row.kind != ForecastRow::Kind::Stored)
            continue;
        if (!newest || row.forecast.id > newest->forecast.id)
            newest = &row;
        if (m_pair.forecasters.value(row.forecasterId).name != chosen)
            continue;
        if (!newestChosen || row.forecast.id > newestChosen->forecast.id)
            newestChosen = &row;
        const QString rowGpu = m_pair.hardware.value(row.forecast.hardwareId).name;
        if (rowGpu == gpu && (!newestOnGpu || row.forecast.id > newestOnGpu->forecast.id))
            newestOnGpu = &row;
    }
    if (newestOnGpu)
        return newestOnGpu->key();
    if (newestChosen)
        return newestChosen->key();
    if (newest)
        return newest->key();
    return rows.isEmpty() ? QString() : rows.first().key();
}

void ForecastPanel::rebuildRows()
{
    const QString previous = currentKey();
    m_updating = true;
    m_model->setRows(m_pair, m_pairLoaded ? forecastRows(m_pair, m_live) : QList<ForecastRow> {});
    QString key;
    if (!m_pendingKey.isEmpty() && m_model->rowOfKey(m_pendingKey) >= 0) {
        key = m_pendingKey;
        m_pendingKey.clear();
    } else if (m_userChoice && m_model->rowOfKey(previous) >= 0) {
        key = previous;
    } else {
        key = automaticKey();
    }
    const int row = m_model->rowOfKey(key);
    if (row >= 0)
        m_view->setCurrentIndex(m_model->index(row, 0));
    m_view->resizeColumnsToContents();
    m_updating = false;
    scrollToCurrent();
    showCurrent();
}

// The detail below describes the current row: it must be in view, also when it was chosen while the dock was hidden
// (a hidden view does not scroll on its own).
void ForecastPanel::scrollToCurrent()
{
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid())
        m_view->scrollTo(current);
}

} // namespace gpuf
