// SearchesPanel; see searches_panel.h.
#include "widgets/search/searches_panel.h"

#include "core/search/certified_trust.h"
#include "core/search/search_reads.h"
#include "core/session/store_session.h"
#include "widgets/search/new_search_dialog.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/search_follower.h"
#include "widgets/search/search_models.h"
#include "widgets/search/search_nodes_model.h"
#include "widgets/search/search_pace.h"
#include "widgets/search/search_tables.h"
#include "widgets/search/search_workspace.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScopeGuard>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace gpuf {
SearchesPanel::SearchesPanel(StoreSession *session, QWidget *parent)
    : SearchesPanel(session, nullptr, nullptr, parent)
{ }

SearchesPanel::SearchesPanel(StoreSession *session, SearchController *controller, Selection *selection, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_controller(controller)
    , m_searches(new SearchListModel(this))
    , m_searchProxy(searchProxyFor(m_searches, SearchListModel::SortRole, this))
    , m_status(new QLabel(this))
    , m_searchView(searchTableFor(m_searchProxy, this))
    , m_workspace(new SearchWorkspace(session, controller, selection, this))
    , m_live(new QLabel(this))
{
    setObjectName(QStringLiteral("searchesPanel"));
    buildLayout();
    connect(m_workspace, &SearchWorkspace::loaded, this, &SearchesPanel::workspaceLoaded);
    connect(m_workspace, &SearchWorkspace::appended, this, [this] {
        updateActions();
        updateLiveLabel();
    });
    connect(m_workspace, &SearchWorkspace::notice, m_live, &QLabel::setText);
    connectController();
    connect(m_session, &StoreSession::opened, this, &SearchesPanel::reload);
    connect(m_session, &StoreSession::changed, this, [this](const StoreChange &change) {
        using Kind = StoreChange::Kind;
        if (change.kind == Kind::Import || change.kind == Kind::Reload || change.kind == Kind::Removed
            || change.kind == Kind::Restored || (change.kind == Kind::Searches && !followsEngines(change.ids)))
            reload();
    });
    connect(m_session, &StoreSession::closed, this, &SearchesPanel::clear);
    connect(
        m_searchView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &SearchesPanel::searchChosen);

    if (m_session->isOpen())
        reload();
    else
        clear();
}

void SearchesPanel::buildLayout()
{
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_searchView->sortByColumn(-1, Qt::AscendingOrder); // the store's order (by id) until the user sorts
    // The dock shares the window's height with the diff: its parts may shrink below their own minimum (they scroll or
    // clip) rather than push the dock past the window's edge.
    m_workspace->setMinimumHeight(160);
    m_searchView->setMinimumHeight(60);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_searchView);
    split->addWidget(m_workspace);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    // Room for three searches above the workspace before the list scrolls: the lineage below is the larger picture.
    const int row = m_searchView->verticalHeader()->defaultSectionSize();
    split->setSizes({row * 3 + m_searchView->horizontalHeader()->sizeHint().height(), row * 17});
    m_searchView->horizontalHeader()->setStretchLastSection(false);
    m_live->setObjectName(QStringLiteral("searchLive"));
    m_live->setWordWrap(true);
    m_live->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    if (m_controller) {
        buildToolbar();
        layout->addWidget(m_toolbar);
    }
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
    layout->addWidget(m_live);
}

void SearchesPanel::connectController()
{
    if (!m_controller)
        return;
    connect(m_controller, &SearchController::snapshotChanged, this, &SearchesPanel::onSnapshot);
    connect(m_controller, &SearchController::searchCreated, this, [this](const QString &name) {
        m_wantedName = name;
        reload();
    });
    connect(m_controller, &SearchController::engineGone, this, [this](const QString &name) {
        m_searches->clearLive(name);
        updateActions();
    });
    connect(m_controller, &SearchController::failed, this, [this](const QString &name, const QString &message) {
        m_live->setText(tr("Search %1: %2").arg(name, message));
        updateActions();
    });
    connect(m_controller, &SearchController::notice, m_live, &QLabel::setText);
}

