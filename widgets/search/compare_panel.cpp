// ComparePanel; see compare_panel.h.
#include "widgets/search/compare_panel.h"

#include "core/session/store_session.h"
#include "widgets/search/compare_controller.h"
#include "widgets/search/compare_form.h"
#include "widgets/search/compare_plot.h"
#include "widgets/search/compare_table_model.h"

#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>

namespace gpuf {

namespace {

QString oneDecimal(double value) { return QLocale().toString(value, 'f', 1); }

// The report's header as people read it: the space, the budget and random search's expectation.
QString summaryOf(const search::CompareReport &r)
{
    return ComparePanel::tr("%1 (problem %2) on %3, replayed: %4 configurations (%5 fail), optimum %6×.\n"
                            "Budget: %7 GPU evaluations per search (%8 steps × %9%15), %10 seeds, "
                            "forecaster %11.\n"
                            "Random search needs %12 evaluations to the optimum on average, %13 to within 1 %, %14 "
                            "to within 5 %.")
        .arg(r.space, r.problem, r.hardware)
        .arg(r.spaceSize)
        .arg(r.spaceFailures)
        .arg(QLocale().toString(r.optimum, 'f', 3))
        .arg(r.budget)
        .arg(r.steps)
        .arg(r.gpuBudgetPerStep)
        .arg(r.seeds)
        .arg(r.forecaster.isEmpty() ? QStringLiteral("—") : r.forecaster)
        .arg(oneDecimal(r.randomToOptimum), oneDecimal(r.randomToWithin1), oneDecimal(r.randomToWithin5))
        // A family's seed is one of its configurations, measured first; a pool's is the reference, measured already.
        .arg(r.budget > r.steps * r.gpuBudgetPerStep ? ComparePanel::tr(" + the seed") : QString());
}

QString fileNamePart(QString text)
{
    for (QChar &c : text) {
        if (!c.isLetterOrNumber() && c != QLatin1Char('_'))
            c = QLatin1Char('-');
    }
    return text.toLower();
}

} // namespace

ComparePanel::ComparePanel(StoreSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_controller(new CompareController(session, this))
    , m_form(new CompareForm(this))
    , m_run(new QPushButton(tr("Run"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_csv(new QPushButton(tr("Export CSV…"), this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("ComparePanel"));
    m_run->setToolTip(tr("Run every chosen strategy once per seed on the space, in the background"));
    m_cancel->setToolTip(tr("Stop the comparison; nothing of it is kept"));
    m_csv->setToolTip(tr("Save the anytime curves (mean and 95 % interval per strategy and budget) as CSV"));
    m_progress->setFormat(tr("%v / %m searches"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(false); // until a run starts: "0 / 1 searches" would say nothing
    m_progress->setMinimumWidth(m_progress->fontMetrics().horizontalAdvance(tr("%v / %m searches")) + 40);
    m_progress->setMaximumWidth(260);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *actions = new QHBoxLayout;
    actions->addWidget(m_run);
    actions->addWidget(m_cancel);
    actions->addWidget(m_progress);
    actions->addWidget(m_status, 1);
    actions->addWidget(m_csv);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_form);
    layout->addLayout(actions);
    layout->addWidget(buildResults(), 1);

    connect(m_run, &QPushButton::clicked, this, &ComparePanel::runComparison);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_cancelling = true;
        m_controller->cancel();
        setStatus(tr("Cancelling: the search in progress stops at its next step…"));
        updateActions();
    });
    connect(m_csv, &QPushButton::clicked, this, &ComparePanel::exportCsvInteractively);
    connect(m_form, &CompareForm::changed, this, &ComparePanel::showIdleHint);
    connectController();
    connect(m_session, &StoreSession::opened, this, &ComparePanel::showIdleHint);
    showChoices();
    showReport();
}

ComparePanel::~ComparePanel() = default;

void ComparePanel::connectController()
{
    connect(m_controller, &CompareController::choicesChanged, this, &ComparePanel::showChoices);
    connect(m_controller, &CompareController::choicesFailed, this,
        [this](const QString &message) { setStatus(tr("Cannot read what this store can compare: %1").arg(message)); });
    connect(m_controller, &CompareController::choicesStaleChanged, this, [this] {
        if (isVisible() && m_controller->choicesStale())
            m_controller->loadChoices();
    });
    connect(m_controller, &CompareController::runningChanged, this, &ComparePanel::updateActions);
    connect(m_controller, &CompareController::progressed, this, [this](int done, int total) {
        m_progress->setRange(0, std::max(1, total));
        m_progress->setValue(done);
        if (!m_cancelling)
            setStatus(tr("Running: %1 of %2 searches done…").arg(done).arg(total));
    });
    connect(m_controller, &CompareController::reportChanged, this, &ComparePanel::showReport);
    connect(m_controller, &CompareController::finished, this, [this] {
        const search::CompareReport *r = m_controller->report().get();
        setStatus(tr("Done: %1 searches, %2 seeds per strategy, on %3 (%4).")
                      .arg(r->seeds * r->strategies.size())
                      .arg(r->seeds)
                      .arg(r->space, r->hardware));
    });
    connect(m_controller, &CompareController::failed, this, [this](const QString &message) {
        m_cancelling = false;
        setStatus(tr("The comparison could not run: %1").arg(message));
    });
    connect(m_controller, &CompareController::cancelled, this, [this] {
        m_cancelling = false;
        QString text = tr("Cancelled after %1 of %2 searches.").arg(m_progress->value()).arg(m_progress->maximum());
        if (m_controller->report())
            text += QLatin1Char(' ') + tr("The results shown are those of the run before.");
        setStatus(text);
        updateActions();
    });
}

QWidget *ComparePanel::buildResults()
{
    m_plot = new ComparePlot(this);
    m_model = new CompareTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(CompareTableModel::SortRole);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the report's order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_notes = new QPlainTextEdit(this);
    m_notes->setObjectName(QStringLiteral("compareNotes"));
    m_notes->setReadOnly(true);
    m_notes->setPlaceholderText(tr("The space, the budget and what to know about the figures appear here."));

    auto *right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_table);
    right->addWidget(m_notes);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_plot);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    return split;
}

QString ComparePanel::statusText() const { return m_status->text(); }

QString ComparePanel::notesText() const { return m_notes->toPlainText(); }

void ComparePanel::setStatus(const QString &text) { m_status->setText(text); }

void ComparePanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_session->isOpen() && m_controller->choicesStale())
        m_controller->loadChoices();
}

