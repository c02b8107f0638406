// ForecastRowsModel; see forecast_rows_model.h.
#include "widgets/forecast/forecast_rows_model.h"

#include "widgets/forecast/forecast_reading.h"

#include <QFont>

#include <algorithm>
#include <cmath>
#include <map>

namespace gpuf {

QString ForecastRow::key() const
{
    switch (kind) {
    case Kind::Stored:
        return QStringLiteral("s%1").arg(forecast.id);
    case Kind::Live:
        return QStringLiteral("l%1").arg(item.id);
    case Kind::Combined:
        break;
    }
    return QStringLiteral("c%1-%2").arg(forecasterId).arg(hardwareId);
}

QList<ForecastRow> forecastRows(const PairForecasts &pair, const QList<ForecastItem> &live)
{
    struct Group
    {
        QList<Forecast> stored;
        QList<ForecastItem> live;
    };
    std::map<std::pair<RowId, RowId>, Group> groups; // by (forecaster, hardware)
    for (const Forecast &f : pair.forecasts)
        groups[{f.forecasterId, f.hardwareId}].stored.append(f);
    for (const ForecastItem &item : live) {
        const bool open = item.state == ForecastItemState::Queued || item.state == ForecastItemState::Running;
        if (open && item.pair.candidateKernelId == pair.candidateId && item.pair.referenceKernelId == pair.baselineId)
            groups[{item.forecasterId, 0}].live.append(item);
    }
    QList<ForecastRow> rows;
    for (auto &[key, group] : groups) {
        const auto [forecasterId, hardwareId] = key;
        std::stable_sort(group.stored.begin(), group.stored.end(), [](const Forecast &a, const Forecast &b) {
            return a.repeat != b.repeat ? a.repeat < b.repeat : a.id < b.id;
        });
        std::stable_sort(group.live.begin(), group.live.end(), [](const ForecastItem &a, const ForecastItem &b) {
            return a.repeat != b.repeat ? a.repeat < b.repeat : a.id < b.id;
        });
        const auto parsed = std::count_if(
            group.stored.cbegin(), group.stored.cend(), [](const Forecast &f) { return figuresOf(f).has_value(); });
        if (parsed >= 2) {
            ForecastRow combined;
            combined.kind = ForecastRow::Kind::Combined;
            combined.forecasterId = forecasterId;
            combined.hardwareId = hardwareId;
            combined.samples = group.stored;
            combined.figures = combinedFigures(group.stored);
            rows.append(combined);
        }
        for (const Forecast &f : std::as_const(group.stored)) {
            ForecastRow row;
            row.kind = ForecastRow::Kind::Stored;
            row.forecasterId = forecasterId;
            row.hardwareId = hardwareId;
            row.repeat = f.repeat;
            row.forecast = f;
            row.figures = figuresOf(f);
            rows.append(row);
        }
        for (const ForecastItem &item : std::as_const(group.live)) {
            ForecastRow row;
            row.kind = ForecastRow::Kind::Live;
            row.forecasterId = forecasterId;
            row.repeat = item.repeat;
            row.item = item;
            rows.append(row);
        }
    }
    return rows;
}

ForecastRowsModel::ForecastRowsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ForecastRowsModel::setRows(const PairForecasts &pair, const QList<ForecastRow> &rows)
{
    beginResetModel();
    m_pair = pair;
    m_rows = rows;
    endResetModel();
}

const ForecastRow *ForecastRowsModel::rowAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
}

int ForecastRowsModel::rowOfKey(const QString &key) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].key() == key)
            return i;
    }
    return -1;
}

int ForecastRowsModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int ForecastRowsModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString ForecastRowsModel::statusText(const ForecastRow &row)
{
    switch (row.kind) {
    case ForecastRow::Kind::Combined:
        return tr("mean of %n parsed sample(s)", nullptr,
            int(std::count_if(
                row.samples.cbegin(), row.samples.cend(), [](const Forecast &f) { return figuresOf(f).has_value(); })));
    case ForecastRow::Kind::Live:
        return row.item.state == ForecastItemState::Running ? tr("running") : tr("queued");
    case ForecastRow::Kind::Stored:
        break;
    }
    switch (row.forecast.status) {
    case ForecastStatus::Ok:
        return row.figures ? tr("ok") : tr("ok, but no usable bin");
    case ForecastStatus::ParseFailed:
        return tr("parse failed: %1").arg(row.forecast.errorText);
    case ForecastStatus::Error:
        break;
    }
    return tr("error: %1").arg(row.forecast.errorText);
}

