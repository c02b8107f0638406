// DiffPane: paints row backgrounds under the text and applies token highlights as extra character formats.
#include "widgets/diff/diff_pane.h"

#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QStringList>
#include <QTextBlock>

#include <algorithm>

namespace gpuf {

namespace {

// The solid edge of an annotated line's band, at the text's left edge.
constexpr int AnnotationStripeWidth = 3;

bool hasLine(const diff::DiffRow &row, PaneSide side)
{
    return side == PaneSide::Left ? row.hasLeft() : row.hasRight();
}

} // namespace

DiffPane::DiffPane(PaneSide side, QWidget *parent)
    : CodeTextEdit(parent)
    , m_side(side)
    , m_colors(diffColorsFor(palette()))
{
    setGutterColors(m_colors.gutterBackground, m_colors.gutterText);
    // Keyboard moves can land in a collapsed fold's hidden rows: show the cursor on the fold's band instead.
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this]() {
        const QTextBlock block = textCursor().block();
        if (!m_document || block.isVisible())
            return;
        const int fold = m_document->foldOfRow(m_document->rowOfBlock(block.blockNumber()));
        if (fold >= 0)
            setTextCursor(QTextCursor(document()->findBlockByNumber(m_document->foldBlocks.at(fold))));
    });
}

QString DiffPane::foldLabel(int lineCount) { return tr("⋯ show %n unchanged line(s)", nullptr, lineCount); }

void DiffPane::setDiffDocument(std::shared_ptr<const DiffDocument> document)
{
    m_document = std::move(document);
    m_annotations.clear();
    m_foldAnnotations.clear();
    setPlainText(m_document ? m_document->text(m_side) : QString());
    if (m_document) {
        for (int fold = 0; fold < m_document->diff.folds.size(); ++fold)
            setFoldExpanded(fold, false);
    }
    applyFormats();
    updateGutterWidth();
}

void DiffPane::setColors(const DiffColors &colors)
{
    if (colors == m_colors)
        return;
    m_colors = colors;
    setGutterColors(m_colors.gutterBackground, m_colors.gutterText);
    applyFormats();
    viewport()->update();
}

// Syntax formats first, token highlights after them: QTextLayout merges overlapping ranges in order, so a changed
// token keeps its syntax colour and gains the highlight background.
void DiffPane::applyFormats()
{
    if (!m_document)
        return;
    const QList<LineFormats> &syntax = m_document->syntax(m_side);
    QTextCharFormat token;
    token.setBackground(m_side == PaneSide::Left ? m_colors.removedToken : m_colors.addedToken);
    QTextDocument *doc = document();
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const int row = m_document->rowOfBlock(block.blockNumber());
        if (row < 0)
            continue;
        LineFormats formats = syntax.value(row);
        const diff::DiffRow &r = m_document->diff.rows.at(row);
        if (r.kind == diff::RowKind::Changed) {
            for (const diff::CharRange &range : m_side == PaneSide::Left ? r.leftChanges : r.rightChanges)
                formats.append(QTextLayout::FormatRange {range.start, range.length, token});
        }
        if (!formats.isEmpty() || !block.layout()->formats().isEmpty())
            block.layout()->setFormats(formats);
    }
    // One relayout for the whole document instead of one per block.
    doc->markContentsDirty(0, doc->characterCount());
}

void DiffPane::setFoldExpanded(int fold, bool expanded)
{
    if (!m_document || fold < 0 || fold >= m_document->diff.folds.size())
        return;
    QTextDocument *doc = document();
    QTextBlock band = doc->findBlockByNumber(m_document->foldBlocks.at(fold));
    if (!band.isValid())
        return;
    band.setVisible(!expanded);
    const diff::Fold &f = m_document->diff.folds.at(fold);
    QTextBlock block = band.next();
    for (int i = 0; i < f.rowCount && block.isValid(); ++i, block = block.next())
        block.setVisible(expanded);
    const int end = block.isValid() ? block.position() : doc->characterCount();
    doc->markContentsDirty(band.position(), end - band.position());
    viewport()->update();
}

