// loadCandidateTable and computeChangedLines; see candidate_rows.h.
#include "core/store/candidate_rows.h"

#include "core/bins/bins.h"
#include "core/common/thread_priority.h"
#include "core/store/measured_speedup.h"
#include "core/store/plausibility_marks.h"
#include "core/store/problem_repo.h"
#include "core/store/sql.h"
#include "core/store/store.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpuf {

bool MeasuredCell::failed() const
{
    if (hasMeasurement())
        return state == State::Failed;
    return labelId != 0 && !labelSpeedup;
}

std::optional<double> MeasuredCell::truthSpeedup() const
{
    if (state == State::Speedup)
        return speedup;
    if (usesLabel())
        return labelSpeedup;
    return std::nullopt;
}

std::optional<int> MeasuredCell::truthBin() const
{
    if (state == State::Speedup)
        return bins::binOf(speedup);
    if (usesLabel() && labelSpeedup)
        return labelBin ? labelBin : bins::binOf(*labelSpeedup);
    return std::nullopt;
}

QString CandidateRow::displayName() const { return name.isEmpty() ? contentHash.left(12) : name; }

int CandidateTable::rowOf(RowId kernelId) const
{
    const auto it = std::lower_bound(
        rows.cbegin(), rows.cend(), kernelId, [](const CandidateRow &row, RowId id) { return row.id < id; });
    return it != rows.cend() && it->id == kernelId ? int(it - rows.cbegin()) : -1;
}

int CandidateTable::problemIndexOf(RowId problemId) const
{
    const auto it = std::lower_bound(
        problems.cbegin(), problems.cend(), problemId, [](const CandidateProblem &p, RowId id) { return p.id < id; });
    return it != problems.cend() && it->id == problemId ? int(it - problems.cbegin()) : -1;
}

int CandidateTable::searchIndexOf(RowId searchId) const
{
    const auto it = std::lower_bound(
        searches.cbegin(), searches.cend(), searchId, [](const CandidateSearch &s, RowId id) { return s.id < id; });
    return it != searches.cend() && it->id == searchId ? int(it - searches.cbegin()) : -1;
}

const MeasuredCell &CandidateTable::measuredCell(int row, int hardwareIndex) const
{
    return measured[qsizetype(row) * hardware.size() + hardwareIndex];
}

const ForecastCell &CandidateTable::forecastCell(int row, int forecasterIndex) const
{
    return forecasts[qsizetype(row) * forecasters.size() + forecasterIndex];
}

void CandidateTable::chooseDefaults()
{
    auto most = [](const auto &list, auto better) {
        int best = -1;
        for (int i = 0; i < list.size(); ++i) {
            if (best < 0 || better(list[i], list[best]))
                best = i;
        }
        return best;
    };
    defaultHardware = most(hardware, [](const CandidateHardware &a, const CandidateHardware &b) {
        return std::tie(a.measurements, a.labels) > std::tie(b.measurements, b.labels);
    });
    defaultForecaster = most(forecasters,
        [](const CandidateForecaster &a, const CandidateForecaster &b) { return a.forecasts > b.forecasts; });
}

