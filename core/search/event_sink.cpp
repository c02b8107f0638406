// Event sinks; see event_sink.h.
#include "core/search/event_sink.h"

#include "core/store/search_repo.h"
#include "core/store/store.h"

namespace gpuf::search {

StoreSink::StoreSink(Store &store, RowId searchId)
    : m_store(store)
    , m_searchId(searchId)
{ }

StoreSink::StoreSink(std::unique_ptr<Store> store, RowId searchId)
    : m_owned(std::move(store))
    , m_store(*m_owned)
    , m_searchId(searchId)
{ }

StoreSink::~StoreSink() = default;

Status StoreSink::transact(const Build &build)
{
    Transaction transaction(m_store);
    if (Status s = transaction.begin(); !s)
        return s;
    QList<SearchEvent> events;
    if (Status s = build(events); !s)
        return s;
    SearchRepo repo(m_store);
    for (SearchEvent &e : events) {
        e.searchId = m_searchId;
        if (auto id = repo.append(e); !id)
            return Error {id.error()};
    }
    return transaction.commit();
}

Result<QList<SearchEvent>> StoreSink::since(qint64 sequence)
{
    SearchRepo repo(m_store);
    return repo.eventsFrom(m_searchId, sequence);
}

Status MemorySink::transact(const Build &build)
{
    QList<SearchEvent> events;
    if (Status s = build(events); !s)
        return s;
    for (SearchEvent &e : events) {
        e.sequence = m_events.size();
        if (!e.time.isValid())
            e.time = QDateTime::currentDateTimeUtc();
        m_events.append(std::move(e));
    }
    return {};
}

Result<QList<SearchEvent>> MemorySink::since(qint64 sequence)
{
    if (sequence >= m_events.size())
        return QList<SearchEvent>();
    return m_events.mid(qsizetype(sequence));
}

} // namespace gpuf::search
