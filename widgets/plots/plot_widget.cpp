// PlotWidget; see plot_widget.h.
#include "widgets/plots/plot_widget.h"
#include "widgets/plots/plot_qcustomplot.h"

#include "core/bins/bins.h"
#include "core/session/selection.h"

#include <QDate>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace gpuf {

namespace {

constexpr double kHoverPixels = 6.0; // how near a curve the pointer must be to name it

QString fileNamePart(const QString &text)
{
    QString out;
    for (const QChar c : text) {
        if (c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_'))
            out += c.toLower();
        else if (!out.isEmpty() && !out.endsWith(QLatin1Char('-')))
            out += QLatin1Char('-'); // spaces, slashes and other separators become one dash
    }
    while (out.endsWith(QLatin1Char('-')) || out.endsWith(QLatin1Char('.')))
        out.chop(1);
    while (out.startsWith(QLatin1Char('.')))
        out.remove(0, 1); // never a hidden file
    return out;
}

QString formatValue(double value)
{
    return std::isfinite(value) ? QLocale().toString(value, 'g', 3) : QStringLiteral("—");
}

} // namespace

PlotWidget::PlotWidget(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_controls(new QHBoxLayout)
    , m_exportButton(new QToolButton(this))
    , m_colors(PlotColors::fromPalette(palette()))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_controls->setContentsMargins(6, 4, 6, 0);
    layout->addLayout(m_controls);
    layout->addWidget(m_plot, 1);

    m_plot->setMinimumSize(320, 240);
    // Clicks drill down; nothing here is selectable or draggable, so a click is never mistaken for a drag.
    m_plot->setInteractions({});
    m_plot->setAntialiasedElements(QCP::aeAll);
    // Hovering a curve names it (the thin per-problem curves have no legend entry).
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) { hover(event->pos()); });
    // As many value ticks as the axis has room for: a short count axis under a tall plot gets two or three, not five
    // labels printed over each other.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (fitTicks())
            m_plot->replot(QCustomPlot::rpQueuedReplot);
    });

    m_exportButton->setText(tr("Export"));
    m_exportButton->setToolTip(tr("Save this plot as PNG, SVG or PDF"));
    m_exportButton->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(m_exportButton);
    const auto addFormat = [this, menu](const QString &text, ExportFormat format) {
        connect(menu->addAction(text), &QAction::triggered, this, [this, format] { exportInteractively(format); });
    };
    addFormat(tr("PNG image…"), ExportFormat::Png);
    addFormat(tr("SVG drawing…"), ExportFormat::Svg);
    addFormat(tr("PDF document…"), ExportFormat::Pdf);
    m_exportButton->setMenu(menu);
    m_controls->addStretch(1);
    m_controls->addWidget(m_exportButton);
}

PlotWidget::~PlotWidget() = default;

void PlotWidget::setSelection(Selection *selection) { m_selection = selection; }

void PlotWidget::setInput(const PlotInput &input)
{
    m_input = input;
    if (m_input.series.size() > kMaxPlotSeries)
        m_input.series.resize(kMaxPlotSeries);
    rebuild();
}

void PlotWidget::drillDown(const DrillDown &drill)
{
    QString description = drill.description;
    if (m_input.replayedCandidates) {
        const auto replayed = std::count_if(drill.candidateIds.cbegin(), drill.candidateIds.cend(),
            [this](RowId id) { return m_input.replayedCandidates->contains(id); });
        if (replayed > 0)
            description += tr(" · %n with a truth replayed from stored runtimes ↺", nullptr, int(replayed));
    }
    if (m_selection && !drill.pairs.isEmpty()) {
        // Forecast rows: the pairs themselves are listed (never narrowed by the candidate table's scope), the first
        // one's diff shown.
        m_selection->setDrillPairs(drill.pairs, description);
        m_selection->setPair(drill.pairs.first().candidateId, drill.pairs.first().referenceId);
    } else if (m_selection) {
        m_selection->setFilter(drill.candidateIds, description);
        if (!drill.candidateIds.isEmpty()) {
            const RowId candidate = drill.candidateIds.first();
            const RowId reference = m_input.referenceIds ? m_input.referenceIds->value(candidate) : RowId(0);
            m_selection->setPair(candidate, reference);
        }
    }
    Q_EMIT drilledDown(drill.candidateIds, description);
}

void PlotWidget::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        m_colors = PlotColors::fromPalette(palette());
        rebuild();
    }
}

bool PlotWidget::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::Leave)
        hover(QPoint(-1, -1));
    return QWidget::eventFilter(watched, event);
}

bool PlotWidget::fitTicks()
{
    const QFontMetrics metrics(font());
    bool changed = false;
    for (QCPAxisRect *rect : m_plot->axisRects()) {
        for (QCPAxis *axis : rect->axes()) {
            // Bin ranges where the columns have room for them, else the bin numbers.
            if (axis->orientation() == Qt::Horizontal
                && fitBinTicks(
                    axis, rect->width() / bins::kBinCount, binRangeLabelWidth(QFontMetrics(axis->tickLabelFont()))))
                changed = true;
            // Named ticks (the bins) and fixed steps keep their own spacing.
            const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
            if (!ticker || !axis->visible() || !axis->tickLabels() || ticker.dynamicCast<QCPAxisTickerText>()
                || ticker.dynamicCast<QCPAxisTickerFixed>())
                continue;
            const bool vertical = axis->orientation() == Qt::Vertical;
            const int length = vertical ? rect->height() : rect->width();
            // A label and a gap as tall as a line (vertical), or as wide as a few digits (horizontal).
            const int room = vertical ? 2 * metrics.height() : 8 * metrics.averageCharWidth();
            const int count = std::clamp(length / std::max(1, room), 2, 6);
            if (ticker->tickCount() != count) {
                ticker->setTickCount(count);
                changed = true;
            }
        }
    }
    return changed;
}

