// RetrainDialog; see retrain_dialog.h.
#include "widgets/forecast/retrain_dialog.h"

#include "core/metrics/from_store.h"
#include "widgets/forecast/costmodel_retrainer.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <array>

namespace gpuf {
namespace {

// The figures `gpuf train` prints, in its order.
constexpr std::array kShown {metrics::Scalar::Accuracy, metrics::Scalar::WithinOne, metrics::Scalar::Ece,
    metrics::Scalar::BrierHalf, metrics::Scalar::Nll, metrics::Scalar::UtilityAt10Pct};

const metrics::Figure *figureOf(const std::vector<metrics::Figure> &figures, metrics::Scalar scalar)
{
    for (const metrics::Figure &f : figures) {
        if (f.kind == metrics::Figure::Kind::Scalar && f.scalar == scalar)
            return &f;
    }
    return nullptr;
}

QTableWidgetItem *numberItem(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

RetrainDialog::RetrainDialog(CostModelRetrainer *retrainer, QWidget *parent)
    : QDialog(parent)
    , m_retrainer(retrainer)
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_log(new QPlainTextEdit(this))
    , m_metrics(new QTableWidget(this))
    , m_cancel(new QPushButton(tr("&Cancel Training"), this))
{
    setWindowTitle(tr("Retrain Cost Model"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(500);
    m_log->setMinimumHeight(90);

    const std::vector<metrics::Figure> &figures = metrics::tableFigures();
    QStringList headers {tr("Held-out operation"), tr("Pairs")};
    QStringList tips {tr("Each operation is predicted by a model that never saw it"), QString()};
    for (metrics::Scalar s : kShown) {
        const metrics::Figure *f = figureOf(figures, s);
        headers.append(f ? f->title : metrics::scalarName(s));
        tips.append(f ? f->description : QString());
    }
    m_metrics->setColumnCount(int(headers.size()));
    m_metrics->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < tips.size(); ++c)
        m_metrics->horizontalHeaderItem(c)->setToolTip(tips[c]);
    m_metrics->verticalHeader()->hide();
    m_metrics->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_metrics->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_metrics->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_cancel, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_cancel, &QPushButton::clicked, m_retrainer, &CostModelRetrainer::cancel);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_metrics, 2);
    layout->addWidget(buttons);
    resize(760, 460);

    connect(m_retrainer, &CostModelRetrainer::started, this, &RetrainDialog::runStarted);
    connect(m_retrainer, &CostModelRetrainer::progressed, this, &RetrainDialog::showProgress);
    connect(m_retrainer, &CostModelRetrainer::finished, this, &RetrainDialog::showOutcome);
    connect(m_retrainer, &CostModelRetrainer::failed, this, &RetrainDialog::showFailure);
    if (m_retrainer->isRunning()) {
        runStarted();
        showProgress(m_retrainer->progress());
    }
}

RetrainDialog::~RetrainDialog() = default;

QString RetrainDialog::statusText() const { return m_status->text(); }

QString RetrainDialog::logText() const { return m_log->toPlainText(); }

void RetrainDialog::runStarted()
{
    m_log->clear();
    m_metrics->hide();
    m_metrics->setRowCount(0);
    m_cancel->setEnabled(true);
    m_status->setText(tr("Training the cost model in the background; you can close this window."));
    m_progress->setRange(0, 0); // busy until the number of steps is known
}

void RetrainDialog::showProgress(const costmodel::RetrainProgress &progress)
{
    if (!progress.text.isEmpty())
        m_log->appendPlainText(progress.text);
    if (progress.total > 0) {
        m_progress->setRange(0, progress.total);
        m_progress->setValue(progress.done);
    }
}

void RetrainDialog::showOutcome(const costmodel::RetrainOutcome &outcome)
{
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(1);
    m_status->setText(
        tr("Trained on %1 measured pairs of %2 kernels in %n operation(s) (%3 s); temperature %4. Saved to %5; the "
           "costmodel forecaster now forecasts with it (Forecast ▸ Use Built-in Cost Model switches back).",
            nullptr, int(outcome.folds.size()))
            .arg(outcome.pairs)
            .arg(outcome.kernels)
            .arg(outcome.seconds, 0, 'f', 1)
            .arg(outcome.temperature, 0, 'f', 3)
            .arg(outcome.modelPath));
    fillMetrics(outcome);
}

void RetrainDialog::showFailure(const QString &message)
{
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status->setText(tr("Nothing was retrained: %1").arg(message));
}

void RetrainDialog::fillMetrics(const costmodel::RetrainOutcome &outcome)
{
    m_metrics->setRowCount(int(outcome.folds.size()) + 1);
    const auto fillRow = [this](int row, const QString &name, qint64 pairs, const metrics::MetricsReport &report) {
        m_metrics->setItem(row, 0, new QTableWidgetItem(name));
        m_metrics->setItem(row, 1, numberItem(QString::number(pairs)));
        for (std::size_t i = 0; i < kShown.size(); ++i)
            m_metrics->setItem(row, int(i) + 2, numberItem(metrics::formatValue(report.scalar(kShown[i]))));
    };
    int row = 0;
    for (const costmodel::FoldSummary &fold : outcome.folds)
        fillRow(row++, fold.operation, fold.heldOutPairs, fold.report);
    fillRow(row, tr("pooled"), outcome.validation.nTotal, outcome.validation);
    QFont bold = m_metrics->font();
    bold.setBold(true);
    for (int c = 0; c < m_metrics->columnCount(); ++c)
        m_metrics->item(row, c)->setFont(bold);
    m_metrics->resizeColumnsToContents();
    m_metrics->show();
}

} // namespace gpuf
