// Table and button set-up shared by the panels; see view_setup.h.
#include "widgets/common/view_setup.h"

#include <QHeaderView>
#include <QTableView>
#include <QToolButton>

namespace gpuf {

void setupTableView(QTableView *view, QAbstractItemView::SelectionMode mode)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(mode);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
}

QToolButton *buttonFor(QAction *action, QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace gpuf
