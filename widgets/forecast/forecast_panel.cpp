// ForecastPanel: its widgets and the sources it follows, the chosen row shown in full (forecast, input, explanation),
// the pair's header and the "Measure on GPU" action. Which rows the pair has and which one is shown are in
// forecast_panel_rows.cpp.
#include "widgets/forecast/forecast_panel.h"

#include "core/forecasters/explanation.h"
#include "core/forecasters/forecast_queue.h"
#include "core/measure/measure_queue.h"
#include "core/session/calibration_data.h"
#include "core/session/forecast_pair_loader.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "widgets/common/flow_layout.h"
#include "widgets/common/view_setup.h"
#include "widgets/common/warning_banner.h"
#include "widgets/forecast/contribution_delegate.h"
#include "widgets/forecast/explanation_model.h"
#include "widgets/forecast/forecast_controller.h"
#include "widgets/forecast/forecast_detail.h"
#include "widgets/forecast/forecast_rows_model.h"
#include "widgets/forecast/forecaster_input_view.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace gpuf {

namespace {

QTableView *tableView(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    setupTableView(view, QAbstractItemView::SingleSelection);
    return view;
}

} // namespace

ForecastPanel::ForecastPanel(ForecastController *controller, MeasureQueue *measureQueue, StoreSession *session,
    Selection *selection, Settings *settings, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_measureQueue(measureQueue)
    , m_session(session)
    , m_selection(selection)
    , m_settings(settings)
    , m_loader(new ForecastPairLoader(session, selection, controller->queue(), this))
    , m_model(new ForecastRowsModel(this))
    , m_explanationModel(new ExplanationModel(this))
    , m_measure(new QAction(tr("Measure on GPU"), this))
    , m_pairLabel(new QLabel(this))
    , m_forecasterLabel(new QLabel(this))
    , m_note(new QLabel(this))
    , m_samples(new QSpinBox(this))
    , m_view(tableView(m_model, this))
    , m_tabs(new QTabWidget(this))
    , m_detail(new ForecastDetail(m_measure, this))
    , m_input(new ForecasterInputView(this))
    , m_explanationNote(new QLabel(this))
    , m_explanationView(tableView(m_explanationModel, this))
    , m_gapWarning(new WarningBanner(this))
{
    setObjectName(QStringLiteral("forecastPanel"));
    m_measure->setObjectName(QStringLiteral("forecastMeasure"));
    m_pairLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_pairLabel->setWordWrap(true);
    m_note->setObjectName(QStringLiteral("forecastNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::RichText);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->hide();
    m_samples->setRange(1, 16);
    m_samples->setPrefix(tr("samples: "));
    m_samples->setToolTip(tr("Independent samples per pair; each is stored, and the table shows their mean"));
    m_samples->setValue(m_settings->forecastSamples());
    m_explanationNote->setWordWrap(true);
    m_explanationNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explanationView->setSelectionMode(QAbstractItemView::NoSelection);
    m_explanationView->setItemDelegateForColumn(
        ExplanationModel::ContributionColumn, new ContributionDelegate(ExplanationModel::SortRole, m_explanationView));

    buildLayout();
    connectSources();

    pairChanged(m_selection->candidateId(), m_selection->baselineId());
    if (m_selection->candidateId() != 0)
        m_loader->load(m_selection->candidateId(), m_selection->baselineId());
    applySnapshot(m_controller->queue()->snapshot());
    updateHeader();
    updateMeasureAction();
}

ForecastPanel::~ForecastPanel() = default;

void ForecastPanel::buildLayout()
{
    // Two rows, so the dock fits beside the diff: what is shown and by whom, then what can be done.
    auto *header = new QVBoxLayout;
    auto *who = new QHBoxLayout;
    who->addWidget(m_pairLabel, 1);
    who->addWidget(m_forecasterLabel);
    auto *actions = new FlowLayout;
    actions->addWidget(m_samples);
    actions->addWidget(buttonFor(m_controller->forecastSelectedAction(), this));
    actions->addWidget(buttonFor(m_controller->reforecastSelectedAction(), this));
    actions->addWidget(buttonFor(m_controller->cancelAction(), this));
    header->addLayout(who);
    header->addLayout(actions);

    auto *explanation = new QWidget(this);
    auto *explanationLayout = new QVBoxLayout(explanation);
    explanationLayout->setContentsMargins(4, 4, 4, 4);
    explanationLayout->addWidget(m_explanationNote);
    explanationLayout->addWidget(m_explanationView, 1);
    m_tabs->addTab(m_detail, tr("Forecast"));
    m_tabs->addTab(m_input, tr("What the forecaster saw"));
    m_tabs->addTab(explanation, tr("Explanation"));

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_view);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 4);
    // Room for the combined row and a few samples before the table scrolls.
    const int rowHeight = m_view->verticalHeader()->defaultSectionSize();
    m_view->setMinimumHeight(rowHeight * 3 + m_view->horizontalHeader()->sizeHint().height() + 4);
    splitter->setSizes({rowHeight * 5, rowHeight * 24});
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_note);
    layout->addWidget(m_gapWarning);
    layout->addWidget(splitter, 1);
}

