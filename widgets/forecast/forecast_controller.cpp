// ForecastController; see forecast_controller.h.
#include "widgets/forecast/forecast_controller.h"

#include "core/forecasters/costmodel/costmodel_backend.h"
#include "core/forecasters/forecast_queue.h"
#include "core/forecasters/forecaster_reads.h"
#include "core/forecasters/roofline_prior.h"
#include "core/session/candidate_source.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "widgets/forecast/costmodel_retrainer.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

namespace gpuf {

namespace {

const QString kBuiltIn = QLatin1StringView(costmodel::kForecasterName);

// What the chooser offers: the store's LLM and cost-model forecasters (not the held-out cost-model rows, which only
// hold `gpuf train` output), the built-in cost model first, present even before its row exists.
QList<Forecaster> runnable(const QList<Forecaster> &all)
{
    QList<Forecaster> out;
    Forecaster builtIn;
    builtIn.name = kBuiltIn;
    builtIn.kind = ForecasterKind::CostModel;
    out.append(builtIn);
    // The physics prior (roofline_prior.h), offered like the built-in cost model: its row is made on first use.
    Forecaster prior = builtIn;
    prior.name = QLatin1StringView(kRooflineForecasterName);
    prior.config.insert(QStringLiteral("model_source"), QLatin1StringView(kRooflineModelSource));
    out.append(prior);
    for (const Forecaster &f : all) {
        if (f.name == kBuiltIn || f.name == prior.name)
            out[f.name == kBuiltIn ? 0 : 1] = f;
        else if (f.kind == ForecasterKind::Llm
            || (f.kind == ForecasterKind::CostModel && f.name != QLatin1StringView(costmodel::kHeldOutForecasterName)))
            out.append(f);
    }
    return out;
}

struct Resolved
{
    RowId forecasterId = 0;
    std::optional<Hardware> hardware;
};

// The forecaster's row id (the built-in cost model's row is created on first use: it loads the model, not for the GUI
// thread) and the hardware named `hardware`: the store's description of it, else the preset of that name, else none.
Result<Resolved> resolveForecast(Store &store, const QString &name, const QString &hardware)
{
    auto forecaster = resolveForecaster(store, name);
    if (!forecaster)
        return forecaster.failure();
    if (!forecaster->has_value())
        return Error {ForecastController::tr("no forecaster named \"%1\" in the store").arg(name)};
    Resolved out;
    out.forecasterId = (**forecaster).id;
    if (!hardware.isEmpty()) {
        auto known = resolveHardware(store, hardware);
        if (!known)
            return known.failure();
        out.hardware = *known;
    }
    return out;
}

// The window a QObject lives in (dialogs it opens belong to it); null when none.
QWidget *windowOf(QObject *object)
{
    while (object && !object->isWidgetType())
        object = object->parent();
    return static_cast<QWidget *>(object);
}

// What a forecaster is, for its menu entry's tooltip (the entry itself shows its name, as every view does).
QString forecasterDescription(const Forecaster &f)
{
    if (f.name == kBuiltIn)
        return ForecastController::tr("The built-in cost model (offline)");
    if (isRooflineForecaster(f))
        return ForecastController::tr("The physics prior: roofline floors against the GPU's peaks (offline)");
    if (f.kind == ForecasterKind::CostModel)
        return ForecastController::tr("A cost model trained on %1")
            .arg(f.config.value(QLatin1StringView("model_source")).toString());
    const QString model = f.config.value(QLatin1StringView("model")).toString();
    return model.isEmpty() ? f.displayName : ForecastController::tr("LLM %1").arg(model);
}

} // namespace

ForecastController::ForecastController(ForecastQueue *queue, StoreSession *session, Selection *selection,
    CandidateSource *candidates, Settings *settings, QObject *parent)
    : QObject(parent)
    , m_queue(queue)
    , m_session(session)
    , m_selection(selection)
    , m_candidates(candidates)
    , m_settings(settings)
    , m_forecastSelected(new QAction(tr("&Forecast Selected"), this))
    , m_forecastProblem(new QAction(tr("Forecast &Problem"), this))
    , m_reforecastSelected(new QAction(tr("&Re-forecast Selected"), this))
    , m_cancel(new QAction(tr("&Cancel Forecasts"), this))
    , m_forecasterMenu(new QMenu(tr("Fore&caster")))
    , m_forecasterGroup(new QActionGroup(this))
    , m_hardwareMenu(new QMenu(tr("&Hardware Shown to Forecasters")))
    , m_retrainer(new CostModelRetrainer(session, settings, windowOf(parent), this))
    , m_forecasters(runnable({}))
{
    bindChoicesToSettings();
    connect(m_retrainer, &CostModelRetrainer::notice, this, &ForecastController::notice);
    // A retrained model is a forecaster of its own: once the store's list holds it, it is the window's forecaster.
    connect(m_retrainer, &CostModelRetrainer::finished, this, [this](const costmodel::RetrainOutcome &outcome) {
        m_pendingForecaster = outcome.forecasterName;
        reloadForecasters();
        m_session->announce(StoreChange::of(StoreChange::Kind::Forecasters));
    });
    connectActions();
    connectQueue();
    connectSession();
    connectSelection();
    if (m_session->isOpen()) {
        m_storePath = m_session->path();
        m_queue->setStorePath(m_storePath);
        reloadForecasters();
    }
    rebuildForecasterMenu();
    rebuildHardwareMenu();
    updateActions();
}

void ForecastController::connectActions()
{
    m_forecastSelected->setObjectName(QStringLiteral("forecastSelected"));
    m_forecastProblem->setObjectName(QStringLiteral("forecastProblem"));
    m_reforecastSelected->setObjectName(QStringLiteral("reforecastSelected"));
    m_cancel->setObjectName(QStringLiteral("cancelForecasts"));
    m_forecastSelected->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    connect(m_forecastSelected, &QAction::triggered, this, [this] { forecast(selectedPairs(), false); });
    connect(m_reforecastSelected, &QAction::triggered, this, [this] { forecast(selectedPairs(), true); });
    connect(m_forecastProblem, &QAction::triggered, this, [this] { forecast(problemPairs(), false); });
    connect(m_cancel, &QAction::triggered, m_queue, &ForecastQueue::cancelAll);
}

// The queue's progress and each finished batch: a notice, and the batch's candidates read again.
void ForecastController::connectQueue()
{
    connect(m_queue, &ForecastQueue::snapshotChanged, this, &ForecastController::updateActions);
    connect(m_queue, &ForecastQueue::notice, this, &ForecastController::notice);
    connect(m_queue, &ForecastQueue::batchFinished, this, [this](quint64 batchId, const ForecastSummary &s) {
        if (!s.error.isEmpty())
            Q_EMIT notice(tr("Forecasts could not run: %1").arg(s.error));
        else
            Q_EMIT notice(tr("%n forecast(s) requested: %1 ok, %2 parse failed, %3 error(s), %4 cached, %5 cancelled",
                nullptr, s.requested)
                              .arg(s.ok)
                              .arg(s.parseFailed)
                              .arg(s.errors)
                              .arg(s.cached)
                              .arg(s.cancelled));
        // The candidate table and the metrics show forecasts: they read those of the batch's candidates again.
        m_session->announce(StoreChange::of(StoreChange::Kind::Forecasts, m_batchCandidates.take(batchId)));
    });
}

// The store opened, changed or closed: its path for the queue, its forecasters and GPUs for the menus.
void ForecastController::connectSession()
{
    connect(m_session, &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) {
        if (snapshot.path != m_storePath) {
            m_storePath = snapshot.path;
            m_queue->setStorePath(m_storePath);
        }
        reloadForecasters();
        rebuildHardwareMenu(); // the store's GPUs come first
        updateActions();
    });
    connect(m_session, &StoreSession::changed, this, [this](const StoreChange &change) {
        using Kind = StoreChange::Kind;
        if (change.kind != Kind::Measurements && change.kind != Kind::Forecasts && change.kind != Kind::Kernels
            && change.kind != Kind::Searches && change.kind != Kind::Lessons)
            reloadForecasters(); // a forecaster added, an import, a reload, a deletion or its undo
    });
    connect(m_session, &StoreSession::snapshotChanged, this, &ForecastController::rebuildHardwareMenu);
    connect(m_session, &StoreSession::closed, this, [this] {
        m_storePath.clear();
        m_queue->setStorePath({});
        m_session->cancelReads(this);
        m_forecasters = runnable({});
        m_storeForecasters.clear();
        rebuildForecasterMenu();
        rebuildHardwareMenu();
        updateActions();
    });
}

