// What the roofline says of its points: the x axis's title, each point's label and what hovering it shows. An
// intensity divides by the bytes a case must move at least (the spec's bytes_moved) unless a profiled run measured
// the DRAM bytes it did move; the words say which, so a naive kernel is not called compute-bound on ideal bytes alone.
#include "widgets/measure/roofline_view.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QLocale>

namespace gpuf {

RooflineView::BytesSource RooflineView::bytesSource() const
{
    int measured = 0;
    int ideal = 0;
    for (const RooflineSeries &s : m_data.series) {
        for (const RooflineCase &c : s.cases) {
            if (c.point && c.point->intensity)
                ++(c.point->measuredBytes() ? measured : ideal);
        }
    }
    if (measured > 0 && ideal > 0)
        return BytesSource::Mixed;
    return measured > 0 ? BytesSource::Measured : BytesSource::Ideal;
}

QString RooflineView::axisTitle() const
{
    switch (bytesSource()) {
    case BytesSource::Measured:
        return tr("Operational intensity: FLOP ÷ measured DRAM bytes (FLOP/byte)");
    case BytesSource::Mixed:
        return tr("Intensity: FLOP ÷ measured DRAM bytes, else ÷ ideal bytes_moved where labelled (FLOP/byte)");
    case BytesSource::Ideal:
        break;
    }
    // The spec's FLOPs over the bytes the case must move at least, not the bytes the kernel moved: a kernel that
    // reads its data many times (a naive GEMM) sits at its tiled sibling's x.
    return tr("Algorithmic intensity: spec FLOP ÷ ideal bytes_moved (FLOP/byte)");
}

QString RooflineView::labelText(const RooflineCase &c) const
{
    QString text = c.caseName;
    if (bytesSource() == BytesSource::Mixed && !c.point->measuredBytes())
        text += tr(" · ideal bytes");
    if (c.point->implausible)
        text += tr(" ⚠ implausible");
    return text;
}

const RooflineCase *RooflineView::drawnCase(int series, double intensity, double tflops) const
{
    if (series < 0 || series >= m_data.series.size())
        return nullptr;
    for (const RooflineCase &c : m_data.series[series].cases) {
        if (c.point && c.point->intensity && *c.point->intensity == intensity && *c.point->achievedTflops == tflops)
            return &c;
    }
    return nullptr;
}

QString RooflineView::pointText(const QCPGraph *graph, int index) const
{
    const QVariant series = graph->property("gpufRooflineSeries"); // set by drawPoints on each points graph
    if (!series.isValid() || index < 0 || index >= graph->dataCount())
        return {};
    // The graph holds its points sorted by intensity: the case is found by the point, not by its place.
    const auto at = graph->data()->at(index);
    const RooflineCase *c = drawnCase(series.toInt(), at->key, at->value);
    if (!c)
        return {};
    const QLocale locale;
    const RooflinePoint &p = *c->point;
    const QString gigabytes = locale.toString(p.dramBytes.value_or(p.bytes) / 1e9, 'g', 3);
    const QString source = p.measuredBytes()
        ? tr("x: its FLOPs over the %1 GB it was measured moving through DRAM (ideal: %2 GB)")
              .arg(gigabytes, locale.toString(p.bytes / 1e9, 'g', 3))
        : tr("x: its FLOPs over the %1 GB it must move at least (the spec's bytes_moved); its DRAM bytes are not "
             "measured, so it may sit further left")
              .arg(gigabytes);
    return rooflineLine(m_data.series[series.toInt()], *c) + u'\n' + source;
}

} // namespace gpuf