void ForecastPanel::connectSources()
{
    connect(m_loader, &ForecastPairLoader::loaded, this, &ForecastPanel::applyPair);
    connect(m_loader, &ForecastPairLoader::cleared, this, [this] {
        m_pair = {};
        m_pairLoaded = false;
        rebuildRows();
    });
    connect(m_loader, &ForecastPairLoader::failed, this, [this](const QString &message) {
        m_pairLoaded = false;
        m_model->setRows({}, {});
        m_detail->showMessage(tr("Cannot read the forecasts of this pair: %1").arg(message));
        m_input->showNothing({});
    });
    connect(m_selection, &Selection::pairChanged, this, &ForecastPanel::pairChanged);
    connect(m_selection, &Selection::answersHiddenChanged, this, &ForecastPanel::showCurrent);
    // Another window-wide forecaster or GPU: the forecast shown in full follows it, unless the user chose a row.
    const auto followChoice = [this] {
        if (!m_userChoice && m_pairLoaded)
            rebuildRows();
    };
    connect(m_selection, &Selection::hardwareNameChanged, this, followChoice);
    connect(m_selection, &Selection::forecasterNameChanged, this, followChoice);
    // A pair without forecasts says what to do next, which depends on the forecaster chosen and its kind.
    const auto sayWhatToDo = [this] {
        if (m_pairLoaded && m_model->rowCount() == 0)
            showCurrent();
    };
    connect(m_selection, &Selection::forecasterNameChanged, this, sayWhatToDo);
    connect(m_controller, &ForecastController::forecastersChanged, this, sayWhatToDo);
    ForecastQueue *queue = m_controller->queue();
    connect(queue, &ForecastQueue::snapshotChanged, this, &ForecastPanel::applySnapshot);
    connect(queue, &ForecastQueue::reasoningUpdated, this, &ForecastPanel::applyReasoning);
    connect(m_controller, &ForecastController::forecastStarted, this, [this](const QList<ForecastPair> &pairs) {
        if (pairs.contains(ForecastPair {m_pair.baselineId, m_pair.candidateId}))
            m_userChoice = false; // follow the new request as it runs
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        if (m_updating)
            return;
        m_userChoice = true;
        m_pendingKey.clear();
        showCurrent();
    });
    connect(m_samples, &QSpinBox::valueChanged, m_settings, &Settings::setForecastSamples);
    connect(m_settings, &Settings::forecastSamplesChanged, m_samples, &QSpinBox::setValue);
    connect(m_settings, &Settings::measureConfidenceThresholdChanged, m_detail, &ForecastDetail::setThreshold);
    connect(m_settings, &Settings::forecasterNameChanged, this, &ForecastPanel::updateHeader);
    connect(m_measure, &QAction::triggered, this, &ForecastPanel::measure);
    connect(m_measureQueue, &MeasureQueue::snapshotChanged, this, &ForecastPanel::updateMeasureAction);
    connect(m_session, &StoreSession::opened, this, &ForecastPanel::updateMeasureAction);
    connect(m_session, &StoreSession::closed, this, &ForecastPanel::updateMeasureAction);
}

QString ForecastPanel::explanationSummary() const { return m_explanationNote->text(); }

QString ForecastPanel::gapWarning() const { return m_gapWarning->isHidden() ? QString() : m_gapWarning->text(); }

void ForecastPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    scrollToCurrent();
}

