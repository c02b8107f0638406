// Decoding and validation of gpuf bundle records; see bundle_records.h.
#include "core/interop/bundle_records.h"

#include "core/bins/bins.h"
#include "core/domain/search_event_kind.h"

#include <QRegularExpression>

#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace gpuf::interop::bundle {
namespace {

using Need = FieldReader::Need;
constexpr Need kRequired = Need::Required;

constexpr std::array<std::pair<RecordType, const char *>, 12> kRecordTypes {{
    {RecordType::Header, "header"},
    {RecordType::Hardware, "hardware"},
    {RecordType::Forecaster, "forecaster"},
    {RecordType::Problem, "problem"},
    {RecordType::Kernel, "kernel"},
    {RecordType::Measurement, "measurement"},
    {RecordType::PairLabel, "pair_label"},
    {RecordType::Forecast, "forecast"},
    {RecordType::Search, "search"},
    {RecordType::SearchEvent, "search_event"},
    {RecordType::Lesson, "lesson"},
    {RecordType::CaseView, "case_view"},
}};

QString key(const char *name) { return QString::fromLatin1(name); }

KernelRef decodeKernelRef(FieldReader &r, const char *field)
{
    KernelRef ref;
    if (auto child = r.child(key(field))) {
        ref.problem = child->string(QStringLiteral("problem"), kRequired);
        ref.hash = child->string(QStringLiteral("hash"), kRequired);
        if (!ref.hash.isEmpty() && !isContentHash(ref.hash))
            child->fail(QStringLiteral("hash"), QStringLiteral("expected 64 lower-case hex digits (SHA-256)"));
    }
    return ref;
}

// A count or size that may be unknown: null ⇒ -1, else a non-negative integer.
qint64 unknownOrCount(FieldReader &r, const QString &field)
{
    const std::optional<qint64> value = r.optionalInteger(field);
    if (value && *value < 0)
        r.fail(field, QStringLiteral("must not be negative (write null when unknown)"));
    return value.value_or(-1);
}

double unknownOrAmount(FieldReader &r, const QString &field)
{
    const std::optional<double> value = r.optionalNumber(field);
    if (value && !(*value >= 0))
        r.fail(field, QStringLiteral("must not be negative (write null when unknown)"));
    return value.value_or(-1.0);
}

std::optional<int> optionalBin(FieldReader &r, const QString &field)
{
    const std::optional<qint64> bin = r.optionalInteger(field);
    if (bin && (*bin < 1 || *bin > bins::kBinCount)) {
        r.fail(field, QStringLiteral("must be a bin 1..8, got %1").arg(*bin));
        return std::nullopt;
    }
    return bin ? std::optional<int>(int(*bin)) : std::nullopt;
}

std::optional<RuntimeStats> decodeRuntime(FieldReader &r)
{
    auto child = r.child(QStringLiteral("runtime"), Need::Optional);
    if (!child)
        return std::nullopt;
    RuntimeStats stats;
    stats.medianNs = child->number(QStringLiteral("median_ns"), 0.0, kRequired);
    if (child->has(QStringLiteral("median_ns")) && !(stats.medianNs > 0))
        child->fail(QStringLiteral("median_ns"), QStringLiteral("must be positive"));
    stats.meanNs = child->number(QStringLiteral("mean_ns"), stats.medianNs);
    stats.minNs = child->number(QStringLiteral("min_ns"), stats.medianNs);
    stats.stdNs = child->number(QStringLiteral("std_ns"), 0.0);
    stats.relStdErr = child->number(QStringLiteral("rel_std_err"), 0.0);
    stats.samples = int(child->integer(QStringLiteral("samples"), 0));
    return stats;
}

ResourceUsage decodeResources(FieldReader &r)
{
    ResourceUsage usage;
    if (auto child = r.child(QStringLiteral("resources"), Need::Optional)) {
        usage.registers = int(unknownOrCount(*child, QStringLiteral("registers")));
        usage.sharedMemoryBytes = int(unknownOrCount(*child, QStringLiteral("shared_memory_bytes")));
        usage.localMemoryBytes = int(unknownOrCount(*child, QStringLiteral("local_memory_bytes")));
        usage.occupancy = unknownOrAmount(*child, QStringLiteral("occupancy"));
    }
    return usage;
}

std::array<double, 8> decodeProbabilities(FieldReader &r)
{
    std::array<double, 8> p {};
    const QJsonArray values = r.array(QStringLiteral("probabilities"), kRequired);
    if (!r.has(QStringLiteral("probabilities")))
        return p;
    if (values.size() != bins::kBinCount) {
        r.fail(QStringLiteral("probabilities"), QStringLiteral("expected 8 numbers, got %1").arg(values.size()));
        return p;
    }
    for (int b = 0; b < bins::kBinCount; ++b) {
        const QString name = QStringLiteral("probabilities[%1]").arg(b);
        const std::optional<double> value = r.numberValue(values.at(b), name);
        if (value && !(*value >= 0.0 && *value <= 1.0))
            r.fail(name, QStringLiteral("must be in [0, 1], got %1").arg(*value));
        p[b] = value.value_or(0.0);
    }
    return p;
}

} // namespace