QString ForecastRowsModel::hardwareText(const ForecastRow &row) const
{
    if (row.kind == ForecastRow::Kind::Live)
        return {};
    if (row.hardwareId == 0)
        return tr("none");
    const auto it = m_pair.hardware.constFind(row.hardwareId);
    return it != m_pair.hardware.cend() ? it->name : QStringLiteral("#%1").arg(row.hardwareId);
}

QVariant ForecastRowsModel::display(const ForecastRow &row, int column) const
{
    switch (Column(column)) {
    case ForecasterColumn:
        return m_pair.forecasterName(row.forecasterId);
    case HardwareColumn:
        return hardwareText(row);
    case RepeatColumn:
        return row.kind == ForecastRow::Kind::Combined ? tr("all") : QString::number(row.repeat + 1);
    case PredictedBinColumn:
        return row.figures
            ? QStringLiteral("%1 (%2)").arg(row.figures->predictedBin).arg(bins::rangeText(row.figures->predictedBin))
            : QString();
    case ConfidenceColumn:
        return row.figures ? QString::number(row.figures->maxProb, 'f', 2) : QString();
    case ExpectedSpeedupColumn:
        return row.figures ? bins::speedupText(row.figures->expectedSpeedup) : QString();
    case StatusColumn:
        return statusText(row);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant ForecastRowsModel::sortKey(const ForecastRow &row, int column) const
{
    switch (Column(column)) {
    case ForecasterColumn:
        return m_pair.forecasterName(row.forecasterId);
    case HardwareColumn:
        return hardwareText(row);
    case RepeatColumn:
        return row.kind == ForecastRow::Kind::Combined ? -1 : row.repeat;
    case PredictedBinColumn:
        return row.figures ? row.figures->predictedBin : 0;
    case ConfidenceColumn:
        return row.figures ? row.figures->maxProb : std::nan("");
    case ExpectedSpeedupColumn:
        return row.figures ? row.figures->expectedSpeedup : std::nan("");
    case StatusColumn:
        return statusText(row);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant ForecastRowsModel::data(const QModelIndex &index, int role) const
{
    const ForecastRow *row = index.isValid() ? rowAt(index.row()) : nullptr;
    if (!row)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(*row, index.column());
    case Qt::ToolTipRole:
        if (index.column() == StatusColumn)
            return statusText(*row);
        if (index.column() == ConfidenceColumn && row->figures)
            return tr("max_prob %1 · neg_entropy %2 · top2_margin %3")
                .arg(row->figures->maxProb, 0, 'f', 3)
                .arg(row->figures->negEntropy, 0, 'f', 3)
                .arg(row->figures->top2Margin, 0, 'f', 3);
        // The bin and the expected speedup side by side can seem to disagree: the reading says why they do.
        if ((index.column() == PredictedBinColumn || index.column() == ExpectedSpeedupColumn) && row->figures) {
            const ForecastReading reading = readForecast(*row->figures);
            if (reading.expectedNote.isEmpty())
                return reading.headline;
            return QString(reading.headline + QLatin1Char('\n') + tr("Expected speedup: %1").arg(reading.expectedNote));
        }
        return {};
    case Qt::FontRole:
        if (row->kind == ForecastRow::Kind::Combined) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == ConfidenceColumn || index.column() == ExpectedSpeedupColumn
            || index.column() == RepeatColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case KeyRole:
        return row->key();
    case SortRole:
        return sortKey(*row, index.column());
    case KindRole:
        return int(row->kind);
    default:
        return {};
    }
}

QVariant ForecastRowsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case ForecasterColumn:
        return tr("Forecaster");
    case HardwareColumn:
        return tr("Hardware");
    case RepeatColumn:
        return tr("Sample");
    case PredictedBinColumn:
        return tr("Predicted bin");
    case ConfidenceColumn:
        return tr("Confidence");
    case ExpectedSpeedupColumn:
        return tr("Expected speedup");
    case StatusColumn:
        return tr("Status");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace gpuf
