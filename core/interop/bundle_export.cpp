// Bundle export: every store row as one line, references written as natural keys, in a fixed order and a fixed
// number format so that importing a bundle and exporting it again gives the same bytes.
#include "core/interop/bundle_records.h"
#include "core/interop/interop.h"
#include "core/interop/json_writer.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/lesson_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"
#include "core/store/verdict_repo.h"

#include <QSaveFile>
#include <QSet>

#include <algorithm>
#include <functional>
#include <optional>

namespace gpuf::interop {
namespace {

// The rows a case file keeps: one pair, and what its rows name.
struct CaseScope
{
    RowId reference = 0;
    RowId candidate = 0;
    RowId problem = 0;
    QSet<RowId> hardware;
    QSet<RowId> forecasters;
    CaseViewChoice view;

    bool hasKernel(RowId id) const { return id == reference || id == candidate; }
    bool hasPair(RowId ref, RowId cand) const { return ref == reference && cand == candidate; }
};

class BundleExporter
{
public:
    BundleExporter(Store &store, QSaveFile &out, std::optional<CaseScope> scope = std::nullopt)
        : m_store(store)
        , m_out(out)
        , m_case(std::move(scope))
    { }

    Status run();

private:
    Status line(const QByteArray &json);
    QByteArray kernelRef(RowId kernelId) const;
    QString nameOf(const QHash<RowId, QString> &names, RowId id) const { return names.value(id); }
    Status writeHardware();
    Status writeForecasters();
    Status writeProblems();
    Status writeKernels();
    Status writeMeasurements();
    Status writePairLabels();
    Status writeForecasts();
    Status writeSearches();
    Status writeEvents();
    Status writeLessons();
    Status writeCaseView();

