// Python problem import and paper-pack links; see python_problems.h.
#include "core/interop/python_problems.h"

#include "core/interop/corpus.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace gpuf::interop {
namespace {

Result<QByteArray> readBytes(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("%1: cannot read (%2)").arg(path, file.errorString())};
    return file.readAll();
}

Result<QJsonObject> readVariants(const QString &dir)
{
    const QString path = dir + QStringLiteral("/variants.json");
    auto bytes = readBytes(path);
    if (!bytes)
        return Error {bytes.error()};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &parseError);
    if (!doc.isObject())
        return Error {
            QStringLiteral("%1: offset %2: %3").arg(path).arg(parseError.offset).arg(parseError.errorString())};
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("format")).toString() != QLatin1StringView("gpuf-python-variants/1"))
        return Error {QStringLiteral("%1: field 'format': expected \"gpuf-python-variants/1\"").arg(path)};
    const QJsonObject problem = o.value(QStringLiteral("problem")).toObject();
    if (problem.value(QStringLiteral("name")).toString().isEmpty() || !problem.value(QStringLiteral("cases")).isArray())
        return Error {QStringLiteral("%1: field 'problem': needs 'name' and 'cases'").arg(path)};
    return o;
}

QJsonArray caseNames(const QJsonArray &cases)
{
    QJsonArray names;
    for (const QJsonValue c : cases)
        names.append(c.toObject().value(QStringLiteral("name")));
    return names;
}

bool definesCustomKernel(const QString &source)
{
    static const QRegularExpression def(
        QStringLiteral("^def\\s+custom_kernel\\s*\\("), QRegularExpression::MultilineOption);
    return def.match(source).hasMatch();
}

// What the text of problem.py visibly lacks of the harness's contract (gpuf_harness.runner.problem_contract, which
// checks it for real when the problem is run): a TOLERANCE, a tolerance without negative figures, and a non-empty
// CASES. An empty string when nothing is visibly wrong.
QString problemContractProblem(const QString &source)
{
    static const QRegularExpression tolerance(
        QStringLiteral("^TOLERANCE\\s*(?::[^=]*)?=([^\\n]*)"), QRegularExpression::MultilineOption);
    static const QRegularExpression negative(QStringLiteral("[:=,{(]\\s*-\\s*[0-9.]"));
    static const QRegularExpression noCases(
        QStringLiteral("^CASES\\s*(?::[^=]*)?=\\s*(\\[\\s*\\]|\\(\\s*\\))\\s*$"), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch t = tolerance.match(source);
    if (!t.hasMatch())
        return QStringLiteral("no TOLERANCE; give TOLERANCE = {\"rtol\": ..., \"atol\": ...}");
    if (negative.match(t.captured(1)).hasMatch())
        return QStringLiteral("TOLERANCE holds a negative figure; rtol and atol are zero or more");
    if (noCases.match(source).hasMatch())
        return QStringLiteral("CASES is empty; give at least one case");
    return {};
}

} // namespace

bool isPythonProblemDir(const QString &dir)
{
    return QFile::exists(dir + QStringLiteral("/problem.py")) && QFile::exists(dir + QStringLiteral("/variants.json"));
}

QString halfAPythonProblem(const QString &dir)
{
    const bool code = QFile::exists(dir + QStringLiteral("/problem.py"));
    const bool variants = QFile::exists(dir + QStringLiteral("/variants.json"));
    // A CUDA problem's folder holds variants.json beside problem.json: that is whole.
    if (code == variants || (!code && QFile::exists(dir + QStringLiteral("/problem.json"))))
        return {};
    return QStringLiteral("%1: a Python problem needs problem.py and variants.json; %2 is missing")
        .arg(dir, code ? QStringLiteral("variants.json") : QStringLiteral("problem.py"));
}

