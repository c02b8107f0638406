// Context menus and copying rows; see item_view_menu.h.
#include "widgets/common/item_view_menu.h"

#include <QAbstractItemView>
#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMenu>
#include <QTableView>
#include <QTreeView>

#include <algorithm>

namespace gpuf {

namespace {

// The filler lives with the view, as one of its children.
class FillerHolder : public QObject
{
public:
    FillerHolder(MenuFiller fill, QObject *parent)
        : QObject(parent)
        , fill(std::move(fill))
    { }
    MenuFiller fill;
};

const FillerHolder *fillerOf(const QObject *view)
{
    for (const QObject *child : view->children()) {
        if (const auto *holder = dynamic_cast<const FillerHolder *>(child))
            return holder;
    }
    return nullptr;
}

QHeaderView *columnHeader(const QAbstractItemView *view)
{
    if (auto *table = qobject_cast<const QTableView *>(view))
        return table->horizontalHeader();
    if (auto *tree = qobject_cast<const QTreeView *>(view))
        return tree->header();
    return nullptr;
}

} // namespace

QMenu *buildContextMenu(QAbstractItemView *view, const QPoint &pos)
{
    const FillerHolder *holder = fillerOf(view);
    const QModelIndex index = view->indexAt(pos);
    QItemSelectionModel *selection = view->selectionModel();
    if (index.isValid() && selection && !selection->isSelected(index)) {
        const auto flags = view->selectionBehavior() == QAbstractItemView::SelectRows
            ? QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows
            : QItemSelectionModel::ClearAndSelect;
        selection->setCurrentIndex(index, flags);
    } else if (index.isValid() && selection) {
        selection->setCurrentIndex(index, QItemSelectionModel::NoUpdate);
    }
    auto *menu = new QMenu(view);
    menu->setToolTipsVisible(true); // a disabled entry says why
    if (holder)
        holder->fill(menu, index);
    return menu;
}

void installContextMenu(QAbstractItemView *view, MenuFiller fill)
{
    delete fillerOf(view);
    new FillerHolder(std::move(fill), view);
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(view, &QWidget::customContextMenuRequested, view, [view](const QPoint &pos) {
        QMenu *menu = buildContextMenu(view, pos);
        if (menu->isEmpty()) {
            delete menu;
            return;
        }
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(view->viewport()->mapToGlobal(pos)); // not exec(): no nested event loop
    });
}

QString selectedRowsText(const QAbstractItemView *view)
{
    const QAbstractItemModel *model = view->model();
    QItemSelectionModel *selection = view->selectionModel();
    if (!model || !selection)
        return {};
    QModelIndexList rows = selection->selectedRows(0);
    if (rows.isEmpty()) {
        // Views that select cells rather than rows, or only a current row.
        for (const QModelIndex &index : selection->selectedIndexes()) {
            const QModelIndex first = index.siblingAtColumn(0);
            if (!rows.contains(first))
                rows.append(first);
        }
        if (rows.isEmpty() && selection->currentIndex().isValid())
            rows.append(selection->currentIndex().siblingAtColumn(0));
    }
    // In the order the user sees them.
    std::sort(rows.begin(), rows.end(), [view](const QModelIndex &a, const QModelIndex &b) {
        return view->visualRect(a).top() < view->visualRect(b).top();
    });
    QList<int> columns;
    const QHeaderView *header = columnHeader(view);
    const int count = model->columnCount(rows.value(0).parent());
    for (int visual = 0; visual < count; ++visual) {
        const int logical = header ? header->logicalIndex(visual) : visual;
        if (logical >= 0 && !(header && header->isSectionHidden(logical)))
            columns.append(logical);
    }
    QStringList lines;
    for (const QModelIndex &row : std::as_const(rows)) {
        QStringList cells;
        for (int column : std::as_const(columns))
            cells.append(row.siblingAtColumn(column).data(Qt::DisplayRole).toString().simplified());
        lines.append(cells.join(QLatin1Char('\t')));
    }
    return lines.join(QLatin1Char('\n'));
}

QAction *addCopyAction(QAbstractItemView *view)
{
    auto *copy = new QAction(QObject::tr("&Copy"), view);
    copy->setObjectName(QStringLiteral("copyRows"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    view->addAction(copy);
    QObject::connect(copy, &QAction::triggered, view, [view] {
        const QString text = selectedRowsText(view);
        if (!text.isEmpty())
            QGuiApplication::clipboard()->setText(text);
    });
    return copy;
}

void setActionReason(QAction *action, const QString &reason, const QString &enabledTip)
{
    action->setEnabled(reason.isEmpty());
    const QString tip = reason.isEmpty() ? enabledTip : reason;
    action->setToolTip(tip.isEmpty() ? action->text().remove(QLatin1Char('&')) : tip);
    action->setStatusTip(tip);
}

} // namespace gpuf
