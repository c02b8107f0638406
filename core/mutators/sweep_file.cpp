// Sweep plans and recorded sweeps; see sweep_file.h.
#include "core/mutators/sweep_file.h"

#include "core/domain/kernel.h"
#include "core/interop/corpus.h"
#include "core/measure/measurement_mapping.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <cmath>

namespace gpuf::families {
namespace {

QByteArray line(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n'; }

Status writeLines(const QString &path, const QList<QJsonObject> &objects)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error {QStringLiteral("%1: cannot write (%2)").arg(path, file.errorString())};
    for (const QJsonObject &o : objects)
        file.write(line(o));
    if (!file.commit())
        return Error {QStringLiteral("%1: cannot write (%2)").arg(path, file.errorString())};
    return {};
}

SweepEntry entryFrom(const QJsonObject &o)
{
    SweepEntry e;
    e.tunables = o.value(QStringLiteral("tunables")).toObject();
    e.name = o.value(QStringLiteral("name")).toString();
    e.contentHash = o.value(QStringLiteral("content_hash")).toString();
    e.status = o.value(QStringLiteral("status")).toString();
    e.message = o.value(QStringLiteral("message")).toString();
    e.compile = o.value(QStringLiteral("compile")).toObject();
    e.provenance = o.value(QStringLiteral("provenance")).toObject();
    e.measuredAt = o.value(QStringLiteral("measured_at")).toString();
    for (const QJsonValue v : o.value(QStringLiteral("cases")).toArray()) {
        const QJsonObject r = v.toObject();
        SweepCase c;
        c.name = r.value(QStringLiteral("name")).toString();
        c.status = r.value(QStringLiteral("status")).toString();
        c.message = r.value(QStringLiteral("message")).toString();
        const QJsonObject timing = r.value(QStringLiteral("timing")).toObject();
        if (c.status == QLatin1StringView("ok") && timing.value(QStringLiteral("median_us")).isDouble())
            c.medianNs = timing.value(QStringLiteral("median_us")).toDouble() * 1e3;
        c.result = r;
        e.cases.append(c);
    }
    return e;
}

QJsonObject entryJson(const SweepEntry &e, const QString &record)
{
    QJsonArray cases;
    for (const SweepCase &c : e.cases)
        cases.append(c.result);
    QJsonObject o {{QStringLiteral("record"), record}, {QStringLiteral("name"), e.name},
        {QStringLiteral("content_hash"), e.contentHash}, {QStringLiteral("status"), e.status},
        {QStringLiteral("cases"), cases}, {QStringLiteral("compile"), e.compile},
        {QStringLiteral("provenance"), e.provenance}, {QStringLiteral("measured_at"), e.measuredAt}};
    if (!e.tunables.isEmpty())
        o.insert(QStringLiteral("tunables"), e.tunables);
    if (!e.message.isEmpty())
        o.insert(QStringLiteral("message"), e.message);
    return o;
}

// An ok case's runtime must be one a GPU can have: positive, finite, under an hour, and not below the case's own
// roofline floor unless the line itself marks it implausible (a store with infinite or vanishing runtimes cannot be
// exported again, and its speedups mean nothing).
Status checkTiming(const SweepCase &c, const QString &where)
{
    if (c.status != QLatin1StringView("ok"))
        return {};
    const QJsonValue median = c.result.value(QStringLiteral("timing")).toObject().value(QStringLiteral("median_us"));
    const QString what = QStringLiteral("%1: case '%2': ").arg(where, c.name);
    if (!median.isDouble())
        return Error {what + QStringLiteral("an ok case needs a numeric 'timing.median_us'")};
    constexpr double kHourUs = 3.6e9;
    const double us = median.toDouble();
    if (!std::isfinite(us) || us <= 0.0 || us > kHourUs)
        return Error {what
            + QStringLiteral("'timing.median_us' %1 is not a runtime (it must lie in (0, 3.6e9] µs)")
                  .arg(QString::number(us, 'g', 6))};
    const QJsonValue floor = c.result.value(QStringLiteral("floor_us"));
    if (floor.isDouble() && floor.toDouble() > 0.0 && us < floor.toDouble()
        && !c.result.value(QStringLiteral("implausible")).toBool())
        return Error {what
            + QStringLiteral("'timing.median_us' %1 is below the case's own roofline floor of %2 µs, and the line "
                             "does not mark it implausible")
                  .arg(QString::number(us, 'g', 6), QString::number(floor.toDouble(), 'g', 6))};
    return {};
}

Status checkEntry(const SweepEntry &e, const QString &where)
{
    if (e.contentHash.size() != 64)
        return Error {QStringLiteral("%1: field 'content_hash': expected a SHA-256 in hex").arg(where)};
    if (e.status.isEmpty())
        return Error {QStringLiteral("%1: field 'status': expected a status name").arg(where)};
    for (const SweepCase &c : e.cases) {
        if (c.name.isEmpty())
            return Error {QStringLiteral("%1: field 'cases': every case needs a 'name'").arg(where)};
        if (Status s = checkTiming(c, where); !s)
            return s;
    }
    return {};
}

} // namespace

const SweepCase *SweepEntry::findCase(const QString &caseName) const
{
    for (const SweepCase &c : cases) {
        if (c.name == caseName)
            return &c;
    }
    return nullptr;
}

QString Sweep::hardwareName() const { return device.value(QStringLiteral("name")).toString(); }

Status writeSweepPlan(const QString &path, const KernelFamily &family, const QString &corpusDir,
    const QList<Configuration> &configurations, int validCount, quint64 seed)
{
    auto reference = interop::corpusVariantSpec(QDir(corpusDir).filePath(family.problem), family.referenceVariant);
    if (!reference)
        return Error {reference.error()};
    QList<QJsonObject> lines;
    lines.append(QJsonObject {{QStringLiteral("format"), kSweepPlanFormat},
        {QStringLiteral("record"), QStringLiteral("header")}, {QStringLiteral("family"), family.name},
        {QStringLiteral("family_hash"), family.contentHash}, {QStringLiteral("problem"), family.problem},
        {QStringLiteral("configs_valid"), validCount}, {QStringLiteral("configs_planned"), configurations.size()},
        {QStringLiteral("seed"), QString::number(seed)},
        {QStringLiteral("reference"),
            QJsonObject {{QStringLiteral("name"), family.referenceVariant},
                {QStringLiteral("content_hash"), contentHashOf(reference->value(QStringLiteral("source")).toString())},
                {QStringLiteral("spec"), *reference}}}});
    int index = 0;
    for (const Configuration &c : configurations) {
        auto e = expand(family, c);
        if (!e)
            return Error {e.error()};
        lines.append(
            QJsonObject {{QStringLiteral("record"), QStringLiteral("config")}, {QStringLiteral("index"), index++},
                {QStringLiteral("tunables"), configurationJson(family, c)}, {QStringLiteral("name"), e->name},
                {QStringLiteral("content_hash"), contentHashOf(e->source)}, {QStringLiteral("spec"), e->spec}});
    }
    return writeLines(path, lines);
}

std::optional<double> entrySpeedup(const Sweep &sweep, const SweepEntry &entry)
{
    if (entry.status != QLatin1StringView("ok") || sweep.reference.cases.isEmpty())
        return std::nullopt;
    double logSum = 0.0;
    for (const SweepCase &ref : sweep.reference.cases) {
        const SweepCase *mine = entry.findCase(ref.name);
        if (!mine || mine->medianNs <= 0.0 || ref.medianNs <= 0.0)
            return std::nullopt;
        logSum += std::log(ref.medianNs / mine->medianNs);
    }
    return std::exp(logSum / double(sweep.reference.cases.size()));
}

Result<Sweep> readSweep(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("%1: cannot read (%2)").arg(path, file.errorString())};
    const QByteArray content = file.readAll();
    const QList<QByteArray> lines = content.split('\n');
    qsizetype lastLine = lines.size() - 1;
    while (lastLine >= 0 && lines[lastLine].trimmed().isEmpty())
        --lastLine;
    Sweep sweep;
    bool header = false;
    bool reference = false;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray raw = lines[i].trimmed();
        if (raw.isEmpty())
            continue;
        const QString where = QStringLiteral("%1:%2").arg(path).arg(i + 1);
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(raw, &parseError);
        if (!doc.isObject()) {
            // A sweep stopped while writing leaves its last line cut short (no newline); everything before it stands.
            if (header && i == lastLine && !content.endsWith('\n'))
                break;
            return Error {QStringLiteral("%1: not a JSON object (%2)").arg(where, parseError.errorString())};
        }
        const QJsonObject o = doc.object();
        const QString record = o.value(QStringLiteral("record")).toString();
        if (!header) {
            if (o.value(QStringLiteral("format")).toString() != kSweepFormat || record != QLatin1StringView("header"))
                return Error {QStringLiteral("%1: expected a %2 header line").arg(where, kSweepFormat)};
            header = true;
            sweep.family = o.value(QStringLiteral("family")).toString();
            sweep.familyHash = o.value(QStringLiteral("family_hash")).toString();
            sweep.problem = o.value(QStringLiteral("problem")).toString();
            sweep.device = o.value(QStringLiteral("device")).toObject();
            sweep.options = o.value(QStringLiteral("options")).toObject();
            sweep.correctnessOptions = o.value(QStringLiteral("correctness_options")).toObject();
            sweep.configsValid = o.value(QStringLiteral("configs_valid")).toInt();
            sweep.seed = o.value(QStringLiteral("seed")).toString().toULongLong();
            sweep.startedAt = o.value(QStringLiteral("started_at")).toString();
            if (sweep.family.isEmpty() || sweep.problem.isEmpty() || sweep.hardwareName().isEmpty())
                return Error {QStringLiteral("%1: the header needs 'family', 'problem' and 'device.name'").arg(where)};
            continue;
        }
        if (record == QLatin1StringView("reference") || record == QLatin1StringView("config")) {
            SweepEntry e = entryFrom(o);
            if (Status s = checkEntry(e, where); !s)
                return Error {s.error()};
            if (record == QLatin1StringView("reference")) {
                sweep.reference = e;
                reference = true;
            } else {
                if (e.tunables.isEmpty())
                    return Error {QStringLiteral("%1: field 'tunables': expected the configuration").arg(where)};
                sweep.entries.append(e);
            }
        } else if (record == QLatin1StringView("summary")) {
            sweep.wallSeconds = o.value(QStringLiteral("wall_s")).toDouble();
        } else {
            return Error {QStringLiteral("%1: field 'record': unknown record '%2'").arg(where, record)};
        }
    }
    if (!header)
        return Error {QStringLiteral("%1: empty file (expected a %2 header line)").arg(path, kSweepFormat)};
    if (!reference)
        return Error {QStringLiteral("%1: no 'reference' record: speedups cannot be computed").arg(path)};
    return sweep;
}

