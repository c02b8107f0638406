// SearchRepo; see search_repo.h.
#include "core/store/search_repo.h"

#include "core/store/json_text.h"
#include "core/store/sql.h"
#include "core/store/store.h"

namespace gpuf {
namespace {

const QString kSearchColumns = QStringLiteral("id, name, problem_id, mode, config_json, created_at");

Search searchFrom(const QSqlQuery &q)
{
    Search s;
    s.id = q.value(0).toLongLong();
    s.name = q.value(1).toString();
    s.problemId = q.value(2).toLongLong();
    s.mode = q.value(3).toString();
    s.config = store::jsonObject(q.value(4).toString());
    s.createdAt = sql::fromStoredTime(q.value(5).toString());
    return s;
}

} // namespace

Result<RowId> SearchRepo::ensure(Search &search)
{
    if (search.name.trimmed().isEmpty())
        return Error {QStringLiteral("a search needs a name")};
    auto existing = findByName(search.name);
    if (!existing)
        return Error {existing.error()};
    if (existing->has_value()) {
        search.id = (*existing)->id;
        return search.id;
    }
    auto q = m_cache.get(QStringLiteral(
        "INSERT INTO searches (name, problem_id, mode, config_json, created_at) VALUES (?, ?, ?, ?, ?)"));
    if (!q)
        return Error {q.error()};
    if (!search.createdAt.isValid())
        search.createdAt = QDateTime::currentDateTimeUtc();
    Status s = store::execBound(*q,
        {search.name, sql::idOrNull(search.problemId), search.mode, store::jsonText(search.config),
            sql::toStoredTime(search.createdAt)});
    if (!s)
        return Error {QStringLiteral("cannot store search '%1': %2").arg(search.name, s.error())};
    search.id = (*q)->lastInsertId().toLongLong();
    return search.id;
}

Result<std::optional<Search>> SearchRepo::find(RowId id)
{
    return store::fetchOne<Search>(
        m_cache.get(QStringLiteral("SELECT ") + kSearchColumns + QStringLiteral(" FROM searches WHERE id = ?")), {id},
        searchFrom);
}

Result<std::optional<Search>> SearchRepo::findByName(const QString &name)
{
    return store::fetchOne<Search>(
        m_cache.get(QStringLiteral("SELECT ") + kSearchColumns + QStringLiteral(" FROM searches WHERE name = ?")),
        {name}, searchFrom);
}

Result<QList<Search>> SearchRepo::list()
{
    auto q = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT ") + kSearchColumns + QStringLiteral(" FROM searches ORDER BY id"));
    if (!q)
        return Error {q.error()};
    QList<Search> out;
    while (q->next())
        out.append(searchFrom(*q));
    return out;
}

Result<RowId> SearchRepo::append(SearchEvent &event)
{
    if (event.kind.trimmed().isEmpty())
        return Error {QStringLiteral("a search event needs a kind")};
    auto q = m_cache.get(QStringLiteral(
        "INSERT INTO search_events (search_id, sequence, kind, payload_json, time) VALUES (?, (SELECT"
        " COALESCE(MAX(sequence) + 1, 0) FROM search_events WHERE search_id = ?), ?, ?, ?) RETURNING id, sequence"));
    if (!q)
        return Error {q.error()};
    if (!event.time.isValid())
        event.time = QDateTime::currentDateTimeUtc();
    Status s = store::execBound(*q,
        {event.searchId, event.searchId, event.kind, store::jsonText(event.payload), sql::toStoredTime(event.time)});
    if (!s)
        return Error {QStringLiteral("cannot append search event '%1': %2").arg(event.kind, s.error())};
    if (!(*q)->next())
        return Error {QStringLiteral("appending search event '%1' returned no id").arg(event.kind)};
    event.id = (*q)->value(0).toLongLong();
    event.sequence = (*q)->value(1).toLongLong();
    (*q)->finish();
    return event.id;
}

Result<qint64> SearchRepo::eventCount(RowId searchId)
{
    return sql::scalar(m_cache.store().database(),
        QStringLiteral("SELECT COUNT(*) FROM search_events WHERE search_id = ?"), {searchId});
}

namespace {
QList<SearchEvent> readEvents(QSqlQuery &q)
{
    QList<SearchEvent> out;
    while (q.next()) {
        SearchEvent e;
        e.id = q.value(0).toLongLong();
        e.searchId = q.value(1).toLongLong();
        e.sequence = q.value(2).toLongLong();
        e.kind = q.value(3).toString();
        e.payload = store::jsonObject(q.value(4).toString());
        e.time = sql::fromStoredTime(q.value(5).toString());
        out.append(std::move(e));
    }
    return out;
}
} // namespace

Result<QList<SearchEvent>> SearchRepo::events(RowId searchId)
{
    auto q = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT id, search_id, sequence, kind, payload_json, time FROM search_events"
                       " WHERE (? = 0 OR search_id = ?) ORDER BY search_id, sequence"),
        {searchId, searchId});
    if (!q)
        return Error {q.error()};
    return readEvents(*q);
}

Result<QList<SearchEvent>> SearchRepo::eventsFrom(RowId searchId, qint64 fromSequence, qint64 limit)
{
    auto q = m_cache.get(QStringLiteral("SELECT id, search_id, sequence, kind, payload_json, time FROM search_events"
                                        " WHERE search_id = ? AND sequence >= ? ORDER BY sequence LIMIT ?"));
    if (!q)
        return Error {q.error()};
    if (Status s = store::execBound(*q, {searchId, fromSequence, limit < 0 ? qint64(-1) : limit}); !s)
        return Error {s.error()};
    QList<SearchEvent> out = readEvents(**q);
    (*q)->finish();
    return out;
}

Status SearchRepo::updateConfig(RowId searchId, const QJsonObject &config)
{
    auto q = m_cache.get(QStringLiteral("UPDATE searches SET config_json = ? WHERE id = ?"));
    if (!q)
        return Error {q.error()};
    return store::execBound(*q, {store::jsonText(config), searchId});
}

Result<RowId> SearchRepo::busiestHardware(RowId problemId)
{
    auto q = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT m.hardware_id, COUNT(*) AS n FROM measurements m JOIN kernels k ON k.id = m.kernel_id"
                       " WHERE k.problem_id = ? GROUP BY m.hardware_id ORDER BY n DESC, m.hardware_id LIMIT 1"),
        {problemId});
    if (!q)
        return Error {q.error()};
    return q->next() ? q->value(0).toLongLong() : RowId(0);
}

} // namespace gpuf
