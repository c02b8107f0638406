// MeasureQueueModel: the measurement queue's items as a table, reset from the engine's immutable snapshots.
#pragma once

#include "core/measure/measure_types.h"

#include <QAbstractTableModel>

namespace gpuf {

class MeasureQueueModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        KernelColumn,
        PriorityColumn,
        StatusColumn,
        CasesColumn,
        MedianColumn,
        SourceColumn,
        JobColumn, // cluster items: the Slurm array job and task ("1234_5")
        NodeColumn, // cluster items: the node it ran on
        MessageColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole, ItemIdRole, StateRole, ReplayedRole };

    explicit MeasureQueueModel(QObject *parent = nullptr);

    void setItems(const QList<MeasureItem> &items);
    const MeasureItem *itemAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "running", "done: ok", "done: incorrect", "timeout", "cancelled"… as the Status column shows it.
    static QString statusText(const MeasureItem &item);

private:
    QList<MeasureItem> m_items;
};

} // namespace gpuf