QCPGraph *PlotWidget::graphNear(const QPoint &pos) const
{
    QCPGraph *best = nullptr;
    double bestDistance = kHoverPixels;
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph *graph = m_plot->graph(i);
        if (!graph->visible() || graph->name().isEmpty() || !graph->keyAxis()->axisRect()->rect().contains(pos))
            continue;
        const double distance = graph->selectTest(pos, false);
        if (distance >= 0 && distance < bestDistance) {
            best = graph;
            bestDistance = distance;
        }
    }
    return best;
}

QString PlotWidget::pointText(const QCPGraph * /*graph*/, int /*index*/) const { return {}; }

QString PlotWidget::hoverText(const QPoint &pos) const
{
    const QCPGraph *graph = graphNear(pos);
    if (!graph)
        return {};
    // The curve's own point nearest the pointer along the key axis.
    const double key = graph->keyAxis()->pixelToCoord(pos.x());
    const QCPGraphData *nearest = nullptr;
    int nearestIndex = -1;
    int index = 0;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it, ++index) {
        if (!nearest || std::abs(it->key - key) < std::abs(nearest->key - key)) {
            nearest = &*it;
            nearestIndex = index;
        }
    }
    if (!nearest)
        return graph->name();
    if (QString described = pointText(graph, nearestIndex); !described.isEmpty())
        return described;
    const auto axisName = [](const QCPAxis *axis, const QString &fallback) {
        return axis->label().isEmpty() ? fallback : axis->label();
    };
    return tr("%1\n%2: %3\n%4: %5")
        .arg(graph->name(), axisName(graph->keyAxis(), tr("x")), formatValue(nearest->key),
            axisName(graph->valueAxis(), tr("y")), formatValue(nearest->value));
}

void PlotWidget::hover(const QPoint &pos)
{
    QCPGraph *graph = pos.x() < 0 ? nullptr : graphNear(pos);
    if (graph != m_hovered) {
        if (m_hovered)
            m_hovered->setPen(m_hoveredPen);
        m_hovered = graph;
        if (graph) {
            m_hoveredPen = graph->pen();
            QPen strong = m_hoveredPen;
            QColor color = strong.color();
            color.setAlpha(255);
            strong.setColor(color);
            strong.setWidthF(std::max(2.0, strong.widthF() + 1.0));
            graph->setPen(strong);
        }
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    const QString text = graph ? hoverText(pos) : QString();
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(m_plot->mapToGlobal(pos), text, m_plot);
}

QString PlotWidget::defaultExportName(
    const QString &forecaster, const QString &plot, const QDate &date, ExportFormat format)
{
    static const char *const suffixes[] = {".png", ".svg", ".pdf"};
    QStringList parts;
    for (const QString &part : {forecaster, plot}) {
        const QString safe = fileNamePart(part);
        if (!safe.isEmpty())
            parts.append(safe);
    }
    parts.append(date.toString(Qt::ISODate));
    return parts.join(QLatin1Char('-')) + QLatin1StringView(suffixes[int(format)]);
}

QString PlotWidget::defaultExportName(ExportFormat format) const
{
    QStringList names;
    for (const PlotSeries &series : m_input.series)
        names.append(series.name);
    return defaultExportName(names.join(tr(" vs ")), windowTitle(), QDate::currentDate(), format);
}

std::optional<PlotWidget::ExportFormat> PlotWidget::formatOf(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1StringView("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1StringView("svg"))
        return ExportFormat::Svg;
    if (suffix == QLatin1StringView("pdf"))
        return ExportFormat::Pdf;
    return std::nullopt;
}

Status PlotWidget::exportTo(const QString &path, QSize size) const
{
    const std::optional<ExportFormat> format = formatOf(path);
    if (!format)
        return Error {tr("Cannot tell the format of \"%1\": use .png, .svg or .pdf.").arg(path)};
    if (size.isEmpty())
        size = m_plot->size().isEmpty() || !m_plot->isVisible() ? QSize(900, 600) : m_plot->size();
    bool written = false;
    switch (*format) {
    case ExportFormat::Png:
        written = m_plot->savePng(path, size.width(), size.height(), 2.0);
        break;
    case ExportFormat::Pdf:
        written = m_plot->savePdf(path, size.width(), size.height(), QCP::epNoCosmetic, {}, windowTitle());
        break;
    case ExportFormat::Svg: {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(windowTitle());
        QCPPainter painter;
        written = painter.begin(&generator);
        if (written) {
            m_plot->toPainter(&painter, size.width(), size.height());
            written = painter.end();
        }
        written = written && QFileInfo(path).size() > 0;
        break;
    }
    }
    if (!written)
        return Error {tr("Could not write \"%1\".").arg(path)};
    return {};
}

void PlotWidget::exportInteractively(ExportFormat format)
{
    static const char *const filters[]
        = {QT_TR_NOOP("PNG image (*.png)"), QT_TR_NOOP("SVG drawing (*.svg)"), QT_TR_NOOP("PDF document (*.pdf)")};
    static const char *const suffixes[] = {".png", ".svg", ".pdf"};
    const int index = int(format);
    const QString suffix = QLatin1StringView(suffixes[index]);
    QString folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (folder.isEmpty() || !QDir(folder).exists())
        folder = QDir::homePath();
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export plot"), QDir(folder).filePath(defaultExportName(format)), tr(filters[index]));
    if (path.isEmpty())
        return;
    if (!path.endsWith(suffix, Qt::CaseInsensitive))
        path += suffix;
    const Status status = exportTo(path);
    if (!status)
        QMessageBox::warning(this, tr("Export plot"), status.error());
}

} // namespace gpuf
