// CandidateTableModel's rows: the table it shows, the filter, the choices of GPU, forecaster and τ, and the order
// worked out in the background and applied as removals, moves and insertions. What each cell and header shows is in
// candidate_table_cells.cpp.
#include "widgets/candidates/candidate_table_model.h"

#include <algorithm>

namespace gpuf {

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

} // namespace gpuf
