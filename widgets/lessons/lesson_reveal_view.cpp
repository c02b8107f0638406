// LessonRevealView; see lesson_reveal_view.h.
#include "widgets/lessons/lesson_reveal_view.h"

#include "widgets/forecast/distribution_plot.h"
#include "widgets/lessons/lesson_step_data.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace gpuf {
namespace {

QTableWidget *smallTable(const QStringList &headers, QWidget *parent)
{
    auto *table = new QTableWidget(0, int(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setWordWrap(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return table;
}

void setRow(QTableWidget *table, int row, const QStringList &cells)
{
    for (int c = 0; c < cells.size(); ++c)
        table->setItem(row, c, new QTableWidgetItem(cells.at(c)));
}

QString binText(std::optional<int> bin) { return bin ? QString::number(*bin) : QStringLiteral("—"); }

// "H100 80GB HBM3": the vendor prefix every GPU here shares only widens the reveal's tables.
QString shortGpuName(const QString &name) { return name.startsWith(QLatin1StringView("NVIDIA ")) ? name.mid(7) : name; }

// A table exactly as tall as its rows: the reveal shows a few rows, never an empty well under them.
void fitRows(QTableWidget *table)
{
    const int header = std::max(table->horizontalHeader()->height(), table->horizontalHeader()->sizeHint().height());
    table->setFixedHeight(header + table->verticalHeader()->length() + 2 * table->frameWidth() + 2);
}

} // namespace

LessonRevealView::LessonRevealView(QWidget *parent)
    : QGroupBox(tr("What happened"), parent)
    , m_scoreLabel(new QLabel(this))
    , m_answerPlot(new DistributionPlot(this))
    , m_truthTable(smallTable({tr("GPU"), tr("Measured"), tr("Bin"), tr("You"), tr("Brier"), tr("Log score")}, this))
    , m_evidence(new QPushButton(tr("Show &Evidence…"), this))
    , m_forecastersTable(smallTable({tr("Forecaster"), tr("GPU"), tr("Said"), tr("Confidence"), tr("Result")}, this))
    , m_noteLabel(new QLabel(this))
{
    setObjectName(QStringLiteral("revealArea"));
    m_scoreLabel->setWordWrap(true);
    m_answerPlot->setMinimumHeight(150);
    m_noteLabel->setWordWrap(true);
    m_noteLabel->setTextFormat(Qt::PlainText);
    m_noteLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_scoreLabel);
    layout->addWidget(m_answerPlot);
    layout->addWidget(new QLabel(tr("Measured on each GPU:"), this));
    layout->addWidget(m_truthTable);
    layout->addWidget(m_evidence, 0, Qt::AlignLeft);
    connect(m_evidence, &QPushButton::clicked, this, [this] {
        if (m_kernelId > 0)
            Q_EMIT evidenceRequested(m_kernelId);
    });
    layout->addWidget(new QLabel(tr("What the forecasters said:"), this));
    layout->addWidget(m_forecastersTable);
    layout->addWidget(m_noteLabel);
}

void LessonRevealView::clear()
{
    hide();
    m_truthTable->setRowCount(0);
    m_forecastersTable->setRowCount(0);
    m_scoreLabel->clear();
    m_noteLabel->clear();
    m_answerPlot->clear();
    m_kernelId = 0;
}

void LessonRevealView::showReveal(const LessonStepData &data, const bins::Distribution &p, int predictedBin)
{
    showTruths(data, p, predictedBin);
    showForecasters(data);
    fitRows(m_truthTable);
    fitRows(m_forecastersTable);
    const LessonStep &step = data.step();
    // Evidence exists where a GPU measured the candidate: who measured it, how, how noisy, its interval.
    m_kernelId = step.kernelId;
    const QList<RevealRow> rows = revealRows(data.pair, p, predictedBin);
    const bool measured
        = std::any_of(rows.cbegin(), rows.cend(), [](const RevealRow &row) { return row.trueBin.has_value(); });
    m_evidence->setEnabled(measured);
    m_evidence->setToolTip(measured ? tr("Who measured this speedup, how, how noisy it was, and its 95 % interval")
                                    : tr("No GPU measured this step's kernel: there is no evidence to show"));
    m_noteLabel->setText(step.note.isEmpty() ? tr("This step has no teaching note.") : tr("Note: %1").arg(step.note));
    show();
}

// The measured speedup on each GPU with the student's score there, and the score on the first scored GPU in words
// and as a plot.
void LessonRevealView::showTruths(const LessonStepData &data, const bins::Distribution &p, int predictedBin)
{
    const QList<RevealRow> rows = revealRows(data.pair, p, predictedBin);
    m_truthTable->setRowCount(int(rows.size()));
    std::optional<RevealRow> first;
    for (int r = 0; r < rows.size(); ++r) {
        const RevealRow &row = rows.at(r);
        if (!first && row.score)
            first = row;
        setRow(m_truthTable, r,
            {shortGpuName(row.hardware), row.speedup, binText(row.trueBin),
                row.score ? scoreText(*row.score) : QStringLiteral("—"),
                row.score ? QString::number(row.score->brier, 'f', 3) : QStringLiteral("—"),
                row.score ? QString::number(row.score->logScore, 'f', 2) : QStringLiteral("—")});
        if (row.trueBin)
            m_truthTable->item(r, 2)->setToolTip(bins::rangeText(*row.trueBin));
    }
    if (first) {
        const lessons::StepScore &s = *first->score;
        m_scoreLabel->setText(tr("You said bin %1; on %2 it was bin %3: %4. Brier %5, log score %6.")
                                  .arg(predictedBin)
                                  .arg(shortGpuName(first->hardware))
                                  .arg(s.trueBin)
                                  .arg(scoreText(s))
                                  .arg(s.brier, 0, 'f', 3)
                                  .arg(s.logScore, 0, 'f', 2));
        m_answerPlot->setDistribution(p, predictedBin, s.trueBin, tr("measured %1").arg(first->speedup));
    } else {
        m_scoreLabel->setText(
            tr("You said bin %1. No GPU has a speedup for this step, so it is not scored.").arg(predictedBin));
        m_answerPlot->setDistribution(p, predictedBin);
    }
}

// Each stored forecaster's newest forecast of the step per GPU, and whether it hit.
void LessonRevealView::showForecasters(const LessonStepData &data)
{
    const QList<ForecasterSaid> said = forecastersSaid(data.pair);
    m_forecastersTable->setRowCount(int(said.size()));
    for (int r = 0; r < said.size(); ++r) {
        const ForecasterSaid &f = said.at(r);
        const QString result = f.trueBin
            ? (f.predictedBin == *f.trueBin ? tr("hit") : tr("off by %1").arg(std::abs(f.predictedBin - *f.trueBin)))
            : QStringLiteral("—");
        setRow(m_forecastersTable, r,
            {f.forecaster, shortGpuName(f.hardware), QString::number(f.predictedBin),
                QStringLiteral("%1%").arg(f.confidence * 100.0, 0, 'f', 0), result});
        if (!f.description.isEmpty())
            m_forecastersTable->item(r, 0)->setToolTip(f.description);
    }
}

} // namespace gpuf