bool DiffPane::isFoldExpanded(int fold) const
{
    if (!m_document || fold < 0 || fold >= m_document->foldBlocks.size())
        return false;
    return !document()->findBlockByNumber(m_document->foldBlocks.at(fold)).isVisible();
}

int DiffPane::lineOfBlock(int block) const { return m_document ? m_document->lineOfBlock(block, m_side) : 0; }

int DiffPane::currentRow() const
{
    if (!m_document || m_document->diff.rows.isEmpty())
        return -1;
    const int block = textCursor().blockNumber();
    const int row = m_document->rowOfBlock(block);
    if (row >= 0)
        return row;
    const int fold = m_document->foldOfBlock(block);
    return fold >= 0 ? m_document->diff.folds.at(fold).firstRow : -1;
}

void DiffPane::setCurrentRow(int row)
{
    if (!m_document || row < 0 || row >= m_document->rowBlocks.size())
        return;
    const int fold = m_document->foldOfRow(row);
    if (fold >= 0 && !isFoldExpanded(fold))
        setFoldExpanded(fold, true);
    QTextCursor cursor(document()->findBlockByNumber(m_document->rowBlocks.at(row)));
    setTextCursor(cursor);
}

QString DiffPane::gutterLabel(const QTextBlock &block) const
{
    const int line = lineOfBlock(block.blockNumber());
    return line > 0 ? QString::number(line) : QString();
}

int DiffPane::gutterDigits() const { return m_document ? m_document->lineNumberDigits : 1; }

// Always reserved, so text does not shift sideways when a forecast's annotations arrive after the document.
int DiffPane::gutterMarkerWidth() const
{
    return std::max(5, fontMetrics().horizontalAdvance(QLatin1Char('9')) * 2 / 3) + 3;
}

void DiffPane::setLineAnnotations(const QList<LineAnnotation> &annotations)
{
    QMap<int, LineAnnotation> byLine;
    for (const LineAnnotation &a : annotations)
        byLine.insert(a.line, a);
    if (byLine == m_annotations)
        return;
    m_annotations = byLine;
    updateFoldAnnotations();
    viewport()->update();
    updateGutterWidth(); // repaints the gutter
}

void DiffPane::updateFoldAnnotations()
{
    m_foldAnnotations.clear();
    if (!m_document || m_annotations.isEmpty())
        return;
    for (int fold = 0; fold < m_document->diff.folds.size(); ++fold) {
        const diff::Fold &f = m_document->diff.folds.at(fold);
        for (int row = f.firstRow; row < f.firstRow + f.rowCount; ++row) {
            if (const LineAnnotation *a = annotationOfRow(row))
                m_foldAnnotations[fold].append(*a);
        }
    }
}

const LineAnnotation *DiffPane::annotationOfLine(int line) const
{
    const auto it = m_annotations.constFind(line);
    return it == m_annotations.cend() ? nullptr : &*it;
}

const LineAnnotation *DiffPane::annotationOfRow(int row) const
{
    if (!m_document || row < 0 || row >= m_document->diff.rows.size() || m_annotations.isEmpty())
        return nullptr;
    const diff::DiffRow &r = m_document->diff.rows.at(row);
    const int line = m_side == PaneSide::Left ? r.leftLine : r.rightLine;
    return line == diff::DiffRow::NoLine ? nullptr : annotationOfLine(line);
}

QList<LineAnnotation> DiffPane::annotationsInFold(int fold) const { return m_foldAnnotations.value(fold); }

const LineAnnotation *DiffPane::strongest(const QList<LineAnnotation> &annotations)
{
    const LineAnnotation *best = nullptr;
    for (const LineAnnotation &a : annotations) {
        if (!best || a.strength > best->strength)
            best = &a;
    }
    return best;
}