void ForecastController::connectSelection()
{
    for (auto signal : {&Selection::pairChanged, &Selection::scopeChanged})
        connect(m_selection, signal, this, &ForecastController::updateActions);
    connect(m_selection, &Selection::selectedIdsChanged, this, &ForecastController::updateActions);
    connect(m_candidates, &CandidateSource::tableLoaded, this, &ForecastController::updateActions);
    connect(m_selection, &Selection::forecasterNameChanged, this, [this] {
        rebuildForecasterMenu();
        updateActions();
    });
    connect(m_selection, &Selection::hardwareNameChanged, this, &ForecastController::rebuildHardwareMenu);
}

ForecastController::~ForecastController()
{
    delete m_forecasterMenu;
    delete m_hardwareMenu;
}

QList<QAction *> ForecastController::costModelActions() const { return m_retrainer->actions(); }

void ForecastController::bindChoicesToSettings()
{
    // The Selection holds the window's choices; Settings remembers them for the next start (and forwards a choice
    // made through it, e.g. "Use Built-in Cost Model").
    if (m_selection->forecasterName().isEmpty())
        m_selection->setForecasterName(m_settings->forecasterName());
    if (m_selection->hardwareName().isEmpty())
        m_selection->setHardwareName(m_settings->forecastHardware());
    m_selection->setTrustThreshold(m_settings->measureConfidenceThreshold());
    connect(m_selection, &Selection::forecasterNameChanged, m_settings, &Settings::setForecasterName);
    connect(m_settings, &Settings::forecasterNameChanged, m_selection, &Selection::setForecasterName);
    connect(m_selection, &Selection::hardwareNameChanged, m_settings, &Settings::setForecastHardware);
    connect(m_settings, &Settings::forecastHardwareChanged, m_selection, &Selection::setHardwareName);
    connect(m_selection, &Selection::trustThresholdChanged, m_settings, &Settings::setMeasureConfidenceThreshold);
    connect(m_settings, &Settings::measureConfidenceThresholdChanged, m_selection, &Selection::setTrustThreshold);
}

