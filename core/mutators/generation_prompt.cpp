// The kernel-generation prompt and answer reading; see generation_prompt.h. The prompt text is ours.
#include "core/mutators/generation_prompt.h"

#include "core/domain/kernel.h"
#include "core/mutators/kernel_family.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace gpuf::families {
namespace {

QString fenced(const QString &tag, const QString &body) { return QStringLiteral("```%1\n%2\n```\n").arg(tag, body); }

QString json(const QJsonValue &value)
{
    const QJsonDocument doc = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    return QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
}

QString contract(const GenerationTask &task)
{
    const QJsonObject &spec = task.referenceSpec;
    QString out = QStringLiteral("## Contract\nBuffers (device memory; the kernels receive device pointers):\n");
    for (const QJsonValue b : spec.value(QStringLiteral("buffers")).toArray()) {
        const QJsonObject o = b.toObject();
        out += QStringLiteral("- %1: %2, %3 elements, %4\n")
                   .arg(o.value(QStringLiteral("name")).toString(), o.value(QStringLiteral("dtype")).toString(),
                       o.value(QStringLiteral("count")).toString(), o.value(QStringLiteral("role")).toString());
    }
    out += QStringLiteral("Cases (each one is checked and timed; the speedup is the geometric mean over them):\n");
    for (const QJsonValue c : spec.value(QStringLiteral("cases")).toArray()) {
        const QJsonObject o = c.toObject();
        QStringList vars;
        const QJsonObject v = o.value(QStringLiteral("vars")).toObject();
        for (auto it = v.begin(); it != v.end(); ++it)
            vars.append(QStringLiteral("%1 = %2").arg(it.key()).arg(it.value().toDouble(), 0, 'g', 12));
        out += QStringLiteral("- %1: %2\n")
                   .arg(o.value(QStringLiteral("name")).toString(), vars.join(QStringLiteral(", ")));
    }
    const QJsonObject tolerance = spec.value(QStringLiteral("tolerance")).toObject();
    out += QStringLiteral(
        "Correctness: on fresh random inputs every output element must satisfy |yours - reference| <= "
        "%1 + %2 * |reference|. Outputs start filled with NaN, so every element must be written.\n")
               .arg(tolerance.value(QStringLiteral("atol")).toDouble())
               .arg(tolerance.value(QStringLiteral("rtol")).toDouble());
    return out;
}

QString cudaRules(const GenerationTask &task)
{
    QString rules = QStringLiteral(
        "## Rules\n"
        "- Write the complete CUDA C++ source in one ```cuda block: entry points declared extern \"C\" __global__, no "
        "host code and no main(). The toolkit's headers (CUB, cooperative groups) may be included.\n"
        "- Then give the launch sequence in one ```json block: an array of launches, each {\"entry\", \"grid\": [3 "
        "expressions], \"block\": [3 expressions], \"shared_bytes\": expression, \"args\": [{\"buffer\": NAME} or "
        "{\"scalar\": expression, \"dtype\": \"i32\" | \"i64\" | \"f32\" | \"f64\"}]}. Expressions are arithmetic "
        "over the case variables with ceil_div(a, b), min and max. Leave the block out to keep the launches of the "
        "kernel being improved.\n"
        "- The launches run in order and are timed together; inputs are already on the GPU.\n"
        "- Every case must be handled, including sizes that are not multiples of your tile sizes.\n"
        "- Begin the source with a short comment that says what this version changes and why it should be faster.\n");
    if (!task.hardware.isEmpty())
        rules += QStringLiteral("- The target GPU is %1.\n").arg(task.hardware);
    return rules;
}

QString pythonRules(const GenerationTask &task)
{
    QString rules = QStringLiteral(
        "## Rules\n"
        "- The inputs are already on the GPU; do not move them.\n"
        "- Put all of your code in one final ```python block that defines the same entry point as the reference.\n"
        "- Support every shape of the cases, not only the ones listed; return float32 results.\n"
        "- At least part of the computation must be your own kernel (Triton, or CUDA through PyTorch), not only "
        "library calls.\n"
        "- Start the module with a short docstring that says what this version changes.\n");
    if (!task.hardware.isEmpty())
        rules += QStringLiteral("- The target GPU is %1.\n").arg(task.hardware);
    return rules;
}

QString feedback(const search::EvaluationFeedback &f)
{
    using Kind = search::EvaluationFeedback::Kind;
    switch (f.kind) {
    case Kind::None:
        return QStringLiteral("It has not been measured yet.\n");
    case Kind::CompileFailed:
        return QStringLiteral("It did not compile. The compiler said:\n") + fenced(QString(), f.message.left(2000));
    case Kind::RuntimeError: {
        QString out
            = QStringLiteral("It failed while running: %1: %2\n")
                  .arg(f.errorType.isEmpty() ? QStringLiteral("runtime error") : f.errorType, f.message.left(1000));
        if (!f.traceback.isEmpty())
            out += QStringLiteral("Traceback (last part):\n") + fenced(QString(), f.traceback.right(3000));
        return out;
    }
    case Kind::Incorrect:
        return QStringLiteral("It ran but its results were wrong:\n") + fenced(QString(), f.message.left(2000));
    case Kind::InfrastructureFailure:
        return QStringLiteral("It could not be measured (%1); judge it by its code.\n").arg(f.message.left(1000));
    case Kind::Success:
        break;
    }
    QList<search::CaseFeedback> cases = f.cases;
    std::stable_sort(cases.begin(), cases.end(),
        [](const search::CaseFeedback &a, const search::CaseFeedback &b) { return a.runtimeNs > b.runtimeNs; });
    QString out = QStringLiteral("It is correct. Speedup over the reference: %1x (geometric mean over the cases).\n"
                                 "Per case, slowest first:\n")
                      .arg(f.aggregatedSpeedup, 0, 'f', 3);
    for (const search::CaseFeedback &c : cases)
        out += QStringLiteral("- %1: %2 us (reference %3 us), %4x\n")
                   .arg(c.caseName)
                   .arg(c.runtimeNs / 1e3, 0, 'f', 2)
                   .arg(c.referenceRuntimeNs / 1e3, 0, 'f', 2)
                   .arg(c.speedup, 0, 'f', 3);
    out += QStringLiteral("Make the slowest cases faster.\n");
    return out;
}

QJsonArray launchesOf(const search::MutationParent &parent, const GenerationTask &task)
{
    const QJsonArray own
        = parent.parameters.value(QStringLiteral("spec")).toObject().value(QStringLiteral("launches")).toArray();
    return own.isEmpty() ? task.referenceSpec.value(QStringLiteral("launches")).toArray() : own;
}

} // namespace

