// RetrainDialog; see retrain_dialog.h.
#include "widgets/forecast/retrain_dialog.h"

#include "core/forecasters/costmodel/costmodel_forecaster.h"
#include "core/measure/worker_locator.h"
#include "core/metrics/from_store.h"
#include "core/session/store_session.h"
#include "widgets/forecast/costmodel_retrainer.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
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

// The checked items' names; empty when every item is checked (no restriction).
QStringList checkedNames(const QListWidget *list)
{
    QStringList names;
    for (int i = 0; i < list->count(); ++i) {
        if (list->item(i)->checkState() == Qt::Checked)
            names.append(list->item(i)->data(Qt::UserRole).toString());
    }
    return names.size() == list->count() ? QStringList() : names;
}

int checkedCount(const QListWidget *list)
{
    int n = 0;
    for (int i = 0; i < list->count(); ++i)
        n += list->item(i)->checkState() == Qt::Checked;
    return n;
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
    m_optionsBox = buildOptions();
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(500);
    m_log->setMinimumHeight(90);

    setUpMetricsTable();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_start, QDialogButtonBox::AcceptRole);
    buttons->addButton(m_cancel, QDialogButtonBox::ActionRole);
    // Close only hides the dialog (a run goes on in the background): never a wait for the training.
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_start, &QPushButton::clicked, this, &RetrainDialog::startTraining);
    connect(m_cancel, &QPushButton::clicked, m_retrainer, &CostModelRetrainer::cancel);
    m_cancel->setEnabled(false);
    m_status->setText(tr("Choose what to learn from, then start: training runs in the background on %n thread(s) at "
                         "low priority, and the model is added to the store as a forecaster of its own (the built-in "
                         "costmodel stays as it is).",
        nullptr, m_retrainer->trainingThreads()));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_optionsBox);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_metrics, 2);
    layout->addWidget(buttons);
    resize(760, 620);

    connect(m_retrainer, &CostModelRetrainer::started, this, &RetrainDialog::runStarted);
    connect(m_retrainer, &CostModelRetrainer::progressed, this, &RetrainDialog::showProgress);
    connect(m_retrainer, &CostModelRetrainer::finished, this, &RetrainDialog::showOutcome);
    connect(m_retrainer, &CostModelRetrainer::failed, this, &RetrainDialog::showFailure);
    connect(m_retrainer->session(), &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) {
        if (!m_retrainer->isRunning() && snapshot.path != m_optionsPath)
            fillOptions(); // another store: its operations, GPUs and forecaster names (a refresh keeps the choices)
    });
    fillOptions();
    if (m_retrainer->isRunning()) {
        runStarted();
        showProgress(m_retrainer->progress());
    }
}

// The held-out table: one row per operation, the figures of metrics::tableFigures() with their descriptions as tips.
void RetrainDialog::setUpMetricsTable()
{
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
}

QGroupBox *RetrainDialog::buildOptions()
{
    auto *box = new QGroupBox(tr("Options"), this);
    m_name = new QLineEdit(box);
    m_name->setToolTip(tr("The forecaster the new model is stored under; pick it later in Forecast ▸ Forecaster"));
    m_operations = new QListWidget(box);
    m_operations->setToolTip(tr("The operations (problems) whose measured pairs the model learns from; each is also "
                                "held out once to measure how well the others predict it"));
    m_hardware = new QListWidget(box);
    m_hardware->setToolTip(tr("The GPUs whose measurements the model learns from"));
    for (QListWidget *list : {m_operations, m_hardware})
        list->setMaximumHeight(110);
    m_compileFeatures
        = new QCheckBox(tr("Also learn from compile features (registers, spills, PTX instruction mix)"), box);
    m_optionsProblem = new QLabel(box);
    m_optionsProblem->setWordWrap(true);
    m_start = new QPushButton(tr("&Start Training"), this);
    m_start->setDefault(true);
    auto *form = new QFormLayout(box);
    form->addRow(tr("Forecaster &name:"), m_name);
    form->addRow(tr("&Operations:"), m_operations);
    form->addRow(tr("&GPUs:"), m_hardware);
    form->addRow(m_compileFeatures);
    form->addRow(m_optionsProblem);
    connect(m_name, &QLineEdit::textChanged, this, &RetrainDialog::validateOptions);
    for (QListWidget *list : {m_operations, m_hardware})
        connect(list, &QListWidget::itemChanged, this, &RetrainDialog::validateOptions);
    return box;
}

