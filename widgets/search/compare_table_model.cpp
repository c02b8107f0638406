// CompareTableModel; see compare_table_model.h.
#include "widgets/search/compare_table_model.h"

#include <QLocale>

#include <cmath>
#include <limits>

namespace gpuf {

namespace {

using search::Interval;
using search::StrategyResult;

QList<double> reachedOnly(const QList<int> &values)
{
    QList<double> out;
    for (int v : values) {
        if (v >= 0)
            out << double(v);
    }
    return out;
}

template<typename T>
QList<double> finiteOnly(const QList<T> &values)
{
    QList<double> out;
    for (T v : values) {
        if (std::isfinite(double(v)))
            out << double(v);
    }
    return out;
}

const QList<int> *reachList(const StrategyResult &s, CompareTableModel::Column column)
{
    switch (column) {
    case CompareTableModel::ToOptimumColumn:
        return &s.toOptimum;
    case CompareTableModel::ToWithin1Column:
        return &s.toWithin1;
    case CompareTableModel::ToWithin5Column:
        return &s.toWithin5;
    default:
        return nullptr;
    }
}

QString fixed(double value, int precision) { return QLocale().toString(value, 'f', precision); }

// "34.1 [28.0, 40.2]": the mean and its interval; the mean alone when one value counts.
QString intervalText(const Interval &i, int precision, const QString &unit = {})
{
    if (i.n == 1)
        return fixed(i.mean, precision) + unit;
    return QStringLiteral("%1%2 [%3, %4]")
        .arg(fixed(i.mean, precision), unit, fixed(i.low, precision), fixed(i.high, precision));
}

QString secondsText(double seconds) { return CompareTableModel::tr("%1 s").arg(QLocale().toString(seconds, 'g', 3)); }

// "12, 30, never": what each seed needed, for the tooltip.
QString perSeedText(const QList<int> &values)
{
    QStringList parts;
    for (int v : values)
        parts << (v >= 0 ? QLocale().toString(v) : CompareTableModel::tr("never"));
    return CompareTableModel::tr("per seed: %1").arg(parts.join(QStringLiteral(", ")));
}

} // namespace

CompareTableModel::CompareTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void CompareTableModel::setReport(std::shared_ptr<const search::CompareReport> report)
{
    beginResetModel();
    m_report = std::move(report);
    endResetModel();
}

Interval CompareTableModel::figure(int row, Column column) const
{
    if (!m_report || row < 0 || row >= m_report->strategies.size())
        return {};
    const StrategyResult &s = m_report->strategies.at(row);
    if (const QList<int> *reach = reachList(s, column))
        return search::meanInterval(reachedOnly(*reach));
    switch (column) {
    case ScoreColumn:
        return search::meanInterval(finiteOnly(s.scores));
    case BestColumn: {
        QList<double> bests;
        for (const QList<double> &curve : s.curves)
            bests << curve.last();
        return search::meanInterval(bests);
    }
    case GpuEvaluationsColumn:
        return search::meanInterval(finiteOnly(s.evaluations));
    case GpuSecondsColumn:
        return search::meanInterval(s.gpuSeconds);
    case ForecastsColumn:
        return search::meanInterval(finiteOnly(s.forecasts));
    case ForecasterSecondsColumn:
        return search::meanInterval(s.forecasterSeconds);
    default:
        return {};
    }
}

int CompareTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_report ? 0 : int(m_report->strategies.size());
}

int CompareTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString CompareTableModel::text(int row, Column column) const
{
    const StrategyResult &s = m_report->strategies.at(row);
    const Interval i = figure(row, column);
    if (const QList<int> *reach = reachList(s, column)) {
        const QString counted = QStringLiteral("(%1/%2)").arg(i.n).arg(reach->size());
        return i.n == 0 ? tr("never %1").arg(counted) : QStringLiteral("%1 %2").arg(intervalText(i, 1), counted);
    }
    switch (column) {
    case StrategyColumn:
        return s.strategy.name();
    case ScoreColumn:
        return i.n == 0 ? QStringLiteral("—") : intervalText(i, 3);
    case BestColumn:
        return intervalText(i, 3, QStringLiteral("×"));
    case GpuEvaluationsColumn:
    case ForecastsColumn:
        return fixed(i.mean, 1);
    case GpuSecondsColumn:
    case ForecasterSecondsColumn:
        return secondsText(i.mean);
    default:
        return {};
    }
}

QVariant CompareTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_report)
        return {};
    const auto column = Column(index.column());
    const int row = index.row();
    const Interval i = figure(row, column);
    const double none = std::numeric_limits<double>::quiet_NaN();
    switch (role) {
    case Qt::DisplayRole:
        return text(row, column);
    case Qt::TextAlignmentRole:
        return column == StrategyColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        if (const QList<int> *reach = reachList(m_report->strategies.at(row), column))
            return perSeedText(*reach);
        return {};
    case SortRole:
        if (column == StrategyColumn)
            return m_report->strategies.at(row).strategy.name();
        return i.n > 0 ? i.mean : none;
    case LowRole:
        return i.n > 0 ? i.low : none;
    case HighRole:
        return i.n > 0 ? i.high : none;
    case CountRole:
        return i.n;
    default:
        return {};
    }
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    static const char *const titles[] = {QT_TR_NOOP("Strategy"), QT_TR_NOOP("Evaluations to optimum"),
        QT_TR_NOOP("To within 1 %"), QT_TR_NOOP("To within 5 %"), QT_TR_NOOP("Score"), QT_TR_NOOP("Best found"),
        QT_TR_NOOP("GPU evaluations"), QT_TR_NOOP("GPU time"), QT_TR_NOOP("Forecasts"), QT_TR_NOOP("Forecaster time")};
    // Two of the tips are sentences split over two lines, which the check takes for a missing comma.
    // NOLINTBEGIN(bugprone-suspicious-missing-comma)
    static const char *const tips[] = {QT_TR_NOOP("The search mode or baseline"),
        QT_TR_NOOP("GPU evaluations until the space's best configuration was found: mean [95 % interval] over the "
                   "seeds that found it within the budget (found/seeds)"),
        QT_TR_NOOP("GPU evaluations until a configuration at most 1 % slower than the best was found"),
        QT_TR_NOOP("GPU evaluations until a configuration at most 5 % slower than the best was found"),
        QT_TR_NOOP("The autotuning methodology's performance score: 0 is as good as random search, 1 the optimum "
                   "from the first evaluation, below 0 worse than random"),
        QT_TR_NOOP("The best speedup found within the budget, over the space's reference"),
        QT_TR_NOOP("GPU evaluations made (mean over the seeds; fewer than the budget when the proposals ran out)"),
        QT_TR_NOOP("What the evaluations cost by their recorded runtimes (mean over the seeds)"),
        QT_TR_NOOP("Forecasts made (mean over the seeds)"),
        QT_TR_NOOP("Wall time the forecaster took (mean over the seeds)")};
    // NOLINTEND(bugprone-suspicious-missing-comma)
    if (role == Qt::DisplayRole)
        return tr(titles[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

} // namespace gpuf