QStringList cudaFenceTags()
{
    return {QStringLiteral("cuda"), QStringLiteral("cu"), QStringLiteral("c++"), QStringLiteral("cpp")};
}

QStringList launchFenceTags() { return {QStringLiteral("json")}; }

QJsonArray generationMessages(const GenerationTask &task, const search::MutationParent &parent)
{
    const bool cuda = task.language == QLatin1StringView("cuda");
    const QString tag = cuda ? QStringLiteral("cuda") : QStringLiteral("python");
    QString text = QStringLiteral("# Task: a faster kernel for `%1`\n\n%2\n\n")
                       .arg(task.problemName, task.description.trimmed());
    if (cuda)
        text += contract(task) + QLatin1Char('\n');
    text += QStringLiteral("## Reference implementation\n") + fenced(tag, task.referenceSource.trimmed());
    if (cuda)
        text += QStringLiteral("Its launches:\n")
            + fenced(QStringLiteral("json"), json(task.referenceSpec.value(QStringLiteral("launches"))));
    text += QLatin1Char('\n') + (cuda ? cudaRules(task) : pythonRules(task)) + QLatin1Char('\n');
    text += QStringLiteral("## The kernel to improve\n") + fenced(tag, parent.source.trimmed());
    if (cuda)
        text += QStringLiteral("Its launches:\n") + fenced(QStringLiteral("json"), json(launchesOf(parent, task)));
    text += QStringLiteral("\n## How it did\n") + feedback(parent.feedback);
    return QJsonArray {
        QJsonObject {{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), text}}};
}

