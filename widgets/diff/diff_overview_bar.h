// DiffOverviewBar: a narrow map of the whole pair — a mark per changed row and the rows now shown; click to jump.
#pragma once

#include "core/session/forecast_annotations.h"
#include "widgets/diff/diff_colors.h"
#include "widgets/diff/diff_document.h"

#include <QWidget>

#include <memory>

namespace gpuf {

// A forecast-annotated row: a tick on the bar's edge of the pane it belongs to, in the direction's colour.
struct OverviewAnnotation
{
    int row = 0;
    PaneSide side = PaneSide::Left;
    Push push = Push::Faster;

    friend bool operator==(const OverviewAnnotation &, const OverviewAnnotation &) = default;
};

class DiffOverviewBar : public QWidget
{
    Q_OBJECT

public:
    explicit DiffOverviewBar(QWidget *parent = nullptr);

    void setDiffDocument(std::shared_ptr<const DiffDocument> document);
    void setColors(const DiffColors &colors);
    // The rows shown in the panes, drawn as a translucent frame.
    void setShownRows(int first, int last);
    // Rows with forecast annotations (empty: none); a new document drops them.
    void setAnnotations(const QList<OverviewAnnotation> &annotations);
    const QList<OverviewAnnotation> &annotations() const { return m_annotations; }
    // The row a y coordinate of this widget stands for (-1 without rows), and the y where a row's mark starts.
    int rowAt(int y) const;
    int yOfRow(int row) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void rowRequested(int row);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    std::shared_ptr<const DiffDocument> m_document;
    DiffColors m_colors;
    int m_firstShown = -1;
    int m_lastShown = -1;
    QList<OverviewAnnotation> m_annotations;
};

} // namespace gpuf
