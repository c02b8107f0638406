// SearchesPanel; see searches_panel.h.
#include "widgets/search/searches_panel.h"

#include "core/search/search_reads.h"
#include "core/search/search_setup.h"
#include "core/session/store_session.h"
#include "core/store/store.h"
#include "widgets/common/view_setup.h"
#include "widgets/search/event_tail.h"
#include "widgets/search/lineage_view.h"
#include "widgets/search/new_search_dialog.h"
#include "widgets/search/progress_plot.h"
#include "widgets/search/search_calibration_view.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/search_follower.h"
#include "widgets/search/search_models.h"
#include "widgets/search/search_nodes_model.h"
#include "widgets/search/search_steering.h"
#include "widgets/search/steering_dialogs.h"
#include "widgets/search/step_view.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScopeGuard>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace gpuf {
namespace {

QTableView *tableFor(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSortingEnabled(true);
    setupTableView(view, QAbstractItemView::SingleSelection);
    // Compact fixed rows like the candidate table: an event log is long.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    return view;
}

// How often the live views redraw while a search streams events.
constexpr int kLiveViewsIntervalMs = 150;

QSortFilterProxyModel *proxyFor(QAbstractItemModel *source, int sortRole, QObject *parent)
{
    auto *proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(source);
    proxy->setSortRole(sortRole);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(-1);
    return proxy;
}

} // namespace

SearchesPanel::SearchesPanel(StoreSession *session, QWidget *parent)
    : SearchesPanel(session, nullptr, nullptr, parent)
{ }

SearchesPanel::SearchesPanel(StoreSession *session, SearchController *controller, Selection *selection, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_searches(new SearchListModel(this))
    , m_events(new SearchEventsModel(this))
    , m_searchProxy(proxyFor(m_searches, SearchListModel::SortRole, this))
    , m_eventProxy(proxyFor(m_events, SearchEventsModel::SortRole, this))
    , m_status(new QLabel(this))
    , m_searchView(tableFor(m_searchProxy, this))
    , m_eventsTitle(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_eventView(tableFor(m_eventProxy, this))
    , m_payload(new QPlainTextEdit(this))
    , m_controller(controller)
    , m_selection(selection)
    , m_follower(new SearchFollower(session, this))
    , m_nodes(new SearchNodesModel(this))
    , m_nodeProxy(proxyFor(m_nodes, SearchNodesModel::SortRole, this))
    , m_steering(new SearchSteering(controller, m_follower, selection, this))
    , m_live(new QLabel(this))
{
    setObjectName(QStringLiteral("searchesPanel"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_eventsTitle->setWordWrap(true);
    m_filter->setPlaceholderText(tr("Filter events (kind, step, node, any text)"));
    m_filter->setClearButtonEnabled(true);
    m_payload->setReadOnly(true);
    m_payload->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_payload->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_payload->setPlaceholderText(tr("Choose an event to see everything it recorded."));
    m_searchView->sortByColumn(-1, Qt::AscendingOrder); // the store's order (by id) until the user sorts
    m_eventView->sortByColumn(SearchEventsModel::SequenceColumn, Qt::AscendingOrder);

    auto *events = new QWidget(this);
    auto *eventsLayout = new QVBoxLayout(events);
    eventsLayout->setContentsMargins(0, 0, 0, 0);
    eventsLayout->addWidget(m_eventsTitle);
    eventsLayout->addWidget(m_filter);
    eventsLayout->addWidget(m_eventView, 1);
    auto *lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(events);
    lower->addWidget(m_payload);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("searchWorkspaceTabs"));
    m_tabs->setDocumentMode(true);
    buildLiveTabs();
    m_tabs->addTab(buildNodesTab(), tr("Nodes"));
    m_tabs->addTab(lower, tr("Event Log"));
    // The dock shares the window's height with the diff: its parts may shrink below their own minimum (they scroll or
    // clip) rather than push the dock past the window's edge.
    m_tabs->setMinimumHeight(160);
    m_searchView->setMinimumHeight(60);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_searchView);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    // Room for a handful of searches above the log before the list scrolls.
    const int row = m_searchView->verticalHeader()->defaultSectionSize();
    split->setSizes({row * 6 + m_searchView->horizontalHeader()->sizeHint().height(), row * 14});
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

    m_liveViewsTimer = new QTimer(this);
    m_liveViewsTimer->setSingleShot(true);
    m_liveViewsTimer->setInterval(kLiveViewsIntervalMs);
    connect(m_liveViewsTimer, &QTimer::timeout, this, &SearchesPanel::refreshLiveViews);
    connect(m_follower, &SearchFollower::loaded, this, &SearchesPanel::followerLoaded);
    connect(m_follower, &SearchFollower::appended, this, &SearchesPanel::followerAppended);
    connect(m_follower, &SearchFollower::failed, this,
        [this](const QString &message) { m_eventsTitle->setText(tr("Cannot read the event log: %1").arg(message)); });
    connect(m_steering, &SearchSteering::notice, m_live, &QLabel::setText);
    if (m_controller) {
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
    connect(m_eventView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &SearchesPanel::eventChosen);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_eventProxy->setFilterFixedString(text);
        m_eventsTitle->setText(eventsTitle());
    });

    if (m_session->isOpen())
        reload();
    else
        clear();
}

SearchesPanel::~SearchesPanel() = default;

QString SearchesPanel::statusText() const { return m_status->text(); }

QString SearchesPanel::eventsTitle() const
{
    const SearchSummary *s = m_searches->summaryAt(m_searches->rowOfSearch(m_events->searchId()));
    if (!s)
        return m_searches->rowCount() > 0 ? tr("Choose a search above to read its event log.") : QString();
    const int shown = m_eventProxy->rowCount();
    if (shown == m_events->rowCount())
        return tr("Event log of %1: %n event(s)", nullptr, m_events->rowCount()).arg(s->search.name);
    return tr("Event log of %1: %2 of %n event(s) match the filter", nullptr, m_events->rowCount())
        .arg(s->search.name)
        .arg(shown);
}

bool SearchesPanel::isLoading() const { return m_loadingSearches || m_follower->isLoading(); }

QString SearchesPanel::shownName() const { return m_follower->name(); }

void SearchesPanel::clear()
{
    ++m_summaryGeneration;
    m_loadingSearches = false;
    m_shownSearch = 0;
    m_follower->clear();
    m_nodes->setState(nullptr);
    m_live->clear();
    m_searches->setSummaries({});
    m_events->setEvents(0, {});
    m_payload->clear();
    m_eventsTitle->clear();
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
        m_events->setEvents(0, {});
        m_status->setText(tr("Cannot read the searches: %1").arg(result.error()));
        return;
    }
    m_searches->setSummaries(*result);
    m_searchView->resizeColumnsToContents();
    if (result->isEmpty()) {
        m_events->setEvents(0, {});
        m_payload->clear();
        m_eventsTitle->clear();
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
            if (live.events > 0) // an engine that has not reported yet has nothing newer
                m_searches->applySnapshot(live);
        }
    }
    const QString wanted = std::exchange(m_wantedName, QString());
    if (!(!wanted.isEmpty() && showSearchNamed(wanted)) && !showSearch(keep) && !showSearch(result->first().search.id))
        m_eventsTitle->setText(eventsTitle());
    updateActions();
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
    if (s->search.id == m_follower->searchId() && s->search.name == m_follower->name()) {
        m_shownSearch = s->search.id;
        m_follower->poke(s->events);
        return;
    }
    loadEvents(s->search.id);
}