SearchesPanel::~SearchesPanel() = default;

QString SearchesPanel::statusText() const { return m_status->text(); }

SearchEventsModel *SearchesPanel::eventModel() const { return m_workspace->eventModel(); }
QTableView *SearchesPanel::eventView() const { return m_workspace->eventView(); }
QLineEdit *SearchesPanel::eventFilter() const { return m_workspace->eventFilter(); }
QPlainTextEdit *SearchesPanel::payloadView() const { return m_workspace->payloadView(); }
SearchFollower *SearchesPanel::follower() const { return m_workspace->follower(); }
SearchNodesModel *SearchesPanel::nodesModel() const { return m_workspace->nodesModel(); }
QTableView *SearchesPanel::nodeView() const { return m_workspace->nodeView(); }
SearchSteering *SearchesPanel::steering() const { return m_workspace->steering(); }
QTabWidget *SearchesPanel::workspaceTabs() const { return m_workspace->tabs(); }
LineageView *SearchesPanel::lineageView() const { return m_workspace->lineageView(); }
ProgressPlot *SearchesPanel::progressPlot() const { return m_workspace->progressPlot(); }
StepView *SearchesPanel::stepView() const { return m_workspace->stepView(); }
SearchCalibrationView *SearchesPanel::calibrationView() const { return m_workspace->calibrationView(); }
EventTailView *SearchesPanel::eventTail() const { return m_workspace->eventTail(); }

QString SearchesPanel::eventsTitle() const
{
    const SearchSummary *s = m_searches->summaryAt(m_searches->rowOfSearch(eventModel()->searchId()));
    if (!s)
        return m_searches->rowCount() > 0 ? tr("Choose a search above to read its event log.") : QString();
    return m_workspace->eventsTitle();
}

bool SearchesPanel::isLoading() const { return m_loadingSearches || follower()->isLoading(); }

QString SearchesPanel::shownName() const { return follower()->name(); }

void SearchesPanel::clear()
{
    ++m_summaryGeneration;
    m_loadingSearches = false;
    m_shownSearch = 0;
    m_workspace->clear();
    m_live->clear();
    m_searches->setSummaries({});
    m_status->setText(tr("No store is open."));
    updateActions();
}

void SearchesPanel::reload()
{
    const quint64 generation = ++m_summaryGeneration;
    m_loadingSearches = true;
    m_status->setText(tr("Reading the store's searches…"));
    m_session->read<QList<SearchSummary>>(QStringLiteral("summaries"), &search::readSearchSummaries, this,
        [this, generation](const Result<QList<SearchSummary>> &result) { applySummaries(generation, result); });
}

bool SearchesPanel::followsEngines(const QList<RowId> &searchIds) const
{
    // The engines' own snapshots keep their rows and the followed log current: their events need no reload.
    if (!m_controller || searchIds.isEmpty())
        return false;
    return std::all_of(searchIds.cbegin(), searchIds.cend(), [this](RowId id) {
        const SearchSummary *s = m_searches->summaryAt(m_searches->rowOfSearch(id));
        return s && m_controller->isRunning(s->search.name);
    });
}