QString ForecastController::currentForecaster() const
{
    const QString name = m_selection->forecasterName();
    return name.isEmpty() ? kBuiltIn : name;
}

QString ForecastController::notRunnableReason() const
{
    const QString name = currentForecaster();
    for (const Forecaster &f : m_storeForecasters) {
        if (f.name == name && f.kind == ForecasterKind::Import)
            return tr("%1 holds imported forecasts and cannot be run: choose a runnable forecaster in Forecast ▸ "
                      "Forecaster")
                .arg(name);
        if (f.name == name && f.kind == ForecasterKind::Human)
            return tr("%1 is a student: their forecasts are the answers they give in the Lessons dock before a "
                      "step's reveal, not asked on demand. Choose a runnable forecaster in Forecast ▸ Forecaster to "
                      "forecast here")
                .arg(f.displayName.isEmpty() ? name : f.displayName);
    }
    return {};
}

QList<ForecastPair> ForecastController::selectedPairs() const
{
    QList<RowId> ids = m_selection->selectedIds();
    if (ids.isEmpty() && m_selection->candidateId() != 0)
        ids.append(m_selection->candidateId());
    const CandidateTablePtr table = m_candidates->table();
    QList<ForecastPair> pairs;
    for (const RowId id : std::as_const(ids)) {
        RowId baseline = 0;
        if (id == m_selection->candidateId())
            baseline = m_selection->baselineId();
        else if (const int row = table ? table->rowOf(id) : -1; row >= 0)
            baseline = pairBaseline(*table, row, m_selection->baselineKind(), m_selection->baselineId());
        if (baseline != 0 && baseline != id)
            pairs.append(ForecastPair {baseline, id});
    }
    return pairs;
}

