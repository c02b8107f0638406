// CandidateTableModel: the candidate table (one row per kernel) over an immutable CandidateTable. The rows shown
// and their order are worked out off the GUI thread (candidateOrder) and applied as a layout change or a reset, so
// sorting or filtering 100 000 rows never blocks the GUI.
#pragma once

#include "core/session/candidate_query.h"
#include "core/session/latest_job.h"

#include <QAbstractTableModel>

#include <memory>

namespace gpuf {

class CandidateTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    using Column = CandidateColumn;
    enum Role {
        SortRole = Qt::UserRole, // the raw number the column sorts by (NaN: no value)
        KernelIdRole,
        BaselineIdRole, // the kernel the row's speedups are relative to
        ParentIdRole,
        StatusRole, // CandidateStatus as int
        ImportedRole, // true where the speedup comes from an imported pair label
        ReplayedRole, // true where the speedup rests on runtimes replayed from stored ones (source 'replay')
        ImplausibleRole, // true where a measured time beats the bandwidth floor (faster than its bytes can move)
    };

    explicit CandidateTableModel(QObject *parent = nullptr);
    ~CandidateTableModel() override;

    // A new table (other rows): the model resets and shows it in id order, then the current filter and sort apply.
    void setTable(const CandidateTablePtr &table);
    // The same rows with more values (e.g. changed-line counts): no reset, rows keep their place until re-sorted.
    void updateTable(const CandidateTablePtr &table);
    // The same rows, the values of table rows `rows` read again after a write: only those rows change (no reset; a
    // filter on values or a sort applies again in the background).
    void patchRows(const CandidateTablePtr &table, const QList<int> &rows);
    CandidateTablePtr table() const { return m_table; }

    void setFilter(const CandidateFilter &filter);
    CandidateFilter filter() const { return m_filter; }
    void setHardwareIndex(int index);
    void setForecasterIndex(int index);
    void setTrustThreshold(double threshold);
    void setPendingIds(const QSet<RowId> &ids);
    const CandidateView &view() const { return m_view; }

    // Starts a background sort; the rows move when it is done (orderApplied()).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    // True while a filter or sort runs in the background.
    bool isUpdating() const { return m_orderJob.isRunning(); }
    int totalRowCount() const; // every row of the table, shown or not
    int tableRowAt(int viewRow) const; // the CandidateTable row shown at viewRow
    int viewRowOf(RowId kernelId) const; // -1 when the kernel is not shown
    RowId kernelIdAt(int viewRow) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // What a column holds, for its header's tooltip (empty for the self-explaining ones).
    static QString headerToolTip(int section);

Q_SIGNALS:
    // The shown rows or their order changed after a filter or sort request.
    void orderApplied();

private:
    void requestOrder(bool rowsChange);
    void applyOrder(const QList<int> &order);
    void removeRowsNotIn(const QList<int> &newViewRow);
    void moveRowsTo(const QList<int> &kept);
    void insertRowsOf(const QList<int> &order);
    void emitColumnsChanged(std::initializer_list<int> columns);
    // What the cells show (candidate_table_cells.cpp).
    QVariant displayData(int row, int column) const;
    QVariant measuredDisplayData(int row, int column) const;
    QVariant toolTipData(int row, int column) const;
    QString replayToolTip(const MeasuredCell &cell) const;
    QString implausibleToolTip(const MeasuredCell &cell) const;
    static QString pythonTimesText(const MeasuredCell *cell);
    static QString pythonTimesToolTip(const MeasuredCell *cell);

    CandidateTablePtr m_table;
    CandidateFilter m_filter;
    CandidateView m_view;
    QList<int> m_order; // table rows, in view order
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    bool m_rowsChangePending = false; // a request since the last applied result changes which rows are shown
    LatestJob<QList<int>> m_orderJob {this};
};

} // namespace gpuf
