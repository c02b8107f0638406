// SearchRepo: searches and their append-only event logs.
#pragma once

#include "core/common/result.h"
#include "core/domain/search.h"
#include "core/store/statement_cache.h"

namespace gpuf {

class SearchRepo
{
public:
    explicit SearchRepo(Store &store)
        : m_cache(store)
    { }
    Result<RowId> ensure(Search &search); // by name: the existing id, or insert
    Result<std::optional<Search>> find(RowId id);
    Result<std::optional<Search>> findByName(const QString &name);
    Result<QList<Search>> list();

    // Appends at the end of the search's log: event.sequence becomes the next position. Callers that need
    // several events atomic wrap the calls in one Transaction.
    Result<RowId> append(SearchEvent &event);
    Result<qint64> eventCount(RowId searchId);
    Result<QList<SearchEvent>> events(RowId searchId = 0); // all searches when 0; by search, then sequence
    // One search's events from position `fromSequence` on, in order (what a running search has not folded yet).
    // At most `limit` events when it is not negative.
    Result<QList<SearchEvent>> eventsFrom(RowId searchId, qint64 fromSequence, qint64 limit = -1);
    // Replaces a search's configuration (a configuration change is also an event in its log).
    Status updateConfig(RowId searchId, const QJsonObject &config);
    // The hardware with most measurements of the problem's kernels; 0 when none.
    Result<RowId> busiestHardware(RowId problemId);

private:
    store::StatementCache m_cache;
};

} // namespace gpuf
