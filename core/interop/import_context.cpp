// ImportContext; see import_context.h.
#include "core/interop/import_context.h"

#include "core/interop/field_reader.h"
#include "core/interop/line_reader.h"
#include "core/interop/row_identity.h"

namespace gpuf::interop {
namespace {

QString kernelKey(RowId problemId, const QString &hash) { return QString::number(problemId) + QLatin1Char(':') + hash; }

// Looks `key` up in `cache`, then with `find` in the store; remembers rows found.
template<typename Find>
Result<RowId> cachedLookup(QHash<QString, RowId> &cache, const QString &key, Find find)
{
    if (auto it = cache.constFind(key); it != cache.constEnd())
        return *it;
    auto found = find();
    if (!found)
        return Error {found.error()};
    if (!found->has_value())
        return RowId(0);
    cache.insert(key, (*found)->id);
    return (*found)->id;
}

// Inserts `row` with `insert` unless a row of `cache[key]` (loaded with `load` on first need) is the same. True when
// it was inserted.
template<typename Key, typename Row, typename Load, typename Same, typename Insert>
Result<bool> insertNew(QHash<Key, QList<Row>> &cache, const Key &key, Row &row, Load load, Same same, Insert insert)
{
    auto it = cache.find(key);
    if (it == cache.end()) {
        auto stored = load();
        if (!stored)
            return Error {stored.error()};
        it = cache.insert(key, std::move(*stored));
    }
    for (const Row &stored : std::as_const(*it)) {
        if (same(row, stored))
            return false;
    }
    if (auto id = insert(row); !id)
        return Error {id.error()};
    it->append(row);
    return true;
}

QString pairKey(RowId a, RowId b) { return QString::number(a) + QLatin1Char(':') + QString::number(b); }

} // namespace

ImportContext::ImportContext(Store &store, const ImportOptions &options)
    : m_problems(store)
    , m_kernels(store)
    , m_hardware(store)
    , m_measurements(store)
    , m_labels(store)
    , m_forecasters(store)
    , m_forecasts(store)
    , m_searches(store)
    , m_lessons(store)
    , m_verdicts(store)
    , m_options(options)
{ }

void ImportContext::beginFile(FileReport *report, int index, int count)
{
    m_report = report;
    m_fileIndex = index;
    m_fileCount = count;
    m_lastProgressBytes = 0;
    m_lastProgressPass = -1;
    m_counted.clear();
}

void ImportContext::count(const QString &kind, bool added)
{
    RecordCount &c = m_report->counts[kind];
    (added ? c.added : c.deduplicated) += 1;
}

void ImportContext::countOnce(const QString &kind, const QString &key, bool added)
{
    // Rows are named by many records (every eval row names its problem); each row counts once per file.
    const QString id = kind + QChar(0x1f) + key;
    if (m_counted.contains(id))
        return;
    m_counted.insert(id);
    count(kind, added);
}

bool ImportContext::progress(const LineReader &reader, int pass, int passes)
{
    if (!m_options.progress)
        return true;
    constexpr qint64 kStep = 1 << 20; // call back about once per MiB read
    const qint64 bytes = reader.position() + qint64(pass) * reader.size();
    if (pass == m_lastProgressPass && bytes - m_lastProgressBytes < kStep && bytes >= m_lastProgressBytes)
        return true;
    m_lastProgressBytes = bytes;
    m_lastProgressPass = pass;
    ImportProgress p;
    p.fileIndex = m_fileIndex;
    p.fileCount = m_fileCount;
    p.file = m_report->file;
    const double total = double(qMax<qint64>(1, reader.size())) * qMax(1, passes);
    p.fraction = qBound(0.0, double(bytes) / total, 1.0);
    return m_options.progress(p);
}

Result<RowId> ImportContext::problemByName(const QString &name)
{
    return cachedLookup(m_problemIds, name, [&] { return m_problems.findByName(name); });
}

Result<RowId> ImportContext::kernelByHash(RowId problemId, const QString &hash)
{
    return cachedLookup(m_kernelIds, kernelKey(problemId, hash), [&] { return m_kernels.findByHash(problemId, hash); });
}

Result<RowId> ImportContext::hardwareByName(const QString &name)
{
    return cachedLookup(m_hardwareIds, name, [&] { return m_hardware.findByName(name); });
}

Result<RowId> ImportContext::forecasterByName(const QString &name)
{
    return cachedLookup(m_forecasterIds, name, [&] { return m_forecasters.findByName(name); });
}

Result<RowId> ImportContext::searchByName(const QString &name)
{
    return cachedLookup(m_searchIds, name, [&] { return m_searches.findByName(name); });
}

Result<RowId> ImportContext::ensureProblem(Problem &problem, bool *added)
{
    auto existing = problemByName(problem.name);
    if (!existing)
        return existing;
    if (added)
        *added = *existing == 0;
    countOnce(QStringLiteral("problem"), problem.name, *existing == 0);
    if (*existing != 0)
        return problem.id = *existing;
    auto id = m_problems.insert(problem);
    if (id)
        m_problemIds.insert(problem.name, *id);
    return id;
}

Result<RowId> ImportContext::ensureKernel(Kernel &kernel, bool *added)
{
    bool inserted = false;
    auto id = m_kernels.insertOrGet(kernel, &inserted);
    if (!id)
        return id;
    m_kernelIds.insert(kernelKey(kernel.problemId, kernel.contentHash), *id);
    countOnce(QStringLiteral("kernel"), kernelKey(kernel.problemId, kernel.contentHash), inserted);
    if (added)
        *added = inserted;
    return id;
}

Result<RowId> ImportContext::ensureHardware(Hardware &hardware)
{
    auto existing = hardwareByName(hardware.name);
    if (!existing)
        return existing;
    countOnce(QStringLiteral("hardware"), hardware.name, *existing == 0);
    if (*existing != 0)
        return hardware.id = *existing;
    auto id = m_hardware.ensure(hardware);
    if (id)
        m_hardwareIds.insert(hardware.name, *id);
    return id;
}

Result<RowId> ImportContext::ensurePublishedHardware(const QString &name)
{
    Hardware hardware;
    if (auto preset = hardwarePreset(name))
        hardware = *preset; // the canonical name, so "A100" and "NVIDIA A100-SXM4-80GB" meet in one row
    else
        hardware.name = name.trimmed();
    return ensureHardware(hardware);
}

Result<RowId> ImportContext::ensureForecaster(Forecaster &forecaster)
{
    auto existing = forecasterByName(forecaster.name);
    if (!existing)
        return existing;
    countOnce(QStringLiteral("forecaster"), forecaster.name, *existing == 0);
    if (*existing != 0)
        return forecaster.id = *existing;
    auto id = m_forecasters.ensure(forecaster);
    if (id)
        m_forecasterIds.insert(forecaster.name, *id);
    return id;
}

Result<RowId> ImportContext::ensureSearch(Search &search)
{
    auto existing = searchByName(search.name);
    if (!existing)
        return existing;
    countOnce(QStringLiteral("search"), search.name, *existing == 0);
    if (*existing != 0)
        return search.id = *existing;
    auto id = m_searches.ensure(search);
    if (id)
        m_searchIds.insert(search.name, *id);
    return id;
}

Result<bool> ImportContext::ensureMeasurement(Measurement &m)
{
    const QString key = pairKey(m.kernelId, m.hardwareId);
    auto added = insertNew(
        m_storedMeasurements, key, m, [&] { return m_measurements.forKernel(m.kernelId, m.hardwareId); },
        sameMeasurement, [this](Measurement &row) { return m_measurements.insert(row); });
    if (added)
        count(QStringLiteral("measurement"), *added);
    if (added && !*added) {
        for (const Measurement &stored : std::as_const(m_storedMeasurements[key])) {
            if (sameMeasurement(m, stored)) {
                m.id = stored.id;
                break;
            }
        }
    }
    return added;
}

Result<bool> ImportContext::ensureQuarantine(RowId measurementId, const QString &note, const QDateTime &at)
{
    auto stored = m_verdicts.find(measurementId);
    if (!stored)
        return stored.failure();
    if (stored->has_value() && (*stored)->note == note.trimmed()) {
        count(QStringLiteral("verdict"), false);
        return false;
    }
    if (Status s = m_verdicts.quarantine(measurementId, note, at); !s)
        return s.failure();
    count(QStringLiteral("verdict"), true);
    return true;
}

Result<bool> ImportContext::ensureForecast(Forecast &f)
{
    auto added = insertNew(
        m_storedForecasts, f.candidateKernelId, f, [&] { return m_forecasts.forCandidate(f.candidateKernelId); },
        sameForecast, [this](Forecast &row) { return m_forecasts.insert(row); });
    if (added)
        count(QStringLiteral("forecast"), *added);
    return added;
}

Result<bool> ImportContext::ensurePairLabel(PairLabel &l)
{
    auto added = insertNew(
        m_storedLabels, pairKey(l.referenceKernelId, l.candidateKernelId), l,
        [&] { return m_labels.forPair(l.referenceKernelId, l.candidateKernelId); }, samePairLabel,
        [this](PairLabel &row) { return m_labels.insert(row); });
    if (added)
        count(QStringLiteral("pair_label"), *added);
    return added;
}

Result<ImportContext::EventLogState *> ImportContext::eventLog(RowId searchId)
{
    auto it = m_eventLogs.find(searchId);
    if (it == m_eventLogs.end()) {
        auto stored = m_searches.eventCount(searchId);
        if (!stored)
            return Error {stored.error()};
        it = m_eventLogs.insert(searchId, EventLogState {*stored, false, {}});
    }
    return &*it;
}

Status ImportContext::putEvent(SearchEvent &event, qint64 sequence)
{
    auto log = eventLog(event.searchId);
    if (!log)
        return Error {log.error()};
    EventLogState &state = **log;
    if (sequence > state.count)
        return Error {QStringLiteral("sequence %1 leaves a gap: the search holds %2 events, so the next is %2")
                          .arg(sequence)
                          .arg(state.count)};
    if (sequence < state.count) {
        if (!state.loaded) {
            auto events = m_searches.events(event.searchId);
            if (!events)
                return Error {events.error()};
            state.stored = std::move(*events);
            state.loaded = true;
        }
        const SearchEvent &stored = state.stored.value(sequence);
        const bool same = stored.sequence == sequence && stored.kind == event.kind && stored.payload == event.payload
            && (!event.time.isValid() || timeText(stored.time) == timeText(event.time));
        if (!same)
            return Error {QStringLiteral("conflicts with the event already stored at sequence %1 (kind '%2')")
                              .arg(sequence)
                              .arg(stored.kind)};
        count(QStringLiteral("search_event"), false);
        return {};
    }
    auto id = m_searches.append(event);
    if (!id)
        return Error {id.error()};
    if (event.sequence != sequence)
        return Error {QStringLiteral("the store placed the event at sequence %1 instead of %2")
                          .arg(event.sequence)
                          .arg(sequence)};
    ++state.count;
    if (state.loaded)
        state.stored.append(event);
    count(QStringLiteral("search_event"), true);
    return {};
}

} // namespace gpuf::interop