bool isContentHash(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^[0-9a-f]{64}$"));
    return pattern.match(text).hasMatch();
}

std::optional<RecordType> recordTypeFromName(const QString &name)
{
    for (const auto &[type, text] : kRecordTypes) {
        if (name == QLatin1StringView(text))
            return type;
    }
    return std::nullopt;
}

QString recordTypeName(RecordType type)
{
    for (const auto &[t, text] : kRecordTypes) {
        if (t == type)
            return QString::fromLatin1(text);
    }
    return {};
}

void decodeHeader(FieldReader &r)
{
    const QString type = r.string(QStringLiteral("type"), kRequired);
    if (r.ok() && type != QLatin1StringView("header")) {
        r.fail(QStringLiteral("type"), QStringLiteral("a gpuf bundle starts with a header record, got '%1'").arg(type));
        return;
    }
    const QString format = r.string(QStringLiteral("format"), kRequired);
    if (r.ok() && format != QLatin1StringView(kFormat))
        r.fail(QStringLiteral("format"), QStringLiteral("expected '%1', got '%2'").arg(key(kFormat), format));
    const qint64 version = r.integer(QStringLiteral("version"), 0, kRequired);
    if (r.ok() && version != kVersion)
        r.fail(QStringLiteral("version"),
            version > kVersion
                ? QStringLiteral("version %1 is newer than this program reads (%2)").arg(version).arg(kVersion)
                : QStringLiteral("unknown version %1").arg(version));
}

Hardware decodeHardware(FieldReader &r)
{
    Hardware h;
    h.name = r.string(QStringLiteral("name"), kRequired);
    h.computeCapability = r.string(QStringLiteral("compute_capability"));
    h.smCount = int(r.integer(QStringLiteral("sm_count"), 0));
    h.maxThreadsPerSm = int(r.integer(QStringLiteral("max_threads_per_sm"), 0));
    h.clockGhz = r.number(QStringLiteral("clock_ghz"), 0.0);
    h.memoryClockGhz = r.number(QStringLiteral("memory_clock_ghz"), 0.0);
    h.busWidthBits = int(r.integer(QStringLiteral("bus_width_bits"), 0));
    h.globalMemoryGb = r.number(QStringLiteral("global_memory_gb"), 0.0);
    h.l2Bytes = r.integer(QStringLiteral("l2_bytes"), 0);
    h.sharedMemoryPerSm = r.integer(QStringLiteral("shared_memory_per_sm"), 0);
    h.driverVersion = r.string(QStringLiteral("driver_version"));
    h.toolkitVersion = r.string(QStringLiteral("toolkit_version"));
    return h;
}

Forecaster decodeForecaster(FieldReader &r)
{
    Forecaster f;
    f.name = r.string(QStringLiteral("name"), kRequired);
    const QString kind = r.string(QStringLiteral("kind"), kRequired);
    if (auto k = forecasterKindFromName(kind))
        f.kind = *k;
    else if (!kind.isEmpty())
        r.fail(QStringLiteral("kind"), QStringLiteral("'%1' is not one of llm, costmodel, import, human").arg(kind));
    f.displayName = r.string(QStringLiteral("display_name"));
    f.config = r.object(QStringLiteral("config"));
    return f;
}