Status writeSweep(const QString &path, const Sweep &sweep)
{
    QList<QJsonObject> lines;
    lines.append(QJsonObject {{QStringLiteral("format"), kSweepFormat},
        {QStringLiteral("record"), QStringLiteral("header")}, {QStringLiteral("family"), sweep.family},
        {QStringLiteral("family_hash"), sweep.familyHash}, {QStringLiteral("problem"), sweep.problem},
        {QStringLiteral("device"), sweep.device}, {QStringLiteral("options"), sweep.options},
        {QStringLiteral("correctness_options"), sweep.correctnessOptions},
        {QStringLiteral("configs_valid"), sweep.configsValid}, {QStringLiteral("seed"), QString::number(sweep.seed)},
        {QStringLiteral("started_at"), sweep.startedAt}});
    lines.append(entryJson(sweep.reference, QStringLiteral("reference")));
    int failures = 0;
    for (const SweepEntry &e : sweep.entries) {
        lines.append(entryJson(e, QStringLiteral("config")));
        failures += e.status == QLatin1StringView("ok") ? 0 : 1;
    }
    lines.append(QJsonObject {{QStringLiteral("record"), QStringLiteral("summary")},
        {QStringLiteral("configs_measured"), sweep.entries.size()}, {QStringLiteral("failures"), failures},
        {QStringLiteral("wall_s"), sweep.wallSeconds}});
    return writeLines(path, lines);
}

