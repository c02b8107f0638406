// SearchWorkspace; see search_workspace.h.
#include "widgets/search/search_workspace.h"

#include "core/search/search_reads.h"
#include "core/session/store_session.h"
#include "widgets/search/event_tail.h"
#include "widgets/search/lineage_view.h"
#include "widgets/search/progress_plot.h"
#include "widgets/search/search_calibration_view.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/search_follower.h"
#include "widgets/search/search_models.h"
#include "widgets/search/search_nodes_model.h"
#include "widgets/search/search_steering.h"
#include "widgets/search/search_tables.h"
#include "widgets/search/step_view.h"

#include <QFontDatabase>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace gpuf {

namespace {

// How often the live views redraw while a search streams events.
constexpr int kLiveViewsIntervalMs = 150;

} // namespace

SearchWorkspace::SearchWorkspace(
    StoreSession *session, SearchController *controller, Selection *selection, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_controller(controller)
    , m_follower(new SearchFollower(session, this))
    , m_events(new SearchEventsModel(this))
    , m_eventProxy(searchProxyFor(m_events, SearchEventsModel::SortRole, this))
    , m_eventsTitle(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_payload(new QPlainTextEdit(this))
    , m_nodes(new SearchNodesModel(this))
    , m_nodeProxy(searchProxyFor(m_nodes, SearchNodesModel::SortRole, this))
    , m_steering(new SearchSteering(controller, m_follower, selection, this))
    , m_tabs(new QTabWidget(this))
    , m_liveViewsTimer(new QTimer(this))
{
    m_tabs->setObjectName(QStringLiteral("searchWorkspaceTabs"));
    m_tabs->setDocumentMode(true);
    buildLiveTabs();
    m_tabs->addTab(buildNodesTab(), tr("Nodes"));
    m_tabs->addTab(buildEventLogTab(), tr("Event Log"));
    // Nodes are named by their configuration or kernel name, kept by the follower as the log grows.
    m_nodes->setNodeNames(&m_follower->nodeNames());
    m_steps->setNodeNames(&m_follower->nodeNames());
    m_lineage->setNodeNames(&m_follower->nodeNames());
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    m_liveViewsTimer->setSingleShot(true);
    m_liveViewsTimer->setInterval(kLiveViewsIntervalMs);
    connect(m_liveViewsTimer, &QTimer::timeout, this, &SearchWorkspace::refreshLiveViews);
    connect(m_follower, &SearchFollower::loaded, this, &SearchWorkspace::followerLoaded);
    connect(m_follower, &SearchFollower::appended, this, &SearchWorkspace::followerAppended);
    connect(m_follower, &SearchFollower::failed, this,
        [this](const QString &message) { m_eventsTitle->setText(tr("Cannot read the event log: %1").arg(message)); });
    connect(m_steering, &SearchSteering::notice, this, &SearchWorkspace::notice);
}

SearchWorkspace::~SearchWorkspace() = default;

QWidget *SearchWorkspace::buildEventLogTab()
{
    m_eventView = searchTableFor(m_eventProxy, this);
    m_eventView->sortByColumn(SearchEventsModel::SequenceColumn, Qt::AscendingOrder);
    m_eventsTitle->setWordWrap(true);
    m_filter->setPlaceholderText(tr("Filter events (kind, step, node, any text)"));
    m_filter->setClearButtonEnabled(true);
    m_payload->setReadOnly(true);
    m_payload->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_payload->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_payload->setPlaceholderText(tr("Choose an event to see everything it recorded."));
    auto *events = new QWidget(this);
    auto *eventsLayout = new QVBoxLayout(events);
    eventsLayout->setContentsMargins(0, 0, 0, 0);
    eventsLayout->addWidget(m_eventsTitle);
    eventsLayout->addWidget(m_filter);
    eventsLayout->addWidget(m_eventView, 1);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(events);
    split->addWidget(m_payload);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    connect(
        m_eventView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &SearchWorkspace::eventChosen);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_eventProxy->setFilterFixedString(text);
        m_eventsTitle->setText(eventsTitle());
    });
    return split;
}

QWidget *SearchWorkspace::buildNodesTab()
{
    m_nodeView = searchTableFor(m_nodeProxy, this);
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

void SearchWorkspace::buildLiveTabs()
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

QString SearchWorkspace::eventsTitle() const
{
    if (m_events->searchId() == 0)
        return {};
    const int shown = m_eventProxy->rowCount();
    const QString name = m_follower->name();
    if (shown == m_events->rowCount())
        return tr("Event log of %1: %n event(s)", nullptr, m_events->rowCount()).arg(name);
    return tr("Event log of %1: %2 of %n event(s) match the filter", nullptr, m_events->rowCount())
        .arg(name)
        .arg(shown);
}

void SearchWorkspace::showHint(const QString &text) { m_eventsTitle->setText(text); }

void SearchWorkspace::resetLiveViews()
{
    ++m_overlayGeneration;
    static const search::SearchState empty;
    m_lineage->setSearch(empty);
    m_progress->setSeries({});
    m_steps->setSearch(empty, {});
    m_calibration->setSearch(empty, {});
    m_tail->setSearch(empty, {});
    m_pendingEvents.clear();
    m_liveViewsTimer->stop();
}

void SearchWorkspace::follow(RowId searchId, const QString &name)
{
    m_eventsTitle->setText(tr("Reading the event log…"));
    m_nodes->setState(nullptr);
    // Nothing of the search shown before stays on screen under the new one's name while its log is read.
    resetLiveViews();
    m_follower->follow(searchId, name);
}

void SearchWorkspace::poke(qint64 events) { m_follower->poke(events); }

void SearchWorkspace::clear()
{
    m_follower->clear();
    m_nodes->setState(nullptr);
    m_events->setEvents(0, {});
    m_payload->clear();
    m_eventsTitle->clear();
    resetLiveViews();
}

void SearchWorkspace::followerLoaded()
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
    // The engine may have written more while the log was read.
    if (m_controller && m_controller->isRunning(m_follower->name()))
        m_follower->poke(m_controller->snapshot(m_follower->name()).events);
    Q_EMIT loaded();
}

void SearchWorkspace::followerAppended(const QList<SearchEvent> &events)
{
    m_events->appendEvents(events);
    m_eventsTitle->setText(eventsTitle());
    m_nodes->applyEvents(events);
    // The tree, plot, step tables, calibration and tail redraw from the whole state: at most a few times a second.
    m_pendingEvents.append(events);
    if (!m_liveViewsTimer->isActive())
        m_liveViewsTimer->start();
    Q_EMIT appended();
}

void SearchWorkspace::refreshLiveViews()
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

void SearchWorkspace::eventChosen()
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

void SearchWorkspace::nodeChosen(const QString &nodeId, QObject *from)
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

void SearchWorkspace::loadOverlays(const QStringList &names, const QString &original)
{
    if (names.isEmpty())
        return;
    const quint64 generation = ++m_overlayGeneration;
    const QString own = m_follower->name();
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
