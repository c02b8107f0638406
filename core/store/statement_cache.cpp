// StatementCache; see statement_cache.h.
#include "core/store/statement_cache.h"

#include "core/store/sql.h"
#include "core/store/store.h"

namespace gpuf::store {

Result<QSqlQuery *> StatementCache::get(const QString &statement)
{
    auto it = m_queries.find(statement);
    if (it == m_queries.end()) {
        auto prepared = sql::prepare(m_store.database(), statement);
        if (!prepared)
            return Error {prepared.error()};
        it = m_queries.emplace(statement, std::move(*prepared));
    } else if (it->isActive()) {
        it->finish(); // a SELECT left mid-way; INSERTs are already done
    }
    return &*it;
}

} // namespace gpuf::store

namespace gpuf::store {
Status execBound(QSqlQuery *query, std::initializer_list<QVariant> values)
{
    int index = 0;
    for (const QVariant &value : values) {
        // A null QString binds as SQL NULL; text columns are NOT NULL with '' as "none".
        if (value.typeId() == QMetaType::QString && value.toString().isNull())
            query->bindValue(index++, QStringLiteral(""));
        else
            query->bindValue(index++, value);
    }
    return sql::exec(*query);
}
} // namespace gpuf::store