// The choices come from the session's counts (read when the store was opened): nothing here touches the store.
void RetrainDialog::fillOptions()
{
    const StoreStatistics &stats = m_retrainer->session()->snapshot().statistics;
    m_optionsPath = m_retrainer->session()->path();
    m_takenNames
        = {QLatin1StringView(costmodel::kForecasterName), QLatin1StringView(costmodel::kHeldOutForecasterName)};
    for (const NamedCounts &f : stats.perForecaster)
        m_takenNames.append(f.name);
    // The proposal names the second it was made; two retrains within one second would share it, so it is numbered.
    const QString proposed = m_retrainer->proposedForecasterName();
    QString name = proposed;
    for (int n = 2; m_takenNames.contains(name); ++n)
        name = tr("%1 #%2").arg(proposed).arg(n);
    m_name->setText(name);
    const auto fill = [](QListWidget *list, const QList<NamedCounts> &rows, const QString &unit) {
        list->clear();
        for (const NamedCounts &row : rows) {
            if (row.measurements == 0)
                continue;
            auto *item = new QListWidgetItem(unit.arg(row.name).arg(row.measurements), list);
            item->setData(Qt::UserRole, row.name);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Checked);
        }
    };
    fill(m_operations, stats.perProblem, tr("%1 (%2 measurements)"));
    fill(m_hardware, stats.perHardware, tr("%1 (%2 measurements)"));
    const Result<QString> worker = measure::locateMeasureWorker();
    m_compileFeatures->setChecked(false);
    m_compileFeatures->setEnabled(worker.ok());
    m_compileFeatures->setToolTip(worker.ok()
            ? tr("gpuf-measure compiles every CUDA kernel for the GPU with the most pairs; slower, and the model then "
                 "compiles the kernels it forecasts too")
            : tr("Needs gpuf-measure with the CUDA toolkit: %1").arg(worker.error()));
    validateOptions();
}

void RetrainDialog::validateOptions()
{
    const QString name = m_name->text().trimmed();
    QString problem;
    if (name.isEmpty())
        problem = tr("Give the new forecaster a name.");
    else if (m_takenNames.contains(name))
        problem = tr("The store already has a forecaster named \"%1\": choose another name.").arg(name);
    else if (checkedCount(m_operations) < costmodel::kMinRetrainOperations)
        problem = tr("Choose at least %1 operations: each is held out in turn and predicted from the others.")
                      .arg(costmodel::kMinRetrainOperations);
    else if (m_hardware->count() > 0 && checkedCount(m_hardware) == 0)
        problem = tr("Choose at least one GPU.");
    m_optionsProblem->setText(problem);
    m_optionsProblem->setVisible(!problem.isEmpty());
    m_start->setEnabled(problem.isEmpty() && !m_retrainer->isRunning());
}

costmodel::RetrainOptions RetrainDialog::options() const
{
    costmodel::RetrainOptions o;
    o.forecasterName = m_name->text().trimmed();
    o.operations = checkedNames(m_operations);
    o.hardware = checkedNames(m_hardware);
    o.compileFeatures = m_compileFeatures->isEnabled() && m_compileFeatures->isChecked();
    return o;
}

void RetrainDialog::startTraining()
{
    if (!m_start->isEnabled())
        return;
    m_retrainer->start(options());
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
    m_optionsBox->setEnabled(false);
    m_start->setEnabled(false);
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
    m_takenNames.append(outcome.forecasterName);
    m_optionsBox->setEnabled(true);
    m_name->setText(m_retrainer->proposedForecasterName());
    validateOptions();
    m_progress->setRange(0, 1);
    m_progress->setValue(1);
    m_status->setText(
        tr("Trained on %1 measured pairs of %2 kernels in %n operation(s) (%3 s); temperature %4. Saved to %5 and "
           "added as the forecaster \"%6\", now the window's forecaster (Forecast ▸ Use Built-in Cost Model "
           "switches back).",
            nullptr, int(outcome.folds.size()))
            .arg(outcome.pairs)
            .arg(outcome.kernels)
            .arg(outcome.seconds, 0, 'f', 1)
            .arg(outcome.temperature, 0, 'f', 3)
            .arg(outcome.modelPath, outcome.forecasterName));
    fillMetrics(outcome);
}

void RetrainDialog::showFailure(const QString &message)
{
    m_cancel->setEnabled(false);
    m_optionsBox->setEnabled(true);
    validateOptions();
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