QString DiffPane::blockToolTip(const QTextBlock &block) const
{
    if (!m_document || m_annotations.isEmpty())
        return {};
    const int row = m_document->rowOfBlock(block.blockNumber());
    if (row >= 0) {
        const LineAnnotation *a = annotationOfRow(row);
        return a ? a->texts.join(QLatin1Char('\n')) : QString();
    }
    const QList<LineAnnotation> hidden = annotationsInFold(m_document->foldOfBlock(block.blockNumber()));
    if (hidden.isEmpty())
        return {};
    QStringList lines {tr("Forecast annotations on hidden lines (click to show them):")};
    for (const LineAnnotation &a : hidden) {
        for (const QString &text : a.texts)
            lines.append(tr("line %1: %2").arg(a.line).arg(text));
    }
    return lines.join(QLatin1Char('\n'));
}

QColor DiffPane::markerColor(Push push) const
{
    return push == Push::Faster ? m_colors.annotationFaster : m_colors.annotationSlower;
}

QColor DiffPane::bandColor(Push push) const
{
    return push == Push::Faster ? m_colors.annotationFasterBand : m_colors.annotationSlowerBand;
}

void DiffPane::paintMarker(QPainter &painter, const QRect &cell, Push push) const
{
    const int width = gutterMarkerWidth() - 3;
    painter.fillRect(QRect(cell.left() + 1, cell.top() + 1, width, std::max(2, cell.height() - 2)), markerColor(push));
}

QColor DiffPane::lineBackground(int row) const
{
    if (!m_document || row < 0)
        return {};
    const diff::DiffRow &r = m_document->diff.rows.at(row);
    if (r.kind == diff::RowKind::Equal)
        return {};
    if (!hasLine(r, m_side))
        return m_colors.filler;
    return m_side == PaneSide::Left ? m_colors.removedLine : m_colors.addedLine;
}

void DiffPane::paintGutterCell(QPainter &painter, const QTextBlock &block, const QRect &cell)
{
    if (!m_document) {
        CodeTextEdit::paintGutterCell(painter, block, cell);
        return;
    }
    const int row = m_document->rowOfBlock(block.blockNumber());
    const QColor background = row >= 0 ? lineBackground(row) : m_colors.foldBackground;
    if (background.isValid())
        painter.fillRect(cell, background);
    if (row < 0) {
        if (const LineAnnotation *a = strongest(annotationsInFold(m_document->foldOfBlock(block.blockNumber()))))
            paintMarker(painter, cell, a->push);
        return;
    }
    CodeTextEdit::paintGutterCell(painter, block, cell);
    if (const LineAnnotation *a = annotationOfRow(row))
        paintMarker(painter, cell, a->push);
}

void DiffPane::gutterClicked(const QTextBlock &block)
{
    const int fold = m_document ? m_document->foldOfBlock(block.blockNumber()) : -1;
    if (fold >= 0)
        Q_EMIT foldActivated(fold);
    else
        CodeTextEdit::gutterClicked(block);
}

void DiffPane::paintBackgrounds(QPainter &painter, const QRect &clip)
{
    const QColor hatch = blendColors(m_colors.base, m_colors.text, m_colors.dark ? 0.16 : 0.12);
    const int width = viewport()->width();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        if (!block.isVisible())
            continue;
        const QRectF rect = blockViewportRect(block);
        if (rect.top() > clip.bottom())
            break;
        const int row = m_document->rowOfBlock(block.blockNumber());
        const QRectF line(0, rect.top(), width, rect.height());
        const QRectF stripe(0, rect.top(), AnnotationStripeWidth, rect.height());
        if (row < 0) {
            painter.fillRect(line, m_colors.foldBackground);
            if (const LineAnnotation *a = strongest(annotationsInFold(m_document->foldOfBlock(block.blockNumber()))))
                painter.fillRect(stripe, markerColor(a->push));
            continue;
        }
        const QColor background = lineBackground(row);
        if (background.isValid()) {
            painter.fillRect(line, background);
            if (!hasLine(m_document->diff.rows.at(row), m_side))
                painter.fillRect(line, QBrush(hatch, Qt::BDiagPattern));
        }
        // Laid over the diff's own tint, so an annotated changed line still reads as changed.
        if (const LineAnnotation *a = annotationOfRow(row)) {
            painter.fillRect(line, bandColor(a->push));
            painter.fillRect(stripe, markerColor(a->push));
        }
    }
}