namespace {

// One measurement run: the newest measurement of a kernel for one case on one hardware.
struct CaseRun
{
    int row = 0;
    int hardware = 0;
    int caseId = 0;
    MeasurementStatus status = MeasurementStatus::Ok;
    bool replayed = false;
    double medianNs = 0.0;
    PythonTimes times;
};

bool runBefore(const CaseRun &a, const CaseRun &b)
{
    return std::tie(a.row, a.hardware, a.caseId) < std::tie(b.row, b.hardware, b.caseId);
}

// Forecast and measurement rows as read, before they are matched to table rows: the two largest tables are read
// on connections of their own while the kernels are read, since each costs about as much as the kernels.
struct RawForecast
{
    RowId id = 0;
    RowId candidate = 0;
    RowId forecaster = 0;
    RowId reference = 0;
    RowId hardware = 0;
    bins::Distribution p {};
    std::optional<int> chosen;
};

struct RawMeasurement
{
    RowId kernel = 0;
    RowId hardware = 0;
    QString caseName;
    MeasurementStatus status = MeasurementStatus::Ok;
    bool replayed = false; // source 'replay'
    qint64 recordedMs = 0; // replays only: when the runtime they copy was recorded (0: not known)
    double medianNs = 0.0;
    PythonTimes times;
};

// [device median µs, call median µs, speedup_time, launch_bound] as json_extract gives them; zeros where absent.
PythonTimes pythonTimesOf(const QString &json)
{
    const QJsonArray a = QJsonDocument::fromJson(json.toUtf8()).array();
    PythonTimes t;
    t.deviceUs = float(a.at(0).toDouble());
    t.callUs = float(a.at(1).toDouble());
    t.byCall = a.at(2).toString() == QLatin1StringView("call");
    t.launchBound = a.at(3).toBool() || a.at(3).toInt() == 1;
    return t;
}

// `statement` with " AND <column> IN (?, …)" before its ORDER BY when `only` is not empty, its ids bound.
Result<QSqlQuery> runFor(QSqlDatabase &db, QString statement, const QString &column, const QList<RowId> &only)
{
    if (only.isEmpty())
        return sql::run(db, statement);
    const QString in = QStringLiteral(" AND %1 IN (?%2)").arg(column, QStringLiteral(",?").repeated(only.size() - 1));
    statement.insert(statement.indexOf(QLatin1StringView(" ORDER BY")), in);
    auto q = sql::prepare(db, statement);
    if (!q)
        return q.failure();
    for (RowId id : only)
        q->addBindValue(id);
    if (Status s = sql::exec(*q); !s)
        return s.failure();
    return q;
}

// `only`: the candidates to read (empty: all).
Result<QList<RawForecast>> fetchForecasts(QSqlDatabase &db, const CancelToken &cancel, const QList<RowId> &only = {})
{
    auto q = runFor(db,
        QStringLiteral("SELECT id, candidate_kernel_id, forecaster_id, reference_kernel_id, COALESCE(hardware_id, 0),"
                       " p1, p2, p3, p4, p5, p6, p7, p8, predicted_bin FROM forecasts WHERE status = 'ok' ORDER BY id"),
        QStringLiteral("candidate_kernel_id"), only);
    if (!q)
        return q.failure();
    QList<RawForecast> out;
    while (q->next()) {
        if ((out.size() & 0xffff) == 0 && cancel.isCancelled())
            return Error::cancelled();
        RawForecast f;
        f.id = q->value(0).toLongLong();
        f.candidate = q->value(1).toLongLong();
        f.forecaster = q->value(2).toLongLong();
        f.reference = q->value(3).toLongLong();
        f.hardware = q->value(4).toLongLong();
        for (int b = 0; b < bins::kBinCount; ++b)
            f.p[b] = q->value(5 + b).toDouble();
        f.chosen = sql::optionalInt(q->value(13));
        out.append(f);
    }
    return out;
}

// `only`: the kernels to read (empty: all).
Result<QList<RawMeasurement>> fetchMeasurements(
    QSqlDatabase &db, const CancelToken &cancel, const QList<RowId> &only = {})
{
    // In id order, so a newer measurement of the same (kernel, hardware, case) comes later and replaces the older.
    // Only replays (rare) have their provenance parsed: the time of the runtime they copy. One column says both.
    auto q = runFor(db,
        QStringLiteral("SELECT kernel_id, hardware_id, case_name, status, median_ns,"
                       " CASE WHEN source = 'replay' THEN CASE WHEN json_valid(provenance_json)"
                       " THEN COALESCE(json_extract(provenance_json, '$.replay_of_time'), '') ELSE '' END END,"
                       // A Python case's two figures (counters.timings): only rows that mention them are parsed.
                       " CASE WHEN instr(counters_json, '\"timings\"') > 0 AND json_valid(counters_json)"
                       " THEN json_extract(counters_json, '$.timings.device.median_us', '$.timings.call.median_us',"
                       " '$.timings.speedup_time', '$.timings.launch_bound') END"
                       " FROM measurements WHERE 1 ORDER BY id"),
        QStringLiteral("kernel_id"), only);
    if (!q)
        return q.failure();
    QList<RawMeasurement> out;
    QHash<QString, QString> caseNames; // one shared string per case name
    while (q->next()) {
        if ((out.size() & 0xffff) == 0 && cancel.isCancelled())
            return Error::cancelled();
        RawMeasurement m;
        m.kernel = q->value(0).toLongLong();
        m.hardware = q->value(1).toLongLong();
        const QString caseName = q->value(2).toString();
        auto shared = caseNames.constFind(caseName);
        if (shared == caseNames.cend())
            shared = caseNames.insert(caseName, caseName);
        m.caseName = *shared;
        m.medianNs = q->value(4).toDouble();
        m.status = caseStatus(q->value(3).toString(), m.medianNs);
        // NULL unless a replay; then the time it names, or '' when it names none.
        const QVariant replayOf = q->value(5);
        m.replayed = !replayOf.isNull();
        if (const QVariant times = q->value(6); !times.isNull())
            m.times = pythonTimesOf(times.toString());
        if (m.replayed) {
            const QDateTime recorded = QDateTime::fromString(replayOf.toString(), Qt::ISODateWithMs);
            m.recordedMs = recorded.isValid() ? recorded.toMSecsSinceEpoch() : 0;
        }
        out.append(std::move(m));
    }
    return out;
}

// Runs `fetch` on `pool` on a read connection of its own (a connection belongs to the thread that opened it).
template<typename T, typename Fetch>
QFuture<Result<T>> fetchAside(QThreadPool *pool, const QString &path, const CancelToken &cancel, Fetch fetch)
{
    return QtConcurrent::run(pool, [path, cancel, fetch]() -> Result<T> {
        lowerCurrentThreadPriority(); // background reading yields the core to the GUI thread
        auto store = Store::open(path, Store::Mode::ReadOnly, Store::Check::Header);
        if (!store)
            return store.failure();
        return fetch((*store)->database(), cancel, {});
    });
}

class TableLoader
{
public:
    TableLoader(Store &store, const CancelToken &cancel)
        : m_store(store)
        , m_db(store.database())
        , m_cancel(cancel)
    {
        m_pool.setMaxThreadCount(4); // the three side reads and the name ranks, all at once
    }

