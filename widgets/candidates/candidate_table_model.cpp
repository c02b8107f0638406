// CandidateTableModel; see candidate_table_model.h.
#include "widgets/candidates/candidate_table_model.h"

#include "core/bins/bins.h"

#include <QDateTime>
#include <QFont>

#include <algorithm>
#include <cmath>

namespace gpuf {
namespace {

// Enough digits that the text lies in the speedup's own bin (bins::speedupText).
QString speedupText(double speedup) { return bins::speedupText(speedup, speedup < 10.0 ? 2 : 1); }

QString failureText(MeasurementStatus status)
{
    return measurementStatusName(status).replace(QLatin1Char('_'), QLatin1Char(' '));
}

// Follows a speedup (or failure) that rests on replayed runtimes, so a replay never passes for a run made here.
const QString kReplayMarker = QStringLiteral(" ↺");

QString replayedText(const QString &text, const MeasuredCell &cell)
{
    return cell.isReplay() ? text + kReplayMarker : text;
}

bool isNumeric(int column)
{
    switch (column) {
    case ChangedLinesColumn:
    case SpeedupColumn:
    case ConfidenceColumn:
    case ExpectedSpeedupColumn:
        return true;
    default:
        return false;
    }
}

} // namespace

CandidateTableModel::CandidateTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

CandidateTableModel::~CandidateTableModel() = default;

void CandidateTableModel::setTable(const CandidateTablePtr &table)
{
    beginResetModel();
    m_table = table;
    m_order.clear();
    if (m_table) {
        const auto clamp
            = [](int index, qsizetype count, int fallback) { return index >= 0 && index < count ? index : fallback; };
        m_view.hardware = clamp(m_view.hardware, m_table->hardware.size(), m_table->defaultHardware);
        m_view.forecaster = clamp(m_view.forecaster, m_table->forecasters.size(), m_table->defaultForecaster);
    }
    endResetModel();
    requestOrder(true);
}

void CandidateTableModel::updateTable(const CandidateTablePtr &table)
{
    if (!m_table || !table || table->rows.size() != m_table->rows.size()) {
        setTable(table);
        return;
    }
    m_table = table;
    if (!m_order.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, CandidateColumnCount - 1));
    if (m_sortColumn >= 0)
        requestOrder(false);
}

void CandidateTableModel::patchRows(const CandidateTablePtr &table, const QList<int> &rows)
{
    if (!m_table || !table || table->rows.size() < m_table->rows.size()) {
        setTable(table);
        return;
    }
    // Kernels appended to the table: rows are inserted where the filter and sort put them (applyOrder), no reset.
    const bool grew = table->rows.size() > m_table->rows.size();
    m_table = table;
    if (!m_order.isEmpty() && !rows.isEmpty()) {
        QList<bool> patched(table->rows.size(), false);
        for (int row : rows)
            patched[row] = true;
        for (int viewRow = 0; viewRow < m_order.size(); ++viewRow) {
            if (patched[m_order[viewRow]])
                Q_EMIT dataChanged(index(viewRow, 0), index(viewRow, CandidateColumnCount - 1));
        }
    }
    // A patched row may now pass or fail a filter on its values, or move in the sort.
    const bool valueFilter = m_filter.measuredBin != CandidateFilter::kAnyBin
        || m_filter.predictedBin != CandidateFilter::kAnyBin || m_filter.minConfidence > 0.0
        || m_filter.maxConfidence < 1.0 || m_filter.status.has_value() || m_filter.searchId != 0;
    if (grew || valueFilter || m_sortColumn >= 0)
        requestOrder(false);
}

void CandidateTableModel::setFilter(const CandidateFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    requestOrder(true);
}

void CandidateTableModel::setHardwareIndex(int index)
{
    if (index == m_view.hardware)
        return;
    m_view.hardware = index;
    emitColumnsChanged({SpeedupColumn, MeasuredBinColumn, StatusColumn});
    requestOrder(m_filter.measuredBin != CandidateFilter::kAnyBin || m_filter.status.has_value());
}

void CandidateTableModel::setForecasterIndex(int index)
{
    if (index == m_view.forecaster)
        return;
    m_view.forecaster = index;
    emitColumnsChanged({PredictedBinColumn, ConfidenceColumn, ExpectedSpeedupColumn, StatusColumn});
    const bool filtered = m_filter.predictedBin != CandidateFilter::kAnyBin || m_filter.minConfidence > 0.0
        || m_filter.maxConfidence < 1.0 || m_filter.status.has_value();
    requestOrder(filtered);
}