void SearchesPanel::loadEvents(RowId searchId)
{
    m_shownSearch = searchId;
    const SearchSummary *s = m_searches->summaryAt(m_searches->rowOfSearch(searchId));
    m_eventsTitle->setText(tr("Reading the event log…"));
    m_nodes->setState(nullptr);
    // Nothing of the search shown before stays on screen under the new one's name while its log is read.
    ++m_overlayGeneration;
    static const search::SearchState empty;
    m_lineage->setSearch(empty);
    m_progress->setSeries({});
    m_steps->setSearch(empty, {});
    m_calibration->setSearch(empty, {});
    m_tail->setSearch(empty, {});
    m_pendingEvents.clear();
    m_liveViewsTimer->stop();
    m_follower->follow(searchId, s ? s->search.name : QString());
    updateActions();
    updateLiveLabel();
}

void SearchesPanel::followerLoaded()
{
    m_pendingEvents.clear(); // the views are set from the whole log below
    m_liveViewsTimer->stop();
    m_payload->clear();
    m_events->setEvents(m_follower->searchId(), m_follower->events());
    m_eventView->resizeColumnsToContents();
    m_eventsTitle->setText(eventsTitle());
    m_nodes->setState(m_follower->state());
    // The live views show the folded state; a log that does not fold (another engine's) shows them empty.
    static const search::SearchState empty;
    const search::SearchState &state = m_follower->state() ? *m_follower->state() : empty;
    const QList<SearchEvent> &events = m_follower->events();
    m_lineage->setSearch(state);
    m_progress->setSeries({});
    m_progress->setSearch(state, tr("%1 (this search)").arg(m_follower->name()));
    m_steps->setSearch(state, events);
    m_calibration->setSearch(state, events);
    m_tail->setSearch(state, events);
    loadOverlays();
    // The engine may have written more while the log was read.
    if (m_controller && m_controller->isRunning(m_follower->name()))
        m_follower->poke(m_controller->snapshot(m_follower->name()).events);
    updateActions();
    updateLiveLabel();
}