ProblemRecord decodeProblem(FieldReader &r)
{
    ProblemRecord rec;
    Problem &p = rec.problem;
    p.name = r.string(QStringLiteral("name"), kRequired);
    p.description = r.string(QStringLiteral("description"));
    p.family = r.string(QStringLiteral("family"));
    const QString backend = r.string(QStringLiteral("backend"), Need::Optional, QStringLiteral("cuda"));
    if (auto b = backendFromName(backend))
        p.backend = *b;
    else
        r.fail(QStringLiteral("backend"), QStringLiteral("'%1' is not one of cuda, triton, pytorch").arg(backend));
    rec.referenceHash = r.string(QStringLiteral("reference_hash"));
    if (!rec.referenceHash.isEmpty() && !isContentHash(rec.referenceHash))
        r.fail(QStringLiteral("reference_hash"), QStringLiteral("expected 64 lower-case hex digits (SHA-256)"));
    p.cases = r.array(QStringLiteral("cases"));
    p.tolerances = r.object(QStringLiteral("tolerances"));
    p.createdAt = r.time(QStringLiteral("created_at"));
    return rec;
}

KernelRecord decodeKernel(FieldReader &r)
{
    KernelRecord rec;
    Kernel &k = rec.kernel;
    rec.problem = r.string(QStringLiteral("problem"), kRequired);
    k.contentHash = r.string(QStringLiteral("hash"), kRequired);
    rec.parentHash = r.string(QStringLiteral("parent_hash"));
    if (!rec.parentHash.isEmpty() && !isContentHash(rec.parentHash))
        r.fail(QStringLiteral("parent_hash"), QStringLiteral("expected 64 lower-case hex digits (SHA-256)"));
    k.name = r.string(QStringLiteral("name"));
    k.language = r.string(QStringLiteral("language"));
    k.origin = r.string(QStringLiteral("origin"), kRequired);
    if (!k.origin.isEmpty() && !isValidOrigin(k.origin))
        r.fail(QStringLiteral("origin"),
            QStringLiteral("'%1' is not one of seed, corpus, param, manual, llm:<model>,"
                           " import:<source>")
                .arg(k.origin));
    k.parameters = r.object(QStringLiteral("parameters"));
    k.notes = r.string(QStringLiteral("notes"));
    k.createdAt = r.time(QStringLiteral("created_at"));
    const QJsonValue source = r.object().value(QStringLiteral("source"));
    if (source.isString())
        k.source = source.toString(); // may be empty: an empty source is still a kernel
    else
        r.string(QStringLiteral("source"), kRequired); // reports what is wrong
    if (r.ok() && !isContentHash(k.contentHash))
        r.fail(QStringLiteral("hash"), QStringLiteral("expected 64 lower-case hex digits (SHA-256)"));
    if (r.ok() && contentHashOf(k.source) != k.contentHash)
        r.fail(QStringLiteral("hash"),
            QStringLiteral("does not match the source (its SHA-256 is %1)").arg(contentHashOf(k.source)));
    if (r.ok() && rec.parentHash == k.contentHash)
        r.fail(QStringLiteral("parent_hash"), QStringLiteral("a kernel cannot be its own parent"));
    return rec;
}

