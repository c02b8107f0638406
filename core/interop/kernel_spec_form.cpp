// Kernel specs from form fields; see kernel_spec_form.h.
#include "core/interop/kernel_spec_form.h"

#include "core/gpu/kernel_spec.h"
#include "core/interop/kernel_input.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <cmath>

#include <nlohmann/json.hpp>

namespace gpuf::interop {
namespace {

QString launchPath(int index) { return QStringLiteral("launches[%1]").arg(index); }

// Splits at commas outside parentheses (a scalar may be "min(a, b):i32").
QStringList splitTopLevel(const QString &text)
{
    QStringList parts;
    QString current;
    int depth = 0;
    for (const QChar c : text) {
        if (c == u'(')
            ++depth;
        else if (c == u')')
            --depth;
        if (c == u',' && depth == 0) {
            parts.append(current.trimmed());
            current.clear();
        } else {
            current.append(c);
        }
    }
    if (!current.trimmed().isEmpty() || !parts.isEmpty())
        parts.append(current.trimmed());
    return parts;
}

bool isIdentifier(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return re.match(text).hasMatch();
}

std::optional<double> number(const QString &text)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    return ok ? std::optional(v) : std::nullopt;
}

QJsonArray dim3(const std::array<QString, 3> &dims)
{
    QJsonArray out;
    for (const QString &d : dims)
        out.append(d.trimmed());
    return out;
}

QJsonObject initJson(const QString &text, const QString &field, QList<FieldIssue> &issues)
{
    static const QRegularExpression callRe(QStringLiteral("^\\s*([A-Za-z]+)\\s*\\((.*)\\)\\s*$"));
    const auto match = callRe.match(text);
    const auto fail = [&](const QString &message) {
        issues.append({field, message, {}});
        return QJsonObject {};
    };
    if (!match.hasMatch())
        return fail(QStringLiteral("write uniform(low, high, seed=S), normal(mean, std, seed=S), constant(value) or "
                                   "iota(start, step)"));
    const QString kind = match.captured(1).toLower();
    QList<double> values;
    std::optional<qint64> seed;
    for (const QString &part : splitTopLevel(match.captured(2))) {
        if (part.startsWith(QLatin1StringView("seed"), Qt::CaseInsensitive) && part.contains(u'=')) {
            bool ok = false;
            const qint64 s = part.section(u'=', 1).trimmed().toLongLong(&ok);
            if (!ok || s < 0)
                return fail(QStringLiteral("the seed must be a non-negative integer (got '%1')").arg(part));
            seed = s;
            continue;
        }
        auto v = number(part);
        if (!v)
            return fail(QStringLiteral("'%1' is not a number").arg(part));
        values.append(*v);
    }
    struct Shape
    {
        const char *kind;
        const char *first;
        const char *second; // nullptr: one value
        bool seeded;
    };
    static const Shape shapes[] = {{"uniform", "low", "high", true}, {"normal", "mean", "std", true},
        {"constant", "value", nullptr, false}, {"iota", "start", "step", false}};
    for (const Shape &shape : shapes) {
        if (kind != QLatin1StringView(shape.kind))
            continue;
        // A seed may also come third, without "seed=".
        if (shape.seeded && !seed && values.size() == 3 && values[2] >= 0 && values[2] == std::floor(values[2]))
            seed = qint64(values.takeLast());
        const int wanted = shape.second ? 2 : 1;
        if (values.size() != wanted || (shape.seeded && !seed) || (!shape.seeded && seed)) {
            return fail(shape.second
                    ? (shape.seeded ? QStringLiteral("write %1(%2, %3, seed=S)") : QStringLiteral("write %1(%2, %3)"))
                          .arg(QLatin1StringView(shape.kind), QLatin1StringView(shape.first),
                              QLatin1StringView(shape.second))
                    : QStringLiteral("write %1(%2)")
                          .arg(QLatin1StringView(shape.kind), QLatin1StringView(shape.first)));
        }
        QJsonObject init {{QStringLiteral("kind"), kind}, {QLatin1StringView(shape.first), values[0]}};
        if (shape.second)
            init.insert(QLatin1StringView(shape.second), values[1]);
        if (seed)
            init.insert(QStringLiteral("seed"), *seed);
        return init;
    }
    return fail(QStringLiteral("'%1' is not an initialiser: use uniform, normal, constant or iota").arg(kind));
}

// "cases[1] (big): launches[0].grid[0]: 'n - 2000' is negative" → field, case and words.
FieldIssue issueFrom(const QString &error)
{
    static const QRegularExpression caseRe(QStringLiteral("^cases\\[\\d+\\] \\((.*?)\\): (.*)$"));
    FieldIssue issue;
    QString rest = error;
    if (const auto m = caseRe.match(error); m.hasMatch()) {
        issue.caseName = m.captured(1);
        rest = m.captured(2);
    }
    const qsizetype colon = rest.indexOf(QLatin1StringView(": "));
    issue.field = colon < 0 ? QString() : rest.left(colon);
    issue.message = colon < 0 ? rest : rest.mid(colon + 2);
    return issue;
}

} // namespace

