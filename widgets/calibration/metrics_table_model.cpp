// MetricsTableModel and the metrics CSV; see metrics_table_model.h.
#include "widgets/calibration/metrics_table_model.h"

#include <QFont>
#include <QSaveFile>

#include <cmath>

namespace gpuf {

namespace {

const std::vector<metrics::ForecasterReport> &noReports()
{
    static const std::vector<metrics::ForecasterReport> none;
    return none;
}

QByteArray csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text.toUtf8();
    QString quoted = text;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return '"' + quoted.toUtf8() + '"';
}

QByteArray csvNumber(double value) { return std::isfinite(value) ? QByteArray::number(value, 'g', 17) : QByteArray(); }

} // namespace

MetricsTableModel::MetricsTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

const metrics::Figure *MetricsTableModel::figureOf(int column)
{
    const auto &figures = metrics::tableFigures();
    if (column < 1 || column > int(figures.size()))
        return nullptr;
    return &figures[std::size_t(column - 1)];
}

void MetricsTableModel::setSnapshot(std::shared_ptr<const CalibrationSnapshot> snapshot, metrics::Comparison comparison)
{
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_comparison = comparison;
    findBest();
    endResetModel();
}

void MetricsTableModel::setComparison(metrics::Comparison comparison)
{
    if (comparison == m_comparison)
        return;
    setSnapshot(m_snapshot, comparison);
}

const std::vector<metrics::ForecasterReport> &MetricsTableModel::reports() const
{
    return m_snapshot ? m_snapshot->metrics.reportsFor(m_comparison) : noReports();
}

bool MetricsTableModel::tooFewSharedPairs() const
{
    return m_snapshot && m_comparison != metrics::Comparison::AllPairs
        && m_snapshot->metrics.sharedPairs(m_comparison) < metrics::kMinSharedPairs;
}

// Best per column only where there is something to compare: two or more forecasters with a value, on enough pairs in
// common when they are compared on the same pairs.
void MetricsTableModel::findBest()
{
    const auto &rows = reports();
    m_best.assign(rows.size(), std::vector<bool>(ColumnCount, false));
    if (tooFewSharedPairs())
        return;
    for (int column = 1; column < ColumnCount; ++column) {
        const metrics::Figure *figure = figureOf(column);
        if (!figure->higherIsBetter)
            continue;
        double best = std::nan("");
        int withValue = 0;
        for (const metrics::ForecasterReport &r : rows) {
            const double v = metrics::figureValue(*figure, r.report);
            if (!std::isfinite(v))
                continue;
            ++withValue;
            if (std::isnan(best) || (*figure->higherIsBetter ? v > best : v < best))
                best = v;
        }
        if (withValue < 2)
            continue;
        for (std::size_t row = 0; row < rows.size(); ++row)
            m_best[row][column] = metrics::figureValue(*figure, rows[row].report) == best;
    }
}

qint64 MetricsTableModel::inSampleRows(const metrics::ForecasterReport &r) const
{
    return m_snapshot ? m_snapshot->inSampleFor(m_comparison).value(r.forecaster.id) : 0;
}

QString MetricsTableModel::shownName(const metrics::ForecasterReport &r) const
{
    return inSampleRows(r) > 0 ? tr("%1 (in-sample)").arg(r.forecaster.name) : r.forecaster.name;
}

int MetricsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(reports().size());
}

int MetricsTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant MetricsTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const metrics::ForecasterReport &r = reports()[std::size_t(index.row())];
    const metrics::Figure *figure = figureOf(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return figure ? metrics::formatFigure(*figure, r.report) : shownName(r);
    case SortRole: {
        if (!figure)
            return r.forecaster.name;
        const double v = metrics::figureValue(*figure, r.report);
        return std::isfinite(v) ? QVariant(v) : QVariant();
    }
    case LowRole:
    case HighRole: {
        if (!figure)
            return {};
        const metrics::Interval ci = metrics::figureInterval(*figure, r.report);
        const double v = role == LowRole ? ci.low : ci.high;
        return std::isfinite(v) ? QVariant(v) : QVariant();
    }
    case ForecasterIdRole:
        return r.forecaster.id;
    case BestRole:
        return bool(m_best[std::size_t(index.row())][std::size_t(index.column())]);
    case Qt::FontRole: {
        if (!m_best[std::size_t(index.row())][std::size_t(index.column())])
            return {};
        QFont bold;
        bold.setBold(true); // only the weight is set, so the view's font supplies the rest
        return bold;
    }
    case Qt::TextAlignmentRole:
        return figure ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return toolTip(r, index.column());
    default:
        return {};
    }
}