void SearchesPanel::followerAppended(const QList<SearchEvent> &events)
{
    m_events->appendEvents(events);
    m_eventsTitle->setText(eventsTitle());
    m_nodes->applyEvents(events);
    // The tree, plot, step tables, calibration and tail redraw from the whole state: at most a few times a second.
    m_pendingEvents.append(events);
    if (!m_liveViewsTimer->isActive())
        m_liveViewsTimer->start();
    updateActions();
    updateLiveLabel();
}

void SearchesPanel::refreshLiveViews()
{
    const QList<SearchEvent> events = std::exchange(m_pendingEvents, {});
    const search::SearchState *state = m_follower->state();
    if (!state || events.isEmpty())
        return;
    m_lineage->applyEvents(*state, events);
    m_progress->applyEvents(*state, events);
    m_steps->applyEvents(*state, events);
    m_calibration->applyEvents(*state, events);
    m_tail->applyEvents(*state, events);
}

void SearchesPanel::eventChosen()
{
    const QModelIndex index = m_eventProxy->mapToSource(m_eventView->currentIndex());
    const SearchEvent *e = m_events->eventAt(index.row());
    if (!e) {
        m_payload->clear();
        return;
    }
    QJsonObject shown = e->payload;
    shown.insert(QStringLiteral("kind"), e->kind);
    if (e->time.isValid())
        shown.insert(QStringLiteral("time"), e->time.toString(Qt::ISODateWithMs));
    m_payload->setPlainText(QString::fromUtf8(QJsonDocument(shown).toJson(QJsonDocument::Indented)));
}

QWidget *SearchesPanel::buildNodesTab()
{
    m_nodeView = tableFor(m_nodeProxy, this);
    m_nodeView->setObjectName(QStringLiteral("searchNodes"));
    m_nodeView->sortByColumn(-1, Qt::AscendingOrder); // the order the search made them until the user sorts
    m_nodeView->setContextMenuPolicy(Qt::CustomContextMenu);
    // Widths for what the columns hold (a running search's first rows are not typical of its later ones).
    const int ch = m_nodeView->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    const QList<std::pair<int, int>> widths {{SearchNodesModel::NodeColumn, 12}, {SearchNodesModel::StepColumn, 6},
        {SearchNodesModel::ParentColumn, 12}, {SearchNodesModel::StatusColumn, 22},
        {SearchNodesModel::ForecastColumn, 14}, {SearchNodesModel::DecisionColumn, 40},
        {SearchNodesModel::SpeedupColumn, 10}};
    for (const auto &[column, chars] : widths)
        m_nodeView->setColumnWidth(column, chars * ch);
    connect(m_nodeView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (current.isValid())
                nodeChosen(current.data(SearchNodesModel::NodeIdRole).toString(), m_nodeView);
        });
    connect(m_nodeView, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        const QModelIndex index = m_nodeView->indexAt(at);
        if (index.isValid())
            m_steering->showMenu(
                index.data(SearchNodesModel::NodeIdRole).toString(), m_nodeView->viewport()->mapToGlobal(at));
    });
    return m_nodeView;
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
    m_stopAction
        = m_toolbar->addAction(tr("Stop"), this, named([this](const QString &name) { m_controller->stop(name); }));
    m_stopAction->setToolTip(tr("End the search for good (a stopped search cannot be resumed)"));
    m_toolbar->addSeparator();
    m_settingsAction = m_toolbar->addAction(tr("Settings…"), this, &SearchesPanel::changeSettings);
    m_settingsAction->setToolTip(tr("Change τ, proposals or measurements per parent, or the steps, while it runs"));
    m_replayAction = m_toolbar->addAction(tr("Replay with…"), this, [this] { requestNewSearch(shownName()); });
    m_replayAction->setToolTip(tr("Run this search's proposals again under another τ or forecaster, as a new search "
                                  "overlaid on this one"));
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
    m_settingsAction->setEnabled(row >= 0 && (running || isResumable(status)) && m_follower->state());
    const search::SearchState *state = m_follower->state();
    m_replayAction->setEnabled(open && row >= 0 && state && state->initialized);
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
        m_follower->poke(snapshot.events);
        updateLiveLabel();
    }
    updateActions();
}