QJsonObject launchJson(const LaunchFields &launch, int index, const QStringList &bufferNames, QList<FieldIssue> &issues)
{
    const QString path = launchPath(index);
    QJsonObject out {{QStringLiteral("entry"), launch.entry.trimmed()}, {QStringLiteral("grid"), dim3(launch.grid)},
        {QStringLiteral("block"), dim3(launch.block)}};
    if (!launch.sharedBytes.trimmed().isEmpty())
        out.insert(QStringLiteral("shared_bytes"), launch.sharedBytes.trimmed());
    static const QStringList scalarTypes {
        QStringLiteral("i32"), QStringLiteral("i64"), QStringLiteral("f32"), QStringLiteral("f64")};
    QJsonArray args;
    const QStringList items = splitTopLevel(launch.args);
    for (qsizetype k = 0; k < items.size(); ++k) {
        const QString &item = items[k];
        const QString field = path + QStringLiteral(".args[%1]").arg(k);
        const qsizetype colon = item.lastIndexOf(u':');
        if (item.isEmpty()) {
            issues.append({field, QStringLiteral("argument %1 is empty (two commas in a row?)").arg(k + 1), {}});
        } else if (colon >= 0) {
            const QString expression = item.left(colon).trimmed();
            const QString type = item.mid(colon + 1).trimmed();
            if (!scalarTypes.contains(type)) {
                issues.append({field,
                    QStringLiteral("'%1': a scalar's type is i32, i64, f32 or f64 (got '%2')").arg(item, type), {}});
            } else if (expression.isEmpty()) {
                issues.append({field, QStringLiteral("'%1' has no value before ':'").arg(item), {}});
            }
            args.append(QJsonObject {{QStringLiteral("scalar"), expression}, {QStringLiteral("dtype"), type}});
        } else if (bufferNames.contains(item)) {
            args.append(QJsonObject {{QStringLiteral("buffer"), item}});
        } else {
            issues.append({field,
                isIdentifier(item)
                    ? QStringLiteral("'%1' is not a buffer; a scalar needs its type, e.g. %1:i32").arg(item)
                    : QStringLiteral("'%1' needs a type, e.g. %1:i32").arg(item),
                {}});
        }
    }
    out.insert(QStringLiteral("args"), args);
    return out;
}

LaunchFields launchFields(const QJsonObject &launch)
{
    LaunchFields f;
    f.entry = launch.value(QStringLiteral("entry")).toString();
    const auto text = [](const QJsonValue &v) { return v.isDouble() ? QString::number(v.toDouble()) : v.toString(); };
    const QJsonArray grid = launch.value(QStringLiteral("grid")).toArray();
    const QJsonArray block = launch.value(QStringLiteral("block")).toArray();
    for (int d = 0; d < 3; ++d) {
        if (d < grid.size())
            f.grid[d] = text(grid[d]);
        if (d < block.size())
            f.block[d] = text(block[d]);
    }
    if (launch.contains(QStringLiteral("shared_bytes")))
        f.sharedBytes = text(launch.value(QStringLiteral("shared_bytes")));
    QStringList args;
    for (const QJsonValue a : launch.value(QStringLiteral("args")).toArray()) {
        const QJsonObject arg = a.toObject();
        if (arg.contains(QStringLiteral("buffer")))
            args.append(arg.value(QStringLiteral("buffer")).toString());
        else
            args.append(
                arg.value(QStringLiteral("scalar")).toString() + u':' + arg.value(QStringLiteral("dtype")).toString());
    }
    f.args = args.join(QStringLiteral(", "));
    return f;
}

QJsonObject bufferJson(const BufferFields &buffer, int index, QList<FieldIssue> &issues)
{
    QJsonObject out {{QStringLiteral("name"), buffer.name.trimmed()}, {QStringLiteral("dtype"), buffer.dtype.trimmed()},
        {QStringLiteral("count"), buffer.count.trimmed()}, {QStringLiteral("role"), buffer.role.trimmed()}};
    if (!buffer.init.trimmed().isEmpty()) {
        const QJsonObject init = initJson(buffer.init, QStringLiteral("buffers[%1].init").arg(index), issues);
        if (!init.isEmpty())
            out.insert(QStringLiteral("init"), init);
    }
    return out;
}