void CandidateTableModel::setTrustThreshold(double threshold)
{
    if (threshold == m_view.trustThreshold)
        return;
    m_view.trustThreshold = threshold;
    emitColumnsChanged({StatusColumn});
    requestOrder(m_filter.status.has_value());
}

void CandidateTableModel::setPendingIds(const QSet<RowId> &ids)
{
    if (ids == m_view.pending)
        return;
    m_view.pending = ids;
    emitColumnsChanged({StatusColumn});
    requestOrder(m_filter.status.has_value());
}

void CandidateTableModel::sort(int column, Qt::SortOrder order)
{
    if (column == m_sortColumn && order == m_sortOrder)
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    requestOrder(false);
}

void CandidateTableModel::emitColumnsChanged(std::initializer_list<int> columns)
{
    if (m_order.isEmpty())
        return;
    for (int column : columns)
        Q_EMIT dataChanged(index(0, column), index(rowCount() - 1, column));
}

void CandidateTableModel::requestOrder(bool rowsChange)
{
    m_rowsChangePending = m_rowsChangePending || rowsChange;
    if (!m_table) {
        m_orderJob.cancel(); // the previous request's result would be dropped anyway
        applyOrder({});
        return;
    }
    m_orderJob.start(
        [table = m_table, filter = m_filter, view = m_view, column = m_sortColumn, order = m_sortOrder](
            const CancelToken &cancel) { return candidateOrder(*table, filter, view, column, order, cancel); },
        [this](Result<QList<int>> order) { applyOrder(*order); });
}

void CandidateTableModel::applyOrder(const QList<int> &order)
{
    QList<int> newViewRow(m_table ? m_table->rows.size() : 0, -1);
    for (qsizetype i = 0; i < order.size(); ++i)
        newViewRow[order[i]] = int(i);
    if (m_rowsChangePending || (m_order.isEmpty() && !order.isEmpty())) {
        beginResetModel();
        m_order = order;
        m_rowsChangePending = false;
        endResetModel();
        Q_EMIT orderApplied();
        return;
    }
    // Rows that no longer pass go, the others take their new order, rows that now pass (or are new) come in: each a
    // removal, a move or an insertion, so the view keeps its selection and scroll position.
    removeRowsNotIn(newViewRow);
    QList<int> kept; // the remaining rows in their new order
    kept.reserve(m_order.size());
    QList<bool> shown(newViewRow.size(), false);
    for (int row : std::as_const(m_order))
        shown[row] = true;
    for (int row : order) {
        if (shown[row])
            kept.append(row);
    }
    if (kept != m_order)
        moveRowsTo(kept);
    insertRowsOf(order);
    Q_EMIT orderApplied();
}

void CandidateTableModel::removeRowsNotIn(const QList<int> &newViewRow)
{
    for (int end = int(m_order.size()); end > 0;) {
        if (newViewRow[m_order[end - 1]] >= 0) {
            --end;
            continue;
        }
        int begin = end - 1;
        while (begin > 0 && newViewRow[m_order[begin - 1]] < 0)
            --begin;
        beginRemoveRows({}, begin, end - 1);
        m_order.remove(begin, end - begin);
        endRemoveRows();
        end = begin;
    }
}

void CandidateTableModel::moveRowsTo(const QList<int> &kept)
{
    // The same rows in another order: move the persistent indexes (selection, current) with their rows.
    QList<int> keptViewRow(m_table->rows.size(), -1);
    for (qsizetype i = 0; i < kept.size(); ++i)
        keptViewRow[kept[i]] = int(i);
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList from = persistentIndexList();
    QModelIndexList to;
    to.reserve(from.size());
    for (const QModelIndex &index : from)
        to.append(createIndex(keptViewRow[m_order[index.row()]], index.column()));
    m_order = kept;
    changePersistentIndexList(from, to);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void CandidateTableModel::insertRowsOf(const QList<int> &order)
{
    // m_order is `order` without some rows, in the same order: insert each run of missing rows where it belongs.
    for (int i = 0; i < order.size();) {
        if (i < m_order.size() && m_order[i] == order[i]) {
            ++i;
            continue;
        }
        const int next = i < m_order.size() ? m_order[i] : -1;
        int end = i;
        while (end < order.size() && order[end] != next)
            ++end;
        beginInsertRows({}, i, end - 1);
        m_order.insert(i, end - i, 0);
        std::copy(order.cbegin() + i, order.cbegin() + end, m_order.begin() + i);
        endInsertRows();
        i = end;
    }
}

int CandidateTableModel::totalRowCount() const { return m_table ? int(m_table->rows.size()) : 0; }

int CandidateTableModel::tableRowAt(int viewRow) const
{
    return viewRow >= 0 && viewRow < m_order.size() ? m_order[viewRow] : -1;
}

int CandidateTableModel::viewRowOf(RowId kernelId) const
{
    const int row = m_table ? m_table->rowOf(kernelId) : -1;
    return row < 0 ? -1 : int(m_order.indexOf(row));
}

RowId CandidateTableModel::kernelIdAt(int viewRow) const
{
    const int row = tableRowAt(viewRow);
    return row < 0 ? 0 : m_table->rows[row].id;
}

int CandidateTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_order.size());
}

int CandidateTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : CandidateColumnCount;
}

QVariant CandidateTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = m_order[index.row()];
    const CandidateRow &r = m_table->rows[row];
    switch (role) {
    case Qt::DisplayRole:
        return displayData(row, index.column());
    case Qt::ToolTipRole:
        return toolTipData(row, index.column());
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::FontRole: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        // Italic: a speedup that was not measured here (an imported label, or replayed runtimes).
        const bool notMeasuredHere = cell && (cell->usesLabel() || cell->isReplay())
            && (index.column() == SpeedupColumn || index.column() == MeasuredBinColumn);
        if (!notMeasuredHere && !(r.isReference && index.column() == NameColumn))
            return {};
        QFont font;
        font.setItalic(notMeasuredHere);
        font.setBold(r.isReference && index.column() == NameColumn);
        return font;
    }
    case SortRole:
        return candidateSortKey(*m_table, row, index.column(), m_view);
    case KernelIdRole:
        return r.id;
    case BaselineIdRole:
        return r.baselineId;
    case ParentIdRole:
        return r.parentId;
    case StatusRole:
        return int(candidateStatus(*m_table, row, m_view));
    case ImportedRole: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        return cell && cell->usesLabel();
    }
    case ReplayedRole: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        return cell && cell->isReplay();
    }
    case ImplausibleRole: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        return cell && cell->implausibleCases > 0;
    }
    default:
        return {};
    }
}

QVariant CandidateTableModel::displayData(int row, int column) const
{
    const CandidateRow &r = m_table->rows[row];
    switch (column) {
    case NameColumn:
        return r.displayName();
    case ProblemColumn:
        return r.problemIndex >= 0 ? m_table->problems[r.problemIndex].name : QString();
    case OriginColumn:
        return r.origin;
    case ParentColumn: {
        const int parent = r.parentId ? m_table->rowOf(r.parentId) : -1;
        return parent >= 0 ? m_table->rows[parent].displayName() : QString();
    }
    case LanguageColumn:
        return r.language;
    case ChangedLinesColumn:
        return r.changedLines >= 0 ? QVariant(r.changedLines) : QVariant();
    case SpeedupColumn:
    case MeasuredBinColumn: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        if (!cell || !cell->isKnown())
            return {};
        if (cell->failed())
            return cell->hasMeasurement() ? replayedText(failureText(cell->failure), *cell) : tr("failed");
        // The reference against itself is 1× by definition: it is what the other rows are measured against.
        if (r.isReference && !cell->usesLabel())
            return column == SpeedupColumn ? replayedText(tr("baseline"), *cell) : tr("reference");
        if (column == MeasuredBinColumn) {
            const std::optional<int> bin = cell->truthBin();
            return bin ? bins::numberedLabel(*bin) : QString();
        }
        const std::optional<double> speedup = cell->truthSpeedup();
        const QString text = replayedText(speedup ? speedupText(*speedup) : QStringLiteral("—"), *cell);
        // A speedup resting on a time no memory could deliver is marked where it is read, not only in its column.
        return cell->implausibleCases > 0 ? text + QStringLiteral(" ⚠") : text;
    }
    case PredictedBinColumn:
    case ConfidenceColumn:
    case ExpectedSpeedupColumn: {
        const ForecastCell *cell = forecastCellOf(*m_table, row, m_view);
        if (!cell)
            return {};
        if (column == PredictedBinColumn)
            return bins::numberedLabel(cell->predictedBin);
        return column == ConfidenceColumn ? QString::number(cell->confidence, 'f', 2)
                                          : speedupText(cell->expectedSpeedup);
    }
    case StatusColumn:
        return candidateStatusName(candidateStatus(*m_table, row, m_view));
    case CreatedColumn:
        return r.createdAtMs > 0
            ? QDateTime::fromMSecsSinceEpoch(r.createdAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm"))
            : QString();
    case PlausibilityColumn: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        return cell && cell->implausibleCases > 0 ? tr("⚠ implausible") : QString();
    }
    default:
        return {};
    }
}