void ComparePanel::showChoices()
{
    m_form->setChoices(m_controller->choices()); // emits changed(): the hint below follows
    showIdleHint();
}

void ComparePanel::showIdleHint()
{
    updateActions();
    if (m_controller->isRunning())
        return;
    if (!m_session->isOpen()) {
        setStatus(tr("Open a store to compare search strategies on its recorded runtimes."));
    } else if (!m_controller->hasChoices()) {
        setStatus(tr("Reading the spaces of this store…"));
    } else if (!m_form->hasSpaces()) {
        setStatus(tr("No kernel family, imported tuning space or problem in this store has recorded runtimes, so "
                     "there is nothing to compare strategies on. Import a recorded sweep or a Kernel Tuner or T4 "
                     "result (File → Import…) first."));
    } else {
        const auto options = m_form->options();
        const QString budget = m_form->poolChosen()
            ? tr("Each strategy may spend %1 GPU evaluations per search (steps × parents × measure; a pool's search "
                 "starts from the reference, measured already); %2 searches in all.")
            : tr("Each strategy may spend %1 GPU evaluations per search (steps × parents × measure + the seed); %2 "
                 "searches in all.");
        setStatus(
            options ? budget.arg(m_form->budget()).arg(options->seeds * options->strategies.size()) : options.error());
    }
}

void ComparePanel::updateActions()
{
    const bool running = m_controller->isRunning();
    m_run->setEnabled(m_session->isOpen() && m_form->hasSpaces() && !running);
    m_cancel->setEnabled(running && !m_cancelling);
    m_csv->setEnabled(m_controller->report() != nullptr);
    m_form->setEnabled(!running);
}

void ComparePanel::runComparison()
{
    auto options = m_form->options();
    if (!options) {
        setStatus(options.error());
        return;
    }
    m_cancelling = false;
    m_progress->setRange(0, std::max(1, int(options->strategies.size()) * options->seeds));
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_controller->run(*options, m_form->costModelPath());
    if (m_controller->isRunning())
        setStatus(tr("Running…"));
}

void ComparePanel::showReport()
{
    const auto report = m_controller->report();
    m_plot->setReport(report);
    m_model->setReport(report);
    if (!report) {
        m_notes->clear();
    } else {
        QString text = summaryOf(*report);
        for (const QString &note : report->notes)
            text += QStringLiteral("\n\n") + tr("Note: %1").arg(note);
        m_notes->setPlainText(text);
    }
    updateActions();
}

Status ComparePanel::exportCsv(const QString &path) const
{
    const auto report = m_controller->report();
    if (!report)
        return Error {tr("Run a comparison first: there is nothing to export yet.")};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(report->toCsv().toUtf8()) < 0 || !file.commit())
        return Error {tr("Could not write \"%1\": %2").arg(path, file.errorString())};
    return {};
}

void ComparePanel::exportCsvInteractively()
{
    const auto report = m_controller->report();
    if (!report)
        return;
    QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (folder.isEmpty() || !QDir(folder).exists())
        folder = QDir::homePath();
    const QString name
        = QStringLiteral("compare-%1-%2.csv").arg(fileNamePart(report->space), fileNamePart(report->hardware));
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export comparison"), QDir(folder).filePath(name), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (const Status s = exportCsv(path); !s)
        QMessageBox::warning(this, tr("Export comparison"), s.error());
    else
        setStatus(tr("Wrote %1.").arg(QDir::toNativeSeparators(path)));
}

} // namespace gpuf
