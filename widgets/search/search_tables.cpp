// searchTableFor, searchProxyFor; see search_tables.h.
#include "widgets/search/search_tables.h"

#include "widgets/common/view_setup.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace gpuf {

QTableView *searchTableFor(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSortingEnabled(true);
    setupTableView(view, QAbstractItemView::SingleSelection);
    // Compact fixed rows like the candidate table: an event log is long.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    return view;
}

QSortFilterProxyModel *searchProxyFor(QAbstractItemModel *source, int sortRole, QObject *parent)
{
    auto *proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(source);
    proxy->setSortRole(sortRole);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(-1);
    return proxy;
}

} // namespace gpuf
