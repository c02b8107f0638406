// Tuning results stored as a searchable space; see tuning_import.h.
#include "core/interop/tuning_import.h"

#include "core/domain/hardware.h"
#include "core/domain/kernel.h"
#include "core/domain/measurement.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace gpuf::interop {

namespace {

const QString kCase = QStringLiteral("default");

QString sourceOf(
    const TuningResults &results, const TuningEntry &entry, const QString &space, const TuningImportOptions &options)
{
    QString defines;
    for (qsizetype t = 0; t < results.tunables.size(); ++t)
        defines += QStringLiteral("#define %1 %2\n").arg(results.tunables.at(t).name).arg(entry.configuration.at(t));
    if (!options.templateText.isEmpty())
        return defines + options.templateText;
    return QStringLiteral("// %1: one configuration of a tuning space imported from %2 (%3).\n"
                          "// No kernel source was imported (gpuf import --template FILE adds it).\n")
               .arg(space, QFileInfo(options.sourceFile).fileName(), tuningFormatName(results.format))
        + defines;
}

QJsonObject tunablesJson(const TuningResults &results, const QList<qint64> &configuration)
{
    QJsonObject o;
    for (qsizetype t = 0; t < results.tunables.size(); ++t)
        o.insert(results.tunables.at(t).name, double(configuration.at(t)));
    return o;
}

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : 0.5 * (v.at(n / 2 - 1) + v.at(n / 2));
}

RuntimeStats statsOf(const TuningEntry &entry)
{
    RuntimeStats r;
    const QList<double> &s = entry.runtimesUs;
    if (s.isEmpty()) {
        r.medianNs = r.meanNs = r.minNs = entry.timeUs * 1000.0;
        r.samples = 1;
        return r;
    }
    double sum = 0.0;
    for (double x : s)
        sum += x;
    const double mean = sum / double(s.size());
    double ss = 0.0;
    for (double x : s)
        ss += (x - mean) * (x - mean);
    const double sd = s.size() > 1 ? std::sqrt(ss / double(s.size() - 1)) : 0.0;
    r.medianNs = median(s) * 1000.0;
    r.meanNs = mean * 1000.0;
    r.minNs = *std::min_element(s.begin(), s.end()) * 1000.0;
    r.stdNs = sd * 1000.0;
    r.relStdErr = mean > 0 ? sd / std::sqrt(double(s.size())) / mean : 0.0;
    r.samples = int(s.size());
    return r;
}

MeasurementStatus statusOf(TuningEntry::Outcome outcome)
{
    switch (outcome) {
    case TuningEntry::Outcome::Ok:
        return MeasurementStatus::Ok;
    case TuningEntry::Outcome::CompileFailed:
        return MeasurementStatus::CompileFailed;
    case TuningEntry::Outcome::RuntimeFailed:
        return MeasurementStatus::RuntimeError;
    case TuningEntry::Outcome::Incorrect:
        return MeasurementStatus::Incorrect;
    }
    return MeasurementStatus::RuntimeError;
}

// The reference entry: the one the options name, else the valid entry of median time.
Result<int> referenceEntry(const TuningResults &results, const QString &wanted)
{
    if (!wanted.trimmed().isEmpty()) {
        QList<qint64> configuration(results.tunables.size(), 0);
        QList<bool> given(results.tunables.size(), false);
        for (const QString &part : wanted.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts)) {
            const qsizetype eq = part.indexOf(QLatin1Char('='));
            const int t = eq > 0 ? results.tunableIndex(part.left(eq)) : -1;
            bool ok = false;
            const qint64 v = eq > 0 ? part.mid(eq + 1).toLongLong(&ok) : 0;
            if (t < 0 || !ok)
                return Error {QStringLiteral("--reference: '%1' is not NAME=VALUE of a tunable (%2)")
                                  .arg(part, results.label(results.entries.first().configuration))};
            configuration[t] = v;
            given[t] = true;
        }
        if (given.contains(false))
            return Error {QStringLiteral("--reference names %1 of %2 tunables; give every one")
                              .arg(given.count(true))
                              .arg(given.size())};
        for (qsizetype i = 0; i < results.entries.size(); ++i) {
            if (results.entries.at(i).configuration == configuration) {
                if (results.entries.at(i).outcome != TuningEntry::Outcome::Ok)
                    return Error {QStringLiteral("--reference %1 failed in the file (%2): a reference needs a time")
                                      .arg(results.label(configuration), results.entries.at(i).reason)};
                return int(i);
            }
        }
        return Error {
            QStringLiteral("--reference %1 is not a configuration of the file").arg(results.label(configuration))};
    }
    QList<int> valid;
    for (qsizetype i = 0; i < results.entries.size(); ++i) {
        if (results.entries.at(i).outcome == TuningEntry::Outcome::Ok)
            valid << int(i);
    }
    if (valid.isEmpty())
        return Error {QStringLiteral("no configuration of the file has a time")};
    std::stable_sort(valid.begin(), valid.end(), [&results](int a, int b) {
        return statsOf(results.entries.at(a)).medianNs < statsOf(results.entries.at(b)).medianNs;
    });
    return valid.at((valid.size() - 1) / 2);
}