    // Reads only the rows of `ids` (ascending, all rows of `base`) again, for a patch: the kernels themselves, the
    // problems and the name ranks are taken from `base`; the searches are not read.
    TableLoader(Store &store, const CancelToken &cancel, const CandidateTable &base, QList<RowId> ids)
        : TableLoader(store, cancel)
    {
        m_base = &base;
        m_only = std::move(ids);
    }

    Result<CandidateTable> run();

private:
    Result<CandidateTable> runPatch();
    void takeRows();
    Status loadProblems();
    Status loadKernels();
    Status loadSlots();
    Status loadLabels();
    Status loadForecasts();
    Status loadMeasurements();
    Status loadImplausible();
    Status loadSearches();
    void storeForecast(int row, int forecaster, const RawForecast &raw);
    void fillMeasuredCell(const QList<CaseRun> &runs, qsizetype begin, qsizetype end);
    void finish();

    Store &m_store;
    QSqlDatabase &m_db;
    CancelToken m_cancel;
    const CandidateTable *m_base = nullptr; // a patch: the table the rows are read again for
    QList<RowId> m_only; // a patch: the kernels read
    // The side work waits here, never on the global pool: loadCandidateTable runs inside global-pool jobs, and nested
    // waits on that pool deadlock once every one of its threads is such a waiting job (seen with two cores).
    QThreadPool m_pool;
    CandidateTable m_table;
    QHash<RowId, int> m_hardwareIndex;
    QHash<RowId, int> m_forecasterIndex;
    QList<QPair<QString, RowId>> m_labelMembers; // (search name, kernel) from labels, resolved with the searches
    QFuture<Result<QList<RawForecast>>> m_forecasts;
    QFuture<Result<QList<RawMeasurement>>> m_measurements;
    QFuture<Result<ImplausibleMarks>> m_implausible;
    QFuture<QList<int>> m_nameRanks;
    QHash<qsizetype, qint64> m_replayRecordedMs; // measured cell index → newest recorded time of its replays
};

Result<CandidateTable> TableLoader::run()
{
    if (m_base)
        return runPatch();
    // One read transaction for this connection's queries. The side connections read their own snapshots: rows
    // they hold for kernels this one does not know are skipped.
    m_forecasts = fetchAside<QList<RawForecast>>(&m_pool, m_store.path(), m_cancel, fetchForecasts);
    m_measurements = fetchAside<QList<RawMeasurement>>(&m_pool, m_store.path(), m_cancel, fetchMeasurements);
    m_implausible = fetchAside<ImplausibleMarks>(
        &m_pool, m_store.path(), m_cancel, [](QSqlDatabase &db, const CancelToken &cancel, const QList<RowId> &) {
            return readImplausibleMarks(db, {}, cancel);
        });
    const bool inTransaction = m_db.transaction();
    const auto stages = {&TableLoader::loadProblems, &TableLoader::loadKernels, &TableLoader::loadSlots,
        &TableLoader::loadLabels, &TableLoader::loadForecasts, &TableLoader::loadMeasurements,
        &TableLoader::loadImplausible, &TableLoader::loadSearches};
    Status status;
    for (auto stage : stages) {
        if (m_cancel.isCancelled()) {
            status = Error::cancelled();
            break;
        }
        status = (this->*stage)();
        if (!status)
            break;
    }
    if (inTransaction)
        m_db.rollback(); // nothing was written
    m_forecasts.waitForFinished(); // they use m_cancel, which the caller owns: never leave them running
    m_measurements.waitForFinished();
    m_implausible.waitForFinished();
    m_nameRanks.waitForFinished();
    if (!status)
        return status.failure();
    finish();
    return std::move(m_table);
}

Result<CandidateTable> TableLoader::runPatch()
{
    const bool inTransaction = m_db.transaction();
    m_table.problems = m_base->problems;
    takeRows();
    Status status;
    for (auto stage : {&TableLoader::loadSlots, &TableLoader::loadLabels, &TableLoader::loadForecasts,
             &TableLoader::loadMeasurements}) {
        if (m_cancel.isCancelled()) {
            status = Error::cancelled();
            break;
        }
        status = (this->*stage)();
        if (!status)
            break;
    }
    if (inTransaction)
        m_db.rollback();
    if (!status)
        return status.failure();
    return std::move(m_table);
}

// The patch's rows as `base` holds them, with the baseline loadKernels starts from.
void TableLoader::takeRows()
{
    for (RowId id : std::as_const(m_only)) {
        const int from = m_base->rowOf(id);
        if (from < 0)
            continue;
        CandidateRow row = m_base->rows[from];
        row.baselineId = row.problemIndex >= 0 ? m_table.problems[row.problemIndex].referenceKernelId : 0;
        m_table.rows.append(std::move(row));
    }
}

Status TableLoader::loadProblems()
{
    auto q
        = sql::run(m_db, QStringLiteral("SELECT id, name, COALESCE(reference_kernel_id, 0) FROM problems ORDER BY id"));
    if (!q)
        return q.failure();
    while (q->next())
        m_table.problems.append({q->value(0).toLongLong(), q->value(1).toString(), q->value(2).toLongLong()});
    return {};
}

Status TableLoader::loadKernels()
{
    auto summaries = KernelRepo(m_store).summaries();
    if (!summaries)
        return summaries.failure();
    m_table.rows.reserve(summaries->size());
    for (KernelSummary &k : *summaries) {
        CandidateRow row;
        row.id = k.id;
        row.problemId = k.problemId;
        row.parentId = k.parentId;
        row.name = std::move(k.name);
        row.contentHash = std::move(k.contentHash);
        row.language = std::move(k.language);
        row.origin = std::move(k.origin);
        row.createdAtMs = k.createdAtMs;
        row.problemIndex = m_table.problemIndexOf(k.problemId);
        if (row.problemIndex >= 0) {
            row.baselineId = m_table.problems[row.problemIndex].referenceKernelId;
            row.isReference = row.baselineId == row.id;
        }
        m_table.rows.append(std::move(row));
    }
    // Ordering 100 000 names is the costliest step after the queries: it runs while the rest is read.
    QStringList names;
    names.reserve(m_table.rows.size());
    for (const CandidateRow &row : std::as_const(m_table.rows))
        names.append(row.displayName());
    m_nameRanks = QtConcurrent::run(&m_pool, denseTextRanks, names);
    return {};
}

// The hardware and forecaster lists, which fix the shape of the per-hardware and per-forecaster cells.
Status TableLoader::loadSlots()
{
    auto hardware = sql::run(m_db, QStringLiteral("SELECT id, name FROM hardware ORDER BY id"));
    if (!hardware)
        return hardware.failure();
    while (hardware->next())
        m_table.hardware.append({hardware->value(0).toLongLong(), hardware->value(1).toString()});
    auto unnamed
        = sql::scalar(m_db, QStringLiteral("SELECT EXISTS (SELECT 1 FROM pair_labels WHERE hardware_id IS NULL)"));
    if (!unnamed)
        return unnamed.failure();
    if (*unnamed)
        m_table.hardware.append({0, QStringLiteral("(hardware not given)")});
    for (int i = 0; i < m_table.hardware.size(); ++i)
        m_hardwareIndex.insert(m_table.hardware[i].id, i);

    auto forecasters = sql::run(m_db, QStringLiteral("SELECT id, name, display_name FROM forecasters ORDER BY id"));
    if (!forecasters)
        return forecasters.failure();
    while (forecasters->next()) {
        m_forecasterIndex.insert(forecasters->value(0).toLongLong(), int(m_table.forecasters.size()));
        m_table.forecasters.append(
            {forecasters->value(0).toLongLong(), forecasters->value(1).toString(), forecasters->value(2).toString()});
    }
    m_table.measured.resize(m_table.rows.size() * m_table.hardware.size());
    m_table.forecasts.resize(m_table.rows.size() * m_table.forecasters.size());
    return {};
}

Status TableLoader::loadLabels()
{
    // Rows in id order: a later label of the same candidate and hardware replaces an earlier one.
    auto q = runFor(m_db,
        QStringLiteral(
            "SELECT id, reference_kernel_id, candidate_kernel_id, COALESCE(hardware_id, 0), speedup, true_bin,"
            " CASE WHEN json_valid(extra_json) THEN json_extract(extra_json, '$.source_search') END"
            " FROM pair_labels WHERE 1 ORDER BY id"),
        QStringLiteral("candidate_kernel_id"), m_only);
    if (!q)
        return q.failure();
    const qsizetype hardwareCount = m_table.hardware.size();
    while (q->next()) {
        const int row = m_table.rowOf(q->value(2).toLongLong());
        const int hardware = m_hardwareIndex.value(q->value(3).toLongLong(), -1);
        if (row < 0 || hardware < 0)
            continue;
        MeasuredCell &cell = m_table.measured[row * hardwareCount + hardware];
        if (cell.labelId == 0)
            ++m_table.hardware[hardware].labels;
        cell.labelId = q->value(0).toLongLong();
        cell.labelReferenceId = q->value(1).toLongLong();
        cell.labelSpeedup = sql::optionalDouble(q->value(4));
        cell.labelBin = sql::optionalInt(q->value(5));
        CandidateRow &candidate = m_table.rows[row];
        if (candidate.problemIndex < 0 || m_table.problems[candidate.problemIndex].referenceKernelId == 0)
            candidate.baselineId = cell.labelReferenceId;
        const QString search = q->value(6).toString();
        if (!search.isEmpty()) {
            m_labelMembers.append({search, candidate.id});
            m_labelMembers.append({search, cell.labelReferenceId});
        }
    }
    return {};
}

Status TableLoader::loadForecasts()
{
    const Result<QList<RawForecast>> raw = m_base ? fetchForecasts(m_db, m_cancel, m_only) : m_forecasts.result();
    if (!raw)
        return raw.failure();
    const qsizetype forecasterCount = m_table.forecasters.size();
    QList<RowId> newestReference(m_table.rows.size(), 0); // for rows that have no baseline yet
    for (const RawForecast &f : *raw) {
        const int row = m_table.rowOf(f.candidate);
        const int forecaster = m_forecasterIndex.value(f.forecaster, -1);
        // A reference's row shows its problem's baseline itself (speedup 1×): a forecast of it against some other
        // kernel would read as a prediction about that row, so none is shown there.
        if (row < 0 || forecaster < 0 || m_table.rows[row].isReference)
            continue;
        const RowId baseline = m_table.rows[row].baselineId;
        const ForecastCell &cell = m_table.forecasts[row * forecasterCount + forecaster];
        // Forecasts against the baseline beat forecasts against other kernels; among equals the newest (id order) wins.
        const bool replaces = !cell.isValid() || f.reference == baseline || cell.referenceKernelId != baseline;
        if (!cell.isValid())
            ++m_table.forecasters[forecaster].forecasts;
        if (replaces)
            storeForecast(row, forecaster, f);
        newestReference[row] = f.reference;
    }
    for (qsizetype row = 0; row < m_table.rows.size(); ++row) {
        if (m_table.rows[row].baselineId == 0)
            m_table.rows[row].baselineId = newestReference[row];
    }
    return {};
}

void TableLoader::storeForecast(int row, int forecaster, const RawForecast &raw)
{
    ForecastCell cell;
    cell.forecastId = raw.id;
    cell.referenceKernelId = raw.reference;
    cell.hardwareId = raw.hardware;
    cell.predictedBin
        = raw.chosen && *raw.chosen >= 1 && *raw.chosen <= bins::kBinCount ? *raw.chosen : bins::argmaxBin(raw.p);
    cell.confidence = bins::confidence(bins::ConfidenceScore::MaxProb, raw.p, cell.predictedBin);
    cell.expectedBin = bins::expectedBin(raw.p);
    cell.expectedSpeedup = bins::expectedSpeedup(raw.p);
    m_table.forecasts[qsizetype(row) * m_table.forecasters.size() + forecaster] = cell;
}

Status TableLoader::loadMeasurements()
{
    const Result<QList<RawMeasurement>> raw
        = m_base ? fetchMeasurements(m_db, m_cancel, m_only) : m_measurements.result();
    if (!raw)
        return raw.failure();
    QHash<QString, int> caseIds;
    QList<CaseRun> runs;
    runs.reserve(raw->size());
    const qsizetype hardwareCount = m_table.hardware.size();
    for (const RawMeasurement &m : *raw) {
        CaseRun run;
        run.row = m_table.rowOf(m.kernel);
        run.hardware = m_hardwareIndex.value(m.hardware, -1);
        if (run.row < 0 || run.hardware < 0)
            continue;
        auto caseId = caseIds.constFind(m.caseName);
        if (caseId == caseIds.cend())
            caseId = caseIds.insert(m.caseName, int(caseIds.size()));
        run.caseId = *caseId;
        run.status = m.status;
        run.replayed = m.replayed;
        run.medianNs = m.medianNs;
        run.times = m.times;
        runs.append(run);
        if (m.replayed) {
            qint64 &recorded = m_replayRecordedMs[run.row * hardwareCount + run.hardware];
            recorded = std::max(recorded, m.recordedMs);
        }
    }
    if (m_cancel.isCancelled())
        return Error::cancelled();
    // Stable: of several runs of one (kernel, hardware, case) the last one read, the newest, is kept.
    std::stable_sort(runs.begin(), runs.end(), runBefore);
    qsizetype kept = 0;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        if (kept > 0 && !runBefore(runs[kept - 1], runs[i]))
            runs[kept - 1] = runs[i];
        else
            runs[kept++] = runs[i];
    }
    runs.resize(kept);
    for (const CaseRun &run : std::as_const(runs))
        ++m_table.hardware[run.hardware].measurements;
    for (qsizetype begin = 0; begin < runs.size();) {
        qsizetype end = begin + 1;
        while (end < runs.size() && runs[end].row == runs[begin].row && runs[end].hardware == runs[begin].hardware)
            ++end;
        fillMeasuredCell(runs, begin, end);
        begin = end;
    }
    return {};
}

