// DiffOverviewBar: rows map linearly onto the height, so a mark's place says where in the file a change is.
#include "widgets/diff/diff_overview_bar.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace gpuf {

namespace {
constexpr int BarWidth = 14;
constexpr int Margin = 2;
constexpr int AnnotationTick = 3; // wide enough to see beside the change marks it overlaps by one pixel
} // namespace

DiffOverviewBar::DiffOverviewBar(QWidget *parent)
    : QWidget(parent)
    , m_colors(diffColorsFor(palette()))
{
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview of the changes: click to jump"));
}

QSize DiffOverviewBar::sizeHint() const { return {BarWidth, 100}; }
QSize DiffOverviewBar::minimumSizeHint() const { return {BarWidth, 20}; }

void DiffOverviewBar::setDiffDocument(std::shared_ptr<const DiffDocument> document)
{
    m_document = std::move(document);
    m_firstShown = m_lastShown = -1;
    m_annotations.clear();
    update();
}

void DiffOverviewBar::setAnnotations(const QList<OverviewAnnotation> &annotations)
{
    if (annotations == m_annotations)
        return;
    m_annotations = annotations;
    update();
}

void DiffOverviewBar::setColors(const DiffColors &colors)
{
    m_colors = colors;
    update();
}

void DiffOverviewBar::setShownRows(int first, int last)
{
    if (first == m_firstShown && last == m_lastShown)
        return;
    m_firstShown = first;
    m_lastShown = last;
    update();
}

int DiffOverviewBar::rowAt(int y) const
{
    const int rows = m_document ? static_cast<int>(m_document->diff.rows.size()) : 0;
    const int span = height() - 2 * Margin;
    if (rows == 0 || span <= 0)
        return -1;
    const qint64 row = static_cast<qint64>(y - Margin) * rows / span;
    return static_cast<int>(std::clamp<qint64>(row, 0, rows - 1));
}

int DiffOverviewBar::yOfRow(int row) const
{
    const int rows = m_document ? static_cast<int>(m_document->diff.rows.size()) : 0;
    if (rows == 0)
        return Margin;
    return Margin + static_cast<int>(static_cast<qint64>(row) * (height() - 2 * Margin) / rows);
}

void DiffOverviewBar::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), m_colors.overviewBackground);
    if (!m_document || m_document->diff.rows.isEmpty())
        return;
    const QList<diff::DiffRow> &rows = m_document->diff.rows;
    const int markHeight = std::max(2, (height() - 2 * Margin) / static_cast<int>(rows.size()));
    for (const diff::Hunk &hunk : m_document->diff.hunks) {
        for (int row = hunk.firstRow; row < hunk.firstRow + hunk.rowCount; ++row) {
            const diff::RowKind kind = rows.at(row).kind;
            const QColor color = kind == diff::RowKind::Inserted ? m_colors.overviewAdded
                : kind == diff::RowKind::Deleted                 ? m_colors.overviewRemoved
                                                                 : m_colors.overviewChanged;
            painter.fillRect(QRect(Margin, yOfRow(row), width() - 2 * Margin, markHeight), color);
        }
    }
    // Left pane's annotations on the left edge, the right pane's on the right edge.
    const int tickHeight = std::max(3, markHeight);
    for (const OverviewAnnotation &a : std::as_const(m_annotations)) {
        const int x = a.side == PaneSide::Left ? 0 : width() - AnnotationTick;
        painter.fillRect(QRect(x, yOfRow(a.row), AnnotationTick, tickHeight),
            a.push == Push::Faster ? m_colors.annotationFaster : m_colors.annotationSlower);
    }
    if (m_firstShown >= 0 && m_lastShown >= m_firstShown) {
        const int top = yOfRow(m_firstShown);
        const int bottom = std::max(top + markHeight, yOfRow(m_lastShown + 1));
        painter.fillRect(QRect(0, top, width(), bottom - top), m_colors.overviewViewport);
    }
}

void DiffOverviewBar::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const int row = rowAt(event->position().toPoint().y());
    if (row >= 0)
        Q_EMIT rowRequested(row);
}

void DiffOverviewBar::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return QWidget::mouseMoveEvent(event);
    const int row = rowAt(event->position().toPoint().y());
    if (row >= 0)
        Q_EMIT rowRequested(row);
}

} // namespace gpuf
