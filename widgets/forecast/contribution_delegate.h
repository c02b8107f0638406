// ContributionDelegate: draws a signed bar behind each contribution of the cost model's explanation table, growing
// right of the cell's centre line toward the predicted bin and left away from it, scaled to the largest contribution
// shown, so the features that decided a forecast can be read at a glance. Colours follow the palette.
#pragma once

#include <QStyledItemDelegate>

namespace gpuf {

class ContributionDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    // `valueRole` holds the raw signed number of each cell of the column.
    explicit ContributionDelegate(int valueRole, QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The bar of `value` in `cell` when the largest magnitude shown is `largest`: from the centre, half the cell's
    // width (less a margin) for the largest. Empty for 0 or a missing value. Public for tests.
    static QRectF barRect(const QRectF &cell, double value, double largest);
    // The fill for toward (positive) or away (negative), readable on `palette`'s base colour.
    static QColor barColor(const QPalette &palette, bool positive);

private:
    double largestMagnitude(const QModelIndex &index) const;

    int m_valueRole;
};

} // namespace gpuf
