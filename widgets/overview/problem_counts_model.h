// ProblemCountsModel: one row per problem of the open store with its kernel, measurement, forecast and label counts.
#pragma once

#include "core/store/statistics.h"

#include <QAbstractTableModel>

namespace gpuf {

class ProblemCountsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, KernelsColumn, MeasurementsColumn, ForecastsColumn, PairLabelsColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole };

    explicit ProblemCountsModel(QObject *parent = nullptr);

    void setRows(const QList<NamedCounts> &rows);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<NamedCounts> m_rows;
};

} // namespace gpuf