void SearchesPanel::applySummaries(quint64 generation, const Result<QList<SearchSummary>> &result)
{
    if (generation != m_summaryGeneration)
        return; // a newer load replaced this one
    m_loadingSearches = false;
    const RowId keep = m_shownSearch;
    const auto actions = qScopeGuard([this] { updateActions(); });
    if (!result) {
        m_searches->setSummaries({});
        m_workspace->clear();
        m_status->setText(tr("Cannot read the searches: %1").arg(result.error()));
        return;
    }
    m_searches->setSummaries(*result);
    m_searchView->resizeColumnsToContents();
    if (result->isEmpty()) {
        m_workspace->clear();
        m_status->setText(m_controller
                ? tr("This store holds no searches yet. Start one with New Search…, or import a search's "
                     "events.jsonl, or the published search-event rows, with File → Import…")
                : tr("This store holds no searches yet. Import a search's events.jsonl, or the published "
                     "search-event rows, with File → Import…"));
        return;
    }
    updateStatusLine();
    // Running engines' figures are newer than the log just read.
    if (m_controller) {
        for (const QString &name : m_controller->runningSearches()) {
            const search::SearchSnapshot live = m_controller->snapshot(name);
            if (live.events > 0) // an engine that has not reported yet has nothing newer, but it runs
                m_searches->applySnapshot(live);
            else
                m_searches->markLive(name, live.status);
        }
    }
    const QString wanted = std::exchange(m_wantedName, QString());
    if (!(!wanted.isEmpty() && showSearchNamed(wanted)) && !showSearch(keep) && !showSearch(result->first().search.id))
        m_workspace->showHint(eventsTitle());
    updateActions();
    updateLiveLabel(); // the list's status may have changed with nothing new to fold (another program's search)
}

bool SearchesPanel::showSearch(RowId searchId)
{
    const int row = m_searches->rowOfSearch(searchId);
    if (row < 0 || searchId == 0)
        return false;
    const QModelIndex index = m_searchProxy->mapFromSource(m_searches->index(row, 0));
    if (m_searchView->currentIndex().row() == index.row() && m_shownSearch == searchId)
        searchChosen(); // the same row after a reload: read what its log gained
    else
        m_searchView->setCurrentIndex(index);
    return true;
}

void SearchesPanel::searchChosen()
{
    const QModelIndex index = m_searchProxy->mapToSource(m_searchView->currentIndex());
    const SearchSummary *s = m_searches->summaryAt(index.row());
    if (!s)
        return;
    // The search already followed (the list was read again): only what its log gained is read.
    if (s->search.id == follower()->searchId() && s->search.name == follower()->name()) {
        m_shownSearch = s->search.id;
        m_workspace->poke(s->events);
        return;
    }
    loadEvents(s->search.id);
}

void SearchesPanel::loadEvents(RowId searchId)
{
    m_shownSearch = searchId;
    const SearchSummary *s = m_searches->summaryAt(m_searches->rowOfSearch(searchId));
    m_workspace->follow(searchId, s ? s->search.name : QString());
    updateActions();
    updateLiveLabel();
}

void SearchesPanel::workspaceLoaded()
{
    loadOverlays();
    updateActions();
    updateLiveLabel();
}

void SearchesPanel::buildToolbar()
{
    m_toolbar = new QToolBar(this);
    m_toolbar->setObjectName(QStringLiteral("searchToolbar"));
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_newAction = m_toolbar->addAction(tr("New Search…"), this, [this] { requestNewSearch({}); });
    m_newAction->setToolTip(tr("Start a search of a problem or a kernel family, after seeing what it costs"));
    m_toolbar->addSeparator();
    // The acts on the search shown (nothing without one).
    const auto named = [this](auto act) {
        return [this, act] {
            const QString name = shownName();
            if (!name.isEmpty())
                act(name);
        };
    };
    m_resumeAction = m_toolbar->addAction(tr("Resume"), this, [this] {
        const QString name = shownName();
        const SearchStatus status = m_searches->statusAt(m_searches->rowOfName(name));
        if (status == SearchStatus::Paused)
            m_controller->resume(name);
        else
            m_controller->run(name); // interrupted or failed: the engine folds the log and goes on
    });
    m_resumeAction->setToolTip(tr("Run the search on from where its log ends"));
    m_pauseAction
        = m_toolbar->addAction(tr("Pause"), this, named([this](const QString &name) { m_controller->pause(name); }));
    m_pauseAction->setToolTip(tr("Let the requests in flight finish, then wait"));
    m_stepAction
        = m_toolbar->addAction(tr("Step"), this, named([this](const QString &name) { m_controller->step(name); }));
    m_stepAction->setToolTip(tr("Run until the current (or next) step completes, then pause"));
    m_stopAction = m_toolbar->addAction(tr("Stop"), this, named([this](const QString &name) { confirmStop(name); }));
    m_stopAction->setToolTip(tr("End the search for good (a stopped search cannot be resumed)"));
    m_toolbar->addSeparator();
    m_settingsAction = m_toolbar->addAction(tr("Settings…"), this, &SearchesPanel::changeSettings);
    m_settingsAction->setToolTip(tr("Change τ, proposals or measurements per parent, or the steps, while it runs"));
    m_replayAction = m_toolbar->addAction(tr("Replay with…"), this, [this] { requestNewSearch(shownName()); });
    m_replayAction->setToolTip(tr("Run this search's proposals again under another τ or forecaster, as a new search "
                                  "overlaid on this one"));
    addPaceBox();
    updateActions();
}

