// MeasurementRepo and PairLabelRepo; see measurement_repo.h.
#include "core/store/measurement_repo.h"

#include "core/bins/bins.h"
#include "core/store/json_text.h"
#include "core/store/sql.h"
#include "core/store/store.h"

namespace gpuf {
namespace {

const QString kMeasurementColumns = QStringLiteral(
    "id, kernel_id, hardware_id, case_name, status, error_text, median_ns, mean_ns, min_ns, std_ns, rel_std_err,"
    " samples, timing_method, l2_flush, registers, shared_memory_bytes, local_memory_bytes, occupancy,"
    " counters_json, provenance_json, source, created_at");

QVariant optionalInt(int value) { return value >= 0 ? QVariant(value) : QVariant(); }
QVariant optionalReal(double value) { return value >= 0 ? QVariant(value) : QVariant(); }

Measurement measurementFrom(const QSqlQuery &q)
{
    Measurement m;
    m.id = q.value(0).toLongLong();
    m.kernelId = q.value(1).toLongLong();
    m.hardwareId = q.value(2).toLongLong();
    m.caseName = q.value(3).toString();
    m.status = measurementStatusFromName(q.value(4).toString()).value_or(MeasurementStatus::InfrastructureFailure);
    m.errorText = q.value(5).toString();
    if (!q.value(6).isNull()) {
        RuntimeStats r;
        r.medianNs = q.value(6).toDouble();
        r.meanNs = q.value(7).toDouble();
        r.minNs = q.value(8).toDouble();
        r.stdNs = q.value(9).toDouble();
        r.relStdErr = q.value(10).toDouble();
        r.samples = q.value(11).toInt();
        m.runtime = r;
    }
    m.timingMethod = q.value(12).toString();
    m.l2Flush = q.value(13).toBool();
    m.resources.registers = q.value(14).isNull() ? -1 : q.value(14).toInt();
    m.resources.sharedMemoryBytes = q.value(15).isNull() ? -1 : q.value(15).toInt();
    m.resources.localMemoryBytes = q.value(16).isNull() ? -1 : q.value(16).toInt();
    m.resources.occupancy = q.value(17).isNull() ? -1.0 : q.value(17).toDouble();
    m.counters = store::jsonObject(q.value(18).toString());
    m.provenance = store::jsonObject(q.value(19).toString());
    m.source = measurementSourceFromName(q.value(20).toString()).value_or(MeasurementSource::Import);
    m.createdAt = sql::fromStoredTime(q.value(21).toString());
    return m;
}

// The measurements matching `where` (every one when empty), by id.
Result<QList<Measurement>> selectMeasurements(
    QSqlDatabase &db, const QString &where, std::initializer_list<QVariant> values)
{
    const QString statement = QStringLiteral("SELECT ") + kMeasurementColumns + QStringLiteral(" FROM measurements")
        + (where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where) + QStringLiteral(" ORDER BY id");
    auto q = sql::run(db, statement, values);
    if (!q)
        return Error {q.error()};
    QList<Measurement> out;
    while (q->next())
        out.append(measurementFrom(*q));
    return out;
}

const QString kLabelColumns = QStringLiteral(
    "id, reference_kernel_id, candidate_kernel_id, hardware_id, speedup, true_bin, kind, external_id, source,"
    " extra_json");

PairLabel labelFrom(const QSqlQuery &q)
{
    PairLabel l;
    l.id = q.value(0).toLongLong();
    l.referenceKernelId = q.value(1).toLongLong();
    l.candidateKernelId = q.value(2).toLongLong();
    l.hardwareId = q.value(3).toLongLong();
    l.speedup = sql::optionalDouble(q.value(4));
    l.trueBin = sql::optionalInt(q.value(5));
    l.kind = q.value(6).toString();
    l.externalId = q.value(7).toString();
    l.source = q.value(8).toString();
    l.extra = store::jsonObject(q.value(9).toString());
    return l;
}

} // namespace

Result<RowId> MeasurementRepo::insert(Measurement &m)
{
    if (m.status == MeasurementStatus::Ok && !m.runtime)
        return Error {QStringLiteral("a measurement with status ok needs runtime statistics")};
    if (m.runtime && !(m.runtime->medianNs > 0))
        return Error {QStringLiteral("a measured runtime must be positive (got %1 ns)").arg(m.runtime->medianNs)};
    auto q = m_cache.get(QStringLiteral("INSERT INTO measurements (") + kMeasurementColumns.mid(4)
        + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    if (!q)
        return Error {q.error()};
    if (!m.createdAt.isValid())
        m.createdAt = QDateTime::currentDateTimeUtc();
    const RuntimeStats *r = m.runtime ? &*m.runtime : nullptr;
    Status s = store::execBound(*q,
        {m.kernelId, m.hardwareId, m.caseName, measurementStatusName(m.status), m.errorText,
            r ? QVariant(r->medianNs) : QVariant(), r ? QVariant(r->meanNs) : QVariant(),
            r ? QVariant(r->minNs) : QVariant(), r ? QVariant(r->stdNs) : QVariant(),
            r ? QVariant(r->relStdErr) : QVariant(), r ? QVariant(r->samples) : QVariant(), m.timingMethod,
            m.l2Flush ? 1 : 0, optionalInt(m.resources.registers), optionalInt(m.resources.sharedMemoryBytes),
            optionalInt(m.resources.localMemoryBytes), optionalReal(m.resources.occupancy), store::jsonText(m.counters),
            store::jsonText(m.provenance), measurementSourceName(m.source), sql::toStoredTime(m.createdAt)});
    if (!s)
        return Error {QStringLiteral("cannot store measurement: %1").arg(s.error())};
    m.id = (*q)->lastInsertId().toLongLong();
    return m.id;
}

Result<QList<Measurement>> MeasurementRepo::forKernel(RowId kernelId, RowId hardwareId)
{
    return selectMeasurements(m_cache.store().database(),
        QStringLiteral("kernel_id = ? AND (? = 0 OR hardware_id = ?)"), {kernelId, hardwareId, hardwareId});
}

Result<QList<Measurement>> MeasurementRepo::localRunsOfBinary(RowId hardwareId, const QString &binarySha256)
{
    // The condition of the partial index measurements_local_binary (schema version 5), so SQLite reads it.
    return selectMeasurements(m_cache.store().database(),
        QStringLiteral("hardware_id = ? AND source = 'local' AND json_extract(provenance_json, '$.binary_sha256') = ?"),
        {hardwareId, binarySha256});
}

Result<QList<Measurement>> MeasurementRepo::list() { return selectMeasurements(m_cache.store().database(), {}, {}); }

Result<RowId> PairLabelRepo::insert(PairLabel &l)
{
    if (l.speedup && !(*l.speedup > 0))
        return Error {QStringLiteral("a pair's speedup must be positive (got %1)").arg(*l.speedup)};
    if (l.trueBin && (*l.trueBin < 1 || *l.trueBin > bins::kBinCount))
        return Error {QStringLiteral("a true bin must be 1..8 (got %1)").arg(*l.trueBin)};
    auto q = m_cache.get(QStringLiteral("INSERT INTO pair_labels (") + kLabelColumns.mid(4)
        + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    if (!q)
        return Error {q.error()};
    Status s = store::execBound(*q,
        {l.referenceKernelId, l.candidateKernelId, sql::idOrNull(l.hardwareId), sql::nullable(l.speedup),
            sql::nullable(l.trueBin), l.kind, l.externalId, l.source, store::jsonText(l.extra)});
    if (!s)
        return Error {QStringLiteral("cannot store pair label: %1").arg(s.error())};
    l.id = (*q)->lastInsertId().toLongLong();
    return l.id;
}

Result<std::optional<PairLabel>> PairLabelRepo::findByExternalId(const QString &kind, const QString &externalId)
{
    return store::fetchOne<PairLabel>(m_cache.get(QStringLiteral("SELECT ") + kLabelColumns
                                          + QStringLiteral(" FROM pair_labels WHERE kind = ? AND"
                                                           " external_id = ? ORDER BY id LIMIT 1")),
        {kind, externalId}, labelFrom);
}

Result<QList<PairLabel>> PairLabelRepo::forPair(RowId referenceKernelId, RowId candidateKernelId)
{
    auto q = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT ") + kLabelColumns
            + QStringLiteral(" FROM pair_labels WHERE reference_kernel_id = ? AND candidate_kernel_id = ? ORDER BY id"),
        {referenceKernelId, candidateKernelId});
    if (!q)
        return Error {q.error()};
    QList<PairLabel> out;
    while (q->next())
        out.append(labelFrom(*q));
    return out;
}

Result<QList<PairLabel>> PairLabelRepo::list()
{
    auto q = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT ") + kLabelColumns + QStringLiteral(" FROM pair_labels ORDER BY id"));
    if (!q)
        return Error {q.error()};
    QList<PairLabel> out;
    while (q->next())
        out.append(labelFrom(*q));
    return out;
}

} // namespace gpuf
