// ProblemCountsModel; see problem_counts_model.h.
#include "widgets/overview/problem_counts_model.h"

#include <QLocale>

namespace gpuf {

ProblemCountsModel::ProblemCountsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ProblemCountsModel::setRows(const QList<NamedCounts> &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

int ProblemCountsModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int ProblemCountsModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ProblemCountsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const NamedCounts &row = m_rows.at(index.row());
    auto number = [&row](int column) -> qint64 {
        switch (column) {
        case KernelsColumn:
            return row.kernels;
        case MeasurementsColumn:
            return row.measurements;
        case ForecastsColumn:
            return row.forecasts;
        case PairLabelsColumn:
            return row.pairLabels;
        default:
            return 0;
        }
    };
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == NameColumn)
            return row.name;
        return QLocale().toString(number(index.column()));
    case SortRole:
        if (index.column() == NameColumn)
            return row.name;
        return number(index.column());
    case Qt::TextAlignmentRole:
        return index.column() == NameColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ProblemCountsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Problem");
    case KernelsColumn:
        return tr("Kernels");
    case MeasurementsColumn:
        return tr("Measurements");
    case ForecastsColumn:
        return tr("Forecasts");
    case PairLabelsColumn:
        return tr("Pair labels");
    default:
        return {};
    }
}

} // namespace gpuf
