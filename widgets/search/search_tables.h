// The tables of the Searches dock (its list, nodes and event log): compact fixed rows, sortable, one selection, and
// their sort-and-filter proxies.
#pragma once

class QAbstractItemModel;
class QObject;
class QSortFilterProxyModel;
class QTableView;
class QWidget;

namespace gpuf {

QTableView *searchTableFor(QAbstractItemModel *model, QWidget *parent);
// Sorts by `sortRole`; filters on any column, case-insensitively.
QSortFilterProxyModel *searchProxyFor(QAbstractItemModel *source, int sortRole, QObject *parent);

} // namespace gpuf
