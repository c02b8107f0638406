// readImplausibleMarks; see plausibility_marks.h.
#include "core/store/plausibility_marks.h"

#include "core/domain/hardware.h"
#include "core/domain/roofline.h"
#include "core/store/json_text.h"
#include "core/store/sql.h"
#include "core/store/store.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QLocale>

#include <algorithm>
#include <map>
#include <tuple>

namespace gpuf {
namespace {

QString microseconds(double ns) { return QLocale().toString(ns / 1e3, 'f', ns < 1e4 ? 2 : 1); }

// The bytes of each (problem, case) from the problem reference's spec, evaluated once per pair when first needed.
class ProblemBytes
{
public:
    void add(RowId problemId, const QJsonObject &spec) { m_specs.insert(problemId, spec); }

    std::optional<double> bytes(RowId problemId, const QString &caseName)
    {
        const auto key = std::make_pair(problemId, caseName);
        if (const auto it = m_bytes.find(key); it != m_bytes.end())
            return it->second;
        std::optional<double> bytes;
        if (const auto spec = m_specs.constFind(problemId); spec != m_specs.cend()) {
            if (const Result<CaseWork> work = specCaseWork(*spec, caseName))
                bytes = work->bytes;
        }
        m_bytes.emplace(key, bytes);
        return bytes;
    }

private:
    QHash<RowId, QJsonObject> m_specs;
    std::map<std::pair<RowId, QString>, std::optional<double>> m_bytes;
};

struct Newest
{
    RowId problemId = 0;
    double medianNs = 0.0;
    bool ok = false;
    QJsonObject counters; // floor_us and implausible only
};

// id → name and peak bandwidth of every GPU of the store.
Status readPeakBandwidths(QSqlDatabase &db, QHash<RowId, std::pair<QString, double>> &hardware)
{
    auto h = sql::run(db,
        QStringLiteral("SELECT id, name, compute_capability, sm_count, clock_ghz, memory_clock_ghz, bus_width_bits"
                       " FROM hardware"));
    if (!h)
        return Error {h.error()};
    while (h->next()) {
        Hardware row;
        row.name = h->value(1).toString();
        row.computeCapability = h->value(2).toString();
        row.smCount = h->value(3).toInt();
        row.clockGhz = h->value(4).toDouble();
        row.memoryClockGhz = h->value(5).toDouble();
        row.busWidthBits = h->value(6).toInt();
        hardware.insert(h->value(0).toLongLong(), {row.name, peakRatesOf(row).bandwidthGBs});
    }
    return {};
}

// The work is the problem's: every kernel of a problem must move the bytes its reference's spec names.
Status readProblemSpecs(QSqlDatabase &db, ProblemBytes &problemBytes)
{
    auto specs = sql::run(db,
        QStringLiteral(
            "SELECT p.id, k.parameters_json FROM problems p JOIN kernels k ON k.id = p.reference_kernel_id"));
    if (!specs)
        return Error {specs.error()};
    while (specs->next())
        problemBytes.add(specs->value(0).toLongLong(),
            store::jsonObject(specs->value(1).toString()).value(QLatin1StringView("spec")).toObject());
    return {};
}

} // namespace

QString ImplausibleMark::text() const
{
    if (cases.isEmpty())
        return {};
    const ImplausibleCase &c = cases.first();
    QString text = QCoreApplication::translate(
        "gpuf::ImplausibleMark", "%1: %2 µs, below the %3 µs its bytes need at peak bandwidth on %4")
                       .arg(c.caseName, microseconds(c.timeNs), microseconds(c.floorNs), hardwareName);
    if (cases.size() > 1)
        text += QCoreApplication::translate(
            "gpuf::ImplausibleMark", " (and %n more case(s))", nullptr, int(cases.size() - 1));
    return text;
}

bool hasImplausibleTime(const ImplausibleMarks &marks, RowId kernelId, RowId hardwareId)
{
    const auto it = marks.constFind(kernelId);
    if (it == marks.cend())
        return false;
    return hardwareId == 0
        || std::any_of(it->cbegin(), it->cend(), [&](const ImplausibleMark &m) { return m.hardwareId == hardwareId; });
}

Result<ImplausibleMarks> readImplausibleMarks(
    QSqlDatabase &db, const QList<RowId> &kernelIds, const CancelToken &cancel)
{
    QHash<RowId, std::pair<QString, double>> hardware;
    if (Status st = readPeakBandwidths(db, hardware); !st)
        return Error {st.error()};
    ProblemBytes problemBytes;
    if (Status st = readProblemSpecs(db, problemBytes); !st)
        return Error {st.error()};

    QJsonArray ids;
    for (const RowId id : kernelIds)
        ids.append(id);
    // Only counters that mention floor_us are parsed: most rows are skipped by a byte search, not a JSON parse.
    const QString filter
        = kernelIds.isEmpty() ? QString() : QStringLiteral(" WHERE m.kernel_id IN (SELECT value FROM json_each(?))");
    auto q = sql::prepare(db,
        QStringLiteral("SELECT m.kernel_id, m.hardware_id, m.case_name, m.status, m.median_ns, k.problem_id,"
                       " CASE WHEN instr(m.counters_json, '\"floor_us\"') > 0 AND json_valid(m.counters_json)"
                       " THEN json_extract(m.counters_json, '$.floor_us') END,"
                       " CASE WHEN instr(m.counters_json, '\"implausible\"') > 0 AND json_valid(m.counters_json)"
                       " THEN json_extract(m.counters_json, '$.implausible') END"
                       " FROM measurements m JOIN kernels k ON k.id = m.kernel_id")
            + filter + QStringLiteral(" ORDER BY m.id"));
    if (!q)
        return Error {q.error()};
    if (!kernelIds.isEmpty())
        q->addBindValue(store::jsonText(ids));
    if (Status s = sql::exec(*q); !s)
        return Error {s.error()};
    // Rows arrive oldest first: a later run of the same (kernel, GPU, case) replaces an earlier one.
    std::map<std::tuple<RowId, RowId, QString>, Newest> newest;
    qint64 read = 0;
    while (q->next()) {
        if ((++read & 0xffff) == 0 && cancel.isCancelled())
            return Error::cancelled();
        Newest &n = newest[{q->value(0).toLongLong(), q->value(1).toLongLong(), q->value(2).toString()}];
        n.problemId = q->value(5).toLongLong();
        n.medianNs = q->value(4).toDouble();
        n.ok = q->value(3).toString() == QLatin1StringView("ok");
        n.counters = QJsonObject();
        if (!q->value(6).isNull())
            n.counters.insert(QStringLiteral("floor_us"), q->value(6).toDouble());
        if (!q->value(7).isNull())
            n.counters.insert(QStringLiteral("implausible"), q->value(7).toInt() != 0);
    }
    if (cancel.isCancelled())
        return Error::cancelled();
    ImplausibleMarks marks;
    for (const auto &[key, n] : newest) {
        const auto &[kernelId, hardwareId, caseName] = key;
        if (!n.ok)
            continue;
        const auto gpu = hardware.value(hardwareId);
        const bool needsBytes = !n.counters.contains(QLatin1StringView("floor_us"));
        const Plausibility p = plausibilityOf(
            n.medianNs, n.counters, needsBytes ? problemBytes.bytes(n.problemId, caseName) : std::nullopt, gpu.second);
        if (!p.isImplausible())
            continue;
        QList<ImplausibleMark> &list = marks[kernelId];
        if (list.isEmpty() || list.last().hardwareId != hardwareId)
            list.append(ImplausibleMark {kernelId, hardwareId, gpu.first, {}});
        list.last().cases.append({caseName, p.timeNs, p.floorNs, p.fromWorker});
    }
    return marks;
}

Result<ImplausibleMarks> readImplausibleMarks(Store &store, const QList<RowId> &kernelIds, const CancelToken &cancel)
{
    return readImplausibleMarks(store.database(), kernelIds, cancel);
}

} // namespace gpuf
