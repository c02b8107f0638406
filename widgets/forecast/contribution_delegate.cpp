// ContributionDelegate; see contribution_delegate.h.
#include "widgets/forecast/contribution_delegate.h"

#include <QApplication>
#include <QPainter>

#include <cmath>

namespace gpuf {

namespace {
constexpr int kMinimumBarWidth = 150; // room for a bar on each side of the centre and the figure over it
constexpr double kMargin = 3.0;
} // namespace

ContributionDelegate::ContributionDelegate(int valueRole, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_valueRole(valueRole)
{ }

QRectF ContributionDelegate::barRect(const QRectF &cell, double value, double largest)
{
    if (!std::isfinite(value) || value == 0.0 || !(largest > 0.0))
        return {};
    const double half = std::max(0.0, cell.width() / 2.0 - kMargin);
    const double length = half * std::min(1.0, std::abs(value) / largest);
    const double centre = cell.center().x();
    const double top = cell.top() + kMargin;
    const double height = std::max(1.0, cell.height() - 2 * kMargin);
    return value > 0 ? QRectF(centre, top, length, height) : QRectF(centre - length, top, length, height);
}

QColor ContributionDelegate::barColor(const QPalette &palette, bool positive)
{
    const bool dark = palette.color(QPalette::Base).lightnessF() < palette.color(QPalette::Text).lightnessF();
    // Blue toward the predicted bin, orange away from it (told apart with common colour-vision deficiencies too).
    QColor color = QColor::fromHslF(positive ? 210 / 360.0f : 28 / 360.0f, 0.75f, dark ? 0.6f : 0.5f);
    color.setAlphaF(dark ? 0.55f : 0.45f);
    return color;
}

double ContributionDelegate::largestMagnitude(const QModelIndex &index) const
{
    const QAbstractItemModel *model = index.model();
    double largest = 0.0;
    for (int row = 0; row < model->rowCount(index.parent()); ++row) {
        const double v = model->index(row, index.column(), index.parent()).data(m_valueRole).toDouble();
        if (std::isfinite(v))
            largest = std::max(largest, std::abs(v));
    }
    return largest;
}

void ContributionDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    // The cell's background and selection first, then the bar, then the figure over it.
    const QString text = opt.text;
    opt.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QVariant raw = index.data(m_valueRole);
    const QRectF cell = QRectF(opt.rect);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    QColor axis = opt.palette.color(QPalette::Text);
    axis.setAlphaF(0.35f);
    painter->setPen(QPen(axis, 1.0));
    painter->drawLine(QPointF(cell.center().x(), cell.top() + 1), QPointF(cell.center().x(), cell.bottom() - 1));
    if (raw.isValid()) {
        const double value = raw.toDouble();
        const QRectF bar = barRect(cell, value, largestMagnitude(index));
        if (!bar.isEmpty())
            painter->fillRect(bar, barColor(opt.palette, value > 0));
    }
    painter->setPen(opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    // The figure sits against the centre line on the side away from the bar, so the two never overlap.
    const double centre = cell.center().x();
    const double gap = kMargin + 2;
    if (raw.toDouble() > 0)
        painter->drawText(QRectF(QPointF(cell.left() + gap, cell.top()), QPointF(centre - gap, cell.bottom())),
            Qt::AlignVCenter | Qt::AlignRight, text);
    else
        painter->drawText(QRectF(QPointF(centre + gap, cell.top()), QPointF(cell.right() - gap, cell.bottom())),
            Qt::AlignVCenter | Qt::AlignLeft, text);
    painter->restore();
}

QSize ContributionDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    // Twice the figure plus the bar's room: the figure stands on one side of the centre line.
    size.setWidth(std::max({size.width() * 2 + 40, kMinimumBarWidth}));
    return size;
}

} // namespace gpuf