void SearchesPanel::updateLiveLabel()
{
    const QString name = shownName();
    const int row = m_searches->rowOfName(name);
    const search::SearchState *state = m_follower->state();
    if (row < 0 || !state || !state->initialized) {
        m_live->setText(row >= 0 && !m_follower->foldError().isEmpty()
                ? tr("This log cannot be followed as a search of this application: %1").arg(m_follower->foldError())
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
    if (s.bestSpeedup)
        text += tr(" · best %1× (node %2)").arg(*s.bestSpeedup, 0, 'f', 3).arg(SearchNodesModel::shortId(s.bestNode));
    if (!state->pinned.isEmpty())
        text += tr(" · pinned %1").arg(state->pinned.size());
    if (!state->vetoed.isEmpty())
        text += tr(" · vetoed %1").arg(state->vetoed.size());
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

NewSearchDialog *SearchesPanel::openNewSearchDialog(const NewSearchChoices &choices, const QString &replayOf)
{
    auto *dialog = new NewSearchDialog(choices, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const search::SearchState *state = m_follower->state();
    if (!replayOf.isEmpty() && state && state->initialized && replayOf == shownName())
        dialog->prefill(state->config, replayOf);
    connect(dialog, &NewSearchDialog::startRequested, this,
        [this](const QString &name, const search::SearchConfig &config) {
            m_live->setText(tr("Preparing search %1…").arg(name));
            m_controller->create(name, config);
        });
    dialog->open();
    return dialog;
}

void SearchesPanel::changeSettings()
{
    const search::SearchState *state = m_follower->state();
    if (!state || !m_controller)
        return;
    auto *dialog = new SearchSettingsDialog(state->config, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString name = shownName();
    connect(dialog, &SearchSettingsDialog::changeRequested, this,
        [this, name](const QJsonObject &changes) { m_controller->changeConfig(name, changes); });
    dialog->open();
}

void SearchesPanel::buildLiveTabs()
{
    m_lineage = new LineageView(this);
    m_progress = new ProgressPlot(this);
    m_steps = new StepView(this);
    m_calibration = new SearchCalibrationView(this);
    m_tail = new EventTailView(this);
    m_tabs->addTab(m_lineage, tr("Lineage"));
    m_tabs->addTab(m_progress, tr("Progress"));
    m_tabs->addTab(m_steps, tr("Steps"));
    m_tabs->addTab(m_calibration, tr("Calibration"));
    m_tabs->addTab(m_tail, tr("Live Tail"));
    connect(m_lineage, &LineageView::nodeActivated, this, [this](const QString &id) { nodeChosen(id, m_lineage); });
    connect(m_lineage, &LineageView::nodeContextMenuRequested, m_steering, &SearchSteering::showMenu);
    connect(m_steps, &StepView::nodeActivated, this, [this](const QString &id) { nodeChosen(id, m_steps); });
    connect(m_tail, &EventTailView::nodeActivated, this, [this](const QString &id) { nodeChosen(id, m_tail); });
}

void SearchesPanel::nodeChosen(const QString &nodeId, QObject *from)
{
    // The kernel becomes the window's selection; the other views of the search point at the same node.
    m_steering->selectNode(nodeId);
    if (from != m_lineage)
        m_lineage->selectNode(nodeId);
    if (from != m_steps)
        m_steps->selectNode(nodeId);
    if (from != m_nodeView) {
        const int row = m_nodes->rowOfNode(nodeId);
        if (row >= 0) {
            const QSignalBlocker quiet(m_nodeView->selectionModel());
            m_nodeView->setCurrentIndex(m_nodeProxy->mapFromSource(m_nodes->index(row, 0)));
        }
    }
}

// Other searches of the same problem drawn under the live curve (a replay's original first), read and folded off the
// GUI thread.
void SearchesPanel::loadOverlays()
{
    const search::SearchState *state = m_follower->state();
    const int row = m_searches->rowOfName(m_follower->name());
    if (!state || !state->initialized || row < 0)
        return;
    const QString own = m_follower->name();
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
    if (names.isEmpty())
        return;
    const quint64 generation = ++m_overlayGeneration;
    const QString originalLabel = tr("%1 (the original)");
    m_session->read<QList<ProgressSeries>>(
        QStringLiteral("overlays"),
        [names, original, originalLabel](Store &store, const CancelToken &cancel) -> Result<QList<ProgressSeries>> {
            auto folded = search::readFoldedSearches(store, names, cancel);
            if (!folded)
                return folded.failure();
            QList<ProgressSeries> out;
            for (const search::FoldedSearch &f : std::as_const(*folded)) {
                const QString label = f.name == original
                    ? originalLabel.arg(f.name)
                    : QStringLiteral("%1 (%2)").arg(f.name, search::modeName(f.state.config.mode));
                out.append({label, search::progressCurve(f.state), false});
            }
            return out;
        },
        this,
        [this, generation, own](Result<QList<ProgressSeries>> result) {
            if (!result || generation != m_overlayGeneration || own != m_follower->name())
                return;
            QList<ProgressSeries> series = std::move(*result);
            for (const ProgressSeries &live : m_progress->series()) {
                if (live.live)
                    series.append(live);
            }
            m_progress->setSeries(series);
        });
}

} // namespace gpuf