QVariant CandidateTableModel::toolTipData(int row, int column) const
{
    const CandidateRow &r = m_table->rows[row];
    switch (column) {
    case NameColumn:
        return tr("Kernel %1%2\nSHA-256 %3")
            .arg(r.id)
            .arg(r.isReference ? tr(" (reference)") : QString(), r.contentHash);
    case ChangedLinesColumn:
        return r.changedLines >= 0 ? tr("Lines changed against kernel %1").arg(r.baselineId)
            : r.baselineId == 0    ? tr("No reference kernel to compare with")
                                   : tr("Not computed yet");
    case SpeedupColumn:
    case MeasuredBinColumn: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        if (!cell || !cell->isKnown())
            return tr("Not measured on this hardware");
        if (cell->usesLabel())
            return tr("Imported label (published speedup) against kernel %1").arg(cell->labelReferenceId);
        if (r.isReference && !cell->failed())
            return tr("The problem's reference: the other kernels' speedups are measured against it");
        QString tip = implausibleToolTip(*cell);
        if (!tip.isEmpty())
            tip += QLatin1Char('\n');
        if (cell->state == MeasuredCell::State::NoBaseline)
            tip += tr("Measured, but the reference has no ok measurement of the same cases");
        else if (cell->state == MeasuredCell::State::Failed)
            tip += tr("A case failed: %1").arg(failureText(cell->failure));
        else
            tip += tr("Geometric mean over %n case(s) against kernel %1", nullptr, cell->cases).arg(r.baselineId);
        return cell->isReplay() ? replayToolTip(*cell) + QLatin1Char('\n') + tip : tip;
    }
    case PredictedBinColumn:
    case ConfidenceColumn:
    case ExpectedSpeedupColumn: {
        const ForecastCell *cell = forecastCellOf(*m_table, row, m_view);
        if (!cell)
            return tr("No forecast by this forecaster");
        return tr("Forecast %1 against kernel %2; expected bin %3")
            .arg(cell->forecastId)
            .arg(cell->referenceKernelId)
            .arg(cell->expectedBin, 0, 'f', 2);
    }
    case PlausibilityColumn: {
        const MeasuredCell *cell = measuredCellOf(*m_table, row, m_view);
        if (!cell || !cell->hasMeasurement())
            return tr("Not measured on this hardware");
        return cell->implausibleCases > 0 ? implausibleToolTip(*cell)
                                          : tr("No measured time beats the bandwidth floor (bytes ÷ peak bandwidth)");
    }
    default:
        return {};
    }
}

QString CandidateTableModel::implausibleToolTip(const MeasuredCell &cell) const
{
    if (cell.implausibleCases <= 0)
        return {};
    // Two short lines: a tool tip in plain text is never wrapped.
    return tr(
        "⚠ Implausible, faster than its bytes can move: %1.\nA broken or cheating kernel, a wrong bytes_moved, or "
        "data served from the L2 cache.")
        .arg(cell.implausibleText);
}

QString CandidateTableModel::replayToolTip(const MeasuredCell &cell) const
{
    const QString hardware = m_table->hardware[m_view.hardware].name;
    if (cell.replayRecordedMs <= 0)
        return tr("↺ Replayed from runtimes recorded earlier on %1, not measured here").arg(hardware);
    const QString when
        = QDateTime::fromMSecsSinceEpoch(cell.replayRecordedMs).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    return tr("↺ Replayed from runtimes recorded on %1 (%2), not measured here").arg(hardware, when);
}

QVariant CandidateTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= CandidateColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole)
        return isNumeric(section) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Kernel");
    case ProblemColumn:
        return tr("Problem");
    case OriginColumn:
        return tr("Origin");
    case ParentColumn:
        return tr("Parent");
    case LanguageColumn:
        return tr("Language");
    case ChangedLinesColumn:
        return tr("Lines changed");
    case SpeedupColumn:
        return tr("Speedup");
    case MeasuredBinColumn:
        return tr("Measured bin");
    case PredictedBinColumn:
        return tr("Predicted bin");
    case ConfidenceColumn:
        return tr("Confidence");
    case ExpectedSpeedupColumn:
        return tr("Expected speedup");
    case StatusColumn:
        return tr("Status");
    case CreatedColumn:
        return tr("Created");
    case PlausibilityColumn:
        return tr("Plausibility");
    default:
        return {};
    }
}

} // namespace gpuf
