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

private:
    store::StatementCache m_cache;
};

} // namespace gpuf
