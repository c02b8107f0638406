// storeStatistics; see statistics.h.
#include "core/store/statistics.h"

#include "core/store/sql.h"

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

} // namespace

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
