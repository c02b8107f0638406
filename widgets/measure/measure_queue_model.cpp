// The measurement queue's table model; see measure_queue_model.h.
#include "widgets/measure/measure_queue_model.h"

#include <QApplication>
#include <QColor>
#include <QPalette>

namespace gpuf {

MeasureQueueModel::MeasureQueueModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void MeasureQueueModel::setItems(const QList<MeasureItem> &items)
{
    const bool sameRows = items.size() == m_items.size()
        && std::equal(items.cbegin(), items.cend(), m_items.cbegin(),
            [](const MeasureItem &a, const MeasureItem &b) { return a.id == b.id; });
    if (sameRows) {
        // Only states change while the rows stay: keep the view's selection and scroll position.
        m_items = items;
        if (!m_items.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_items = items;
    endResetModel();
}

const MeasureItem *MeasureQueueModel::itemAt(int row) const
{
    return row >= 0 && row < m_items.size() ? &m_items[row] : nullptr;
}

int MeasureQueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_items.size());
}

int MeasureQueueModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString MeasureQueueModel::statusText(const MeasureItem &item)
{
    switch (item.state) {
    case MeasureItemState::Queued:
        return tr("queued");
    case MeasureItemState::Running:
        // At a cluster: Slurm's own word for it (pending, running…), lower case like the others.
        return item.cluster.isEmpty() || item.clusterState.isEmpty() ? tr("running") : item.clusterState.toLower();
    case MeasureItemState::Done:
        return item.replayed ? tr("replayed: %1").arg(item.outcome) : tr("done: %1").arg(item.outcome);
    case MeasureItemState::Failed:
        return item.outcome.isEmpty() ? tr("failed") : tr("failed: %1").arg(item.outcome);
    case MeasureItemState::TimedOut:
        return tr("timeout");
    case MeasureItemState::Cancelled:
        return tr("cancelled");
    }
    return {};
}

namespace {

QVariant foregroundOf(const MeasureItem &item)
{
    // Colours come from the palette's link/visited roles so they follow light and dark themes.
    const QPalette palette = QApplication::palette();
    if (item.state == MeasureItemState::Failed || item.state == MeasureItemState::TimedOut
        || (item.state == MeasureItemState::Done && item.outcome != QLatin1StringView("ok")))
        return QColor(palette.color(QPalette::LinkVisited));
    if (item.state == MeasureItemState::Cancelled || item.state == MeasureItemState::Queued)
        return palette.color(QPalette::PlaceholderText);
    return {};
}

} // namespace

QVariant MeasureQueueModel::data(const QModelIndex &index, int role) const
{
    const MeasureItem *item = itemAt(index.row());
    if (!item)
        return {};
    switch (role) {
    case ItemIdRole:
        return item->id;
    case StateRole:
        return static_cast<int>(item->state);
    case ReplayedRole:
        return item->replayed;
    case Qt::ForegroundRole:
        return index.column() == StatusColumn || index.column() == MessageColumn ? foregroundOf(*item) : QVariant();
    case Qt::ToolTipRole:
        return item->message.isEmpty() ? QVariant() : QVariant(item->message);
    case Qt::TextAlignmentRole:
        if (index.column() == PriorityColumn || index.column() == CasesColumn || index.column() == MedianColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case SortRole:
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const bool sort = role == SortRole;
    switch (index.column()) {
    case KernelColumn:
        return item->kernelLabel;
    case PriorityColumn:
        return item->job.priority;
    case StatusColumn:
        return sort ? QVariant(static_cast<int>(item->state)) : QVariant(statusText(*item));
    case CasesColumn:
        if (sort)
            return item->casesOk;
        return item->casesTotal > 0 && isFinished(item->state) ? tr("%1/%2 ok").arg(item->casesOk).arg(item->casesTotal)
                                                               : QString();
    case MedianColumn:
        if (sort)
            return item->medianNs;
        return item->medianNs >= 0 ? tr("%1 µs").arg(item->medianNs / 1e3, 0, 'f', 2) : QString();
    case SourceColumn:
        if (!item->cluster.isEmpty())
            return item->clusterAttempts > 1
                ? tr("cluster (%1), attempt %2").arg(item->cluster).arg(item->clusterAttempts)
                : tr("cluster (%1)").arg(item->cluster);
        return item->replayed ? tr("replay") : tr("local GPU");
    case JobColumn:
        return item->clusterJobId;
    case NodeColumn:
        return item->clusterNode;
    case MessageColumn:
        return item->message;
    }
    return {};
}

QVariant MeasureQueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KernelColumn:
        return tr("Kernel");
    case PriorityColumn:
        return tr("Priority");
    case StatusColumn:
        return tr("Status");
    case CasesColumn:
        return tr("Cases");
    case MedianColumn:
        return tr("Median");
    case SourceColumn:
        return tr("Source");
    case JobColumn:
        return tr("Job");
    case NodeColumn:
        return tr("Node");
    case MessageColumn:
        return tr("Message");
    }
    return {};
}

} // namespace gpuf
