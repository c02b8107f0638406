// How the panels set up their tables and tool buttons, written once so every table reads and selects the same way.
#pragma once

#include <QAbstractItemView>

class QAction;
class QTableView;
class QToolButton;
class QWidget;

namespace gpuf {

// Whole rows selected in `mode`, read-only cells, no row numbers, one line per row, the last column taking the spare
// width.
void setupTableView(QTableView *view, QAbstractItemView::SelectionMode mode);

// A text-only tool button that shows and triggers `action` (its text, tooltip and enabled state follow the action).
QToolButton *buttonFor(QAction *action, QWidget *parent);

} // namespace gpuf
