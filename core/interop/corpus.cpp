// Corpus import; see corpus.h.
#include "core/interop/corpus.h"

#include "core/domain/kernel.h"
#include "core/interop/python_problems.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace gpuf::interop {
namespace {

Result<QJsonObject> readJsonObject(const QString &path, const QString &format)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("%1: cannot read (%2)").arg(path, file.errorString())};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error {
            QStringLiteral("%1: offset %2: %3").arg(path).arg(parseError.offset).arg(parseError.errorString())};
    if (!doc.isObject())
        return Error {QStringLiteral("%1: expected a JSON object").arg(path)};
    const QJsonObject object = doc.object();
    if (object.value(QStringLiteral("format")).toString() != format)
        return Error {QStringLiteral("%1: field 'format': expected \"%2\"").arg(path, format)};
    return object;
}

Result<QString> readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("%1: cannot read (%2)").arg(path, file.errorString())};
    return QString::fromUtf8(file.readAll());
}

QJsonObject sharedSpecPart(const QJsonObject &problem)
{
    QJsonObject spec;
    for (const char *key : {"buffers", "cases", "tolerance", "bytes_moved", "flops"}) {
        const QString name = QString::fromLatin1(key);
        if (problem.contains(name))
            spec.insert(name, problem.value(name));
    }
    return spec;
}

QJsonObject findVariant(const QJsonObject &variants, const QString &name)
{
    const QJsonArray list = variants.value(QStringLiteral("variants")).toArray();
    for (const QJsonValue v : list) {
        if (v.toObject().value(QStringLiteral("name")).toString() == name)
            return v.toObject();
    }
    return {};
}

struct Operation
{
    QJsonObject problem;
    QJsonObject variants;
};

Result<Operation> readOperation(const QString &dir)
{
    auto problem = readJsonObject(dir + QStringLiteral("/problem.json"), QStringLiteral("gpuf-problem/1"));
    if (!problem)
        return Error {problem.error()};
    auto variants = readJsonObject(dir + QStringLiteral("/variants.json"), QStringLiteral("gpuf-variants/1"));
    if (!variants)
        return Error {variants.error()};
    return Operation {*problem, *variants};
}

Result<QJsonObject> completeSpec(const QString &dir, const Operation &op, const QJsonObject &variant)
{
    const QString name = variant.value(QStringLiteral("name")).toString();
    auto source = readText(dir + QLatin1Char('/') + variant.value(QStringLiteral("source_file")).toString());
    if (!source)
        return Error {source.error()};
    QJsonObject spec = sharedSpecPart(op.problem);
    spec.insert(QStringLiteral("format"), QStringLiteral("gpuf-kernel/1"));
    spec.insert(
        QStringLiteral("name"), QString(op.problem.value(QStringLiteral("name")).toString() + QLatin1Char('/') + name));
    spec.insert(QStringLiteral("language"), QStringLiteral("cuda"));
    spec.insert(QStringLiteral("source"), *source);
    spec.insert(QStringLiteral("launches"), variant.value(QStringLiteral("launches")));
    // Compile options (e.g. --use_fast_math) are part of what the variant is: measured and forecast with them.
    if (const QJsonValue options = variant.value(QStringLiteral("options")); options.isArray())
        spec.insert(QStringLiteral("options"), options);
    return spec;
}

} // namespace

QString CorpusReport::text() const
{
    const QString text = QStringLiteral("corpus: %1 problems, %2 kernels, %3 measurements")
                             .arg(problems)
                             .arg(kernels)
                             .arg(measurements);
    return referenceMeasurements == 0
        ? text
        : text + QStringLiteral(" (and %1 of the Python references, timed beside them)").arg(referenceMeasurements);
}

Result<QJsonObject> corpusVariantSpec(const QString &operationDir, const QString &variant)
{
    auto op = readOperation(operationDir);
    if (!op)
        return Error {op.error()};
    const QJsonObject v = findVariant(op->variants, variant);
    if (v.isEmpty())
        return Error {QStringLiteral("%1: no variant named '%2'").arg(operationDir, variant)};
    return completeSpec(operationDir, *op, v);
}

