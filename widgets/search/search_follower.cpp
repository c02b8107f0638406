// SearchFollower; see search_follower.h.
#include "widgets/search/search_follower.h"

#include "core/session/store_session.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {

struct SearchFollower::Read
{
    QString error;
    QList<SearchEvent> events;
    std::shared_ptr<search::SearchState> state; // full reads only
    QString foldError;
    RowId referenceKernelId = 0;
    RowId problemId = 0;
};

namespace {

using ReadPtr = std::shared_ptr<SearchFollower::Read>;

} // namespace

SearchFollower::SearchFollower(StoreSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{ }

SearchFollower::~SearchFollower() = default;

void SearchFollower::clear()
{
    ++m_generation;
    m_reading = false;
    m_searchId = 0;
    m_name.clear();
    m_path.clear();
    m_events.clear();
    m_state.reset();
    m_foldError.clear();
    m_wanted = 0;
    m_referenceKernelId = 0;
    m_problemId = 0;
}

void SearchFollower::follow(RowId searchId, const QString &name)
{
    clear();
    m_searchId = searchId;
    m_name = name;
    m_reading = true;
    const quint64 generation = m_generation;
    const QString path = m_session->path();
    m_path = path;
    auto *watcher = new QFutureWatcher<ReadPtr>(this);
    connect(watcher, &QFutureWatcher<ReadPtr>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        applyFull(generation, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([path, searchId]() -> ReadPtr {
        auto read = std::make_shared<Read>();
        auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
        if (!store) {
            read->error = store.error();
            return read;
        }
        SearchRepo searches(**store);
        auto search = searches.find(searchId);
        auto events = searches.events(searchId);
        if (!search || !events || !*search) {
            read->error = !search ? search.error() : !events ? events.error() : QStringLiteral("the search is gone");
            return read;
        }
        read->events = std::move(*events);
        read->problemId = (*search)->problemId;
        if (read->problemId > 0) {
            if (auto problem = ProblemRepo(**store).find(read->problemId); problem && *problem)
                read->referenceKernelId = (*problem)->referenceKernelId;
        }
        auto state = search::foldEvents(read->events);
        if (state)
            read->state = std::make_shared<search::SearchState>(std::move(*state));
        else
            read->foldError = state.error();
        return read;
    }));
}

void SearchFollower::applyFull(quint64 generation, const std::shared_ptr<Read> &read)
{
    if (generation != m_generation)
        return;
    m_reading = false;
    if (!read->error.isEmpty()) {
        Q_EMIT failed(read->error);
        return;
    }
    m_events = std::move(read->events);
    m_state = read->state ? read->state : std::make_shared<search::SearchState>();
    m_foldError = read->foldError;
    m_referenceKernelId = read->referenceKernelId;
    m_problemId = read->problemId;
    Q_EMIT loaded();
    if (m_wanted > m_events.size())
        readMore();
}

void SearchFollower::poke(qint64 events)
{
    if (m_searchId == 0)
        return;
    m_wanted = std::max(m_wanted, events);
    if (!m_reading && m_wanted > m_events.size())
        readMore();
}

void SearchFollower::readMore()
{
    m_reading = true;
    const quint64 generation = m_generation;
    const QString path = m_path;
    const RowId searchId = m_searchId;
    const qint64 from = m_events.size();
    auto *watcher = new QFutureWatcher<ReadPtr>(this);
    connect(watcher, &QFutureWatcher<ReadPtr>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        applyMore(generation, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([path, searchId, from]() -> ReadPtr {
        auto read = std::make_shared<Read>();
        auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
        if (!store) {
            read->error = store.error();
            return read;
        }
        auto events = SearchRepo(**store).eventsFrom(searchId, from);
        if (!events)
            read->error = events.error();
        else
            read->events = std::move(*events);
        return read;
    }));
}

void SearchFollower::applyMore(quint64 generation, const std::shared_ptr<Read> &read)
{
    if (generation != m_generation)
        return;
    m_reading = false;
    if (!read->error.isEmpty()) {
        Q_EMIT failed(read->error);
        return;
    }
    QList<SearchEvent> fresh;
    fresh.reserve(read->events.size());
    for (SearchEvent &e : read->events) {
        if (e.sequence != m_events.size())
            continue; // already read (a full read and a poke raced)
        if (m_foldError.isEmpty()) {
            if (Status s = search::applyEvent(*m_state, e); !s)
                m_foldError = s.error();
        }
        m_events.append(e);
        fresh.append(std::move(e));
    }
    if (!fresh.isEmpty())
        Q_EMIT appended(fresh);
    if (m_wanted > m_events.size() && !fresh.isEmpty())
        readMore();
}

} // namespace gpuf
