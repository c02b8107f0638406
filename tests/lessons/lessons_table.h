// What a lessons table shows in one cell, for the suites of the lessons panel and its controller.
#pragma once

#include <QString>
#include <QTableWidget>

namespace gpuf::testing {

// The text of the cell at `row`, `column`; empty when the cell has no item.
inline QString cell(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text() : QString();
}

} // namespace gpuf::testing
