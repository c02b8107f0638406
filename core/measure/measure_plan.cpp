// Specs, requests and response rows of the measurement queue; see measure_plan.h.
#include "core/measure/measure_plan.h"

#include "core/bins/bins.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QMap>
#include <QRegularExpression>

#include <algorithm>

namespace gpuf::measure {

Result<RowId> resolveKernelRef(Store &store, const QString &ref)
{
    KernelRepo kernels(store);
    const QString text = ref.trimmed().toLower();
    bool isNumber = false;
    const RowId id = text.toLongLong(&isNumber);
    if (isNumber && id > 0) {
        auto found = kernels.find(id);
        if (!found)
            return Error {found.error()};
        if (found->has_value())
            return id;
    }
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{6,64}$"));
    if (!hex.match(text).hasMatch())
        return Error {QStringLiteral("kernel '%1': no kernel with that id (a content hash prefix needs at least 6 hex "
                                     "digits)")
                          .arg(ref)};
    auto all = kernels.summaries();
    if (!all)
        return Error {all.error()};
    QList<RowId> matches;
    for (const KernelSummary &k : *all) {
        if (k.contentHash.startsWith(text))
            matches.append(k.id);
    }
    if (matches.isEmpty())
        return Error {QStringLiteral("kernel '%1': no kernel with that id or content hash prefix").arg(ref)};
    if (matches.size() > 1) {
        QStringList ids;
        for (RowId m : std::as_const(matches).first(std::min<qsizetype>(matches.size(), 5)))
            ids.append(QString::number(m));
        return Error {QStringLiteral("kernel '%1': the hash prefix is ambiguous (%2 kernels: %3%4)")
                          .arg(ref)
                          .arg(matches.size())
                          .arg(ids.join(QStringLiteral(", ")), matches.size() > 5 ? QStringLiteral(", …") : QString())};
    }
    return matches.first();
}

namespace {

QString kernelName(const Kernel &k) { return k.name.isEmpty() ? k.contentHash.left(12) : k.name; }

Result<Kernel> loadKernel(KernelRepo &kernels, RowId id)
{
    auto found = kernels.find(id);
    if (!found)
        return Error {found.error()};
    if (!found->has_value())
        return Error {QStringLiteral("kernel %1: no such kernel in the store").arg(id)};
    return **found;
}

QJsonObject specOf(const Kernel &k, const QString &problemName)
{
    QJsonObject spec = k.parameters.value(QStringLiteral("spec")).toObject();
    if (!spec.contains(QStringLiteral("source")))
        spec.insert(QStringLiteral("source"), k.source);
    if (!spec.contains(QStringLiteral("format")))
        spec.insert(QStringLiteral("format"), QStringLiteral("gpuf-kernel/1"));
    if (!spec.contains(QStringLiteral("name")))
        spec.insert(QStringLiteral("name"), QString(problemName + QLatin1Char('/') + kernelName(k)));
    return spec;
}

Result<QJsonObject> specOrReason(const Kernel &k, const QString &problemName, const QString &who)
{
    if (!k.parameters.value(QStringLiteral("spec")).isObject())
        return Error {QStringLiteral("%1 %2 ('%3') has no kernel spec (parameters.spec): only kernels stored with a "
                                     "gpuf-kernel/1 spec, such as the corpus's, can be measured")
                          .arg(who)
                          .arg(k.id)
                          .arg(kernelName(k))};
    return specOf(k, problemName);
}

// A Python module (an own variant or a linked paper candidate) against its problem's PyTorch reference.
Result<MeasurePlan> planPython(const Kernel &k, const Problem &p, const QString &python, MeasurePlan plan)
{
    if (k.parameters.value(QStringLiteral("role")).toString() == QLatin1StringView("reference"))
        return Error {QStringLiteral("kernel %1 is the reference of Python problem '%2': it is timed with every "
                                     "candidate (in the same process, on the same inputs), not on its own")
                          .arg(k.id)
                          .arg(python)};
    plan.pythonProblem = python;
    plan.pythonReferenceId = p.referenceKernelId;
    plan.candidate = QJsonObject {{QStringLiteral("format"), QStringLiteral("gpuf-python/1")},
        {QStringLiteral("name"), QString(p.name + QLatin1Char('/') + kernelName(k))},
        {QStringLiteral("source"), k.source}};
    const QJsonArray cases = k.parameters.value(QStringLiteral("cases")).isArray()
        ? k.parameters.value(QStringLiteral("cases")).toArray()
        : p.cases;
    for (const QJsonValue c : cases)
        plan.cases.append(c.isString() ? c.toString() : c.toObject().value(QStringLiteral("name")).toString());
    return plan;
}

} // namespace

Result<QJsonObject> kernelSpec(Store &store, RowId kernelId)
{
    KernelRepo kernels(store);
    auto k = loadKernel(kernels, kernelId);
    if (!k)
        return Error {k.error()};
    ProblemRepo problems(store);
    auto problem = problems.find(k->problemId);
    if (!problem)
        return Error {problem.error()};
    return specOrReason(*k, problem->has_value() ? (*problem)->name : QString(), QStringLiteral("kernel"));
}

Result<MeasurePlan> planMeasurement(Store &store, RowId kernelId)
{
    KernelRepo kernels(store);
    ProblemRepo problems(store);
    auto k = loadKernel(kernels, kernelId);
    if (!k)
        return Error {k.error()};
    auto problem = problems.find(k->problemId);
    if (!problem)
        return Error {problem.error()};
    if (!problem->has_value())
        return Error {QStringLiteral("kernel %1: its problem %2 is not in the store").arg(kernelId).arg(k->problemId)};
    const Problem &p = **problem;
    MeasurePlan plan;
    plan.kernelId = kernelId;
    plan.problemName = p.name;
    plan.label = p.name + QStringLiteral(" / ") + kernelName(*k);
    if (const QString python = k->parameters.value(QStringLiteral("python_problem")).toString(); !python.isEmpty()) {
        // A paper row stored under its pack's name runs the cases of the Python problem it is linked to.
        if (python != p.name) {
            auto linked = problems.findByName(python);
            if (linked && linked->has_value())
                return planPython(*k, **linked, python, plan);
        }
        return planPython(*k, p, python, plan);
    }
    auto candidate = specOrReason(*k, p.name, QStringLiteral("kernel"));
    if (!candidate)
        return Error {candidate.error()};
    plan.candidate = *candidate;
    if (p.referenceKernelId == 0)
        return Error {QStringLiteral("kernel %1: its problem '%2' names no reference kernel to check it against")
                          .arg(kernelId)
                          .arg(p.name)};
    if (p.referenceKernelId != kernelId) {
        auto ref = loadKernel(kernels, p.referenceKernelId);
        if (!ref)
            return Error {ref.error()};
        auto refSpec = specOrReason(*ref, p.name, QStringLiteral("the reference kernel"));
        if (!refSpec)
            return Error {QStringLiteral("kernel %1: %2").arg(kernelId).arg(refSpec.error())};
        plan.referenceId = ref->id;
        plan.reference = *refSpec;
    }
    const QJsonArray cases = plan.candidate.value(QStringLiteral("cases")).toArray();
    for (const QJsonValue c : cases)
        plan.cases.append(c.toObject().value(QStringLiteral("name")).toString());
    return plan;
}

QJsonObject measureRequest(const MeasurePlan &plan, qint64 requestId, const QJsonObject &options)
{
    QJsonObject request {{QStringLiteral("id"), requestId}, {QStringLiteral("type"), QStringLiteral("measure")},
        {QStringLiteral("candidate"), plan.candidate}};
    if (!plan.reference.isEmpty())
        request.insert(QStringLiteral("reference"), plan.reference);
    if (!plan.pythonProblem.isEmpty())
        request.insert(QStringLiteral("problem"), QJsonObject {{QStringLiteral("name"), plan.pythonProblem}});
    if (!options.isEmpty())
        request.insert(QStringLiteral("options"), options);
    return request;
}

QJsonObject compileRequest(const MeasurePlan &plan, qint64 requestId)
{
    return {{QStringLiteral("id"), requestId}, {QStringLiteral("type"), QStringLiteral("compile")},
        {QStringLiteral("spec"), plan.candidate}};
}

CompileAnswer compileAnswer(const QJsonObject &response)
{
    CompileAnswer a;
    a.status = response.value(QStringLiteral("status")).toString();
    a.message = response.value(QStringLiteral("message")).toString();
    const QJsonObject compile = response.value(QStringLiteral("compile")).toObject();
    static const QRegularExpression sha(QStringLiteral("^[0-9a-f]{64}$"));
    const QString hash = compile.value(QStringLiteral("binary_sha256")).toString();
    if (a.status == QLatin1String("ok") && compile.value(QStringLiteral("ok")).toBool()) {
        if (sha.match(hash).hasMatch()) {
            a.binarySha256 = hash;
            a.compiled = true;
        } else {
            a.status = QStringLiteral("bad_request");
            a.message = QStringLiteral("gpuf-measure compiled the kernel but gave no binary hash (binary_sha256: '%1')")
                            .arg(hash.left(80));
        }
    } else if (a.status == QLatin1String("compile_failed")) {
        a.refused = true;
        if (a.message.isEmpty())
            a.message = compile.value(QStringLiteral("log")).toString().left(2000);
    }
    if (!a.compiled && a.message.isEmpty())
        a.message = QStringLiteral("gpuf-measure answered the compile with '%1'").arg(a.status);
    return a;
}

int requestBudgetMs(const MeasurePlan &plan, const QJsonObject &options)
{
    if (!plan.pythonProblem.isEmpty()) // the worker's own wall-clock limit covers the whole candidate process
        return static_cast<int>(options.value(QStringLiteral("timeout_ms")).toDouble(300000.0) + 60000.0);
    const double timeoutMs = options.value(QStringLiteral("timeout_ms")).toDouble(10000.0);
    const double samplingMs = options.value(QStringLiteral("time_budget_ms")).toDouble(2000.0);
    const int runs = options.value(QStringLiteral("correctness_runs")).toInt(2);
    const QJsonArray only = options.value(QStringLiteral("cases")).toArray();
    const qsizetype cases = std::max<qsizetype>(1, only.isEmpty() ? plan.cases.size() : only.size());
    // Each correctness run waits twice (reference, candidate), timing waits at least twice (warm-up, batches); input
    // generation runs on the host at about 0.5 s per 64 M elements, hence the per-case allowance.
    const double perCase = samplingMs + (2.0 * runs + 2.0) * timeoutMs + 10000.0;
    return static_cast<int>(std::min(60000.0 + static_cast<double>(cases) * perCase, 2147483647.0));
}

namespace {

bool blamesReference(const QString &message)
{
    // The worker prefixes what the reference did wrong with "reference"; that is not the candidate's outcome.
    static const QRegularExpression pattern(QStringLiteral("^(case [^:]*: )?reference[: ]"));
    return pattern.match(message).hasMatch();
}

QString errorsText(const QJsonObject &response)
{
    QStringList errors;
    for (const QJsonValue e : response.value(QStringLiteral("errors")).toArray())
        errors.append(e.toString());
    return errors.isEmpty() ? response.value(QStringLiteral("message")).toString() : errors.join(QStringLiteral("; "));
}

} // namespace

ResponseRows rowsFromResponse(const QJsonObject &response, const MeasurePlan &plan, const QJsonObject &device,
    const QJsonObject &options, const QString &measuredAt, const QString &clusterNode)
{
    ResponseRows out;
    out.status = response.value(QStringLiteral("status")).toString();
    out.message = errorsText(response);
    const auto status = measurementStatusFromName(out.status);
    if (!status || *status == MeasurementStatus::InfrastructureFailure) {
        if (out.status.isEmpty())
            out.status = QStringLiteral("infrastructure_failure");
        return out; // nothing was measured: no row, only the item's outcome
    }
    if (blamesReference(out.message)) {
        out.status = QStringLiteral("infrastructure_failure");
        out.message
            = QStringLiteral("the reference kernel failed, so the candidate could not be checked: ") + out.message;
        return out;
    }
    CaseContext context;
    context.device = device;
    context.provenance = response.value(QStringLiteral("provenance")).toObject();
    context.compile
        = response.value(QStringLiteral("compile")).toObject().value(QStringLiteral("candidate")).toObject();
    context.options = options;
    context.measuredAt = measuredAt;
    context.clusterNode = clusterNode;
    QJsonArray cases = response.value(QStringLiteral("cases")).toArray();
    if (cases.isEmpty()) {
        // A failure before any case (the candidate did not compile or load): every requested case shares it.
        const QJsonArray only = options.value(QStringLiteral("cases")).toArray();
        const QStringList names = only.isEmpty() ? plan.cases : QVariant(only.toVariantList()).toStringList();
        for (const QString &name : names)
            cases.append(QJsonObject {{QStringLiteral("name"), name}, {QStringLiteral("status"), out.status},
                {QStringLiteral("message"), out.message}});
    }
    for (const QJsonValue value : std::as_const(cases)) {
        const QJsonObject c = value.toObject();
        if (blamesReference(c.value(QStringLiteral("message")).toString()))
            continue;
        out.rows.append(measurementFromCase(c, context, plan.kernelId, 0));
        if (plan.pythonReferenceId != 0 && plan.pythonReferenceId != plan.kernelId) {
            if (auto r = referenceMeasurementFromCase(c, context, plan.pythonReferenceId, 0, plan.label))
                out.referenceRows.append(*r);
        }
    }
    out.store = !out.rows.isEmpty();
    return out;
}

Result<QList<RowId>> storeMeasuredRows(Store &store, QList<Measurement> &rows, const QJsonObject &device,
    const QString &toolkit, QList<Measurement> *referenceRows)
{
    Hardware hardware = hardwareFromDevice(device, toolkit);
    if (hardware.name.isEmpty())
        return Error {QCoreApplication::translate("gpuf::MeasureEngine", "the worker did not describe its device")};
    auto hardwareId = HardwareRepo(store).ensure(hardware);
    if (!hardwareId)
        return Error {hardwareId.error()};
    MeasurementRepo repo(store);
    QList<RowId> ids;
    for (Measurement &m : rows) {
        m.hardwareId = *hardwareId;
        auto id = repo.insert(m);
        if (!id)
            return Error {id.error()};
        ids.append(*id);
    }
    if (referenceRows) {
        for (Measurement &m : *referenceRows) {
            m.hardwareId = *hardwareId;
            if (auto id = repo.insert(m); !id)
                return Error {id.error()};
        }
    }
    return ids;
}

Result<QList<Measurement>> replayRows(Store &store, RowId kernelId, RowId hardwareId)
{
    MeasurementRepo repo(store);
    auto stored = repo.forKernel(kernelId, hardwareId);
    if (!stored)
        return Error {stored.error()};
    QList<Measurement> recorded;
    QHash<RowId, int> perHardware;
    for (const Measurement &m : std::as_const(*stored)) {
        if (m.source == MeasurementSource::Replay)
            continue;
        recorded.append(m);
        ++perHardware[m.hardwareId];
    }
    if (recorded.isEmpty())
        return Error {QStringLiteral("kernel %1 has no stored runtime to replay%2")
                          .arg(kernelId)
                          .arg(hardwareId ? QStringLiteral(" on hardware %1").arg(hardwareId) : QString())};
    RowId hardware = hardwareId;
    if (hardware == 0) {
        int most = -1;
        for (auto it = perHardware.cbegin(); it != perHardware.cend(); ++it) {
            if (it.value() > most || (it.value() == most && it.key() < hardware)) {
                most = it.value();
                hardware = it.key();
            }
        }
    }
    QMap<QString, Measurement> newestPerCase;
    for (const Measurement &m : std::as_const(recorded)) {
        if (m.hardwareId == hardware && (!newestPerCase.contains(m.caseName) || newestPerCase[m.caseName].id < m.id))
            newestPerCase.insert(m.caseName, m);
    }
    QList<Measurement> rows;
    for (Measurement m : std::as_const(newestPerCase)) {
        m.provenance.insert(QStringLiteral("replay_of"), m.id);
        m.provenance.insert(QStringLiteral("replay_of_source"), measurementSourceName(m.source));
        m.provenance.insert(QStringLiteral("replay_of_time"), m.createdAt.toString(Qt::ISODateWithMs));
        m.id = 0;
        m.source = MeasurementSource::Replay;
        m.createdAt = {};
        rows.append(m);
    }
    return rows;
}

QList<RowId> lowConfidenceCandidates(const QList<Forecast> &forecasts, double threshold, RowId forecasterId)
{
    QHash<RowId, const Forecast *> newest;
    for (const Forecast &f : forecasts) {
        if (f.status != ForecastStatus::Ok || (forecasterId != 0 && f.forecasterId != forecasterId))
            continue;
        const Forecast *&slot = newest[f.candidateKernelId];
        if (!slot || slot->id < f.id)
            slot = &f;
    }
    QList<RowId> ids;
    for (auto it = newest.cbegin(); it != newest.cend(); ++it) {
        const Forecast &f = *it.value();
        const int bin = f.predictedBin.value_or(bins::argmaxBin(f.probabilities));
        if (bins::confidence(bins::ConfidenceScore::MaxProb, f.probabilities, bin) < threshold)
            ids.append(it.key());
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

} // namespace gpuf::measure