void ForecastPanel::setCalibration(CalibrationData *calibration)
{
    const auto apply = [this, calibration] {
        if (const auto snapshot = calibration->snapshot())
            m_detail->setConformal(conformalCalibrations(*snapshot));
    };
    connect(calibration, &CalibrationData::changed, this, apply);
    apply();
}

QString ForecastPanel::noteText() const { return m_note->isHidden() ? QString() : m_note->text(); }

void ForecastPanel::showCurrent()
{
    const ForecastRow *row = currentRow();
    // Only the cost model reads launch features; a language model reads the source and says what it assumes.
    const bool costModel = row && m_pair.forecasters.value(row->forecasterId).kind == ForecasterKind::CostModel;
    m_gapWarning->setText(costModel ? features::pairGapsWarning(m_pair.featureGaps) : QString());
    const double threshold = m_settings->measureConfidenceThreshold();
    // Classroom mode: a lesson's unrevealed step is being answered; the forecasts of any pair would give it away.
    m_view->setVisible(!m_selection->answersHidden());
    m_note->setVisible(!m_selection->answersHidden() && !m_note->text().isEmpty());
    if (m_selection->answersHidden()) {
        const QString why = tr("Hidden until the lesson's step is revealed (classroom mode, in the Lessons dock).");
        m_detail->showMessage(why);
        m_input->showNothing(why);
        showExplanation(nullptr);
        return;
    }
    if (!row) {
        QString why;
        if (m_pair.candidateId == 0)
            why = tr("Select a candidate to see its forecasts.");
        else if (!m_pairLoaded)
            why = tr("Reading the forecasts of this pair…");
        else if (const QString cannot = m_controller->notRunnableReason(); !cannot.isEmpty())
            why = tr("No forecast of this pair yet. %1.").arg(cannot);
        else
            why = tr("No forecast of this pair yet. Press \"Forecast Selected\" above (%1) to ask %2; the built-in "
                     "cost model answers offline in a moment. Or measure the pair on the GPU to know its true "
                     "speedup.")
                      .arg(m_controller->forecastSelectedAction()->shortcut().toString(QKeySequence::NativeText),
                          m_settings->forecasterName());
        m_detail->showMessage(why);
        m_input->showNothing(why);
        showExplanation(nullptr);
        return;
    }
    QString streamed;
    if (row->kind == ForecastRow::Kind::Live)
        streamed = m_streamed.value(streamKey(row->forecasterId, row->repeat));
    else if (row->kind == ForecastRow::Kind::Stored)
        streamed = m_streamedByForecast.value(row->forecast.id);
    m_detail->showRow(m_pair, *row, threshold, streamed);
    if (row->kind == ForecastRow::Kind::Stored)
        m_input->setForecast(row->forecast);
    else if (row->kind == ForecastRow::Kind::Live)
        m_input->showNothing(tr("The messages and the response are stored with the forecast when it finishes."));
    else
        m_input->showNothing(tr("Choose one sample to see what it was given."));
    showExplanation(row);
}

void ForecastPanel::showExplanation(const ForecastRow *row)
{
    if (!row || row->kind != ForecastRow::Kind::Stored) {
        m_explanationModel->clear();
        m_explanationNote->setText(tr("Choose a cost-model forecast to see the features that decided it."));
        return;
    }
    const Result<Explanation> explanation = parseExplanation(row->forecast.response);
    if (!explanation) {
        m_explanationModel->clear();
        m_explanationNote->setText(noExplanationText(*row));
        return;
    }
    m_explanationModel->setExplanation(*explanation);
    m_explanationNote->setText(
        tr("%1\nTop contributions toward bin %2 (%3), in log-odds; reference value → candidate value; features "
           "equal in both kernels are the baseline, listed last. These are correlates the model learned from measured "
           "pairs, not causes.")
            .arg(explanation->summary)
            .arg(explanation->predictedBin)
            .arg(bins::label(explanation->predictedBin)));
    m_explanationView->resizeColumnsToContents();
}

