// ConfusionPlot; see confusion_plot.h.
#include "widgets/calibration/confusion_plot.h"
#include "widgets/plots/plot_qcustomplot.h"

#include "core/bins/bins.h"

#include <QComboBox>
#include <QLabel>
#include <QLocale>

#include <cmath>

namespace gpuf {

namespace {

using metrics::ConfusionNormalisation;

QString cellText(ConfusionNormalisation how, qint64 count, double share, const QLocale &locale)
{
    if (how == ConfusionNormalisation::None)
        return locale.toString(count);
    return std::isfinite(share) ? QString::number(100.0 * share, 'f', share < 0.1 ? 1 : 0) + QLatin1Char('%')
                                : QString();
}

} // namespace

ConfusionPlot::ConfusionPlot(QWidget *parent)
    : PlotWidget(parent)
    , m_normalisationBox(new QComboBox(this))
    , m_title(new QCPTextElement(plot(), QString(), QFont(font().family(), 10)))
    , m_grid(new QCPLayoutGrid)
{
    setWindowTitle(tr("Confusion matrix"));
    m_normalisationBox->addItem(tr("Counts"), int(ConfusionNormalisation::None));
    m_normalisationBox->addItem(tr("Share of each true bin (rows)"), int(ConfusionNormalisation::ByTrueBin));
    m_normalisationBox->addItem(
        tr("Share of each predicted bin (columns)"), int(ConfusionNormalisation::ByPredictedBin));
    m_normalisationBox->addItem(tr("Share of all forecasts"), int(ConfusionNormalisation::ByTotal));
    auto *label = new QLabel(tr("&Cells:"), this);
    label->setBuddy(m_normalisationBox);
    controls()->insertWidget(0, label);
    controls()->insertWidget(1, m_normalisationBox);
    connect(m_normalisationBox, &QComboBox::currentIndexChanged, this,
        [this] { setNormalisation(ConfusionNormalisation(m_normalisationBox->currentData().toInt())); });

    // Row 0 the title; row 1 a grid rebuilt with the series, one (matrix, colour scale) pair per series.
    plot()->plotLayout()->clear();
    plot()->plotLayout()->addElement(0, 0, m_title);
    plot()->plotLayout()->addElement(1, 0, m_grid);
    for (QCPMarginGroup *&group : m_margins)
        group = new QCPMarginGroup(plot());

    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent *event) { m_pressPos = event->pos(); });
    connect(plot(), &QCustomPlot::mouseRelease, this, [this](QMouseEvent *event) {
        if (event->button() == Qt::LeftButton && (event->pos() - m_pressPos).manhattanLength() <= 3)
            handleClick(event->pos());
    });
    rebuild();
}

void ConfusionPlot::setNormalisation(ConfusionNormalisation how)
{
    if (how == m_normalisation)
        return;
    m_normalisation = how;
    const int index = m_normalisationBox->findData(int(how));
    if (index >= 0 && index != m_normalisationBox->currentIndex())
        m_normalisationBox->setCurrentIndex(index);
    rebuild();
}

QCPColorMap *ConfusionPlot::colorMap(int index) const
{
    return index >= 0 && index < kMaxPlotSeries ? m_matrices[std::size_t(index)].map : nullptr;
}

QCPColorScale *ConfusionPlot::colorScale(int index) const
{
    return index >= 0 && index < kMaxPlotSeries ? m_matrices[std::size_t(index)].scale : nullptr;
}

QCPAxisRect *ConfusionPlot::matrixRect(int index) const
{
    return index >= 0 && index < kMaxPlotSeries ? m_matrices[std::size_t(index)].rect : nullptr;
}

QList<QCPItemText *> ConfusionPlot::cellLabels(int index) const
{
    return index >= 0 && index < kMaxPlotSeries ? m_matrices[std::size_t(index)].labels : QList<QCPItemText *> {};
}

QString ConfusionPlot::title() const { return m_title->text(); }

QPoint ConfusionPlot::cellCenter(int index, int trueBin, int predictedBin) const
{
    const QCPAxisRect *rect = matrixRect(index);
    if (!rect)
        return {};
    return QPoint(int(std::lround(rect->axis(QCPAxis::atBottom)->coordToPixel(predictedBin))),
        int(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(trueBin))));
}

void ConfusionPlot::clearMatrices()
{
    plot()->clearPlottables();
    plot()->clearItems();
    for (Matrix &matrix : m_matrices) {
        if (matrix.rect)
            m_grid->remove(matrix.rect);
        if (matrix.scale)
            m_grid->remove(matrix.scale);
        matrix = Matrix {};
    }
    m_grid->simplify();
}