QVariant MetricsTableModel::toolTip(const metrics::ForecasterReport &r, int column) const
{
    const ScoredPairsForecaster &f = r.forecaster;
    if (column == ForecasterColumn) {
        QString text
            = tr("%1\n%2 forecasts: %3 scored, %4 without measured truth, %5 failed candidates, %6 errors")
                  .arg(f.displayName.isEmpty() || f.displayName == f.name ? f.name : f.name + u'\n' + f.displayName)
                  .arg(f.forecasts)
                  .arg(f.scored)
                  .arg(f.withoutTruth)
                  .arg(f.failedCandidates)
                  .arg(f.errors);
        if (const qint64 n = inSampleRows(r); n > 0)
            text += u'\n'
                + tr("In-sample: %1 of its %2 rows here are pairs of operations its model was trained on, so its "
                     "figures there are not an honest forecast.")
                      .arg(n)
                      .arg(r.report.nTotal);
        return text;
    }
    const metrics::Figure *figure = figureOf(column);
    QString text = figure->description;
    if (figure->higherIsBetter)
        text += QLatin1Char('\n') + (*figure->higherIsBetter ? tr("Higher is better.") : tr("Lower is better."));
    if (r.report.hasIntervals && figure->kind == metrics::Figure::Kind::Scalar)
        text += QLatin1Char('\n') + tr("95% bootstrap interval over %1 resamples.").arg(r.report.bootstrapResamples);
    return text;
}

QVariant MetricsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    const metrics::Figure *figure = figureOf(section);
    if (role == Qt::DisplayRole)
        return figure ? figure->title : tr("Forecaster");
    if (role == Qt::ToolTipRole)
        return figure ? figure->description : tr("The forecaster, by the name the command line takes");
    return {};
}

QByteArray metricsCsv(const std::vector<metrics::ForecasterReport> &reports)
{
    const bool intervals = std::any_of(
        reports.cbegin(), reports.cend(), [](const metrics::ForecasterReport &r) { return r.report.hasIntervals; });
    QByteArray out = "forecaster,display_name";
    for (const metrics::Figure &f : metrics::tableFigures()) {
        out += ',' + f.key.toUtf8();
        if (intervals && f.kind == metrics::Figure::Kind::Scalar)
            out += ',' + f.key.toUtf8() + "_low," + f.key.toUtf8() + "_high";
    }
    out += '\n';
    for (const metrics::ForecasterReport &r : reports) {
        out += csvField(r.forecaster.name) + ',' + csvField(r.forecaster.label());
        for (const metrics::Figure &f : metrics::tableFigures()) {
            out += ',' + csvNumber(metrics::figureValue(f, r.report));
            if (intervals && f.kind == metrics::Figure::Kind::Scalar) {
                const metrics::Interval ci = metrics::figureInterval(f, r.report);
                out += ',' + csvNumber(ci.low) + ',' + csvNumber(ci.high);
            }
        }
        out += '\n';
    }
    return out;
}

Status writeMetricsCsv(const QString &path, const std::vector<metrics::ForecasterReport> &reports)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error {QStringLiteral("cannot write %1: %2").arg(path, file.errorString())};
    const QByteArray csv = metricsCsv(reports);
    if (file.write(csv) != csv.size() || !file.commit())
        return Error {QStringLiteral("cannot write %1: %2").arg(path, file.errorString())};
    return {};
}

} // namespace gpuf
