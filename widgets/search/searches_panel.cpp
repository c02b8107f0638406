// SearchesPanel; see searches_panel.h.
#include "widgets/search/searches_panel.h"

#include "widgets/common/view_setup.h"
#include "widgets/search/search_models.h"
#include "widgets/session/store_session.h"

#include <QFontDatabase>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

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
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_searchView);
    split->addWidget(lower);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    // Room for a handful of searches above the log before the list scrolls.
    const int row = m_searchView->verticalHeader()->defaultSectionSize();
    split->setSizes({row * 6 + m_searchView->horizontalHeader()->sizeHint().height(), row * 14});
    m_searchView->horizontalHeader()->setStretchLastSection(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_session, &StoreSession::opened, this, &SearchesPanel::reload);
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

void SearchesPanel::clear()
{
    ++m_summaryGeneration;
    ++m_eventGeneration;
    m_loadingSearches = m_loadingEvents = false;
    m_shownSearch = 0;
    m_searches->setSummaries({});
    m_events->setEvents(0, {});
    m_payload->clear();
    m_eventsTitle->clear();
    m_status->setText(tr("No store is open."));
}

void SearchesPanel::reload()
{
    const quint64 generation = ++m_summaryGeneration;
    m_loadingSearches = true;
    m_status->setText(tr("Reading the store's searches…"));
    auto *watcher = new QFutureWatcher<Result<QList<SearchSummary>>>(this);
    connect(watcher, &QFutureWatcher<Result<QList<SearchSummary>>>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        applySummaries(generation, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(loadSearchSummaries, m_session->path()));
}

void SearchesPanel::applySummaries(quint64 generation, const Result<QList<SearchSummary>> &result)
{
    if (generation != m_summaryGeneration)
        return; // a newer load replaced this one
    m_loadingSearches = false;
    const RowId keep = m_shownSearch;
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
        m_status->setText(tr("This store holds no searches yet. Import a search's events.jsonl, or the published "
                             "search-event rows, with File → Import…"));
        return;
    }
    qint64 events = 0;
    for (const SearchSummary &s : std::as_const(*result))
        events += s.events;
    m_status->setText(tr("%n search(es)", nullptr, int(result->size())) + QStringLiteral(" · ")
        + tr("%n event(s) in all; read-only", nullptr, int(events)));
    if (!showSearch(keep) && !showSearch(result->first().search.id))
        m_eventsTitle->setText(eventsTitle());
}

bool SearchesPanel::showSearch(RowId searchId)
{
    const int row = m_searches->rowOfSearch(searchId);
    if (row < 0 || searchId == 0)
        return false;
    const QModelIndex index = m_searchProxy->mapFromSource(m_searches->index(row, 0));
    if (m_searchView->currentIndex().row() == index.row() && m_shownSearch == searchId)
        loadEvents(searchId); // the same row after a reload: its log may have grown
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
    loadEvents(s->search.id);
}

void SearchesPanel::loadEvents(RowId searchId)
{
    const quint64 generation = ++m_eventGeneration;
    m_loadingEvents = true;
    m_shownSearch = searchId;
    m_eventsTitle->setText(tr("Reading the event log…"));
    auto *watcher = new QFutureWatcher<Result<QList<SearchEvent>>>(this);
    connect(
        watcher, &QFutureWatcher<Result<QList<SearchEvent>>>::finished, this, [this, watcher, generation, searchId] {
            watcher->deleteLater();
            applyEvents(generation, searchId, watcher->result());
        });
    watcher->setFuture(QtConcurrent::run(loadSearchEvents, m_session->path(), searchId));
}

void SearchesPanel::applyEvents(quint64 generation, RowId searchId, const Result<QList<SearchEvent>> &result)
{
    if (generation != m_eventGeneration)
        return;
    m_loadingEvents = false;
    m_payload->clear();
    if (!result) {
        m_events->setEvents(0, {});
        m_eventsTitle->setText(tr("Cannot read the event log: %1").arg(result.error()));
        return;
    }
    m_events->setEvents(searchId, *result);
    m_eventView->resizeColumnsToContents();
    m_eventsTitle->setText(eventsTitle());
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

} // namespace gpuf