void ConfusionPlot::rebuild()
{
    clearMatrices();
    QStringList lines {tr("Confusion matrix: true bin (rows) × predicted bin (columns)")};
    const QLocale locale;
    for (int k = 0; k < input().series.size(); ++k) {
        const PlotSeries &series = input().series[k];
        if (!series.report)
            continue;
        addMatrix(k, series);
        const qint64 total = series.report->confusion.total();
        qint64 diagonal = 0;
        for (int b = 0; b < bins::kBinCount; ++b)
            diagonal += series.report->confusion.counts[std::size_t(b)][std::size_t(b)];
        lines.append(tr("%1: %2 parsed forecasts, %3 on the diagonal")
                         .arg(series.name, locale.toString(total), locale.toString(diagonal)));
    }
    m_title->setText(lines.join(QLatin1Char('\n')));
    applyFrameColors(plot(), colors());
    // Cell texts pick black or white against their own cell after the colours are known.
    for (int k = 0; k < kMaxPlotSeries; ++k) {
        Matrix &matrix = m_matrices[std::size_t(k)];
        if (!matrix.map)
            continue;
        QCPColorGradient gradient = matrix.map->gradient();
        for (QCPItemText *text : std::as_const(matrix.labels)) {
            const double z = text->property("z").toDouble();
            text->setColor(colors().textOn(QColor::fromRgba(gradient.color(z, matrix.map->dataRange()))));
        }
    }
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

// The matrix's cells: counts or shares (as the normalisation says) coloured, and a label in each non-empty cell;
// returns the largest value, the top of the colour scale.
double ConfusionPlot::fillCells(Matrix &matrix, QCPAxis *x, QCPAxis *y, const metrics::MetricsReport &report)
{
    const metrics::ConfusionMatrix &counts = report.confusion;
    const metrics::NormalisedConfusion shares = metrics::normalised(counts, m_normalisation);
    matrix.map = new QCPColorMap(x, y);
    matrix.map->data()->setSize(bins::kBinCount, bins::kBinCount);
    matrix.map->data()->setRange(QCPRange(1, bins::kBinCount), QCPRange(1, bins::kBinCount));
    matrix.map->setInterpolate(false);
    matrix.map->setColorScale(matrix.scale);
    const QLocale locale;
    double top = 0.0;
    for (int t = 1; t <= bins::kBinCount; ++t) {
        for (int p = 1; p <= bins::kBinCount; ++p) {
            const qint64 n = counts.counts[std::size_t(t - 1)][std::size_t(p - 1)];
            const double share = shares[std::size_t(t - 1)][std::size_t(p - 1)];
            const double z = m_normalisation == ConfusionNormalisation::None ? double(n) : share;
            matrix.map->data()->setCell(p - 1, t - 1, z);
            if (std::isfinite(z))
                top = std::max(top, z);
            if (n == 0)
                continue; // an empty cell stays blank, so the populated ones stand out
            auto *text = new QCPItemText(plot());
            text->setClipAxisRect(matrix.rect);
            text->position->setAxes(x, y);
            text->position->setCoords(p, t);
            text->setText(cellText(m_normalisation, n, share, locale));
            text->setFont(QFont(font().family(), 8));
            text->setProperty("z", z);
            matrix.labels.append(text);
        }
    }
    return top;
}

void ConfusionPlot::addMatrix(int index, const PlotSeries &series)
{
    Matrix &matrix = m_matrices[std::size_t(index)];
    matrix.rect = new QCPAxisRect(plot());
    matrix.scale = new QCPColorScale(plot());
    m_grid->addElement(0, 2 * index, matrix.rect);
    m_grid->addElement(0, 2 * index + 1, matrix.scale);
    m_grid->setColumnStretchFactor(2 * index, 5.0);
    m_grid->setColumnStretchFactor(2 * index + 1, 0.01);
    QCPMarginGroup *margins = m_margins[std::size_t(index)];
    matrix.rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    matrix.scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    matrix.scale->setBarWidth(10);

    QCPAxis *x = matrix.rect->axis(QCPAxis::atBottom);
    QCPAxis *y = matrix.rect->axis(QCPAxis::atLeft);
    for (QCPAxis *axis : {x, y}) {
        axis->setRange(0.5, bins::kBinCount + 0.5);
        axis->grid()->setVisible(false);
    }
    setBinTicks(x, BinTicks::Ranges);
    setBinTicks(y, index == 0 ? BinTicks::Names : BinTicks::Numbers); // a second matrix beside the first: no repeat
    x->setLabel(tr("predicted bin — %1").arg(series.name));
    y->setLabel(tr("true bin"));

    const double top = fillCells(matrix, x, y, *series.report);

    QCPColorGradient gradient;
    gradient.setColorStopAt(0.0, colors().background);
    gradient.setColorStopAt(1.0, colors().seriesColor(index));
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(colors().background);
    matrix.map->setGradient(gradient);
    matrix.map->setDataRange(QCPRange(0.0, top > 0.0 ? top : 1.0));
    matrix.scale->axis()->setLabel(m_normalisation == ConfusionNormalisation::None ? tr("forecasts") : tr("share"));
}

DrillDown ConfusionPlot::cellDrillDown(int index, int trueBin, int predictedBin) const
{
    DrillDown drill;
    if (index < 0 || index >= input().series.size() || !input().series[index].rows)
        return drill;
    const PlotSeries &series = input().series[index];
    const auto inCell = [trueBin, predictedBin](const metrics::ScoredRow &row) {
        return row.parsed && row.predictedBin == predictedBin && row.trueBin == trueBin;
    };
    drill.candidateIds = candidateIdsWhere(*series.rows, inCell);
    drill.pairs = drillPairsWhere(series, input(), inCell);
    drill.description = tr("true bin %1, predicted bin %2 (%3): %n forecast(s)", nullptr, int(drill.pairs.size()))
                            .arg(trueBin)
                            .arg(predictedBin)
                            .arg(series.name);
    return drill;
}

void ConfusionPlot::handleClick(const QPoint &pos)
{
    for (int k = 0; k < kMaxPlotSeries; ++k) {
        const Matrix &matrix = m_matrices[std::size_t(k)];
        if (!matrix.rect || !matrix.rect->rect().contains(pos))
            continue;
        const int predicted = int(std::lround(matrix.rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x())));
        const int truth = int(std::lround(matrix.rect->axis(QCPAxis::atLeft)->pixelToCoord(pos.y())));
        if (predicted >= 1 && predicted <= bins::kBinCount && truth >= 1 && truth <= bins::kBinCount)
            drillDown(cellDrillDown(k, truth, predicted));
        return;
    }
}

} // namespace gpuf