// What the import will be, checked before the store is touched: the space's name, the GPU, the template, the
// reference configuration (its index in `referenceIndex`) and the count of configurations.
Result<TuningImportReport> describeTuningImport(
    const TuningResults &results, const TuningImportOptions &options, int *referenceIndex)
{
    TuningImportReport report;
    report.space = !options.name.trimmed().isEmpty() ? options.name.trimmed()
        : !results.kernelName.isEmpty()              ? results.kernelName
                                                     : QFileInfo(options.sourceFile).completeBaseName();
    static const QRegularExpression okName(QStringLiteral("^[A-Za-z0-9_.+-]{1,80}$"));
    if (!okName.match(report.space).hasMatch())
        return Error {QStringLiteral("'%1' cannot name a space: use 1 to 80 letters, digits, '_', '.', '+' or '-' "
                                     "(--name)")
                          .arg(report.space)};
    report.hardware = options.hardware.trimmed();
    if (report.hardware.isEmpty())
        report.hardware = results.hardware;
    if (report.hardware.isEmpty())
        return Error {QStringLiteral("%1 names no GPU: give the one it was measured on (gpuf import STORE FILE "
                                     "--hardware NAME)")
                          .arg(QFileInfo(options.sourceFile).fileName())};
    if (!results.hardware.isEmpty() && !options.hardware.trimmed().isEmpty()
        && results.hardware != options.hardware.trimmed())
        return Error {QStringLiteral("--hardware '%1' disagrees with the file, which was measured on '%2'")
                          .arg(options.hardware.trimmed(), results.hardware)};
    if (results.entries.isEmpty() || results.tunables.isEmpty())
        return Error {QStringLiteral("the file holds no configuration")};
    report.withTemplate = !options.templateText.isEmpty();
    if (report.withTemplate) {
        const TemplateCheck check = checkTemplate(options.templateText, options.templateFile, results.tunables);
        if (!check.errors.isEmpty())
            return Error {check.errors.join(QStringLiteral("; "))};
        report.warnings = check.warnings;
    }
    auto reference = referenceEntry(results, options.reference);
    if (!reference)
        return Error {reference.error()};
    *referenceIndex = int(*reference);
    report.reference = results.label(results.entries.at(*reference).configuration);
    report.configurations = int(results.entries.size());
    return report;
}

// A problem of the space's name already stored must be this space: the same space imported again (or another GPU's
// results of it) is welcome, another problem of that name not.
Status sameTuningSpace(KernelRepo &kernels, const Problem &existing, const TuningResults &results, const QString &space)
{
    auto stored = kernels.find(existing.referenceKernelId);
    if (!stored)
        return Error {stored.error()};
    const QJsonObject tunables
        = stored->has_value() ? (*stored)->parameters.value(QStringLiteral("tunables")).toObject() : QJsonObject();
    QStringList names;
    for (const TuningTunable &t : results.tunables)
        names << t.name;
    std::sort(names.begin(), names.end());
    if ((*stored ? (*stored)->parameters.value(QStringLiteral("family")).toString() : QString()) != space
        || tunables.keys() != names)
        return Error {QStringLiteral("the store already has a problem '%1' that is not this tuning space: import "
                                     "it under another name (--name)")
                          .arg(space)};
    return {};
}