MeasurementRecord decodeMeasurement(FieldReader &r)
{
    MeasurementRecord rec;
    Measurement &m = rec.measurement;
    rec.kernel = decodeKernelRef(r, "kernel");
    rec.hardware = r.string(QStringLiteral("hardware"), kRequired);
    m.caseName = r.string(QStringLiteral("case"));
    const QString status = r.string(QStringLiteral("status"), kRequired);
    if (auto s = measurementStatusFromName(status))
        m.status = *s;
    else if (!status.isEmpty())
        r.fail(QStringLiteral("status"),
            QStringLiteral("'%1' is not one of ok, compile_failed, runtime_error,"
                           " incorrect, timeout, infrastructure_failure")
                .arg(status));
    m.errorText = r.string(QStringLiteral("error"));
    m.runtime = decodeRuntime(r);
    if (r.ok() && m.status == MeasurementStatus::Ok && !m.runtime)
        r.fail(QStringLiteral("runtime"), QStringLiteral("required when the status is ok"));
    m.timingMethod = r.string(QStringLiteral("timing_method"));
    m.l2Flush = r.boolean(QStringLiteral("l2_flush"), true);
    m.resources = decodeResources(r);
    m.counters = r.object(QStringLiteral("counters"));
    m.provenance = r.object(QStringLiteral("provenance"));
    const QString source = r.string(QStringLiteral("source"), Need::Optional, QStringLiteral("import"));
    if (auto s = measurementSourceFromName(source))
        m.source = *s;
    else
        r.fail(QStringLiteral("source"), QStringLiteral("'%1' is not one of local, replay, import").arg(source));
    m.createdAt = r.time(QStringLiteral("created_at"));
    if (r.has(QStringLiteral("verdict"))) {
        const QJsonObject verdict = r.object(QStringLiteral("verdict"));
        if (verdict.value(QStringLiteral("state")).toString() != QLatin1String("quarantined"))
            r.fail(QStringLiteral("verdict"), QStringLiteral("its state must be 'quarantined'"));
        else if (verdict.value(QStringLiteral("note")).toString().trimmed().isEmpty())
            r.fail(QStringLiteral("verdict"), QStringLiteral("a quarantine needs its note"));
        rec.quarantined = true;
        rec.verdictNote = verdict.value(QStringLiteral("note")).toString();
        rec.verdictAt = QDateTime::fromString(verdict.value(QStringLiteral("at")).toString(), Qt::ISODateWithMs);
    }
    return rec;
}

PairLabelRecord decodePairLabel(FieldReader &r)
{
    PairLabelRecord rec;
    PairLabel &l = rec.label;
    rec.reference = decodeKernelRef(r, "reference");
    rec.candidate = decodeKernelRef(r, "candidate");
    rec.hardware = r.string(QStringLiteral("hardware"));
    l.speedup = r.optionalNumber(QStringLiteral("speedup"));
    if (l.speedup && !(*l.speedup > 0))
        r.fail(QStringLiteral("speedup"), QStringLiteral("must be positive (write null for a failed candidate)"));
    l.trueBin = optionalBin(r, QStringLiteral("true_bin"));
    l.kind = r.string(QStringLiteral("kind"), kRequired);
    l.externalId = r.string(QStringLiteral("external_id"));
    l.source = r.string(QStringLiteral("source"));
    l.extra = r.object(QStringLiteral("extra"));
    return rec;
}

ForecastRecord decodeForecast(FieldReader &r)
{
    ForecastRecord rec;
    Forecast &f = rec.forecast;
    rec.reference = decodeKernelRef(r, "reference");
    rec.candidate = decodeKernelRef(r, "candidate");
    rec.hardware = r.string(QStringLiteral("hardware"));
    rec.forecaster = r.string(QStringLiteral("forecaster"), kRequired);
    const qint64 repeat = r.integer(QStringLiteral("repeat"), 0);
    if (repeat < 0 || repeat > std::numeric_limits<int>::max())
        r.fail(QStringLiteral("repeat"), QStringLiteral("must be a non-negative integer"));
    f.repeat = int(repeat);
    f.probabilities = decodeProbabilities(r);
    f.predictedBin = optionalBin(r, QStringLiteral("predicted_bin"));
    f.rawProbabilitySum = r.optionalNumber(QStringLiteral("raw_probability_sum"));
    f.reasoning = r.string(QStringLiteral("reasoning"));
    f.response = r.string(QStringLiteral("response"));
    f.messages = r.string(QStringLiteral("messages"));
    f.tokensIn = unknownOrCount(r, QStringLiteral("tokens_in"));
    f.tokensOut = unknownOrCount(r, QStringLiteral("tokens_out"));
    f.latencySeconds = unknownOrAmount(r, QStringLiteral("latency_s"));
    const QString status = r.string(QStringLiteral("status"), kRequired);
    if (auto s = forecastStatusFromName(status))
        f.status = *s;
    else if (!status.isEmpty())
        r.fail(QStringLiteral("status"), QStringLiteral("'%1' is not one of ok, parse_failed, error").arg(status));
    f.errorText = r.string(QStringLiteral("error"));
    f.cacheKey = r.string(QStringLiteral("cache_key"));
    f.createdAt = r.time(QStringLiteral("created_at"));
    return rec;
}

