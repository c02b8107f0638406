// SearchFollower; see search_follower.h.
#include "widgets/search/search_follower.h"

#include "core/search/node_names.h"
#include "core/search/search_reads.h"
#include "core/session/store_session.h"

namespace gpuf {
namespace {

// Events read and handed to the views at a time: a search that writes thousands a second is followed in bounded
// slices, so no single delivery holds the GUI thread long.
constexpr qint64 kBatch = 400;

} // namespace

SearchFollower::SearchFollower(StoreSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{ }

SearchFollower::~SearchFollower() = default;

void SearchFollower::clear()
{
    ++m_generation;
    m_session->cancelReads(this);
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
    m_names.clear();
}

void SearchFollower::nameNodes(const QList<SearchEvent> &events)
{
    for (const SearchEvent &e : events) {
        const QString node = e.payload.value(QStringLiteral("node_id")).toString();
        if (node.isEmpty() || !e.payload.contains(QStringLiteral("code")))
            continue; // only a proposal carries its code, name and parameters
        const QString name = search::nodeDisplayName(e.payload.value(QStringLiteral("parameters")).toObject(),
            e.payload.value(QStringLiteral("name")).toString());
        if (!name.isEmpty())
            m_names.insert(node, name);
    }
}

void SearchFollower::follow(RowId searchId, const QString &name)
{
    clear();
    m_searchId = searchId;
    m_name = name;
    m_reading = true;
    const quint64 generation = m_generation;
    m_path = m_session->path();
    m_session->read<search::FollowedSearch>(
        QStringLiteral("log"),
        [searchId](
            Store &store, const CancelToken &cancel) { return search::readFollowedSearch(store, searchId, cancel); },
        this, [this, generation](Result<search::FollowedSearch> read) { applyFull(generation, std::move(read)); });
}

void SearchFollower::applyFull(quint64 generation, Result<search::FollowedSearch> read)
{
    if (generation != m_generation)
        return;
    m_reading = false;
    if (!read) {
        Q_EMIT failed(read.error());
        return;
    }
    m_events = std::move(read->events);
    m_state = read->state ? read->state : std::make_shared<search::SearchState>();
    m_foldError = read->foldError;
    m_referenceKernelId = read->referenceKernelId;
    m_problemId = read->problemId;
    nameNodes(m_events);
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
    const RowId searchId = m_searchId;
    const qint64 from = m_events.size();
    m_session->read<QList<SearchEvent>>(
        QStringLiteral("more"),
        [searchId, from](Store &store, const CancelToken &cancel) {
            return search::readSearchEventsFrom(store, searchId, from, cancel, kBatch);
        },
        this, [this, generation](Result<QList<SearchEvent>> read) { applyMore(generation, std::move(read)); });
}

void SearchFollower::applyMore(quint64 generation, Result<QList<SearchEvent>> read)
{
    if (generation != m_generation)
        return;
    m_reading = false;
    if (!read) {
        Q_EMIT failed(read.error());
        return;
    }
    QList<SearchEvent> fresh;
    fresh.reserve(read->size());
    for (SearchEvent &e : *read) {
        if (e.sequence != m_events.size())
            continue; // already read (a full read and a poke raced)
        if (m_foldError.isEmpty()) {
            if (Status s = search::applyEvent(*m_state, e); !s)
                m_foldError = s.error();
        }
        m_events.append(e);
        fresh.append(std::move(e));
    }
    nameNodes(fresh);
    if (!fresh.isEmpty())
        Q_EMIT appended(fresh);
    if (m_wanted > m_events.size() && !fresh.isEmpty())
        readMore();
}

} // namespace gpuf
