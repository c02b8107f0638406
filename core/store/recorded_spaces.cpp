// recordedSpaces, recordedPools; see recorded_spaces.h.
#include "core/store/recorded_spaces.h"

#include "core/store/sql.h"
#include "core/store/store.h"

namespace gpuf {

Result<QList<RecordedSpace>> recordedSpaces(Store &store)
{
    auto q = sql::run(store.database(),
        // Grouped by position: "family" would name the problems' column of that name, not the kernels' family.
        QStringLiteral("SELECT json_extract(k.parameters_json, '$.family'), p.name, h.name, "
                       "COUNT(DISTINCT k.id) FROM kernels k JOIN problems p ON p.id = k.problem_id "
                       "JOIN measurements m ON m.kernel_id = k.id JOIN hardware h ON h.id = m.hardware_id "
                       "WHERE json_extract(k.parameters_json, '$.family') IS NOT NULL AND EXISTS (SELECT 1 FROM "
                       "measurements r WHERE r.kernel_id = p.reference_kernel_id AND r.hardware_id = h.id) "
                       "GROUP BY 1, 2, 3 ORDER BY 1, 3"));
    if (!q)
        return Error {q.error()};
    QList<RecordedSpace> out;
    while (q->next())
        out.append({q->value(0).toString(), q->value(1).toString(), q->value(2).toString(), q->value(3).toInt()});
    return out;
}

Result<QList<RecordedPool>> recordedPools(Store &store)
{
    auto q = sql::run(store.database(),
        QStringLiteral("SELECT p.name, h.name, COUNT(DISTINCT k.id) FROM kernels k "
                       "JOIN problems p ON p.id = k.problem_id JOIN measurements m ON m.kernel_id = k.id "
                       "JOIN hardware h ON h.id = m.hardware_id WHERE k.id != p.reference_kernel_id AND EXISTS "
                       "(SELECT 1 FROM measurements r WHERE r.kernel_id = p.reference_kernel_id AND "
                       "r.hardware_id = h.id) GROUP BY p.name, h.name ORDER BY p.name, h.name"));
    if (!q)
        return Error {q.error()};
    QList<RecordedPool> out;
    while (q->next())
        out.append({q->value(0).toString(), q->value(1).toString(), q->value(2).toInt()});
    return out;
}

} // namespace gpuf