// The Python figures of a candidate's newest ok runs on one GPU: geometric means over the cases that hold both.
void fillTimes(MeasuredCell &cell, const QList<CaseRun> &runs, qsizetype begin, qsizetype end)
{
    double logDevice = 0.0;
    double logCall = 0.0;
    int n = 0;
    for (qsizetype i = begin; i < end; ++i) {
        const CaseRun &r = runs[i];
        if (r.status != MeasurementStatus::Ok || r.times.deviceUs <= 0.0F || r.times.callUs <= 0.0F)
            continue;
        logDevice += std::log(double(r.times.deviceUs));
        logCall += std::log(double(r.times.callUs));
        cell.speedupByCall = r.times.byCall;
        cell.launchBoundCases += r.times.launchBound ? 1 : 0;
        ++n;
    }
    cell.timesCases = n;
    if (n > 0) {
        cell.deviceUs = float(std::exp(logDevice / n));
        cell.callUs = float(std::exp(logCall / n));
    }
}

// DESIGN §4 (measuredSpeedup): the runs of one (candidate, hardware) against its baseline's runs on that hardware.
void TableLoader::fillMeasuredCell(const QList<CaseRun> &runs, qsizetype begin, qsizetype end)
{
    const CaseRun &first = runs[begin];
    const auto timingsOf = [&runs](qsizetype from, qsizetype to) {
        std::vector<CaseTiming> timings;
        timings.reserve(to - from);
        for (qsizetype i = from; i < to; ++i)
            timings.push_back({runs[i].caseId, runs[i].status, runs[i].medianNs, runs[i].replayed});
        return timings;
    };
    const qsizetype hardwareCount = m_table.hardware.size();
    const std::vector<CaseTiming> candidate = timingsOf(begin, end);
    std::vector<CaseTiming> baseline;
    const int baselineRow = m_table.rowOf(m_table.rows[first.row].baselineId);
    if (baselineRow >= 0) {
        CaseRun key = first;
        key.row = baselineRow;
        key.caseId = std::numeric_limits<int>::min();
        const qsizetype from = std::lower_bound(runs.cbegin(), runs.cend(), key, runBefore) - runs.cbegin();
        qsizetype to = from;
        while (to < runs.size() && runs[to].row == baselineRow && runs[to].hardware == first.hardware)
            ++to;
        baseline = timingsOf(from, to);
    }
    const MeasuredSpeedup measured = measuredSpeedup(candidate, baseline);
    MeasuredCell &cell = m_table.measured[qsizetype(first.row) * hardwareCount + first.hardware];
    cell.runs = int(end - begin);
    fillTimes(cell, runs, begin, end);
    if (measured.replayed) {
        // The candidate's replays, else (a candidate run here against a replayed baseline) the baseline's.
        cell.replayed = true;
        cell.replayRecordedMs = m_replayRecordedMs.value(qsizetype(first.row) * hardwareCount + first.hardware, 0);
        if (cell.replayRecordedMs == 0 && baselineRow >= 0)
            cell.replayRecordedMs
                = m_replayRecordedMs.value(qsizetype(baselineRow) * hardwareCount + first.hardware, 0);
    }
    switch (measured.state) {
    case MeasuredSpeedup::State::None:
        break;
    case MeasuredSpeedup::State::Failed:
        cell.state = MeasuredCell::State::Failed;
        cell.failure = measured.failure;
        break;
    case MeasuredSpeedup::State::NoBaseline:
        cell.state = MeasuredCell::State::NoBaseline;
        break;
    case MeasuredSpeedup::State::Speedup:
        cell.state = MeasuredCell::State::Speedup;
        cell.speedup = measured.speedup;
        cell.cases = measured.cases;
        break;
    }
}