// The problem a new tuning space becomes: one case, its description saying where it came from.
Problem tuningProblem(
    const TuningResults &results, const TuningImportOptions &options, const TuningImportReport &report)
{
    Problem problem;
    problem.name = report.space;
    problem.family = QStringLiteral("tuning space");
    problem.backend = Backend::Cuda;
    QJsonObject caseObject {{QStringLiteral("name"), kCase}};
    if (!results.problemSize.isEmpty())
        caseObject.insert(QStringLiteral("problem_size"), results.problemSize.value(QStringLiteral("problem_size")));
    problem.cases = QJsonArray {caseObject};
    problem.description
        = QStringLiteral("A tuning space imported from %1 (%2): %3 configurations of %4 tunables%5. "
                         "Speedups are over the reference configuration %6.")
              .arg(QFileInfo(options.sourceFile).fileName(), tuningFormatName(results.format))
              .arg(results.entries.size())
              .arg(results.tunables.size())
              .arg(results.kernelName.isEmpty() ? QString() : QStringLiteral(" of %1").arg(results.kernelName),
                  report.reference);
    return problem;
}

// One configuration's kernel: its code (from the template, or none), its tunables, where it was imported from.
Kernel tuningKernel(const TuningResults &results, const TuningEntry &entry, const TuningImportOptions &options,
    const TuningImportReport &report, const QString &format)
{
    Kernel kernel;
    kernel.name = QStringLiteral("%1 %2").arg(report.space, results.label(entry.configuration));
    kernel.language = QStringLiteral("cuda");
    kernel.source = sourceOf(results, entry, report.space, options);
    kernel.origin = QStringLiteral("import:%1").arg(format);
    kernel.parameters = {{QStringLiteral("family"), report.space},
        {QStringLiteral("tunables"), tunablesJson(results, entry.configuration)},
        {QStringLiteral("source_kind"), report.withTemplate ? QStringLiteral("template") : QStringLiteral("none")}};
    return kernel;
}

// One configuration's measurement as the file reports it (the kernel and the GPU are set by the caller).
Measurement tuningMeasurement(const TuningResults &results, const TuningEntry &entry, const QString &space,
    const QString &origin, const QString &format)
{
    Measurement m;
    m.caseName = kCase;
    m.status = statusOf(entry.outcome);
    if (entry.outcome == TuningEntry::Outcome::Ok)
        m.runtime = statsOf(entry);
    else
        m.errorText = QStringLiteral("%1 reported '%2'").arg(tuningFormatName(results.format), entry.reason);
    m.timingMethod = format;
    m.l2Flush = false;
    m.source = MeasurementSource::Import;
    m.provenance = {{QStringLiteral("imported_from"), origin}, {QStringLiteral("format"), format},
        {QStringLiteral("timestamp"), entry.timestamp}, {QStringLiteral("line"), entry.line},
        {QStringLiteral("tuning_space"), space}};
    return m;
}

} // namespace

QString TuningImportReport::text() const
{
    return QStringLiteral("tuning space '%1' on %2: %3 configurations (%4 failed), %5 kernels and %6 measurements "
                          "added; reference %7%8")
               .arg(space, hardware)
               .arg(configurations)
               .arg(failures)
               .arg(kernelsAdded)
               .arg(measurementsAdded)
               .arg(reference,
                   withTemplate ? QString()
                                : QStringLiteral(" (no kernel template: code-reading forecasters "
                                                 "cannot forecast it)"))
        + (warnings.isEmpty() ? QString()
                              : QStringLiteral("\nwarning: ") + warnings.join(QStringLiteral("\nwarning: ")));
}

bool looksLikeTuningResults(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = f.read(qint64(64) * 1024);
    if (isGzip(head))
        return true;
    const bool tuningKeys
        = (head.contains("\"cache\"") && head.contains("\"tune_params")) || head.contains("\"schema_version\"");
    if (!tuningKeys)
        return false;
    // JSON Lines hold a whole object on their first line; a tuner's results are one document, usually spread over
    // lines.
    const qsizetype end = head.indexOf('\n');
    QJsonParseError error;
    const QJsonDocument first = QJsonDocument::fromJson(end < 0 ? head : head.left(end), &error);
    if (error.error != QJsonParseError::NoError || !first.isObject())
        return true;
    const QJsonObject o = first.object();
    return o.contains(QStringLiteral("cache")) || o.contains(QStringLiteral("results"));
}