QString ForecastPanel::noExplanationText(const ForecastRow &row) const
{
    const Forecaster forecaster = m_pair.forecasters.value(row.forecasterId);
    const QString name = m_pair.forecasterName(row.forecasterId);
    switch (forecaster.kind) {
    case ForecasterKind::Llm:
        return tr("Only the cost model explains its forecasts feature by feature; %1's own reasoning is on the "
                  "Forecast tab.")
            .arg(name);
    case ForecasterKind::Import:
        return tr("%1 was imported: it holds the probabilities and reasoning the file gave (on the Forecast tab), "
                  "not a feature-by-feature explanation.")
            .arg(name);
    case ForecasterKind::Human:
        return tr("%1 is a student: the forecast is their own distribution and sentence of reasoning (on the "
                  "Forecast tab), not a feature-by-feature explanation.")
            .arg(name);
    case ForecasterKind::CostModel:
        break;
    }
    // A held-out validation forecast stores its fold, not an explanation: the model that made it was trained without
    // this operation and is not kept.
    const QJsonObject response = QJsonDocument::fromJson(row.forecast.response.toUtf8()).object();
    const QString operation = response.value(QStringLiteral("operation")).toString();
    const QString howTo = tr("To see the features behind a forecast of this pair, choose the built-in cost model "
                             "(Forecast → Forecaster) and forecast the pair again.");
    if (!operation.isEmpty())
        return tr("%1 is a held-out validation forecast: the model that made it was trained without the operation "
                  "\"%2\", and only its probabilities were kept, not its feature contributions.")
                   .arg(name, operation)
            + QLatin1Char(' ') + howTo;
    return tr("%1 stored only its probabilities for this pair, not its feature contributions.").arg(name)
        + QLatin1Char(' ') + howTo;
}

void ForecastPanel::updateHeader()
{
    if (m_pair.candidateNotes.isEmpty()) {
        m_note->clear();
        m_note->hide();
    } else {
        // The first sentence, so the figures keep their room; the whole note is the tool tip (and above the diff).
        const QString &note = m_pair.candidateNotes;
        const qsizetype end = note.indexOf(QStringLiteral(". "));
        const QString first = end < 0 ? note : note.left(end + 1) + QStringLiteral(" …");
        m_note->setText(tr("<b>Note on %1:</b> %2").arg(m_pair.candidateName.toHtmlEscaped(), first.toHtmlEscaped()));
        m_note->setToolTip(note);
        m_note->show();
    }
    if (m_pair.candidateId == 0)
        m_pairLabel->setText(tr("No pair selected"));
    else if (m_pair.candidateName.isEmpty())
        m_pairLabel->setText(tr("Candidate %1 against kernel %2").arg(m_pair.candidateId).arg(m_pair.baselineId));
    else
        m_pairLabel->setText(tr("<b>%1</b> against <b>%2</b>")
                                 .arg(m_pair.candidateName.toHtmlEscaped(), m_pair.baselineName.toHtmlEscaped()));
    m_forecasterLabel->setText(tr("forecaster: %1").arg(m_settings->forecasterName()));
}

void ForecastPanel::updateMeasureAction()
{
    const DeviceState &device = m_measureQueue->snapshot().device;
    QString reason;
    if (!m_session->isOpen())
        reason = tr("no store is open");
    else if (m_pair.candidateId == 0)
        reason = tr("select a candidate first");
    else if (device.availability == DeviceState::Availability::Unavailable)
        reason = tr("measuring on the GPU is unavailable: %1").arg(device.reason);
    else if (!device.isAvailable())
        reason = tr("looking for the GPU…");
    m_measure->setEnabled(reason.isEmpty());
    m_measure->setToolTip(reason.isEmpty()
            ? (m_pair.baselineMeasured || !m_pairLoaded
                    ? tr("Measure this candidate on %1").arg(device.devices.value(0).name)
                    : tr("Measure this candidate and its baseline on %1").arg(device.devices.value(0).name))
            : reason);
}

void ForecastPanel::measure()
{
    if (m_pair.candidateId == 0)
        return;
    // Chosen by hand: ahead of batch work, like the measurement panel's "Measure on GPU".
    QList<MeasureJob> jobs {MeasureJob {m_pair.candidateId, 1, MeasureMode::Local, {}, 0}};
    if (m_pairLoaded && !m_pair.baselineMeasured)
        jobs.append(MeasureJob {m_pair.baselineId, 1, MeasureMode::Local, {}, 0});
    m_measureQueue->enqueue(jobs);
}

} // namespace gpuf