QList<ForecastPair> ForecastController::problemPairs() const
{
    const CandidateTablePtr table = m_candidates->table();
    if (!table)
        return {};
    RowId problem = m_selection->problemId();
    if (problem == 0) {
        const int row = table->rowOf(m_selection->candidateId());
        problem = row >= 0 ? table->rows[row].problemId : 0;
    }
    if (problem == 0)
        return {};
    // Labelled pairs on the window's hardware (labels that name no GPU count on any).
    QList<int> labelSlots;
    for (int h = 0; h < table->hardware.size(); ++h) {
        if (table->hardware[h].name == m_selection->hardwareName() || table->hardware[h].id == 0)
            labelSlots.append(h);
    }
    QList<ForecastPair> pairs;
    QSet<std::pair<RowId, RowId>> seen;
    const auto add = [&pairs, &seen](RowId reference, RowId candidate) {
        if (reference != 0 && reference != candidate && !seen.contains({reference, candidate})) {
            seen.insert({reference, candidate});
            pairs.append(ForecastPair {reference, candidate});
        }
    };
    for (int r = 0; r < table->rows.size(); ++r) {
        const CandidateRow &row = table->rows[r];
        if (row.problemId != problem)
            continue;
        if (!row.isReference)
            add(row.baselineId, row.id);
        for (int h : std::as_const(labelSlots)) {
            const MeasuredCell &cell = table->measuredCell(r, h);
            if (cell.labelId != 0)
                add(cell.labelReferenceId, row.id);
        }
    }
    return pairs;
}

bool ForecastController::forecast(const QList<ForecastPair> &pairs, bool refresh)
{
    if (!m_session->isOpen() || pairs.isEmpty()) {
        Q_EMIT notice(!m_session->isOpen() ? tr("Open a store first.")
                                           : tr("Nothing to forecast: select candidates that have a baseline."));
        return false;
    }
    const QString name = currentForecaster();
    if (const QString reason = notRunnableReason(); !reason.isEmpty()) {
        Q_EMIT notice(reason);
        return false;
    }
    ForecastBatch batch;
    batch.pairs = pairs;
    batch.samples = m_settings->forecastSamples();
    batch.refresh = refresh;
    // A write: the built-in cost model's row is made on its first use.
    const auto resolve = [name, hardware = m_selection->hardwareName()](
                             Store &store) { return resolveForecast(store, name, hardware); };
    m_session->write<Resolved>(resolve, this, [this, batch, name](Result<Resolved> resolved) mutable {
        if (!resolved) {
            Q_EMIT notice(tr("Cannot forecast with %1: %2").arg(name, resolved.error()));
            updateActions();
            return;
        }
        batch.forecasterId = resolved->forecasterId;
        batch.hardware = resolved->hardware;
        const quint64 batchId = m_queue->enqueue(batch);
        for (const ForecastPair &pair : std::as_const(batch.pairs))
            m_batchCandidates[batchId].append(pair.candidateKernelId);
        Q_EMIT notice(tr("Forecasting %n pair(s) with %1…", nullptr, int(batch.pairs.size())).arg(name));
        Q_EMIT forecastStarted(batch.pairs, batchId);
        if (name == kBuiltIn && std::none_of(m_forecasters.cbegin(), m_forecasters.cend(), [](const Forecaster &f) {
                return f.name == kBuiltIn && f.id != 0;
            }))
            reloadForecasters(); // its row exists now
        updateActions();
    });
    return true;
}

void ForecastController::reloadForecasters()
{
    if (!m_session->isOpen())
        return;
    m_session->read<QList<Forecaster>>(
        QStringLiteral("forecasters"),
        [](Store &store, const CancelToken &cancel) { return listForecasters(store, cancel); }, this,
        [this](Result<QList<Forecaster>> forecasters) {
            if (forecasters.isCancelled())
                return;
            if (!forecasters)
                Q_EMIT notice(tr("Cannot read the store's forecasters: %1").arg(forecasters.error()));
            applyForecasters(forecasters ? *forecasters : QList<Forecaster> {});
        });
}

void ForecastController::applyForecasters(const QList<Forecaster> &forecasters)
{
    m_forecasters = runnable(forecasters);
    m_storeForecasters = forecasters;
    if (!m_pendingForecaster.isEmpty()
        && std::any_of(m_forecasters.cbegin(), m_forecasters.cend(),
            [this](const Forecaster &f) { return f.name == m_pendingForecaster; }))
        m_selection->setForecasterName(std::exchange(m_pendingForecaster, QString()));
    rebuildForecasterMenu();
    updateActions();
    Q_EMIT forecastersChanged(m_forecasters);
}