QString SweepImportReport::text() const
{
    return QStringLiteral("sweep: %1 kernels, %2 measurements").arg(kernels).arg(measurements);
}

namespace {

Result<RowId> ensureProblem(Store &store, const KernelFamily &family, const QString &corpusDir)
{
    ProblemRepo problems(store);
    auto existing = problems.findByName(family.problem);
    if (!existing)
        return Error {existing.error()};
    if (!existing->has_value() || (*existing)->referenceKernelId == 0) {
        // The corpus import is content-deduplicated: importing the family's corpus again changes nothing stored.
        if (auto imported = interop::importCorpus(store, corpusDir); !imported)
            return Error {imported.error()};
        existing = problems.findByName(family.problem);
        if (!existing)
            return Error {existing.error()};
    }
    if (!existing->has_value())
        return Error {QStringLiteral("problem '%1' is not in %2").arg(family.problem, corpusDir)};
    return (*existing)->id;
}

// Every case a sweep line times must be one of the problem's cases: another name would be stored as a runtime no
// speedup can be measured against.
Status checkCaseNames(Store &store, RowId problemId, const Sweep &sweep)
{
    auto problem = ProblemRepo(store).find(problemId);
    if (!problem)
        return Error {problem.error()};
    if (!problem->has_value())
        return Error {QStringLiteral("the sweep's problem is not stored")};
    QStringList names;
    for (const QJsonValue v : std::as_const((*problem)->cases))
        names.append(v.toObject().value(QStringLiteral("name")).toString());
    if (names.isEmpty())
        return {};
    QList<const SweepEntry *> entries {&sweep.reference};
    for (const SweepEntry &e : sweep.entries)
        entries.append(&e);
    for (const SweepEntry *e : std::as_const(entries)) {
        for (const SweepCase &c : e->cases) {
            if (!names.contains(c.name))
                return Error {
                    QStringLiteral("sweep entry '%1': case '%2' is not a case of problem '%3' (its cases: %4)")
                        .arg(e->name, c.name, sweep.problem, names.join(u", "))};
        }
    }
    return {};
}

Status storeCases(
    Store &store, const Sweep &sweep, const SweepEntry &entry, RowId kernelId, RowId hardwareId, int &count)
{
    MeasurementRepo measurements(store);
    auto stored = measurements.forKernel(kernelId, hardwareId);
    if (!stored)
        return Error {stored.error()};
    measure::CaseContext context;
    context.device = sweep.device;
    context.provenance = entry.provenance;
    context.compile = entry.compile;
    context.options = sweep.options;
    context.measuredAt = entry.measuredAt;
    for (const SweepCase &c : entry.cases) {
        if (c.status == QLatin1StringView("not_run"))
            continue;
        bool already = false;
        for (const Measurement &m : std::as_const(*stored)) {
            already = already
                || (m.caseName == c.name
                    && m.provenance.value(QStringLiteral("measured_at")).toString() == entry.measuredAt);
        }
        if (already)
            continue; // the same sweep imported again adds nothing
        Measurement m = measure::measurementFromCase(c.result, context, kernelId, hardwareId);
        m.provenance.insert(QStringLiteral("sweep"), sweep.family);
        if (auto id = measurements.insert(m); !id)
            return Error {id.error()};
        ++count;
    }
    return {};
}

} // namespace