TemplateCheck checkTemplate(const QString &text, const QString &file, const QList<TuningTunable> &tunables)
{
    TemplateCheck check;
    const QStringList lines = text.split(QLatin1Char('\n'));
    QStringList unnamed;
    for (const TuningTunable &t : tunables) {
        const QString name = QRegularExpression::escape(t.name);
        if (!QRegularExpression(QStringLiteral("\\b%1\\b").arg(name)).match(text).hasMatch()) {
            unnamed << t.name;
            continue;
        }
        const QRegularExpression define(QStringLiteral("^\\s*#\\s*define\\s+%1\\b").arg(name));
        const QRegularExpression guard(
            QStringLiteral("^\\s*#\\s*(ifndef\\s+%1\\b|if\\s+!\\s*defined\\s*\\(?\\s*%1\\b)").arg(name));
        bool guarded = false;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (guard.match(lines.at(i)).hasMatch())
                guarded = true;
            if (define.match(lines.at(i)).hasMatch() && !guarded)
                check.errors << QStringLiteral("%1:%2: #define %3 redefines a tunable without an #ifndef %3 guard "
                                               "(the tunables' #defines are put above the template)")
                                    .arg(file)
                                    .arg(i + 1)
                                    .arg(t.name);
        }
    }
    if (!unnamed.isEmpty())
        check.warnings << QStringLiteral("%1 never names %2: %3 nothing in its code")
                              .arg(file, unnamed.join(QStringLiteral(", ")),
                                  unnamed.size() == 1 ? QStringLiteral("that tunable changes")
                                                      : QStringLiteral("those tunables change"));
    return check;
}

Result<TuningImportReport> importTuningResults(
    Store &store, const TuningResults &results, const TuningImportOptions &options)
{
    int referenceIndex = 0;
    auto described = describeTuningImport(results, options, &referenceIndex);
    if (!described)
        return described.failure();
    TuningImportReport report = *described;

    ProblemRepo problems(store);
    auto existing = problems.findByName(report.space);
    if (!existing)
        return Error {existing.error()};
    KernelRepo kernels(store);
    if (existing->has_value()) {
        if (Status s = sameTuningSpace(kernels, **existing, results, report.space); !s)
            return s.failure();
    }

    Transaction tx(store);
    if (Status s = tx.begin(); !s)
        return Error {s.error()};
    Hardware hardware;
    if (auto preset = hardwarePreset(report.hardware); preset && preset->name == report.hardware)
        hardware = *preset;
    hardware.name = report.hardware;
    HardwareRepo hardwareRepo(store);
    if (auto id = hardwareRepo.ensure(hardware); !id)
        return Error {id.error()};
    report.hardwareId = hardware.id;

    Problem problem;
    if (existing->has_value()) {
        problem = **existing;
    } else {
        problem = tuningProblem(results, options, report);
        if (auto id = problems.insert(problem); !id)
            return Error {id.error()};
    }
    report.problemId = problem.id;

    MeasurementRepo measurements(store);
    const QString format = results.format == TuningFormat::T4 ? QStringLiteral("t4") : QStringLiteral("kernel_tuner");
    for (qsizetype i = 0; i < results.entries.size(); ++i) {
        const TuningEntry &entry = results.entries.at(i);
        Kernel kernel = tuningKernel(results, entry, options, report, format);
        kernel.problemId = problem.id;
        bool inserted = false;
        auto kernelId = kernels.insertOrGet(kernel, &inserted);
        if (!kernelId)
            return Error {kernelId.error()};
        report.kernelsAdded += inserted ? 1 : 0;
        if (i == referenceIndex && problem.referenceKernelId == 0) {
            if (Status s = problems.setReferenceKernel(problem.id, *kernelId); !s)
                return Error {s.error()};
            problem.referenceKernelId = *kernelId;
        }
        report.failures += entry.outcome == TuningEntry::Outcome::Ok ? 0 : 1;
        // Idempotent: a configuration with a measurement from the same file on this GPU is not measured twice.
        auto stored = measurements.forKernel(*kernelId, hardware.id);
        if (!stored)
            return Error {stored.error()};
        const QString origin = QFileInfo(options.sourceFile).fileName();
        const bool already = std::any_of(stored->begin(), stored->end(), [&](const Measurement &m) {
            return m.provenance.value(QStringLiteral("imported_from")).toString() == origin
                && m.provenance.value(QStringLiteral("timestamp")).toString() == entry.timestamp;
        });
        if (already)
            continue;
        Measurement m = tuningMeasurement(results, entry, report.space, origin, format);
        m.kernelId = *kernelId;
        m.hardwareId = hardware.id;
        if (auto id = measurements.insert(m); !id)
            return Error {id.error()};
        ++report.measurementsAdded;
    }
    if (problem.referenceKernelId == 0)
        return Error {QStringLiteral("the reference configuration %1 could not be stored").arg(report.reference)};
    if (Status s = tx.commit(); !s)
        return Error {s.error()};
    return report;
}

} // namespace gpuf::interop