QJsonObject caseJson(const CaseFields &fields, int index, QList<FieldIssue> &issues)
{
    QJsonObject vars;
    const QString field = QStringLiteral("cases[%1].vars").arg(index);
    for (const QString &item : splitTopLevel(fields.vars)) {
        const qsizetype eq = item.indexOf(u'=');
        const QString name = item.left(eq).trimmed();
        const auto value = eq < 0 ? std::nullopt : number(item.mid(eq + 1));
        if (eq < 0 || !isIdentifier(name) || !value) {
            issues.append({field, QStringLiteral("'%1' is not NAME=NUMBER (as in rows=4096)").arg(item), {}});
            continue;
        }
        if (vars.contains(name))
            issues.append({field, QStringLiteral("'%1' is given twice").arg(name), {}});
        vars.insert(name, *value);
    }
    return {{QStringLiteral("name"), fields.name.trimmed()}, {QStringLiteral("vars"), vars}};
}

SpecDraft referenceSpec(const ProblemFields &fields)
{
    SpecDraft draft;
    QStringList bufferNames;
    QJsonArray buffers;
    for (qsizetype i = 0; i < fields.buffers.size(); ++i) {
        buffers.append(bufferJson(fields.buffers[i], int(i), draft.issues));
        bufferNames.append(fields.buffers[i].name.trimmed());
    }
    QJsonArray launches;
    for (qsizetype i = 0; i < fields.launches.size(); ++i)
        launches.append(launchJson(fields.launches[i], int(i), bufferNames, draft.issues));
    QJsonArray cases;
    for (qsizetype i = 0; i < fields.cases.size(); ++i)
        cases.append(caseJson(fields.cases[i], int(i), draft.issues));
    QJsonObject tolerance;
    for (const auto &[key, text] :
        {std::pair {QStringLiteral("rtol"), fields.rtol}, std::pair {QStringLiteral("atol"), fields.atol}}) {
        const auto v = number(text);
        if (!v)
            draft.issues.append({QStringLiteral("tolerance.") + key,
                QStringLiteral("'%1' is not a number (as in 1e-5)").arg(text.trimmed()), {}});
        tolerance.insert(key, v.value_or(0.0));
    }
    const QString reference
        = fields.referenceName.trimmed().isEmpty() ? QStringLiteral("reference") : fields.referenceName.trimmed();
    QJsonObject spec {{QStringLiteral("format"), QStringLiteral("gpuf-kernel/1")},
        {QStringLiteral("name"), QString(fields.name.trimmed() + u'/' + reference)},
        {QStringLiteral("language"), QStringLiteral("cuda")}, {QStringLiteral("source"), fields.source},
        {QStringLiteral("launches"), launches}, {QStringLiteral("buffers"), buffers}, {QStringLiteral("cases"), cases},
        {QStringLiteral("tolerance"), tolerance}};
    if (!fields.bytesMoved.trimmed().isEmpty())
        spec.insert(QStringLiteral("bytes_moved"), fields.bytesMoved.trimmed());
    if (!fields.flops.trimmed().isEmpty())
        spec.insert(QStringLiteral("flops"), fields.flops.trimmed());
    if (!fields.description.trimmed().isEmpty())
        spec.insert(QStringLiteral("description"), fields.description.trimmed());
    draft.spec = spec;
    return draft;
}

QList<FieldIssue> validateSpec(const QJsonObject &spec)
{
    const QByteArray text = QJsonDocument(spec).toJson(QJsonDocument::Compact);
    const nlohmann::json json = nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    if (json.is_discarded())
        return {{QString(), QStringLiteral("the spec is not valid JSON"), {}}};
    const auto parsed = gpu::parseKernelSpec(json);
    QList<FieldIssue> issues;
    if (const auto *errors = std::get_if<gpu::SpecErrors>(&parsed)) {
        for (const std::string &e : errors->errors)
            issues.append(issueFrom(QString::fromStdString(e)));
    }
    return issues;
}

