// DiffPane: one side of the side-by-side diff — line backgrounds, token highlights, fold bands and line numbers.
#pragma once

#include "core/session/forecast_annotations.h"
#include "widgets/diff/code_text_edit.h"
#include "widgets/diff/diff_colors.h"
#include "widgets/diff/diff_document.h"

#include <QHash>
#include <QMap>

#include <memory>

namespace gpuf {

class DiffPane : public CodeTextEdit
{
    Q_OBJECT

public:
    explicit DiffPane(PaneSide side, QWidget *parent = nullptr);

    PaneSide side() const { return m_side; }
    // Shows a document (nullptr: nothing); every fold starts collapsed.
    void setDiffDocument(std::shared_ptr<const DiffDocument> document);
    const DiffDocument *diffDocument() const { return m_document.get(); }
    void setColors(const DiffColors &colors);
    const DiffColors &colors() const { return m_colors; }
    void setFoldExpanded(int fold, bool expanded);
    bool isFoldExpanded(int fold) const;

    // The 1-based source line shown in a block, or 0 (fold bands, fillers).
    int lineOfBlock(int block) const;
    // The diff row of the block holding the text cursor, or of the first block shown; -1 when there are no rows.
    int currentRow() const;
    // Puts the cursor at the start of a row's block (expanding its fold) without scrolling.
    void setCurrentRow(int row);
    QString gutterLabel(const QTextBlock &block) const override;
    // The text a "show N lines" band displays.
    static QString foldLabel(int lineCount);

    // Forecast annotations of this side's source lines (empty: none). A new document drops them: the view sets them
    // again once it knows which side of the pair this pane shows.
    void setLineAnnotations(const QList<LineAnnotation> &annotations);
    QList<LineAnnotation> lineAnnotations() const { return m_annotations.values(); }
    const LineAnnotation *annotationOfLine(int line) const;
    // The annotated lines a fold holds on this side (its band carries their mark while the fold is collapsed).
    QList<LineAnnotation> annotationsInFold(int fold) const;
    // An annotated line's sentences, or for a collapsed fold's band those of the lines it hides.
    QString blockToolTip(const QTextBlock &block) const override;

Q_SIGNALS:
    void foldActivated(int fold);
    void focusReceived();

protected:
    int gutterDigits() const override;
    int gutterMarkerWidth() const override;
    void paintGutterCell(QPainter &painter, const QTextBlock &block, const QRect &cell) override;
    void gutterClicked(const QTextBlock &block) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    QMimeData *createMimeDataFromSelection() const override;

private:
    void applyFormats();
    QColor lineBackground(int row) const;
    void paintBackgrounds(QPainter &painter, const QRect &clip);
    void paintFoldBands(QPainter &painter, const QRect &clip);
    const LineAnnotation *annotationOfRow(int row) const;
    // The strongest of some annotations (they decide a fold band's colour); null when there are none.
    static const LineAnnotation *strongest(const QList<LineAnnotation> &annotations);
    QColor markerColor(Push push) const;
    QColor bandColor(Push push) const;
    void paintMarker(QPainter &painter, const QRect &cell, Push push) const;
    void updateFoldAnnotations();

    PaneSide m_side;
    std::shared_ptr<const DiffDocument> m_document;
    DiffColors m_colors;
    QMap<int, LineAnnotation> m_annotations; // by source line
    QHash<int, QList<LineAnnotation>> m_foldAnnotations; // by fold
};

} // namespace gpuf