Status importPythonProblem(Store &store, const QString &dir, CorpusReport &report)
{
    auto variants = readVariants(dir);
    if (!variants)
        return Error {variants.error()};
    const QJsonObject meta = variants->value(QStringLiteral("problem")).toObject();
    const QString name = meta.value(QStringLiteral("name")).toString();
    auto referenceSource = readBytes(dir + QStringLiteral("/problem.py"));
    if (!referenceSource)
        return Error {referenceSource.error()};
    if (const QString broken = problemContractProblem(QString::fromUtf8(*referenceSource)); !broken.isEmpty())
        return Error {QStringLiteral("%1/problem.py: %2").arg(dir, broken)};
    ProblemRepo problems(store);
    KernelRepo kernels(store);
    Problem problem;
    problem.name = name;
    problem.family = meta.value(QStringLiteral("family")).toString(QStringLiteral("python"));
    problem.description = meta.value(QStringLiteral("description")).toString();
    problem.backend = Backend::PyTorch;
    problem.cases = meta.value(QStringLiteral("cases")).toArray();
    problem.tolerances = meta.value(QStringLiteral("tolerance")).toObject();
    if (auto id = problems.ensure(problem); !id)
        return Error {QStringLiteral("%1: %2").arg(dir, id.error())};
    ++report.problems;
    const QJsonArray cases = caseNames(problem.cases);
    Kernel reference;
    reference.problemId = problem.id;
    reference.name = QStringLiteral("reference");
    reference.language = QStringLiteral("python");
    reference.source = QString::fromUtf8(*referenceSource);
    reference.origin = QStringLiteral("corpus");
    reference.notes = QStringLiteral("The problem's PyTorch reference (ref_kernel), its seeded inputs and its checker: "
                                     "timed with every candidate, in the same process, on the same inputs.");
    reference.parameters = QJsonObject {{QStringLiteral("python_problem"), name},
        {QStringLiteral("role"), QStringLiteral("reference")}, {QStringLiteral("cases"), cases}};
    auto referenceId = kernels.insertOrGet(reference);
    if (!referenceId)
        return Error {QStringLiteral("%1: problem.py: %2").arg(dir, referenceId.error())};
    ++report.kernels;
    if (Status s = problems.setReferenceKernel(problem.id, *referenceId); !s)
        return Error {s.error()};
    QHash<QString, RowId> idByVariant;
    for (const QJsonValue value : variants->value(QStringLiteral("variants")).toArray()) {
        const QJsonObject v = value.toObject();
        const QString variantName = v.value(QStringLiteral("name")).toString();
        const QString file = v.value(QStringLiteral("file")).toString();
        if (variantName.isEmpty() || file.isEmpty() || file.contains(QStringLiteral("..")))
            return Error {
                QStringLiteral("%1/variants.json: every variant needs a 'name' and a 'file' inside the folder")
                    .arg(dir)};
        auto source = readBytes(dir + QLatin1Char('/') + file);
        if (!source)
            return Error {source.error()};
        const QString parent = v.value(QStringLiteral("parent")).toString();
        if (!parent.isEmpty() && !idByVariant.contains(parent))
            return Error {QStringLiteral("%1/variants.json: variant '%2': parent '%3' must be listed before it")
                              .arg(dir, variantName, parent)};
        Kernel k;
        k.problemId = problem.id;
        k.parentId = parent.isEmpty() ? 0 : idByVariant.value(parent);
        k.name = variantName;
        k.language = v.value(QStringLiteral("kind")).toString() == QLatin1StringView("triton")
            ? QStringLiteral("triton")
            : QStringLiteral("python");
        k.source = QString::fromUtf8(*source);
        k.origin = QStringLiteral("corpus");
        k.notes = v.value(QStringLiteral("note")).toString();
        linkToPythonProblem(k, name);
        QJsonObject parameters = k.parameters;
        parameters.insert(QStringLiteral("cases"), cases);
        k.parameters = parameters;
        auto id = kernels.insertOrGet(k);
        if (!id)
            return Error {QStringLiteral("%1: variant '%2': %3").arg(dir, variantName, id.error())};
        idByVariant.insert(variantName, *id);
        ++report.kernels;
    }
    return {};
}

QString pythonProblemForPack(const QString &pack)
{
    // Only packs whose input tuple our problem reproduces: TriMul's (input, mask, weights, config) with GPU MODE's
    // weight names, and Gated DeltaNet chunk_fwd_o's (q, k, v_new, h, g): float32 [B, T, H, K], [B, T, H, K],
    // [B, T, H, V], [B, T/64, H, K, V] and the chunk-local cumulative gate [B, T, H], scale K^-1/2, as GPU MODE's
    // reference passes them. FP8 quantisation (GPU MODE passes float32 x with preallocated float32 outputs; ours is
    // bfloat16 in, float8 out) and cross-entropy keep other layouts, so their candidates would fail for layout
    // reasons, not kernel reasons: they stay unlinked.
    static const QHash<QString, QString> packs {
        {QStringLiteral("trimul"), QStringLiteral("trimul")},
        {QStringLiteral("bioml_trimul"), QStringLiteral("trimul")},
        {QStringLiteral("gated_deltanet_chunk_fwd_o"), QStringLiteral("gdn_chunk_o")},
        {QStringLiteral("gated_deltanet_chunk_fwd_o_py"), QStringLiteral("gdn_chunk_o")},
    };
    return packs.value(pack.trimmed().toLower());
}

void linkToPythonProblem(Kernel &kernel, const QString &problem)
{
    if (problem.isEmpty() || !definesCustomKernel(kernel.source))
        return;
    QJsonObject parameters = kernel.parameters;
    parameters.insert(QStringLiteral("python_problem"), problem);
    parameters.insert(QStringLiteral("format"), QStringLiteral("gpuf-python/1"));
    kernel.parameters = parameters;
}

} // namespace gpuf::interop