    Store &m_store;
    QSaveFile &m_out;
    QHash<RowId, QString> m_problemNames;
    QHash<RowId, QString> m_hardwareNames;
    QHash<RowId, QString> m_forecasterNames;
    QHash<RowId, QString> m_searchNames;
    QHash<RowId, KernelSummary> m_kernels;
    QList<RowId> m_kernelOrder;
    std::optional<CaseScope> m_case;
};

JsonObjectWriter record(const char *type)
{
    JsonObjectWriter w;
    w.string("type", QString::fromLatin1(type));
    return w;
}

template<typename T>
std::optional<qint64> knownCount(T value)
{
    return value >= 0 ? std::optional<qint64>(value) : std::nullopt;
}

std::optional<double> knownAmount(double value) { return value >= 0 ? std::optional<double>(value) : std::nullopt; }

Status BundleExporter::line(const QByteArray &json)
{
    if (m_out.write(json) != json.size() || !m_out.putChar('\n'))
        return Error {QStringLiteral("%1: cannot write: %2").arg(m_out.fileName(), m_out.errorString())};
    return {};
}

QByteArray BundleExporter::kernelRef(RowId kernelId) const
{
    const KernelSummary k = m_kernels.value(kernelId);
    return JsonObjectWriter()
        .string("problem", m_problemNames.value(k.problemId))
        .string("hash", k.contentHash)
        .finish();
}

Status BundleExporter::run()
{
    const QByteArray header = JsonObjectWriter()
                                  .string("type", QStringLiteral("header"))
                                  .string("format", QString::fromLatin1(bundle::kFormat))
                                  .integer("version", bundle::kVersion)
                                  .finish();
    if (Status s = line(header); !s)
        return s;
    for (auto step : {&BundleExporter::writeHardware, &BundleExporter::writeForecasters, &BundleExporter::writeProblems,
             &BundleExporter::writeKernels, &BundleExporter::writeMeasurements, &BundleExporter::writePairLabels,
             &BundleExporter::writeForecasts, &BundleExporter::writeSearches, &BundleExporter::writeEvents,
             &BundleExporter::writeLessons}) {
        const bool wholeStoreOnly = step == &BundleExporter::writeSearches || step == &BundleExporter::writeEvents
            || step == &BundleExporter::writeLessons;
        if (m_case && wholeStoreOnly)
            continue; // a case is one pair: no search or lesson comes with it
        if (Status s = (this->*step)(); !s)
            return s;
    }
    return m_case ? writeCaseView() : Status();
}

// Last, so that an importer has every row it names: the pair and the window's choices when the case was written.
Status BundleExporter::writeCaseView()
{
    const CaseViewChoice &view = m_case->view;
    return line(
        record("case_view")
            .raw("reference", kernelRef(m_case->reference))
            .raw("candidate", kernelRef(m_case->candidate))
            .optionalString(
                "forecaster", view.forecaster.isEmpty() ? std::nullopt : std::optional<QString>(view.forecaster))
            .optionalString("hardware", view.hardware.isEmpty() ? std::nullopt : std::optional<QString>(view.hardware))
            .optionalNumber("trust_threshold", view.trustThreshold)
            .finish());
}

Status BundleExporter::writeHardware()
{
    auto rows = HardwareRepo(m_store).list();
    if (!rows)
        return Error {rows.error()};
    for (const Hardware &h : std::as_const(*rows)) {
        m_hardwareNames.insert(h.id, h.name);
        if (m_case && !m_case->hardware.contains(h.id))
            continue;
        Status s = line(record("hardware")
                            .string("name", h.name)
                            .string("compute_capability", h.computeCapability)
                            .integer("sm_count", h.smCount)
                            .integer("max_threads_per_sm", h.maxThreadsPerSm)
                            .number("clock_ghz", h.clockGhz)
                            .number("memory_clock_ghz", h.memoryClockGhz)
                            .integer("bus_width_bits", h.busWidthBits)
                            .number("global_memory_gb", h.globalMemoryGb)
                            .integer("l2_bytes", h.l2Bytes)
                            .integer("shared_memory_per_sm", h.sharedMemoryPerSm)
                            .string("driver_version", h.driverVersion)
                            .string("toolkit_version", h.toolkitVersion)
                            .finish());
        if (!s)
            return s;
    }
    return {};
}

Status BundleExporter::writeForecasters()
{
    auto rows = ForecasterRepo(m_store).list();
    if (!rows)
        return Error {rows.error()};
    for (const Forecaster &f : std::as_const(*rows)) {
        m_forecasterNames.insert(f.id, f.name);
        if (m_case && !m_case->forecasters.contains(f.id))
            continue;
        Status s = line(record("forecaster")
                            .string("name", f.name)
                            .string("kind", forecasterKindName(f.kind))
                            .string("display_name", f.displayName)
                            .object("config", f.config)
                            .finish());
        if (!s)
            return s;
    }
    return {};
}

Status BundleExporter::writeProblems()
{
    auto kernels = KernelRepo(m_store).summaries();
    if (!kernels)
        return Error {kernels.error()};
    for (KernelSummary &k : *kernels) {
        if (m_case && !m_case->hasKernel(k.id))
            continue;
        m_kernelOrder.append(k.id);
        m_kernels.emplace(k.id, std::move(k)); // emplace copies the key before it moves the value
    }
    auto rows = ProblemRepo(m_store).list();
    if (!rows)
        return Error {rows.error()};
    for (const Problem &p : std::as_const(*rows)) {
        m_problemNames.insert(p.id, p.name);
        if (m_case && p.id != m_case->problem)
            continue;
        const auto reference = m_kernels.constFind(p.referenceKernelId);
        Status s = line(
            record("problem")
                .string("name", p.name)
                .string("description", p.description)
                .string("family", p.family)
                .string("backend", backendName(p.backend))
                .optionalString("reference_hash",
                    reference != m_kernels.constEnd() ? std::optional<QString>(reference->contentHash) : std::nullopt)
                .array("cases", p.cases)
                .object("tolerances", p.tolerances)
                .string("created_at", timeText(p.createdAt))
                .finish());
        if (!s)
            return s;
    }
    return {};
}

Status BundleExporter::writeKernels()
{
    // One kernel at a time: sources are the bulk of a store and need not all be in memory at once.
    KernelRepo repo(m_store);
    for (RowId id : std::as_const(m_kernelOrder)) {
        auto found = repo.find(id);
        if (!found)
            return Error {found.error()};
        if (!found->has_value())
            continue; // deleted meanwhile by another connection
        const Kernel &k = **found;
        const auto parent = m_kernels.constFind(k.parentId);
        Status s
            = line(record("kernel")
                       .string("problem", m_problemNames.value(k.problemId))
                       .string("hash", k.contentHash)
                       .optionalString("parent_hash",
                           parent != m_kernels.constEnd() ? std::optional<QString>(parent->contentHash) : std::nullopt)
                       .string("name", k.name)
                       .string("language", k.language)
                       .string("origin", k.origin)
                       .object("parameters", k.parameters)
                       .string("notes", k.notes)
                       .string("created_at", timeText(k.createdAt))
                       .string("source", k.source)
                       .finish());
        if (!s)
            return s;
    }
    return {};
}

Status BundleExporter::writeMeasurements()
{
    auto rows = MeasurementRepo(m_store).list();
    if (!rows)
        return Error {rows.error()};
    auto verdicts = VerdictRepo(m_store).all();
    if (!verdicts)
        return verdicts.failure();
    for (const Measurement &m : std::as_const(*rows)) {
        if (m_case && !m_case->hasKernel(m.kernelId))
            continue;
        QByteArray runtime = QByteArrayLiteral("null");
        if (m.runtime) {
            runtime = JsonObjectWriter()
                          .number("median_ns", m.runtime->medianNs)
                          .number("mean_ns", m.runtime->meanNs)
                          .number("min_ns", m.runtime->minNs)
                          .number("std_ns", m.runtime->stdNs)
                          .number("rel_std_err", m.runtime->relStdErr)
                          .integer("samples", m.runtime->samples)
                          .finish();
        }
        const QByteArray resources
            = JsonObjectWriter()
                  .optionalInteger("registers", knownCount(m.resources.registers))
                  .optionalInteger("shared_memory_bytes", knownCount(m.resources.sharedMemoryBytes))
                  .optionalInteger("local_memory_bytes", knownCount(m.resources.localMemoryBytes))
                  .optionalNumber("occupancy", knownAmount(m.resources.occupancy))
                  .finish();
        JsonObjectWriter w = record("measurement");
        w.raw("kernel", kernelRef(m.kernelId))
            .string("hardware", nameOf(m_hardwareNames, m.hardwareId))
            .string("case", m.caseName)
            .string("status", measurementStatusName(m.status))
            .string("error", m.errorText)
            .raw("runtime", runtime)
            .string("timing_method", m.timingMethod)
            .boolean("l2_flush", m.l2Flush)
            .raw("resources", resources)
            .object("counters", m.counters)
            .object("provenance", m.provenance)
            .string("source", measurementSourceName(m.source))
            .string("created_at", timeText(m.createdAt));
        // Written only where there is one, so a store without verdicts exports the bytes it always did.
        if (const auto verdict = verdicts->constFind(m.id); verdict != verdicts->cend())
            w.raw("verdict",
                JsonObjectWriter()
                    .string("state", verdict->verdict)
                    .string("note", verdict->note)
                    .string("at", timeText(verdict->createdAt))
                    .finish());
        if (Status s = line(w.finish()); !s)
            return s;
    }
    return {};
}

Status BundleExporter::writePairLabels()
{
    auto rows = PairLabelRepo(m_store).list();
    if (!rows)
        return Error {rows.error()};
    for (const PairLabel &l : std::as_const(*rows)) {
        if (m_case && !m_case->hasPair(l.referenceKernelId, l.candidateKernelId))
            continue;
        JsonObjectWriter w = record("pair_label");
        w.raw("reference", kernelRef(l.referenceKernelId)).raw("candidate", kernelRef(l.candidateKernelId));
        if (l.hardwareId > 0)
            w.string("hardware", nameOf(m_hardwareNames, l.hardwareId));
        else
            w.null("hardware");
        w.optionalNumber("speedup", l.speedup)
            .optionalInteger("true_bin", l.trueBin ? std::optional<qint64>(*l.trueBin) : std::nullopt)
            .string("kind", l.kind)
            .string("external_id", l.externalId)
            .string("source", l.source)
            .object("extra", l.extra);
        if (Status s = line(w.finish()); !s)
            return s;
    }
    return {};
}

Status BundleExporter::writeForecasts()
{
    auto rows = ForecastRepo(m_store).list();
    if (!rows)
        return Error {rows.error()};
    for (const Forecast &f : std::as_const(*rows)) {
        if (m_case && !m_case->hasPair(f.referenceKernelId, f.candidateKernelId))
            continue;
        QByteArray probabilities = QByteArrayLiteral("[");
        for (std::size_t b = 0; b < f.probabilities.size(); ++b) {
            if (b > 0)
                probabilities.append(',');
            probabilities.append(jsonNumber(f.probabilities[b]));
        }
        probabilities.append(']');
        JsonObjectWriter w = record("forecast");
        w.raw("reference", kernelRef(f.referenceKernelId)).raw("candidate", kernelRef(f.candidateKernelId));
        if (f.hardwareId > 0)
            w.string("hardware", nameOf(m_hardwareNames, f.hardwareId));
        else
            w.null("hardware");
        w.string("forecaster", nameOf(m_forecasterNames, f.forecasterId))
            .integer("repeat", f.repeat)
            .raw("probabilities", probabilities)
            .optionalInteger("predicted_bin", f.predictedBin ? std::optional<qint64>(*f.predictedBin) : std::nullopt)
            .optionalNumber("raw_probability_sum", f.rawProbabilitySum)
            .string("reasoning", f.reasoning)
            .string("response", f.response)
            .string("messages", f.messages)
            .optionalInteger("tokens_in", knownCount(f.tokensIn))
            .optionalInteger("tokens_out", knownCount(f.tokensOut))
            .optionalNumber("latency_s", knownAmount(f.latencySeconds))
            .string("status", forecastStatusName(f.status))
            .string("error", f.errorText)
            .string("cache_key", f.cacheKey)
            .string("created_at", timeText(f.createdAt));
        if (Status s = line(w.finish()); !s)
            return s;
    }
    return {};
}

Status BundleExporter::writeSearches()
{
    auto rows = SearchRepo(m_store).list();
    if (!rows)
        return Error {rows.error()};
    for (const Search &search : std::as_const(*rows)) {
        m_searchNames.insert(search.id, search.name);
        JsonObjectWriter w = record("search");
        w.string("name", search.name);
        if (search.problemId > 0)
            w.string("problem", nameOf(m_problemNames, search.problemId));
        else
            w.null("problem");
        w.string("mode", search.mode).object("config", search.config).string("created_at", timeText(search.createdAt));
        if (Status s = line(w.finish()); !s)
            return s;
    }
    return {};
}

Status BundleExporter::writeEvents()
{
    auto rows = SearchRepo(m_store).events();
    if (!rows)
        return Error {rows.error()};
    // The repository lists by (search, sequence); the bundle lists by row id, the order they were written in.
    std::sort(rows->begin(), rows->end(), [](const SearchEvent &a, const SearchEvent &b) { return a.id < b.id; });
    for (const SearchEvent &e : std::as_const(*rows)) {
        Status s = line(record("search_event")
                            .string("search", nameOf(m_searchNames, e.searchId))
                            .integer("sequence", e.sequence)
                            .string("kind", e.kind)
                            .string("time", timeText(e.time))
                            .object("payload", e.payload)
                            .finish());
        if (!s)
            return s;
    }
    return {};
}

Status BundleExporter::writeLessons()
{
    auto rows = LessonRepo(m_store).list();
    if (!rows)
        return Error {rows.error()};
    for (const Lesson &lesson : std::as_const(*rows)) {
        QByteArray steps = QByteArrayLiteral("[");
        for (qsizetype i = 0; i < lesson.steps.size(); ++i) {
            const LessonStep &step = lesson.steps.at(i);
            if (i > 0)
                steps.append(',');
            steps.append(JsonObjectWriter()
                             .raw("reference", kernelRef(step.referenceKernelId))
                             .raw("kernel", kernelRef(step.kernelId))
                             .string("note", step.note)
                             .finish());
        }
        steps.append(']');
        Status s = line(record("lesson")
                            .string("name", lesson.name)
                            .string("title", lesson.title)
                            .string("kind", lessonKindName(lesson.kind))
                            .string("source", lesson.source)
                            .string("description", lesson.description)
                            .string("created_at", timeText(lesson.createdAt))
                            .raw("steps", steps)
                            .finish());
        if (!s)
            return s;
    }
    return {};
}

// The pair of `candidateId` and the hardware and forecasters its rows name.
Result<CaseScope> caseScopeOf(Store &store, RowId candidateId, const CaseViewChoice &view)
{
    auto candidate = KernelRepo(store).find(candidateId);
    if (!candidate)
        return candidate.failure();
    if (!candidate->has_value())
        return Error {QStringLiteral("the store has no kernel %1").arg(candidateId)};
    auto problem = ProblemRepo(store).find((*candidate)->problemId);
    if (!problem)
        return problem.failure();
    if (!problem->has_value() || (*problem)->referenceKernelId == 0)
        return Error {QStringLiteral("kernel %1's problem has no reference kernel to pair it with").arg(candidateId)};
    if ((*problem)->referenceKernelId == candidateId)
        return Error {QStringLiteral("kernel %1 is its problem's reference: a case is a candidate and its reference")
                          .arg(candidateId)};
    CaseScope scope {(*problem)->referenceKernelId, candidateId, (*problem)->id, {}, {}, view};
    MeasurementRepo measurements(store);
    for (RowId kernel : {scope.reference, scope.candidate}) {
        auto runs = measurements.forKernel(kernel);
        if (!runs)
            return runs.failure();
        for (const Measurement &m : std::as_const(*runs))
            scope.hardware.insert(m.hardwareId);
    }
    auto forecasts = ForecastRepo(store).forCandidate(candidateId);
    if (!forecasts)
        return forecasts.failure();
    for (const Forecast &f : std::as_const(*forecasts)) {
        if (scope.hasPair(f.referenceKernelId, f.candidateKernelId)) {
            scope.forecasters.insert(f.forecasterId);
            if (f.hardwareId > 0)
                scope.hardware.insert(f.hardwareId);
        }
    }
    return scope;
}

Status writeBundle(Store &store, const QString &file, const std::function<Result<std::optional<CaseScope>>()> &scope)
{
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return Error {QStringLiteral("%1: cannot write: %2").arg(file, out.errorString())};
    // One read transaction, so the bundle is one consistent snapshot even while another connection writes.
    Transaction snapshot(store, Transaction::Kind::Read);
    if (Status s = snapshot.begin(); !s)
        return s;
    auto chosen = scope();
    if (!chosen) {
        out.cancelWriting();
        return chosen.failure();
    }
    if (Status s = BundleExporter(store, out, *chosen).run(); !s) {
        out.cancelWriting();
        return s;
    }
    if (!out.commit())
        return Error {QStringLiteral("%1: cannot write: %2").arg(file, out.errorString())};
    return {};
}

} // namespace

Status exportCase(Store &store, const QString &file, RowId candidateId, const CaseViewChoice &view)
{
    return writeBundle(store, file, [&]() -> Result<std::optional<CaseScope>> {
        auto scope = caseScopeOf(store, candidateId, view);
        if (!scope)
            return scope.failure();
        return std::optional<CaseScope>(*scope);
    });
}

Status exportBundle(Store &store, const QString &file)
{
    return writeBundle(store, file, [] { return Result<std::optional<CaseScope>>(std::optional<CaseScope> {}); });
}

} // namespace gpuf::interop
