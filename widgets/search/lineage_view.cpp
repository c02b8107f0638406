// LineageView and its legend; see lineage_view.h.
#include "widgets/search/lineage_view.h"

#include "core/bins/bins.h"
#include "core/search/lineage.h"
#include "widgets/search/bin_colors.h"
#include "widgets/search/lineage_canvas.h"
#include "widgets/search/lineage_painter.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QResizeEvent>
#include <QToolButton>
#include <QVBoxLayout>

namespace gpuf {

using search::LineageKind;

namespace {

struct KindEntry
{
    LineageKind kind;
    const char *text;
};

// The kinds in the order the legend lists them; the text is translated where it is shown.
constexpr KindEntry kKinds[] = {
    {LineageKind::Seed, QT_TRANSLATE_NOOP("gpuf::LineageLegend", "seed")},
    {LineageKind::Measured, QT_TRANSLATE_NOOP("gpuf::LineageLegend", "measured")},
    {LineageKind::ForecastOnly, QT_TRANSLATE_NOOP("gpuf::LineageLegend", "forecast only")},
    {LineageKind::Deferred, QT_TRANSLATE_NOOP("gpuf::LineageLegend", "deferred")},
    {LineageKind::Failed, QT_TRANSLATE_NOOP("gpuf::LineageLegend", "failed")},
    {LineageKind::Injected, QT_TRANSLATE_NOOP("gpuf::LineageLegend", "injected")},
    {LineageKind::Pending, QT_TRANSLATE_NOOP("gpuf::LineageLegend", "in progress")},
};

constexpr double kLegendRadius = 5.0;
constexpr int kGap = 14;

} // namespace

LineageLegend::LineageLegend(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

QStringList LineageLegend::entries() const
{
    QStringList out;
    for (const Entry &e : layoutEntries(width()))
        out << e.text;
    return out;
}

QList<LineageLegend::Entry> LineageLegend::layoutEntries(int width) const
{
    QList<Entry> out;
    for (const KindEntry &k : kKinds)
        out.append({Entry::Kind, int(k.kind), tr(k.text), {}});
    out.append({Entry::BestPath, 0, tr("best path"), {}});
    out.append({Entry::Pinned, 0, tr("pinned"), {}});
    out.append({Entry::Vetoed, 0, tr("vetoed"), {}});
    for (int b = 1; b <= bins::kBinCount; ++b)
        out.append(
            {Entry::Bin, b, QStringLiteral("%1: %2").arg(b).arg(bins::rangeText(b).remove(QLatin1Char(' '))), {}});
    // Flow left to right, wrapping at the width; the bins start a line of their own.
    const QFontMetrics metrics = fontMetrics();
    const int line = metrics.height() + 6;
    const int symbol = int(2 * kLegendRadius) + 6;
    int x = 8;
    int y = 4;
    for (Entry &e : out) {
        const int w = symbol + metrics.horizontalAdvance(e.text);
        if ((x > 8 && x + w > width - 8) || (e.what == Entry::Bin && e.value == 1 && x > 8)) {
            x = 8;
            y += line;
        }
        e.rect = QRect(x, y, w, line);
        x += w + kGap;
    }
    return out;
}

int LineageLegend::heightForWidth(int width) const
{
    const QList<Entry> entries = layoutEntries(width);
    return entries.isEmpty() ? 0 : entries.last().rect.bottom() + 4;
}

QSize LineageLegend::minimumSizeHint() const { return {200, heightForWidth(200)}; }

QSize LineageLegend::sizeHint() const
{
    const int w = std::max(width(), 600);
    return {w, heightForWidth(w)};
}

void LineageLegend::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const int h = heightForWidth(width());
    if (h != height()) {
        setFixedHeight(h);
        updateGeometry();
    }
}

void LineageLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    const LineageColors colors = LineageColors::fromPalette(palette());
    const QFontMetrics metrics = fontMetrics();
    const double r = kLegendRadius;
    for (const Entry &e : layoutEntries(width())) {
        const QPointF c(e.rect.left() + r + 1, e.rect.center().y() + 1);
        switch (e.what) {
        case Entry::Kind:
            // The shapes carry a middle bin's colour, so shape and fill both read.
            drawLineageNode(p, c, r, LineageKind(e.value), 6, colors);
            break;
        case Entry::BestPath:
            p.setPen(QPen(colors.highlight, 3.0, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(QPointF(c.x() - r, c.y()), QPointF(c.x() + r, c.y()));
            break;
        case Entry::Pinned:
            drawLineageNode(p, c + QPointF(0, 3), r - 1.5, LineageKind::Measured, 6, colors);
            drawPinMark(p, c + QPointF(0, 3), r - 1.5, colors);
            break;
        case Entry::Vetoed:
            drawLineageNode(p, c, r - 1.5, LineageKind::Measured, 6, colors);
            drawVetoMark(p, c, r - 1.5, colors);
            break;
        case Entry::Bin:
            p.setPen(QPen(colors.muted, 1.0));
            p.setBrush(binColor(e.value, colors.dark));
            p.drawRect(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r));
            break;
        }
        p.setPen(colors.foreground);
        p.drawText(QPointF(e.rect.left() + 2 * r + 6, c.y() + metrics.ascent() / 2.0 - 2), e.text);
    }
}

void LineageLegend::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        update();
}