void DiffPane::paintFoldBands(QPainter &painter, const QRect &clip)
{
    painter.setPen(m_colors.foldText);
    const int pad = fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2;
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        if (!block.isVisible())
            continue;
        const QRectF rect = blockViewportRect(block);
        if (rect.top() > clip.bottom())
            break;
        const int fold = m_document->foldOfBlock(block.blockNumber());
        if (fold < 0)
            continue;
        const QString label = foldLabel(m_document->diff.folds.at(fold).rowCount);
        const QRectF text(pad, rect.top(), viewport()->width() - pad, rect.height());
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, label);
        const QList<LineAnnotation> hidden = annotationsInFold(fold);
        if (const LineAnnotation *a = strongest(hidden)) {
            const QRectF note = text.adjusted(fontMetrics().horizontalAdvance(label + QLatin1Char(' ')), 0, 0, 0);
            painter.setPen(markerColor(a->push));
            painter.drawText(
                note, Qt::AlignLeft | Qt::AlignVCenter, tr("◆ %n annotated line(s)", nullptr, int(hidden.size())));
            painter.setPen(m_colors.foldText);
        }
    }
}

void DiffPane::paintEvent(QPaintEvent *event)
{
    if (m_document) {
        QPainter painter(viewport());
        paintBackgrounds(painter, event->rect());
    }
    CodeTextEdit::paintEvent(event);
    if (m_document) {
        QPainter painter(viewport());
        paintFoldBands(painter, event->rect());
    }
}

void DiffPane::mousePressEvent(QMouseEvent *event)
{
    if (m_document && event->button() == Qt::LeftButton) {
        const QTextBlock block = blockAtViewportPosition(event->position().toPoint());
        const int fold = block.isValid() ? m_document->foldOfBlock(block.blockNumber()) : -1;
        if (fold >= 0) {
            Q_EMIT foldActivated(fold);
            event->accept();
            return;
        }
    }
    CodeTextEdit::mousePressEvent(event);
}

void DiffPane::focusInEvent(QFocusEvent *event)
{
    CodeTextEdit::focusInEvent(event);
    Q_EMIT focusReceived();
}

// Copies only what this side's source holds: fold bands, fillers and hidden rows are left out.
QMimeData *DiffPane::createMimeDataFromSelection() const
{
    const QTextCursor cursor = textCursor();
    if (!m_document || !cursor.hasSelection())
        return CodeTextEdit::createMimeDataFromSelection();
    const int start = cursor.selectionStart();
    const int end = cursor.selectionEnd();
    const QTextBlock last = document()->findBlock(end);
    QStringList lines;
    for (QTextBlock block = document()->findBlock(start); block.isValid(); block = block.next()) {
        const int row = m_document->rowOfBlock(block.blockNumber());
        if (block.isVisible() && row >= 0 && hasLine(m_document->diff.rows.at(row), m_side)) {
            const int from = std::max(start - block.position(), 0);
            const int to = std::min(end - block.position(), static_cast<int>(block.text().size()));
            lines.append(block.text().mid(from, std::max(0, to - from)));
        }
        if (block == last)
            break;
    }
    auto *data = new QMimeData;
    data->setText(lines.join(QLatin1Char('\n')));
    return data;
}

} // namespace gpuf
