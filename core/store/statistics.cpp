// storeStatistics; see statistics.h.
#include "core/store/statistics.h"

#include "core/store/sql.h"

#include <algorithm>

namespace gpuf {
namespace {

Result<QList<NamedCounts>> namedCounts(QSqlDatabase &db, const QString &statement)
{
    auto q = sql::run(db, statement);
    if (!q)
        return Error {q.error()};
    QList<NamedCounts> out;
    while (q->next()) {
        NamedCounts c;
        c.name = q->value(0).toString();
        c.kernels = q->value(1).toLongLong();
        c.measurements = q->value(2).toLongLong();
        c.forecasts = q->value(3).toLongLong();
        c.pairLabels = q->value(4).toLongLong();
        c.replayedMeasurements = q->value(5).toLongLong();
        out.append(c);
    }
    return out;
}

// The distinct values of a one-column query with one bound id over at most kMostIds + 1 rows (sorted); `bulk` is set
// when there were more than kMostIds rows.
Result<QList<RowId>> idsAfter(QSqlDatabase &db, const QString &statement, RowId after, bool *bulk)
{
    auto q = sql::run(db, statement, {after, StoreGrowth::kMostIds + 1});
    if (!q)
        return Error {q.error()};
    QList<RowId> out;
    int rows = 0;
    while (q->next()) {
        out.append(q->value(0).toLongLong());
        ++rows;
    }
    *bulk = *bulk || rows > StoreGrowth::kMostIds;
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace

Result<qint64> storeDataVersion(Store &store)
{
    return sql::scalar(store.database(), QStringLiteral("PRAGMA data_version"));
}

Result<StoreMarks> storeMarks(Store &store)
{
    auto q = sql::run(store.database(),
        QStringLiteral("SELECT (SELECT COALESCE(MAX(id), 0) FROM kernels), (SELECT COALESCE(MAX(id), 0) FROM "
                       "measurements), (SELECT COALESCE(MAX(id), 0) FROM forecasts), (SELECT COALESCE(MAX(id), 0) "
                       "FROM forecasters), (SELECT COALESCE(MAX(id), 0) FROM searches), (SELECT COALESCE(MAX(id), 0) "
                       "FROM search_events), (SELECT COALESCE(MAX(id), 0) FROM lessons), (SELECT COALESCE(MAX(id), "
                       "0) FROM lesson_steps), (SELECT COUNT(*) FROM kernels)"));
    if (!q)
        return Error {q.error()};
    if (!q->next())
        return Error {QStringLiteral("The store's newest rows could not be read.")};
    StoreMarks m;
    m.kernel = q->value(0).toLongLong();
    m.measurement = q->value(1).toLongLong();
    m.forecast = q->value(2).toLongLong();
    m.forecaster = q->value(3).toLongLong();
    m.search = q->value(4).toLongLong();
    m.searchEvent = q->value(5).toLongLong();
    m.lesson = q->value(6).toLongLong();
    m.lessonStep = q->value(7).toLongLong();
    m.kernels = q->value(8).toLongLong();
    return m;
}

Result<StoreGrowth> storeGrowth(Store &store, const StoreMarks &since)
{
    StoreGrowth g;
    auto now = storeMarks(store);
    if (!now)
        return now.failure();
    g.marks = *now;
    // A table whose newest row went: rows were deleted.
    g.shrank = now->kernel < since.kernel || now->measurement < since.measurement || now->forecast < since.forecast
        || now->search < since.search || now->lesson < since.lesson;
    if (g.shrank)
        return g;
    QSqlDatabase &db = store.database();
    const struct
    {
        QList<RowId> *out;
        RowId before;
        RowId after;
        const char *statement;
    } reads[] = {
        {&g.kernels, since.kernel, now->kernel, "SELECT id FROM kernels WHERE id > ? ORDER BY id LIMIT ?"},
        {&g.measuredKernels, since.measurement, now->measurement,
            "SELECT kernel_id FROM measurements WHERE id > ? ORDER BY id LIMIT ?"},
        {&g.forecastKernels, since.forecast, now->forecast,
            "SELECT candidate_kernel_id FROM forecasts WHERE id > ? ORDER BY id LIMIT ?"},
        {&g.forecasters, since.forecaster, now->forecaster,
            "SELECT id FROM forecasters WHERE id > ? ORDER BY id LIMIT ?"},
        {&g.searches, since.search, now->search, "SELECT id FROM searches WHERE id > ? ORDER BY id LIMIT ?"},
        {&g.lessons, since.lesson, now->lesson, "SELECT id FROM lessons WHERE id > ? ORDER BY id LIMIT ?"},
    };
    for (const auto &r : reads) {
        if (r.after <= r.before)
            continue;
        auto ids = idsAfter(db, QString::fromLatin1(r.statement), r.before, &g.bulk);
        if (!ids)
            return ids.failure();
        *r.out = *ids;
    }
    // Fewer kernels than before and those added: some were deleted.
    g.shrank = !g.bulk && now->kernels < since.kernels + g.kernels.size();
    // Logs that grew, and lessons given a step, join the searches and lessons created.
    if (now->searchEvent > since.searchEvent) {
        auto ids = idsAfter(db, QStringLiteral("SELECT search_id FROM search_events WHERE id > ? ORDER BY id LIMIT ?"),
            since.searchEvent, &g.bulk);
        if (!ids)
            return ids.failure();
        g.searches += *ids;
    }
    if (now->lessonStep > since.lessonStep) {
        auto ids = idsAfter(db, QStringLiteral("SELECT lesson_id FROM lesson_steps WHERE id > ? ORDER BY id LIMIT ?"),
            since.lessonStep, &g.bulk);
        if (!ids)
            return ids.failure();
        g.lessons += *ids;
    }
    for (QList<RowId> *ids : {&g.searches, &g.lessons}) {
        std::sort(ids->begin(), ids->end());
        ids->erase(std::unique(ids->begin(), ids->end()), ids->end());
    }
    return g;
}

Result<StoreStatistics> storeStatistics(Store &store)
{
    StoreStatistics stats;
    auto totals = store.counts();
    if (!totals)
        return Error {totals.error()};
    stats.totals = *totals;
    QSqlDatabase &db = store.database();
    auto replayed = sql::scalar(db, QStringLiteral("SELECT COUNT(*) FROM measurements WHERE source = 'replay'"));
    if (!replayed)
        return Error {replayed.error()};
    stats.replayedMeasurements = *replayed;
    auto perProblem = namedCounts(db,
        QStringLiteral(
            "SELECT p.name,"
            " (SELECT COUNT(*) FROM kernels k WHERE k.problem_id = p.id),"
            " (SELECT COUNT(*) FROM measurements m JOIN kernels k ON k.id = m.kernel_id WHERE k.problem_id = p.id),"
            " (SELECT COUNT(*) FROM forecasts f JOIN kernels k ON k.id = f.candidate_kernel_id WHERE k.problem_id = "
            "p.id),"
            " (SELECT COUNT(*) FROM pair_labels l JOIN kernels k ON k.id = l.candidate_kernel_id"
            "  WHERE k.problem_id = p.id),"
            " (SELECT COUNT(*) FROM measurements m JOIN kernels k ON k.id = m.kernel_id"
            "  WHERE k.problem_id = p.id AND m.source = 'replay')"
            " FROM problems p ORDER BY p.name"));
    if (!perProblem)
        return Error {perProblem.error()};
    stats.perProblem = *perProblem;
    auto perForecaster = namedCounts(db,
        QStringLiteral("SELECT f.name, 0, 0, (SELECT COUNT(*) FROM forecasts x WHERE x.forecaster_id = f.id), 0, 0"
                       " FROM forecasters f ORDER BY f.name"));
    if (!perForecaster)
        return Error {perForecaster.error()};
    stats.perForecaster = *perForecaster;
    auto perHardware = namedCounts(db,
        QStringLiteral("SELECT h.name, 0, (SELECT COUNT(*) FROM measurements m WHERE m.hardware_id = h.id),"
                       " (SELECT COUNT(*) FROM forecasts f WHERE f.hardware_id = h.id),"
                       " (SELECT COUNT(*) FROM pair_labels l WHERE l.hardware_id = h.id),"
                       " (SELECT COUNT(*) FROM measurements m WHERE m.hardware_id = h.id AND m.source = 'replay')"
                       " FROM hardware h ORDER BY h.name"));
    if (!perHardware)
        return Error {perHardware.error()};
    stats.perHardware = *perHardware;
    return stats;
}

} // namespace gpuf