Result<SweepImportReport> importSweep(
    Store &store, const Sweep &sweep, const KernelFamily &family, const QString &corpusDir)
{
    if (sweep.family != family.name)
        return Error {QStringLiteral("the sweep is of family '%1', not '%2'").arg(sweep.family, family.name)};
    if (!sweep.familyHash.isEmpty() && sweep.familyHash != family.contentHash)
        return Error {QStringLiteral("the sweep of '%1' was recorded with another version of the family (hash %2…, "
                                     "this one %3…): its kernels are not the ones measured")
                          .arg(family.name, sweep.familyHash.left(12), family.contentHash.left(12))};
    if (sweep.problem != family.problem)
        return Error {QStringLiteral("the sweep's header names problem '%1', but family '%2' is of problem '%3'")
                          .arg(sweep.problem, family.name, family.problem)};
    // Everything that can be wrong with the file is checked before anything is written.
    QList<Kernel> configured;
    for (const SweepEntry &entry : sweep.entries) {
        auto configuration = configurationFromJson(family, entry.tunables);
        if (!configuration)
            return Error {QStringLiteral("sweep entry '%1': %2").arg(entry.name, configuration.error())};
        auto expansion = expand(family, *configuration);
        if (!expansion)
            return Error {expansion.error()};
        if (contentHashOf(expansion->source) != entry.contentHash)
            return Error {QStringLiteral("sweep entry '%1': its content hash differs from the family's expansion")
                              .arg(entry.name)};
        Kernel kernel;
        kernel.name = expansion->name;
        kernel.language = QStringLiteral("cuda");
        kernel.source = expansion->source;
        kernel.origin = QStringLiteral("param");
        kernel.parameters = expansion->parameters;
        kernel.notes = expansion->notes;
        configured.append(kernel);
    }
    SweepImportReport report;
    // The problem comes first, in a transaction of its own (the corpus import's), when the store lacks it.
    auto problemId = ensureProblem(store, family, corpusDir);
    if (!problemId)
        return Error {problemId.error()};
    if (Status s = checkCaseNames(store, *problemId, sweep); !s)
        return Error {s.error()};
    Transaction tx(store);
    if (Status s = tx.begin(); !s)
        return Error {s.error()};
    report.problemId = *problemId;
    Hardware hardware = measure::hardwareFromDevice(
        sweep.device, sweep.reference.provenance.value(QStringLiteral("toolkit_version")).toString());
    HardwareRepo hardwareRepo(store);
    if (auto id = hardwareRepo.ensure(hardware); !id)
        return Error {id.error()};
    report.hardwareId = hardware.id;
    KernelRepo kernels(store);
    auto reference = kernels.findByHash(*problemId, sweep.reference.contentHash);
    if (!reference)
        return Error {reference.error()};
    if (!reference->has_value())
        return Error {QStringLiteral("the sweep's reference kernel '%1' is not the stored reference of problem '%2'")
                          .arg(sweep.reference.name, family.problem)};
    if (Status s = storeCases(store, sweep, sweep.reference, (*reference)->id, hardware.id, report.measurements); !s)
        return Error {s.error()};
    for (qsizetype i = 0; i < sweep.entries.size(); ++i) {
        Kernel kernel = configured[i];
        kernel.problemId = *problemId;
        auto id = kernels.insertOrGet(kernel);
        if (!id)
            return Error {id.error()};
        ++report.kernels;
        if (Status s = storeCases(store, sweep, sweep.entries[i], *id, hardware.id, report.measurements); !s)
            return Error {s.error()};
    }
    if (Status s = tx.commit(); !s)
        return Error {s.error()};
    return report;
}

} // namespace gpuf::families
