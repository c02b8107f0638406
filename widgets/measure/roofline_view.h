// RooflineView: where the selected kernel stands against the measured GPU — a log–log roofline (the memory slope and
// the compute ceilings of the kernel's precision) with the kernel, its parent and its reference as one point per
// case, an arrow from the parent's point to the kernel's, and a line of figures per point (intensity, achieved
// bandwidth, share of the roof). RooflinePanel puts it together with the loader that follows the window's selection.
#pragma once

#include "core/measure/roofline_data.h"
#include "widgets/plots/plot_widget.h"

#include <QHash>

class QCheckBox;
class QCPItemLine;
class QCPItemText;
class QLabel;

namespace gpuf {

class RooflineLoader;
class Selection;
class StoreSession;

class RooflineView : public PlotWidget
{
    Q_OBJECT

public:
    // One drawn point, as the plot holds it (for tests and tools).
    struct PlottedPoint
    {
        QString series; // the legend name, e.g. "v2_float4 (selected)"
        QString label; // the text beside the point (the case name, "⚠" added when implausible)
        double intensity = 0.0; // x, FLOP/byte
        double tflops = 0.0; // y, TFLOP/s
        QString detail; // what hovering it shows: its line of figures and the bytes its x rests on
    };

    explicit RooflineView(QWidget *parent = nullptr);

    void setData(const RooflineData &data);
    // Nothing to draw: the plot gives way to `message`.
    void showMessage(const QString &message);

    const RooflineData &data() const { return m_data; }
    QString message() const; // the empty-state text shown instead of the plot; empty while the plot shows
    QString peaksText() const; // the line naming the GPU and its peak rates
    QStringList lines() const; // one line of figures per point or per case without one
    QList<PlottedPoint> plottedPoints() const;
    QStringList ceilingNames() const; // the roofs drawn: "memory 3350 GB/s", "FP32 67 TFLOP/s", …
    int arrowCount() const; // parent → kernel arrows
    QCheckBox *zoomBox() const { return m_zoom; } // "Zoom to the points"

protected:
    void rebuild() override;
    QString pointText(const QCPGraph *graph, int index) const override;

private:
    // Which bytes the drawn points' x rests on: the spec's ideal bytes_moved, measured DRAM bytes, or some of each.
    enum class BytesSource { Ideal, Measured, Mixed };
    BytesSource bytesSource() const;
    QString axisTitle() const; // the x axis names the bytes its intensity divides by
    QString labelText(const RooflineCase &c) const; // the case, "ideal bytes" in a mixed plot, "⚠ implausible"
    // The case of data().series[series] drawn at (intensity, tflops), the coordinates it was drawn with.
    const RooflineCase *drawnCase(int series, double intensity, double tflops) const;

    void updateTexts(); // the GPU line and the figures beside the plot
    void drawRoofs(double xMin, double xMax);
    void drawPoints();
    QCPItemText *addPointLabel(const RooflineCase &c, QPointF at, const QColor &color, bool left);
    void placeLabels();

    RooflineData m_data;
    QString m_message;
    QLabel *m_peaks;
    QLabel *m_messageLabel;
    QLabel *m_lines;
    QWidget *m_linesArea = nullptr;
    QCheckBox *m_zoom;
    QHash<QCPItemText *, QCPItemLine *> m_leaders; // a point's label → the line back to the point
};

// The dock's content: the view fed by a RooflineLoader that follows `selection` over `session`.
class RooflinePanel : public QWidget
{
    Q_OBJECT

public:
    RooflinePanel(StoreSession *session, Selection *selection, QWidget *parent = nullptr);

    RooflineView *view() const { return m_view; }
    RooflineLoader *loader() const { return m_loader; }

private:
    RooflineView *m_view;
    RooflineLoader *m_loader;
};

} // namespace gpuf
