// PlotWidget; see plot_widget.h.
#include "widgets/calibration/plot_widget.h"
#include "widgets/calibration/plot_qcustomplot.h"

#include "widgets/session/selection.h"

#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMenu>
#include <QMessageBox>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace gpuf {

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
    QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), {}, tr(filters[index]));
    if (path.isEmpty())
        return;
    if (!path.endsWith(suffix, Qt::CaseInsensitive))
        path += suffix;
    const Status status = exportTo(path);
    if (!status)
        QMessageBox::warning(this, tr("Export plot"), status.error());
}

} // namespace gpuf