void SearchesPanel::updateActions()
{
    if (!m_controller || !m_toolbar)
        return;
    const QString name = shownName();
    const int row = m_searches->rowOfName(name);
    const SearchStatus status = row >= 0 ? m_searches->statusAt(row) : SearchStatus::Recorded;
    const bool open = m_session->isOpen();
    const bool live = m_controller->isRunning(name);
    const bool running = status == SearchStatus::Running;
    m_newAction->setEnabled(open);
    m_resumeAction->setEnabled(row >= 0 && isResumable(status));
    m_resumeAction->setText(status == SearchStatus::Interrupted ? tr("Resume (interrupted)") : tr("Resume"));
    m_pauseAction->setEnabled(live && running);
    m_stepAction->setEnabled(row >= 0 && (isResumable(status) || running));
    m_stopAction->setEnabled(row >= 0 && (running || isResumable(status)));
    const search::SearchState *state = follower()->state();
    m_settingsAction->setEnabled(row >= 0 && (running || isResumable(status)) && state);
    m_replayAction->setEnabled(open && row >= 0 && state && state->initialized);
    if (m_pace) {
        m_pace->setPace(m_controller->pace(name));
        m_pace->setEnabled(row >= 0 && (running || isResumable(status)));
    }
}

void SearchesPanel::updateStatusLine()
{
    const QList<SearchSummary> &rows = m_searches->summaries();
    if (rows.isEmpty())
        return;
    qint64 events = 0;
    for (const SearchSummary &s : rows)
        events += s.events;
    m_status->setText(tr("%n search(es)", nullptr, int(rows.size())) + QStringLiteral(" · ")
        + (m_controller ? tr("%n event(s) in all", nullptr, int(events))
                        : tr("%n event(s) in all; read-only", nullptr, int(events))));
}

void SearchesPanel::onSnapshot(const search::SearchSnapshot &snapshot)
{
    m_searches->applySnapshot(snapshot);
    updateStatusLine();
    if (snapshot.name == shownName()) {
        m_workspace->poke(snapshot.events);
        updateLiveLabel();
    }
    updateActions();
}