std::optional<QString> lastFencedBlock(const QString &input, const QStringList &languages)
{
    QString text = input;
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    qsizetype bodyStart = -1;
    for (const QString &language : languages) {
        const QString opener = QStringLiteral("```") + language + QLatin1Char('\n');
        const qsizetype at = text.lastIndexOf(opener);
        if (at >= 0 && at + opener.size() > bodyStart)
            bodyStart = at + opener.size();
    }
    if (bodyStart < 0)
        return std::nullopt;
    // A fence closes only at the start of a line; an unclosed block runs to the end of the text.
    qsizetype end = text.indexOf(QStringLiteral("\n```"), bodyStart - 1);
    if (end < bodyStart - 1)
        end = text.size();
    QString body = end >= bodyStart ? text.mid(bodyStart, end - bodyStart) : QString();
    while (!body.isEmpty() && body.back().isSpace())
        body.chop(1);
    if (body.trimmed().isEmpty())
        return std::nullopt;
    return body;
}

Result<GeneratedKernel> readGeneratedKernel(
    const QString &answer, const GenerationTask &task, const search::MutationParent &parent)
{
    GeneratedKernel out;
    if (task.language != QLatin1StringView("cuda")) {
        auto code = lastFencedBlock(answer, {QStringLiteral("python")});
        if (!code)
            return Error {QStringLiteral("no code: the answer has no non-empty ```python block")};
        out.source = *code;
        return out;
    }
    auto code = lastFencedBlock(answer, cudaFenceTags());
    if (!code)
        return Error {QStringLiteral("no code: the answer has no non-empty ```cuda block")};
    out.source = *code;
    QJsonArray launches = launchesOf(parent, task);
    if (auto block = lastFencedBlock(answer, launchFenceTags())) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(block->toUtf8(), &parseError);
        if (parseError.error != QJsonParseError::NoError)
            return Error {QStringLiteral("the ```json launch block is not JSON (offset %1: %2)")
                              .arg(parseError.offset)
                              .arg(parseError.errorString())};
        if (doc.isArray())
            launches = doc.array();
        else if (doc.object().value(QStringLiteral("launches")).isArray())
            launches = doc.object().value(QStringLiteral("launches")).toArray();
        else
            return Error {QStringLiteral("the ```json launch block is neither an array of launches nor an object with "
                                         "\"launches\"")};
        out.launchesFromAnswer = true;
    }
    for (const QJsonValue l : std::as_const(launches)) {
        const QString entry = l.toObject().value(QStringLiteral("entry")).toString();
        const QRegularExpression defined(QStringLiteral("\\b%1\\s*\\(").arg(QRegularExpression::escape(entry)));
        if (!entry.isEmpty() && !defined.match(out.source).hasMatch())
            return Error {QStringLiteral("launch entry '%1' is not a function of the answer's source").arg(entry)};
    }
    QJsonObject spec = task.referenceSpec;
    spec.remove(QStringLiteral("options"));
    spec.insert(QStringLiteral("format"), QStringLiteral("gpuf-kernel/1"));
    spec.insert(QStringLiteral("name"),
        QString(task.problemName + QStringLiteral("/llm-") + contentHashOf(out.source).left(12)));
    spec.insert(QStringLiteral("language"), QStringLiteral("cuda"));
    spec.insert(QStringLiteral("source"), out.source);
    spec.insert(QStringLiteral("launches"), launches);
    if (const QStringList errors = validateKernelSpec(spec); !errors.isEmpty())
        return Error {QStringLiteral("the kernel spec is not valid: %1").arg(errors.join(QStringLiteral("; ")))};
    out.spec = spec;
    return out;
}

} // namespace gpuf::families
