// CodeTextEdit: the gutter lives in the left viewport margin and repaints with the viewport's update requests.
#include "widgets/diff/code_text_edit.h"

#include <QEvent>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

#include <algorithm>

namespace gpuf {

class CodeGutter : public QWidget
{
public:
    explicit CodeGutter(CodeTextEdit *edit)
        : QWidget(edit)
        , m_edit(edit)
    { }

protected:
    void paintEvent(QPaintEvent *event) override { m_edit->paintGutter(event); }
    bool event(QEvent *event) override
    {
        if (event->type() != QEvent::ToolTip)
            return QWidget::event(event);
        auto *help = static_cast<QHelpEvent *>(event);
        if (!m_edit->showBlockToolTip(help, help->pos().y(), this))
            event->ignore();
        return true;
    }
    void mousePressEvent(QMouseEvent *event) override
    {
        const QTextBlock block = m_edit->blockAtViewportPosition(QPoint(0, event->position().toPoint().y()));
        if (event->button() == Qt::LeftButton && block.isValid())
            m_edit->gutterClicked(block);
    }

private:
    CodeTextEdit *m_edit;
};

CodeTextEdit::CodeTextEdit(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new CodeGutter(this))
{
    setReadOnly(true);
    // Keyboard selection keeps a visible cursor, which hunk navigation moves.
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setUndoRedoEnabled(false);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_gutterBackground = palette().color(QPalette::Window);
    m_gutterText = palette().color(QPalette::PlaceholderText);

    connect(this, &QPlainTextEdit::blockCountChanged, this, [this]() { updateGutterWidth(); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy != 0)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    updateGutterWidth();
}

int CodeTextEdit::gutterDigits() const { return static_cast<int>(QString::number(blockCount()).size()); }

int CodeTextEdit::gutterMarkerWidth() const { return 0; }

int CodeTextEdit::gutterWidth() const
{
    const int digitWidth = fontMetrics().horizontalAdvance(QLatin1Char('9'));
    return gutterMarkerWidth() + std::max(2, gutterDigits()) * digitWidth + digitWidth;
}

QString CodeTextEdit::blockToolTip(const QTextBlock &) const { return {}; }

bool CodeTextEdit::showBlockToolTip(QHelpEvent *event, int viewportY, QWidget *over)
{
    const QTextBlock block = blockAtViewportPosition(QPoint(0, viewportY));
    const QString text = block.isValid() ? blockToolTip(block) : QString();
    if (text.isEmpty()) {
        QToolTip::hideText();
        return false;
    }
    // Rich text with the text escaped, so a '<' in it can never be read as markup; its lines are not wrapped.
    const QString html = QStringLiteral("<p style=\"white-space:nowrap\">")
        + text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")) + QStringLiteral("</p>");
    QToolTip::showText(event->globalPos(), html, over);
    return true;
}

bool CodeTextEdit::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        if (showBlockToolTip(help, help->pos().y(), viewport()))
            return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

QString CodeTextEdit::gutterLabel(const QTextBlock &block) const { return QString::number(block.blockNumber() + 1); }

void CodeTextEdit::setGutterColors(const QColor &background, const QColor &text)
{
    m_gutterBackground = background;
    m_gutterText = text;
    m_gutter->update();
}

void CodeTextEdit::updateGutterWidth()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
    const QRect contents = contentsRect();
    m_gutter->setGeometry(contents.left(), contents.top(), gutterWidth(), contents.height());
    m_gutter->update();
}

void CodeTextEdit::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect contents = contentsRect();
    m_gutter->setGeometry(contents.left(), contents.top(), gutterWidth(), contents.height());
}

void CodeTextEdit::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateGutterWidth();
}

QTextBlock CodeTextEdit::blockAtViewportPosition(const QPoint &position) const
{
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        if (!block.isVisible())
            continue;
        const QRectF rect = blockViewportRect(block);
        if (rect.top() > position.y())
            break;
        if (position.y() < rect.bottom())
            return block;
    }
    return {};
}

QRectF CodeTextEdit::blockViewportRect(const QTextBlock &block) const
{
    if (!block.isValid() || !block.isVisible())
        return {};
    return blockBoundingGeometry(block).translated(contentOffset());
}

QTextBlock CodeTextEdit::firstShownBlock() const
{
    QTextBlock block = firstVisibleBlock();
    while (block.isValid() && !block.isVisible())
        block = block.next();
    return block;
}

QTextBlock CodeTextEdit::lastShownBlock() const
{
    QTextBlock last = firstShownBlock();
    const int height = viewport()->height();
    for (QTextBlock block = last; block.isValid(); block = block.next()) {
        if (!block.isVisible())
            continue;
        if (blockViewportRect(block).top() >= height)
            break;
        last = block;
    }
    return last;
}

void CodeTextEdit::paintGutterCell(QPainter &painter, const QTextBlock &block, const QRect &cell)
{
    const QString label = gutterLabel(block);
    if (label.isEmpty())
        return;
    painter.setPen(m_gutterText);
    const int pad = fontMetrics().horizontalAdvance(QLatin1Char('9')) / 2;
    painter.drawText(cell.adjusted(0, 0, -pad, 0), Qt::AlignRight | Qt::AlignVCenter, label);
}

void CodeTextEdit::gutterClicked(const QTextBlock &block)
{
    QTextCursor cursor(block);
    setTextCursor(cursor);
}

void CodeTextEdit::paintGutter(QPaintEvent *event)
{
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), m_gutterBackground);
    painter.setFont(font());
    const int width = m_gutter->width();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        if (!block.isVisible())
            continue;
        const QRectF rect = blockViewportRect(block);
        if (rect.top() > event->rect().bottom())
            break;
        if (rect.bottom() < event->rect().top())
            continue;
        paintGutterCell(painter, block, QRect(0, qRound(rect.top()), width, qRound(rect.height())));
    }
}

} // namespace gpuf