Status TableLoader::loadImplausible()
{
    const Result<ImplausibleMarks> marks = m_implausible.result();
    if (!marks)
        return Error {marks.error()};
    const qsizetype hardwareCount = m_table.hardware.size();
    for (auto it = marks->cbegin(); it != marks->cend(); ++it) {
        const int row = m_table.rowOf(it.key());
        if (row < 0)
            continue;
        for (const ImplausibleMark &mark : it.value()) {
            const int hardware = m_hardwareIndex.value(mark.hardwareId, -1);
            if (hardware < 0)
                continue;
            MeasuredCell &cell = m_table.measured[row * hardwareCount + hardware];
            cell.implausibleCases = int(mark.cases.size());
            cell.implausibleText = mark.text();
        }
    }
    return {};
}

Status TableLoader::loadSearches()
{
    auto q = sql::run(m_db, QStringLiteral("SELECT id, name, COALESCE(problem_id, 0) FROM searches ORDER BY id"));
    if (!q)
        return q.failure();
    QHash<QString, int> byName;
    while (q->next()) {
        byName.insert(q->value(1).toString(), int(m_table.searches.size()));
        m_table.searches.append({q->value(0).toLongLong(), q->value(1).toString(), q->value(2).toLongLong(), {}});
    }
    for (const auto &[name, kernel] : std::as_const(m_labelMembers)) {
        if (const auto it = byName.constFind(name); it != byName.cend())
            m_table.searches[*it].kernelIds.append(kernel);
    }
    // instr() first: most events name no kernel, and it spares json parsing of those.
    auto events = sql::run(m_db,
        QStringLiteral("SELECT search_id, json_extract(payload_json, '$.kernel_id') FROM search_events"
                       " WHERE instr(payload_json, '\"kernel_id\"') > 0 AND json_valid(payload_json)"));
    if (!events)
        return events.failure();
    while (events->next()) {
        const int search = m_table.searchIndexOf(events->value(0).toLongLong());
        const RowId kernel = events->value(1).toLongLong();
        if (search >= 0 && kernel > 0)
            m_table.searches[search].kernelIds.append(kernel);
    }
    for (CandidateSearch &search : m_table.searches) {
        QList<RowId> &ids = search.kernelIds;
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
        ids.removeIf([this](RowId id) { return m_table.rowOf(id) < 0; });
    }
    return {};
}

void TableLoader::finish()
{
    applyCandidateRanks(m_table, m_nameRanks.result());
    m_table.chooseDefaults();
}

} // namespace

Result<CandidateTable> loadCandidateTable(Store &store, const CancelToken &cancel)
{
    return TableLoader(store, cancel).run();
}

Result<CandidateTable> readCandidateRows(
    Store &store, const CandidateTable &base, const QList<RowId> &ids, const CancelToken &cancel)
{
    return TableLoader(store, cancel, base, ids).run();
}

} // namespace gpuf
