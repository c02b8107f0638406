// StatementCache: prepares each statement once per connection and reuses it (batched inserts depend on it).
#pragma once

#include "core/common/result.h"

#include <QHash>
#include <QSqlQuery>

#include <optional>

namespace gpuf {
class Store;
}

namespace gpuf::store {

class StatementCache
{
public:
    explicit StatementCache(Store &store)
        : m_store(store)
    { }
    // A prepared query for `statement`, with previous bindings cleared; valid until the cache dies.
    Result<QSqlQuery *> get(const QString &statement);
    Store &store() { return m_store; }

private:
    Store &m_store;
    QHash<QString, QSqlQuery> m_queries;
};

} // namespace gpuf::store

namespace gpuf::store {
// Binds `values` to positions 0..n-1 and executes; the error names the statement.
Status execBound(QSqlQuery *query, std::initializer_list<QVariant> values);
} // namespace gpuf::store

namespace gpuf::store {
// Runs a cached single-row query and converts its row with `from`; no row ⇒ nullopt.
template<typename T, typename F>
Result<std::optional<T>> fetchOne(Result<QSqlQuery *> query, std::initializer_list<QVariant> values, F from)
{
    if (!query)
        return Error {query.error()};
    if (Status s = execBound(*query, values); !s)
        return Error {s.error()};
    if (!(*query)->next())
        return std::optional<T>();
    return std::optional<T>(from(**query));
}
} // namespace gpuf::store