void ForecastController::rebuildForecasterMenu()
{
    const QList<QAction *> old = m_forecasterGroup->actions();
    for (QAction *action : old) {
        m_forecasterGroup->removeAction(action);
        delete action;
    }
    m_forecasterMenu->clear();
    const QString current = currentForecaster();
    bool found = false;
    for (const Forecaster &f : std::as_const(m_forecasters)) {
        QAction *action = m_forecasterMenu->addAction(f.name);
        action->setCheckable(true);
        action->setChecked(f.name == current);
        action->setToolTip(forecasterDescription(f));
        action->setStatusTip(action->toolTip());
        found = found || f.name == current;
        m_forecasterGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, name = f.name] { m_selection->setForecasterName(name); });
    }
    // The window's forecaster may hold imported forecasts only: shown as chosen, but it cannot run.
    if (!found) {
        QAction *action = m_forecasterMenu->addAction(tr("%1 (imported forecasts; cannot run)").arg(current));
        action->setCheckable(true);
        action->setChecked(true);
        action->setEnabled(false);
        action->setToolTip(tr("Not in this store: choose one of its forecasters above (the built-in cost model is "
                              "added when it first forecasts)"));
        action->setStatusTip(action->toolTip());
        m_forecasterGroup->addAction(action);
    }
}

void ForecastController::rebuildHardwareMenu()
{
    m_hardwareMenu->clear();
    const QList<QActionGroup *> groups = m_hardwareMenu->findChildren<QActionGroup *>(Qt::FindDirectChildrenOnly);
    qDeleteAll(groups);
    auto *group = new QActionGroup(m_hardwareMenu);
    const QString current = m_selection->hardwareName();
    const auto add = [this, group, &current](const QString &label, const QString &name) {
        QAction *action = m_hardwareMenu->addAction(label);
        action->setCheckable(true);
        action->setChecked(current == name);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, name] { m_selection->setHardwareName(name); });
    };
    add(tr("None (the prompt names no GPU)"), QString());
    // The store's GPUs first: their measurements are what the tables show and the metrics score against.
    QStringList names;
    if (m_session->isOpen()) {
        const QList<NamedCounts> &hardware = m_session->snapshot().statistics.perHardware;
        for (const NamedCounts &h : hardware) {
            if (!h.name.isEmpty() && !names.contains(h.name))
                names.append(h.name);
        }
    }
    for (const QString &name : std::as_const(names))
        add(name, name);
    m_hardwareMenu->addSeparator();
    const QList<Hardware> presets = hardwarePresets();
    for (const Hardware &h : presets) {
        if (!names.contains(h.name))
            add(tr("%1 (preset)").arg(h.name), h.name);
    }
}

void ForecastController::updateActions()
{
    const bool open = m_session->isOpen();
    const QString name = currentForecaster();
    const QString cannotRun = notRunnableReason();
    const qsizetype selected = open && cannotRun.isEmpty() ? selectedPairs().size() : 0;
    const qsizetype problem = open && cannotRun.isEmpty() ? problemPairs().size() : 0;
    m_forecastSelected->setEnabled(selected > 0);
    m_reforecastSelected->setEnabled(selected > 0);
    m_forecastProblem->setEnabled(problem > 0);
    m_forecastSelected->setToolTip(selected > 0
            ? tr("Forecast %n selected pair(s) with %1 (cached forecasts are reused)", nullptr, int(selected)).arg(name)
            : tr("Select candidates that have a baseline to forecast them"));
    m_reforecastSelected->setToolTip(selected > 0
            ? tr("Ask %1 again for %n selected pair(s), even where a forecast is cached", nullptr, int(selected))
                  .arg(name)
            : tr("Select candidates that have a baseline to forecast them"));
    m_forecastProblem->setToolTip(problem > 0
            ? tr("Forecast every candidate of the problem against its reference, and its labelled pairs, with %1 (%n "
                 "pair(s))",
                nullptr, int(problem))
                  .arg(name)
            : tr("Choose a problem (or a candidate of one) first"));
    if (!cannotRun.isEmpty()) {
        for (QAction *a : {m_forecastSelected, m_reforecastSelected, m_forecastProblem})
            a->setToolTip(cannotRun);
    }
    for (QAction *a : {m_forecastSelected, m_reforecastSelected, m_forecastProblem})
        a->setStatusTip(a->toolTip());
    const ForecastSnapshot &snapshot = m_queue->snapshot();
    m_cancel->setEnabled(snapshot.queued + snapshot.running > 0);
    m_cancel->setToolTip(m_cancel->isEnabled() ? tr("Cancel the forecasts still queued or running")
                                               : tr("No forecast is queued or running"));
    m_cancel->setStatusTip(m_cancel->toolTip());
}

} // namespace gpuf