QList<FieldIssue> validateSpecFields(const QJsonObject &spec)
{
    QList<FieldIssue> issues = validateSpec(spec);
    static const QRegularExpression entryRe(QStringLiteral("^launches\\[(\\d+)\\]\\.entry$"));
    QJsonObject patched = spec;
    bool patch = false;
    QJsonArray launches = spec.value(QStringLiteral("launches")).toArray();
    for (const FieldIssue &issue : std::as_const(issues)) {
        if (issue.field == QLatin1StringView("source")) {
            patched.insert(QStringLiteral("source"), QStringLiteral("__global__ void k() {}"));
            patch = true;
        } else if (const auto m = entryRe.match(issue.field); m.hasMatch() && m.captured(1).toInt() < launches.size()) {
            const int index = m.captured(1).toInt();
            QJsonObject launch = launches.at(index).toObject();
            launch.insert(QStringLiteral("entry"), QStringLiteral("k"));
            launches.replace(index, launch);
            patch = true;
        }
    }
    if (!patch)
        return issues;
    patched.insert(QStringLiteral("launches"), launches);
    for (const FieldIssue &issue : validateSpec(patched)) {
        if (!issues.contains(issue))
            issues.append(issue);
    }
    return issues;
}

QList<FieldIssue> checkProblemFields(const ProblemFields &fields, const QStringList &existingNames)
{
    QList<FieldIssue> issues;
    const QString name = fields.name.trimmed();
    if (name.isEmpty())
        issues.append({QStringLiteral("problem.name"), QStringLiteral("a problem needs a name"), {}});
    else if (existingNames.contains(name))
        issues.append({QStringLiteral("problem.name"),
            QStringLiteral("this store has a problem named '%1' already").arg(name), {}});
    if (!fields.source.trimmed().isEmpty()) {
        if (auto kernel = kernelFromText(fields.source); !kernel)
            issues.append({QStringLiteral("source"), kernel.error(), {}});
        else if (kernel->language != QLatin1StringView("cuda"))
            issues.append({QStringLiteral("source"),
                QStringLiteral("the reference must be CUDA C++ (this reads as %1)").arg(kernel->language), {}});
    }
    SpecDraft draft = referenceSpec(fields);
    issues.append(draft.issues);
    // A field whose notation could not be read is reported once, in the form's words, not again by the validator.
    QSet<QString> notation;
    for (const FieldIssue &issue : std::as_const(draft.issues))
        notation.insert(issue.field);
    for (const FieldIssue &issue : validateSpecFields(draft.spec)) {
        if (!notation.contains(issue.field))
            issues.append(issue);
    }
    return issues;
}

QJsonObject specWithLaunches(const QJsonObject &base, const QJsonArray &launches)
{
    QJsonObject spec = base;
    spec.remove(QStringLiteral("source"));
    spec.remove(QStringLiteral("name")); // the kernel's own name is put back when it is measured
    spec.insert(QStringLiteral("launches"), launches);
    return spec;
}

Result<CreatedProblem> createProblem(Store &store, const ProblemFields &fields)
{
    ProblemRepo problems(store);
    KernelRepo kernels(store);
    Transaction transaction(store);
    if (Status s = transaction.begin(); !s)
        return Error {s.error()};
    auto existing = problems.list();
    if (!existing)
        return Error {existing.error()};
    QStringList names;
    for (const Problem &p : std::as_const(*existing))
        names.append(p.name);
    if (const QList<FieldIssue> issues = checkProblemFields(fields, names); !issues.isEmpty()) {
        QStringList lines;
        for (const FieldIssue &i : issues)
            lines.append(i.field.isEmpty() ? i.message : i.field + QStringLiteral(": ") + i.message);
        return Error {lines.join(u'\n')};
    }
    const QJsonObject spec = referenceSpec(fields).spec;
    Problem problem;
    problem.name = fields.name.trimmed();
    problem.family = fields.family.trimmed();
    problem.description = fields.description.trimmed();
    problem.cases = spec.value(QStringLiteral("cases")).toArray();
    problem.tolerances = spec.value(QStringLiteral("tolerance")).toObject();
    problem.backend = Backend::Cuda;
    problem.createdAt = QDateTime::currentDateTimeUtc();
    if (auto id = problems.insert(problem); !id)
        return Error {id.error()};
    Kernel reference;
    reference.problemId = problem.id;
    reference.name
        = fields.referenceName.trimmed().isEmpty() ? QStringLiteral("reference") : fields.referenceName.trimmed();
    reference.language = QStringLiteral("cuda");
    reference.source = fields.source;
    reference.origin = QStringLiteral("manual");
    QJsonObject stored = spec;
    stored.remove(QStringLiteral("source"));
    reference.parameters = QJsonObject {{QStringLiteral("spec"), stored}};
    reference.createdAt = problem.createdAt;
    auto kernelId = kernels.insertOrGet(reference);
    if (!kernelId)
        return Error {kernelId.error()};
    if (Status s = problems.setReferenceKernel(problem.id, *kernelId); !s)
        return Error {s.error()};
    if (Status s = transaction.commit(); !s)
        return Error {s.error()};
    return CreatedProblem {problem.id, *kernelId};
}

} // namespace gpuf::interop
