// CodeTextEdit: a read-only, unwrapped, monospaced text view with a line-number gutter, the base of every code pane.
#pragma once

#include <QPlainTextEdit>

namespace gpuf {

class CodeTextEdit : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit CodeTextEdit(QWidget *parent = nullptr);

    int gutterWidth() const;
    // What the gutter shows beside a block: its line number by default.
    virtual QString gutterLabel(const QTextBlock &block) const;
    void setGutterColors(const QColor &background, const QColor &text);

    // The block under a viewport position, or an invalid block past the end.
    QTextBlock blockAtViewportPosition(const QPoint &position) const;
    // The viewport rectangle of a block (empty when it is hidden).
    QRectF blockViewportRect(const QTextBlock &block) const;
    // The first visible block whose top is inside the viewport, and the last one whose top is.
    QTextBlock firstShownBlock() const;
    QTextBlock lastShownBlock() const;
    // The tooltip shown over a block, in the text or in the gutter (plain text; empty: none). None by default.
    virtual QString blockToolTip(const QTextBlock &block) const;

protected:
    // How many digits the gutter makes room for.
    virtual int gutterDigits() const;
    // Pixels kept free at the gutter's left edge for markers drawn by paintGutterCell (none by default).
    virtual int gutterMarkerWidth() const;
    // Paints a block's gutter cell; the default draws gutterLabel right-aligned.
    virtual void paintGutterCell(QPainter &painter, const QTextBlock &block, const QRect &cell);
    virtual void gutterClicked(const QTextBlock &block);
    void updateGutterWidth();
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool viewportEvent(QEvent *event) override;

private:
    friend class CodeGutter;
    void paintGutter(QPaintEvent *event);
    // Shows blockToolTip() of the block at a viewport y (true), or hides any tooltip (false: nothing to show).
    bool showBlockToolTip(QHelpEvent *event, int viewportY, QWidget *over);

    QWidget *m_gutter;
    QColor m_gutterBackground;
    QColor m_gutterText;
};

} // namespace gpuf
