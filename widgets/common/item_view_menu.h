// Context menus on item views, and copying what a view shows: a right click makes the clicked row current before the
// menu is filled, and "Copy" puts the selected rows on the clipboard as tab-separated text.
#pragma once

#include <QString>

#include <functional>

class QAbstractItemView;
class QAction;
class QMenu;
class QModelIndex;
class QPoint;

namespace gpuf {

using MenuFiller = std::function<void(QMenu *menu, const QModelIndex &index)>;

// Gives `view` a context menu: a right click on a row not selected makes it the current and only selected row (a click
// inside a multi-row selection keeps it), then `fill` adds the actions for that row (an invalid index: empty space).
void installContextMenu(QAbstractItemView *view, MenuFiller fill);
// The menu `view` would show at `pos` (viewport coordinates), filled but not shown; the caller owns it.
QMenu *buildContextMenu(QAbstractItemView *view, const QPoint &pos);

// The selected rows (else the current one) as the view shows them: visible columns in their visual order, cells
// separated by tabs, one line per row. Empty when nothing is selected.
QString selectedRowsText(const QAbstractItemView *view);
// A "Copy" action (Ctrl+C while the view has focus) that copies selectedRowsText(); parented to the view.
QAction *addCopyAction(QAbstractItemView *view);

// Enables `action` when `reason` is empty; otherwise disables it and says why in its tooltip and status tip.
void setActionReason(QAction *action, const QString &reason, const QString &enabledTip = {});

} // namespace gpuf