Status importCorpusMeasurements(Store &store, const QString &resultsFile, CorpusReport &report);

Result<CorpusReport> importCorpus(Store &store, const QString &corpusDir, const QString &resultsFile)
{
    const QDir root(corpusDir);
    if (!root.exists())
        return Error {QStringLiteral("%1: no such folder").arg(corpusDir)};
    const QStringList operations = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    CorpusReport report;
    Transaction tx(store);
    if (Status s = tx.begin(); !s)
        return Error {s.error()};
    ProblemRepo problems(store);
    KernelRepo kernels(store);
    for (const QString &name : operations) {
        const QString dir = root.filePath(name);
        if (isPythonProblemDir(dir)) {
            if (Status s = importPythonProblem(store, dir, report); !s)
                return Error {s.error()};
            continue;
        }
        if (const QString half = halfAPythonProblem(dir); !half.isEmpty())
            return Error {half};
        if (!QFile::exists(dir + QStringLiteral("/problem.json")))
            continue;
        auto op = readOperation(dir);
        if (!op)
            return Error {op.error()};
        Problem problem;
        problem.name = op->problem.value(QStringLiteral("name")).toString();
        problem.family = op->problem.value(QStringLiteral("family")).toString();
        problem.description = op->problem.value(QStringLiteral("description")).toString();
        problem.cases = op->problem.value(QStringLiteral("cases")).toArray();
        problem.tolerances = op->problem.value(QStringLiteral("tolerance")).toObject();
        if (auto id = problems.ensure(problem); !id)
            return Error {QStringLiteral("%1: %2").arg(dir, id.error())};
        ++report.problems;
        QHash<QString, RowId> idByVariant;
        const QJsonArray variants = op->variants.value(QStringLiteral("variants")).toArray();
        for (const QJsonValue value : variants) {
            const QJsonObject variant = value.toObject();
            const QString variantName = variant.value(QStringLiteral("name")).toString();
            auto spec = completeSpec(dir, *op, variant);
            if (!spec)
                return Error {spec.error()};
            const QString parent = variant.value(QStringLiteral("parent")).toString();
            if (!parent.isEmpty() && !idByVariant.contains(parent))
                return Error {QStringLiteral("%1/variants.json: variant '%2': parent '%3' must be listed before it")
                                  .arg(dir, variantName, parent)};
            Kernel kernel;
            kernel.problemId = problem.id;
            kernel.parentId = parent.isEmpty() ? 0 : idByVariant.value(parent);
            kernel.name = variantName;
            kernel.language = QStringLiteral("cuda");
            kernel.source = spec->value(QStringLiteral("source")).toString();
            kernel.origin = QStringLiteral("corpus");
            kernel.notes = variant.value(QStringLiteral("note")).toString();
            QJsonObject specWithoutSource = *spec;
            specWithoutSource.remove(QStringLiteral("source"));
            kernel.parameters = QJsonObject {{QStringLiteral("spec"), specWithoutSource}};
            auto id = kernels.insertOrGet(kernel);
            if (!id)
                return Error {QStringLiteral("%1: variant '%2': %3").arg(dir, variantName, id.error())};
            idByVariant.insert(variantName, *id);
            ++report.kernels;
        }
        const QString reference = op->problem.value(QStringLiteral("reference")).toString();
        if (!idByVariant.contains(reference))
            return Error {
                QStringLiteral("%1/problem.json: field 'reference': no variant named '%2'").arg(dir, reference)};
        if (Status s = problems.setReferenceKernel(problem.id, idByVariant.value(reference)); !s)
            return Error {s.error()};
    }
    if (report.problems == 0)
        return Error {QStringLiteral("%1: no problem found (each problem is a folder holding problem.json, or "
                                     "problem.py and variants.json)")
                          .arg(corpusDir)};
    if (!resultsFile.isEmpty()) {
        if (Status s = importCorpusMeasurements(store, resultsFile, report); !s)
            return Error {s.error()};
    }
    if (Status s = tx.commit(); !s)
        return Error {s.error()};
    return report;
}

} // namespace gpuf::interop