void SearchesPanel::updateLiveLabel()
{
    const QString name = shownName();
    const int row = m_searches->rowOfName(name);
    const search::SearchState *state = follower()->state();
    if (row < 0 || !state || !state->initialized) {
        m_live->setText(row >= 0 && !follower()->foldError().isEmpty()
                ? tr("This log cannot be followed as a search of this application: %1").arg(follower()->foldError())
                : QString());
        return;
    }
    // A running engine's figures are newer than the log read so far.
    search::SearchSnapshot s = search::snapshotOf(*state);
    if (m_controller && m_controller->isRunning(name) && m_controller->snapshot(name).events > s.events)
        s = m_controller->snapshot(name);
    QString text = tr("%1 — %2 · %3 of %4 steps done · %n GPU evaluation(s)", nullptr, s.gpuEvaluations)
                       .arg(name, m_searches->statusTextAt(row))
                       .arg(s.step)
                       .arg(s.steps);
    if (s.replayedEvaluations > 0)
        text += tr(" (%1 replayed ↺)").arg(s.replayedEvaluations);
    if (s.evaluationFailures > 0)
        text += tr(" · %n could not run", nullptr, s.evaluationFailures);
    text += tr(" · %n forecast(s)", nullptr, s.forecasts);
    if (s.forecastFailures > 0)
        text += tr(" (%n failed)", nullptr, s.forecastFailures);
    text += tr(" · %n deferred", nullptr, s.deferred);
    if (s.queued > 0)
        text += tr(" (%n queued)", nullptr, s.queued);
    text += tr(" · archive %1").arg(s.archiveSize);
    if (m_controller && m_controller->isRunning(name) && m_controller->pace(name) > 0.0)
        text += tr(" · at most %1 steps/s").arg(m_controller->pace(name));
    if (s.bestSpeedup)
        text += tr(" · best %1× (%2)")
                    .arg(*s.bestSpeedup, 0, 'f', 3)
                    .arg(SearchNodesModel::label(s.bestNode, &follower()->nodeNames()));
    if (!state->pinned.isEmpty())
        text += tr(" · pinned %1").arg(state->pinned.size());
    if (!state->vetoed.isEmpty())
        text += tr(" · vetoed %1").arg(state->vetoed.size());
    // What the user's steering added: forced measurements and injected kernels.
    const auto injected = std::count_if(
        state->candidates.cbegin(), state->candidates.cend(), [](const search::Candidate &c) { return c.injected; });
    const auto forced = std::count_if(state->candidates.cbegin(), state->candidates.cend(),
        [](const search::Candidate &c) { return c.forced && !c.injected; });
    if (forced > 0)
        text += tr(" · forced %1").arg(forced);
    if (injected > 0)
        text += tr(" · injected %1").arg(injected);
    for (const QString &line : search::trustStatusLines(*state)) // the certified τ and a drift alarm (--alpha)
        text += QLatin1Char('\n') + line;
    m_live->setText(text);
}

bool SearchesPanel::showSearchNamed(const QString &name)
{
    const int row = m_searches->rowOfName(name);
    return row >= 0 && showSearch(m_searches->summaryAt(row)->search.id);
}

void SearchesPanel::requestNewSearch(const QString &replayOf)
{
    if (!m_session->isOpen() || !m_controller)
        return;
    m_session->read<NewSearchChoices>(QStringLiteral("choices"), &search::readNewSearchChoices, this,
        [this, replayOf](Result<NewSearchChoices> choices) {
            if (!choices) {
                m_live->setText(tr("Cannot read what a search can use: %1").arg(choices.error()));
                return;
            }
            openNewSearchDialog(*choices, replayOf);
        });
}

// Other searches of the same problem to draw under the live curve: a replay's original first, then up to three run
// by this application.
void SearchesPanel::loadOverlays()
{
    const search::SearchState *state = follower()->state();
    const int row = m_searches->rowOfName(follower()->name());
    if (!state || !state->initialized || row < 0)
        return;
    const QString own = follower()->name();
    const QString problem = m_searches->summaryAt(row)->problemName;
    QStringList names;
    const QString original = state->config.mutatorConfig.value(QStringLiteral("search")).toString();
    if (!original.isEmpty() && m_searches->rowOfName(original) >= 0)
        names.append(original);
    for (const SearchSummary &s : m_searches->summaries()) {
        if (names.size() >= 4)
            break;
        if (s.search.name != own && !names.contains(s.search.name) && !problem.isEmpty() && s.problemName == problem
            && s.ownEngine)
            names.append(s.search.name);
    }
    m_workspace->loadOverlays(names, original);
}

} // namespace gpuf
