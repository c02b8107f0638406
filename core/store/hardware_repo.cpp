// HardwareRepo; see hardware_repo.h.
#include "core/store/hardware_repo.h"

#include "core/store/sql.h"
#include "core/store/store.h"

namespace gpuf {
namespace {

const QString kColumns = QStringLiteral(
    "id, name, compute_capability, sm_count, max_threads_per_sm, clock_ghz, memory_clock_ghz, bus_width_bits,"
    " global_memory_gb, l2_bytes, shared_memory_per_sm, driver_version, toolkit_version");

Hardware hardwareFrom(const QSqlQuery &q)
{
    Hardware h;
    h.id = q.value(0).toLongLong();
    h.name = q.value(1).toString();
    h.computeCapability = q.value(2).toString();
    h.smCount = q.value(3).toInt();
    h.maxThreadsPerSm = q.value(4).toInt();
    h.clockGhz = q.value(5).toDouble();
    h.memoryClockGhz = q.value(6).toDouble();
    h.busWidthBits = q.value(7).toInt();
    h.globalMemoryGb = q.value(8).toDouble();
    h.l2Bytes = q.value(9).toLongLong();
    h.sharedMemoryPerSm = q.value(10).toLongLong();
    h.driverVersion = q.value(11).toString();
    h.toolkitVersion = q.value(12).toString();
    return h;
}

} // namespace

Result<RowId> HardwareRepo::ensure(Hardware &hardware)
{
    if (hardware.name.trimmed().isEmpty())
        return Error {QStringLiteral("a hardware row needs a name")};
    auto existing = findByName(hardware.name);
    if (!existing)
        return Error {existing.error()};
    if (existing->has_value()) {
        hardware.id = (*existing)->id;
        return hardware.id;
    }
    auto q = m_cache.get(QStringLiteral("INSERT INTO hardware (") + kColumns.mid(4)
        + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    if (!q)
        return Error {q.error()};
    Status s = store::execBound(*q,
        {hardware.name, hardware.computeCapability, hardware.smCount, hardware.maxThreadsPerSm, hardware.clockGhz,
            hardware.memoryClockGhz, hardware.busWidthBits, hardware.globalMemoryGb, hardware.l2Bytes,
            hardware.sharedMemoryPerSm, hardware.driverVersion, hardware.toolkitVersion});
    if (!s)
        return Error {QStringLiteral("cannot store hardware '%1': %2").arg(hardware.name, s.error())};
    hardware.id = (*q)->lastInsertId().toLongLong();
    return hardware.id;
}

Result<std::optional<Hardware>> HardwareRepo::find(RowId id)
{
    return store::fetchOne<Hardware>(
        m_cache.get(QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM hardware WHERE id = ?")), {id},
        hardwareFrom);
}

Result<std::optional<Hardware>> HardwareRepo::findByName(const QString &name)
{
    return store::fetchOne<Hardware>(
        m_cache.get(QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM hardware WHERE name = ?")), {name},
        hardwareFrom);
}

Result<QList<Hardware>> HardwareRepo::list()
{
    auto q = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM hardware ORDER BY id"));
    if (!q)
        return Error {q.error()};
    QList<Hardware> out;
    while (q->next())
        out.append(hardwareFrom(*q));
    return out;
}

} // namespace gpuf
