// DistributionPlot; see distribution_plot.h.
#include "widgets/forecast/distribution_plot.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QEvent>
#include <QFontMetrics>
#include <QVBoxLayout>

namespace gpuf {

DistributionPlot::DistributionPlot(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_colors(PlotColors::fromPalette(palette()))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumSize(300, 180);
    m_plot->setInteractions({});
    m_plot->setAntialiasedElements(QCP::aeAll);

    QCPAxis *x = m_plot->xAxis;
    QCPAxis *y = m_plot->yAxis;
    x->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    QFont small = x->tickLabelFont();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    x->setTickLabelFont(small);
    updateTickLabels();
    x->setSubTicks(false);
    x->setTickLength(0, 4);
    x->setRange(0.4, bins::kBinCount + 0.6);
    y->setRange(0.0, 1.08);
    y->setLabel(tr("probability"));

    m_others = new QCPBars(x, y);
    m_predicted = new QCPBars(x, y);
    for (QCPBars *bars : {m_others, m_predicted})
        bars->setWidth(0.7);
    m_others->setName(tr("other bins"));
    m_predicted->setName(tr("predicted bin"));

    // Behind the bars (grid layer): a band over the measured bin. Its words go in the title row above the plot, where
    // they never collide with the bars' value labels however short the dock is.
    m_measuredBand = new QCPItemRect(m_plot);
    m_measuredBand->setLayer(QStringLiteral("grid"));
    m_title = new QCPTextElement(m_plot, QString(), QFont(font().family(), font().pointSize()));
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_title);
    for (int b = 1; b <= bins::kBinCount; ++b) {
        auto *label = new QCPItemText(m_plot);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->position->setCoords(b, 0.0);
        m_valueLabels.append(label);
    }
    rebuild();
}

DistributionPlot::~DistributionPlot() = default;

void DistributionPlot::setDistribution(
    const bins::Distribution &p, int predictedBin, std::optional<int> measuredBin, const QString &measuredLabel)
{
    m_p = p;
    m_predictedBin = predictedBin;
    m_measuredBin = measuredBin;
    m_measuredLabel = measuredLabel;
    rebuild();
}

void DistributionPlot::clear() { setDistribution({}, 0); }

QString DistributionPlot::title() const { return m_title->text(); }

void DistributionPlot::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        m_colors = PlotColors::fromPalette(palette());
        rebuild();
    }
}

void DistributionPlot::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (updateTickLabels())
        m_plot->replot(QCustomPlot::rpQueuedReplot);
}

// "0.71×–1.00×" as "0.71–1.00×": eight ranges must fit under eight bars in a dock. Where a range is wider than its
// bar's share of the axis (a narrow dock), its bounds go on two lines so that neighbours never run into each other.
bool DistributionPlot::updateTickLabels()
{
    QCPAxis *x = m_plot->xAxis;
    const QFontMetrics metrics(x->tickLabelFont());
    // The axis spans the widget less the value axis and margins; each bin gets an equal share of it.
    const double perBin = (width() - 4 * metrics.height()) / (bins::kBinCount + 0.2);
    bool stacked = false;
    for (int b = 1; b <= bins::kBinCount; ++b) {
        const QString range = bins::rangeText(b).replace(QStringLiteral("×–"), QStringLiteral("–"));
        stacked = stacked || metrics.horizontalAdvance(range) + metrics.averageCharWidth() > perBin;
    }
    if (m_stackedRanges == std::optional<bool>(stacked))
        return false;
    m_stackedRanges = stacked;
    auto ticker = x->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    for (int b = 1; b <= bins::kBinCount; ++b)
        ticker->addTick(b,
            QStringLiteral("%1\n%2").arg(b).arg(bins::rangeText(b).replace(
                QStringLiteral("×–"), stacked ? QStringLiteral("–\n") : QStringLiteral("–"))));
    return true;
}

void DistributionPlot::rebuild()
{
    QVector<double> otherKeys, otherValues, predictedKeys, predictedValues;
    for (int b = 1; b <= bins::kBinCount; ++b) {
        const double p = m_p[std::size_t(b - 1)];
        (b == m_predictedBin ? predictedKeys : otherKeys).append(b);
        (b == m_predictedBin ? predictedValues : otherValues).append(p);
        QCPItemText *label = m_valueLabels[b - 1];
        label->position->setCoords(b, p + 0.01);
        // Empty bins stay unlabelled: the zeros would only add noise.
        label->setText(m_predictedBin > 0 && p >= 0.005 ? QString::number(p, 'f', 2) : QString());
        label->setColor(b == m_predictedBin ? m_colors.foreground : m_colors.muted);
        QFont font = label->font();
        font.setBold(b == m_predictedBin);
        label->setFont(font);
    }
    m_others->setData(otherKeys, otherValues, true);
    m_predicted->setData(predictedKeys, predictedValues, true);
    m_others->setPen(QPen(m_colors.seriesColor(0, 150)));
    m_others->setBrush(m_colors.seriesColor(0, 70));
    m_predicted->setPen(QPen(m_colors.seriesColor(0)));
    m_predicted->setBrush(m_colors.seriesColor(0, 220));

    const bool measured = m_measuredBin && *m_measuredBin >= 1 && *m_measuredBin <= bins::kBinCount;
    m_measuredBand->setVisible(measured);
    if (measured) {
        const double b = *m_measuredBin;
        m_measuredBand->topLeft->setCoords(b - 0.48, 1.08);
        m_measuredBand->bottomRight->setCoords(b + 0.48, 0.0);
        m_measuredBand->setPen(QPen(m_colors.seriesColor(1), 1.5, Qt::DashLine));
        m_measuredBand->setBrush(m_colors.seriesColor(1, 45));
    }
    // Frame colours first: they paint every text element in the foreground colour, the title's included.
    applyFrameColors(m_plot, m_colors);
    m_title->setText(measured ? tr("Bin probabilities · %1 → bin %2 (shaded)").arg(m_measuredLabel).arg(*m_measuredBin)
                              : tr("Bin probabilities (speedup of the candidate over the baseline)"));
    m_title->setTextColor(measured ? m_colors.seriesColor(1) : m_colors.foreground);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace gpuf