LineageView::LineageView(QWidget *parent)
    : QWidget(parent)
    , m_canvas(new LineageCanvas(this))
    , m_unmeasured(new QCheckBox(tr("Unmeasured"), this))
    , m_legend(new LineageLegend(this))
    , m_summary(new QLabel(this))
    , m_zoomIn(new QToolButton(this))
    , m_zoomOut(new QToolButton(this))
    , m_fit(new QToolButton(this))
{
    m_zoomIn->setText(QStringLiteral("+"));
    m_zoomIn->setToolTip(tr("Zoom in (+)"));
    m_zoomOut->setText(QStringLiteral("−"));
    m_zoomOut->setToolTip(tr("Zoom out (−)"));
    m_fit->setText(tr("Fit"));
    m_fit->setToolTip(tr("Show the whole tree (0)"));
    connect(m_zoomIn, &QToolButton::clicked, m_canvas, &LineageCanvas::zoomIn);
    connect(m_zoomOut, &QToolButton::clicked, m_canvas, &LineageCanvas::zoomOut);
    connect(m_fit, &QToolButton::clicked, m_canvas, &LineageCanvas::fitToView);
    connect(m_canvas, &LineageCanvas::nodeActivated, this, &LineageView::nodeActivated);
    connect(m_canvas, &LineageCanvas::nodeContextMenuRequested, this, &LineageView::nodeContextMenuRequested);
    m_unmeasured->setChecked(true);
    m_unmeasured->setToolTip(tr("Show the candidates that were not measured (forecast only, deferred, failed); "
                                "without them the tree is the measured lineage"));
    connect(m_unmeasured, &QCheckBox::toggled, this, [this] { showLineage(); });
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("No search"));

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_unmeasured);
    bar->addWidget(m_zoomOut);
    bar->addWidget(m_zoomIn);
    bar->addWidget(m_fit);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_canvas, 1);
    layout->addWidget(m_legend);
}

void LineageView::setSearch(const search::SearchState &state)
{
    refresh(state);
    m_canvas->fitToView(); // another search (or the same one read again): the whole tree, fitted as it grows
}

void LineageView::refresh(const search::SearchState &state)
{
    m_full = search::buildLineage(state);
    if (m_names) {
        for (search::LineageNode &node : m_full.nodes) {
            if (const QString name = m_names->value(node.id); !name.isEmpty())
                node.kernel = name;
        }
    }
    showLineage();
    updateSummary(state);
}

void LineageView::showLineage()
{
    // A node chosen elsewhere before the tree had it (the tree redraws a moment after the log grew) is marked once
    // it arrives.
    const QString selected = m_canvas->selectedNode().isEmpty() ? m_wanted : m_canvas->selectedNode();
    m_canvas->setLineage(search::scopedLineage(m_full, scope()));
    m_canvas->selectNode(selected);
}

void LineageView::setScope(search::LineageScope scope) { m_unmeasured->setChecked(scope == search::LineageScope::All); }

search::LineageScope LineageView::scope() const
{
    return m_unmeasured->isChecked() ? search::LineageScope::All : search::LineageScope::Measured;
}

void LineageView::applyEvents(const search::SearchState &state, const QList<SearchEvent> &newEvents)
{
    if (newEvents.isEmpty())
        return;
    refresh(state); // zoom, pan and selection stay
}

void LineageView::selectNode(const QString &nodeId)
{
    m_wanted = nodeId;
    m_canvas->selectNode(nodeId);
}

QString LineageView::selectedNode() const { return m_canvas->selectedNode(); }

QString LineageView::summaryText() const { return m_summary->text(); }

void LineageView::updateSummary(const search::SearchState &state)
{
    const search::Lineage &lineage = m_full;
    // Measured as the live line counts GPU evaluations: a seed's speedup is known without one (the reference is 1×).
    int measured = 0;
    for (const search::LineageNode &n : lineage.nodes) {
        if (n.speedup && n.kind != search::LineageKind::Seed)
            ++measured;
    }
    QString text = tr("%n node(s), %1 measured, %2 in the archive", nullptr, int(lineage.nodes.size()))
                       .arg(measured)
                       .arg(state.archive.nodes.size());
    if (state.bestReward)
        text += tr(" · best %1 after %n step(s)", nullptr, state.completedSteps())
                    .arg(bins::speedupText(*state.bestReward));
    m_summary->setText(text);
}

} // namespace gpuf
