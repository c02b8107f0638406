// ForecastDetail; see forecast_detail.h.
#include "widgets/forecast/forecast_detail.h"
#include "widgets/forecast/timing_note.h"

#include "widgets/forecast/distribution_plot.h"
#include "widgets/forecast/forecast_reading.h"

#include <QAction>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace gpuf {

namespace {

QLabel *valueLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

QString speedupText(double speedup) { return bins::speedupText(speedup); }

// Appended to a truth that rests on replayed runtimes, so it never passes for a run made here.
QString replayNote(const PairTruth &truth)
{
    if (!truth.measured.replayed)
        return {};
    if (!truth.replayRecordedAt.isValid())
        return ForecastDetail::tr(" ↺ replayed from runtimes recorded earlier, not measured here");
    return ForecastDetail::tr(" ↺ replayed from runtimes recorded on %1, not measured here")
        .arg(QLocale().toString(truth.replayRecordedAt.toLocalTime(), QLocale::ShortFormat));
}

QString hardwareText(const PairForecasts &pair, RowId hardwareId)
{
    const QString name = pair.hardware.value(hardwareId).name;
    return name.isEmpty() ? ForecastDetail::tr("no GPU named") : name;
}

} // namespace

ForecastDetail::ForecastDetail(QAction *measureAction, QWidget *parent)
    : QWidget(parent)
    , m_plot(new DistributionPlot(this))
    , m_stack(new QStackedWidget(this))
    , m_message(new QLabel(this))
    , m_title(new QLabel(this))
    , m_headline(valueLabel(this))
    , m_figures(new QWidget(this))
    , m_predicted(valueLabel(this))
    , m_confidence(valueLabel(this))
    , m_sets(valueLabel(this))
    , m_expected(valueLabel(this))
    , m_entropy(valueLabel(this))
    , m_rawSum(valueLabel(this))
    , m_usage(valueLabel(this))
    , m_truth(valueLabel(this))
    , m_deferral(valueLabel(this))
    , m_reasoningTitle(new QLabel(this))
    , m_reasoning(new QPlainTextEdit(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
{
    m_title->setObjectName(QStringLiteral("forecastTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_headline->setObjectName(QStringLiteral("forecastHeadline"));
    m_message->setObjectName(QStringLiteral("forecastMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setMargin(12);
    m_stack->addWidget(m_plot);
    m_stack->addWidget(m_message);

    QWidget *left = buildFigures(buildFigureForms(measureAction));
    m_reasoning->setObjectName(QStringLiteral("forecastReasoning"));
    m_reasoning->setReadOnly(true);
    m_reasoning->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_reasoningTitle);
    rightLayout->addWidget(m_reasoning, 1);

    auto *leftScroll = new QScrollArea(this);
    leftScroll->setWidget(left);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    leftScroll->setMinimumHeight(120);
    auto *splitter = m_splitter;
    splitter->addWidget(leftScroll);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);
    showMessage(tr("Select a candidate to see its forecasts."));
}

// The distribution's figures, and the form of the measured truth and the deferral with the measure button.
QFormLayout *ForecastDetail::buildFigureForms(QAction *measureAction)
{
    auto *form = new QFormLayout(m_figures);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Predicted bin:"), m_predicted);
    form->addRow(tr("Confidence:"), m_confidence);
    form->addRow(tr("Prediction set:"), m_sets);
    form->addRow(tr("Expected speedup:"), m_expected);
    form->addRow(tr("Entropy:"), m_entropy);
    form->addRow(tr("Raw sum:"), m_rawSum);
    form->addRow(tr("Usage:"), m_usage);

    auto *measureButton = new QToolButton(this);
    measureButton->setDefaultAction(measureAction);
    measureButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *deferralRow = new QHBoxLayout;
    deferralRow->addWidget(m_deferral, 1);
    deferralRow->addWidget(measureButton);
    auto *truthForm = new QFormLayout;
    truthForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    truthForm->addRow(tr("Measured:"), m_truth);
    truthForm->addRow(tr("Deferral:"), deferralRow);
    return truthForm;
}

QWidget *ForecastDetail::buildFigures(QFormLayout *truthForm)
{
    // The figures scroll rather than push: a tall minimum here would grow the whole window (the dock area takes the
    // largest minimum of its tabs).
    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 4, 0);
    leftLayout->addWidget(m_title);
    leftLayout->addWidget(m_headline);
    leftLayout->addWidget(m_stack, 1);
    leftLayout->addWidget(m_figures);
    leftLayout->addLayout(truthForm);
    return left;
}

ForecastDetail::~ForecastDetail() = default;

bool ForecastDetail::showsPlot() const { return m_stack->currentWidget() == m_plot; }
QString ForecastDetail::messageText() const { return showsPlot() ? QString() : m_message->text(); }
QString ForecastDetail::titleText() const { return m_title->text(); }
QString ForecastDetail::headlineText() const { return m_headline->isHidden() ? QString() : m_headline->text(); }
QString ForecastDetail::predictedText() const { return m_predicted->text(); }
QString ForecastDetail::confidenceText() const { return m_confidence->text(); }
QString ForecastDetail::setsText() const { return m_sets->text(); }
QString ForecastDetail::expectedText() const { return m_expected->text(); }
QString ForecastDetail::truthText() const { return m_truth->text(); }
QString ForecastDetail::truthDetails() const { return m_truth->toolTip(); }
QString ForecastDetail::deferralText() const { return m_deferral->text(); }
QString ForecastDetail::reasoningTitle() const { return m_reasoningTitle->text(); }

void ForecastDetail::showRow(
    const PairForecasts &pair, const ForecastRow &row, double threshold, const QString &streamed)
{
    m_pair = pair;
    m_row = row;
    m_hasRow = true;
    m_threshold = threshold;
    render();
    const bool live = row.kind == ForecastRow::Kind::Live;
    if (live) {
        m_reasoningTitle->setText(tr("Reasoning (streaming as it arrives)"));
        setReasoning(streamed);
    } else if (row.kind == ForecastRow::Kind::Combined) {
        m_reasoningTitle->setText(tr("Rationales of the samples"));
        QStringList parts;
        for (const Forecast &f : row.samples)
            parts.append(tr("Sample %1: %2").arg(f.repeat + 1).arg(f.reasoning.trimmed()));
        setReasoning(parts.join(QStringLiteral("\n\n")));
    } else {
        m_reasoningTitle->setText(tr("Rationale"));
        QString text = row.forecast.reasoning.trimmed();
        if (text.isEmpty())
            text = tr("(the forecast carries no rationale)");
        if (!streamed.isEmpty() && streamed.trimmed() != text)
            text += QStringLiteral("\n\n") + tr("— Reasoning as it streamed —") + QStringLiteral("\n") + streamed;
        setReasoning(text);
    }
}

void ForecastDetail::showMessage(const QString &text)
{
    m_hasRow = false;
    m_title->clear();
    m_headline->clear();
    m_headline->hide();
    m_message->setText(text);
    m_stack->setCurrentWidget(m_message);
    m_plot->clear();
    m_figures->hide();
    m_truth->clear();
    m_deferral->clear();
    m_reasoningTitle->setText(tr("Reasoning"));
    m_reasoning->clear();
}

void ForecastDetail::setConformal(const QHash<RowId, ConformalCalibration> &byForecaster)
{
    m_conformal = byForecaster;
    if (m_hasRow)
        render();
}

void ForecastDetail::setThreshold(double threshold)
{
    m_threshold = threshold;
    if (m_hasRow)
        render();
}

void ForecastDetail::appendReasoning(const QString &text)
{
    QTextCursor cursor(m_reasoning->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text);
    m_reasoning->ensureCursorVisible();
}

void ForecastDetail::setReasoning(const QString &text) { m_reasoning->setPlainText(text); }

void ForecastDetail::render()
{
    const ForecastRow &row = m_row;
    const QString forecaster = m_pair.forecasterName(row.forecasterId);
    switch (row.kind) {
    case ForecastRow::Kind::Combined:
        m_title->setText(tr("%1 · mean of %n parsed sample(s) · predicted bin = most probable bin of the mean", nullptr,
            int(std::count_if(row.samples.cbegin(), row.samples.cend(), [](const Forecast &f) {
                return figuresOf(f).has_value();
            }))).arg(forecaster));
        break;
    case ForecastRow::Kind::Live:
        m_title->setText(
            tr("%1 · sample %2 · %3").arg(forecaster).arg(row.repeat + 1).arg(ForecastRowsModel::statusText(row)));
        break;
    case ForecastRow::Kind::Stored:
        m_title->setText(tr("%1 · sample %2 · %3 · %4")
                             .arg(forecaster)
                             .arg(row.repeat + 1)
                             .arg(hardwareText(m_pair, row.forecast.hardwareId),
                                 QLocale().toString(row.forecast.createdAt.toLocalTime(), QLocale::ShortFormat)));
        break;
    }

    if (row.kind == ForecastRow::Kind::Live) {
        m_message->setText(row.item.state == ForecastItemState::Running
                ? tr("%1 is forecasting this pair; its reasoning streams on the right.").arg(forecaster)
                : tr("Queued for %1; it starts when a slot of the endpoint is free.").arg(forecaster));
        m_stack->setCurrentWidget(m_message);
        m_figures->hide();
        m_headline->hide();
        m_truth->clear();
        m_deferral->clear();
        return;
    }
    const std::optional<ForecastFigures> &figures = row.figures;
    if (figures) {
        const std::optional<PairTruth> truth = m_pair.truthFor(row.kind == ForecastRow::Kind::Stored
                ? row.forecast.hardwareId
                : (row.samples.isEmpty() ? 0 : row.samples.first().hardwareId));
        const bool measured = truth && truth->bin;
        m_plot->setDistribution(figures->p, figures->predictedBin, measured ? truth->bin : std::nullopt,
            !measured                      ? QString()
                : truth->measured.replayed ? tr("measured %1 ↺ (replay)").arg(speedupText(truth->measured.speedup))
                                           : tr("measured %1").arg(speedupText(truth->measured.speedup)));
        m_stack->setCurrentWidget(m_plot);
        renderFigures(*figures);
    } else {
        const bool parseFailed = row.forecast.status == ForecastStatus::ParseFailed;
        const QString reason = row.forecast.errorText.isEmpty() ? tr("no reason was recorded") : row.forecast.errorText;
        m_message->setText(parseFailed                         ? tr("The answer could not be parsed: %1").arg(reason)
                : row.forecast.status == ForecastStatus::Error ? tr("The forecast failed: %1").arg(reason)
                                                               : tr("The forecast holds no usable predicted bin."));
        m_stack->setCurrentWidget(m_message);
        m_figures->hide();
        m_headline->hide();
    }
    renderTruth(figures);
    renderDeferral(figures);
}

void ForecastDetail::renderFigures(const ForecastFigures &f)
{
    m_figures->show();
    const ForecastReading reading = readForecast(f);
    m_headline->setText(reading.headline);
    m_headline->show();
    m_predicted->setText(QStringLiteral("%1 — %2 (%3)")
                             .arg(f.predictedBin)
                             .arg(bins::label(f.predictedBin), bins::rangeText(f.predictedBin)));
    m_confidence->setText(tr("%1 (max_prob) · neg_entropy %2 · top2_margin %3")
                              .arg(f.maxProb, 0, 'f', 2)
                              .arg(f.negEntropy, 0, 'f', 2)
                              .arg(f.top2Margin, 0, 'f', 2));
    const auto conformal = m_conformal.constFind(m_row.forecasterId);
    m_sets->setText(predictionSetsText(
        f.p, conformal == m_conformal.cend() ? std::nullopt : std::optional<ConformalCalibration>(*conformal)));
    QString expected = tr("%1 (expected bin %2)").arg(speedupText(f.expectedSpeedup)).arg(f.expectedBin, 0, 'f', 2);
    if (!reading.expectedNote.isEmpty())
        expected += QStringLiteral(" — ") + reading.expectedNote;
    m_expected->setText(expected);
    m_entropy->setText(tr("%1 nats").arg(f.entropy, 0, 'f', 3));
    const Forecast &forecast = m_row.forecast;
    const bool stored = m_row.kind == ForecastRow::Kind::Stored;
    m_rawSum->setText(stored && forecast.rawProbabilitySum
            ? tr("%1 (the distribution was renormalised by it)").arg(*forecast.rawProbabilitySum, 0, 'f', 3)
            : tr("—"));
    QStringList usage;
    if (stored && forecast.tokensIn >= 0)
        usage.append(tr("%1 tokens in, %2 out").arg(forecast.tokensIn).arg(forecast.tokensOut));
    if (stored && forecast.latencySeconds >= 0)
        usage.append(forecast.latencySeconds < 1.0 ? tr("%1 ms").arg(forecast.latencySeconds * 1000.0, 0, 'f', 1)
                                                   : tr("%1 s").arg(forecast.latencySeconds, 0, 'f', 1));
    m_usage->setText(usage.isEmpty() ? tr("—") : usage.join(QStringLiteral(" · ")));
}

namespace {

// Appended to a truth resting on a time faster than the case's bytes can move: such a speedup is not to be believed.
QString implausibleNote(const PairTruth &truth)
{
    if (truth.implausible.cases.isEmpty())
        return {};
    return ForecastDetail::tr(" ⚠ implausible: %1 — faster than its bytes can move (a broken or cheating kernel?)")
        .arg(truth.implausible.text());
}

} // namespace

void ForecastDetail::renderTruth(const std::optional<ForecastFigures> &figures)
{
    const RowId hardwareId = m_row.kind == ForecastRow::Kind::Stored ? m_row.forecast.hardwareId
        : m_row.samples.isEmpty()                                    ? 0
                                                                     : m_row.samples.first().hardwareId;
    const std::optional<PairTruth> truth = m_pair.truthFor(hardwareId);
    m_truth->setToolTip(QString());
    if (!truth) {
        m_truth->setText(tr("not measured"));
        setTone(m_truth, Tone::Neutral);
        return;
    }
    const QString on = truth->hardwareName.isEmpty() ? tr("hardware #%1").arg(truth->hardwareId) : truth->hardwareName;
    switch (truth->measured.state) {
    case MeasuredSpeedup::State::None:
        m_truth->setText(tr("not measured"));
        setTone(m_truth, Tone::Neutral);
        return;
    case MeasuredSpeedup::State::Failed:
        m_truth->setText(tr("the candidate failed on %1 (%2): a failure, not a bin")
                             .arg(on, measurementStatusName(truth->measured.failure))
            + replayNote(*truth));
        setTone(m_truth, Tone::Bad);
        return;
    case MeasuredSpeedup::State::NoBaseline:
        m_truth->setText(tr("the candidate was measured on %1, the baseline was not: no speedup yet").arg(on)
            + replayNote(*truth) + implausibleNote(*truth));
        setTone(m_truth, truth->implausible.cases.isEmpty() ? Tone::Neutral : Tone::Bad);
        return;
    case MeasuredSpeedup::State::Speedup:
        break;
    }
    const int bin = truth->bin.value_or(0);
    QString text = tr("%1 on %2 (bin %3, %n case(s))", nullptr, truth->measured.cases)
                       .arg(speedupText(truth->measured.speedup), on)
                       .arg(bin);
    text += replayNote(*truth);
    if (figures && bin > 0)
        text += QStringLiteral(": ") + truthVerdict(figures->predictedBin, bin);
    text += implausibleNote(*truth);
    if (const QString note = timingNote(truth->timings); !note.isEmpty())
        text += QLatin1Char('\n') + note;
    m_truth->setText(text);
    m_truth->setToolTip(timingDetails(truth->timings));
    const bool implausible = !truth->implausible.cases.isEmpty();
    setTone(m_truth,
        implausible                        ? Tone::Bad
            : !figures                     ? Tone::Neutral
            : figures->predictedBin == bin ? Tone::Good
                                           : Tone::Bad);
}

void ForecastDetail::renderDeferral(const std::optional<ForecastFigures> &figures)
{
    const bool defers = defersToGpu(figures, m_threshold);
    const QString tau = QString::number(m_threshold, 'f', 2);
    if (!figures)
        m_deferral->setText(tr("deferred to the GPU: the forecast gave no distribution (τ = %1)").arg(tau));
    else if (defers)
        m_deferral->setText(
            tr("deferred to the GPU: confidence %1 < τ = %2").arg(QString::number(figures->maxProb, 'f', 2), tau));
    else
        m_deferral->setText(tr("trusted: confidence %1 ≥ τ = %2").arg(QString::number(figures->maxProb, 'f', 2), tau));
    setTone(m_deferral, defers ? Tone::Warning : Tone::Good);
}

void ForecastDetail::setTone(QLabel *label, Tone tone)
{
    m_tones.insert(label, tone);
    applyTones();
}

void ForecastDetail::applyTones()
{
    const bool dark = palette().color(QPalette::Window).lightnessF() < 0.5;
    for (auto it = m_tones.cbegin(); it != m_tones.cend(); ++it) {
        QPalette p = it.key()->palette();
        QColor color = palette().color(QPalette::WindowText);
        // Hues fixed, lightness by theme, so the words stay readable on light and dark windows.
        if (it.value() == Tone::Good)
            color = QColor::fromHslF(130 / 360.0f, 0.6f, dark ? 0.65f : 0.30f);
        else if (it.value() == Tone::Bad)
            color = QColor::fromHslF(0.0f, 0.7f, dark ? 0.68f : 0.40f);
        else if (it.value() == Tone::Warning)
            color = QColor::fromHslF(32 / 360.0f, 0.85f, dark ? 0.62f : 0.36f);
        p.setColor(QPalette::WindowText, color);
        it.key()->setPalette(p);
    }
}

void ForecastDetail::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Side by side where there is room; in a narrow dock the reasoning goes below the figures.
    const Qt::Orientation wanted = width() >= kSideBySideWidth ? Qt::Horizontal : Qt::Vertical;
    if (m_splitter->orientation() == wanted)
        return;
    m_splitter->setOrientation(wanted);
    // Stacked, the figures (plot, headline, scores) need most of the height; the reasoning scrolls below them.
    const int total = wanted == Qt::Vertical ? height() : width();
    m_splitter->setSizes(wanted == Qt::Vertical ? QList<int> {total * 7 / 10, total * 3 / 10}
                                                : QList<int> {total * 3 / 5, total * 2 / 5});
}

void ForecastDetail::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTones();
}

} // namespace gpuf