SearchRecord decodeSearch(FieldReader &r)
{
    SearchRecord rec;
    rec.search.name = r.string(QStringLiteral("name"), kRequired);
    rec.problem = r.string(QStringLiteral("problem"));
    rec.search.mode = r.string(QStringLiteral("mode"), kRequired);
    rec.search.config = r.object(QStringLiteral("config"));
    rec.search.createdAt = r.time(QStringLiteral("created_at"));
    return rec;
}

SearchEventRecord decodeSearchEvent(FieldReader &r)
{
    SearchEventRecord rec;
    rec.search = r.string(QStringLiteral("search"), kRequired);
    rec.sequence = r.integer(QStringLiteral("sequence"), 0, kRequired);
    if (rec.sequence < 0)
        r.fail(QStringLiteral("sequence"), QStringLiteral("must not be negative"));
    rec.event.kind = r.string(QStringLiteral("kind"), kRequired);
    if (!rec.event.kind.isEmpty() && !eventKindFromName(rec.event.kind))
        r.fail(QStringLiteral("kind"), QStringLiteral("unknown search event kind '%1'").arg(rec.event.kind));
    rec.event.time = r.time(QStringLiteral("time"));
    rec.event.payload = r.object(QStringLiteral("payload"));
    return rec;
}

LessonRecord decodeLesson(FieldReader &r)
{
    LessonRecord rec;
    Lesson &l = rec.lesson;
    l.name = r.string(QStringLiteral("name"), kRequired);
    l.title = r.string(QStringLiteral("title"));
    const QString kind = r.string(QStringLiteral("kind"), kRequired);
    if (auto k = lessonKindFromName(kind))
        l.kind = *k;
    else if (!kind.isEmpty())
        r.fail(QStringLiteral("kind"), QStringLiteral("'%1' is not one of operation, family, custom").arg(kind));
    l.source = r.string(QStringLiteral("source"));
    l.description = r.string(QStringLiteral("description"));
    l.createdAt = r.time(QStringLiteral("created_at"));
    const QJsonArray steps = r.array(QStringLiteral("steps"), kRequired);
    if (r.ok() && steps.isEmpty())
        r.fail(QStringLiteral("steps"), QStringLiteral("a lesson has at least one step"));
    for (qsizetype i = 0; i < steps.size() && r.ok(); ++i) {
        auto step = r.nested(steps.at(i), QStringLiteral("steps[%1]").arg(i));
        if (!step)
            break;
        LessonStepRecord s;
        s.reference = decodeKernelRef(*step, "reference");
        s.kernel = decodeKernelRef(*step, "kernel");
        s.note = step->string(QStringLiteral("note"));
        rec.steps.append(s);
    }
    return rec;
}

CaseViewRecord decodeCaseView(FieldReader &r)
{
    CaseViewRecord rec;
    rec.reference = decodeKernelRef(r, "reference");
    rec.candidate = decodeKernelRef(r, "candidate");
    if (r.ok() && rec.reference.problem != rec.candidate.problem)
        r.fail(QStringLiteral("candidate"),
            QStringLiteral("names problem '%1', the reference '%2': a case is one pair of "
                           "one problem")
                .arg(rec.candidate.problem, rec.reference.problem));
    rec.forecaster = r.string(QStringLiteral("forecaster"));
    rec.hardware = r.string(QStringLiteral("hardware"));
    rec.trustThreshold = r.optionalNumber(QStringLiteral("trust_threshold"));
    if (rec.trustThreshold && !(*rec.trustThreshold >= 0.0 && *rec.trustThreshold <= 1.0))
        r.fail(QStringLiteral("trust_threshold"), QStringLiteral("must lie between 0 and 1"));
    return rec;
}

} // namespace gpuf::interop::bundle
