// Evaluation feedback as JSON; see feedback_json.h.
#include "core/search/feedback_json.h"

#include <QJsonArray>

#include <cmath>

namespace gpuf::search {

namespace {
struct KindName
{
    EvaluationFeedback::Kind kind;
    const char *name;
};
constexpr KindName kKinds[] = {
    {EvaluationFeedback::Kind::None, "none"},
    {EvaluationFeedback::Kind::Success, "success"},
    {EvaluationFeedback::Kind::CompileFailed, "compile_failed"},
    {EvaluationFeedback::Kind::RuntimeError, "runtime_error"},
    {EvaluationFeedback::Kind::Incorrect, "incorrect"},
    {EvaluationFeedback::Kind::InfrastructureFailure, "infrastructure_failure"},
};
} // namespace

QString feedbackKindName(EvaluationFeedback::Kind kind)
{
    for (const KindName &k : kKinds) {
        if (k.kind == kind)
            return QLatin1StringView(k.name);
    }
    return QStringLiteral("none");
}

std::optional<EvaluationFeedback::Kind> feedbackKindFromName(const QString &name)
{
    for (const KindName &k : kKinds) {
        if (name == QLatin1StringView(k.name))
            return k.kind;
    }
    return std::nullopt;
}

QJsonObject feedbackToJson(const EvaluationFeedback &f)
{
    QJsonObject o {{QStringLiteral("kind"), feedbackKindName(f.kind)}};
    if (f.kind == EvaluationFeedback::Kind::Success) {
        o.insert(QStringLiteral("aggregated_speedup"), f.aggregatedSpeedup);
        o.insert(QStringLiteral("aggregation_method"), QStringLiteral("geomean"));
        QJsonArray cases;
        for (const CaseFeedback &c : f.cases)
            cases.append(QJsonObject {{QStringLiteral("case"), c.caseName}, {QStringLiteral("speedup"), c.speedup},
                {QStringLiteral("runtime_ns"), c.runtimeNs}, {QStringLiteral("ref_runtime_ns"), c.referenceRuntimeNs}});
        o.insert(QStringLiteral("per_case_speedups"), cases);
    } else {
        if (!f.message.isEmpty())
            o.insert(QStringLiteral("message"), f.message);
        if (!f.errorType.isEmpty())
            o.insert(QStringLiteral("error_type"), f.errorType);
        if (!f.traceback.isEmpty())
            o.insert(QStringLiteral("traceback"), f.traceback);
    }
    return o;
}

Result<EvaluationFeedback> feedbackFromJson(const QJsonObject &o)
{
    EvaluationFeedback f;
    const QString kindText = o.value(QStringLiteral("kind")).toString();
    const auto kind = feedbackKindFromName(kindText);
    if (!kind)
        return Error {QStringLiteral("feedback.kind '%1' is not one of success, compile_failed, runtime_error,"
                                     " incorrect, infrastructure_failure")
                          .arg(kindText)};
    f.kind = *kind;
    if (f.kind == EvaluationFeedback::Kind::Success) {
        const QJsonValue s = o.value(QStringLiteral("aggregated_speedup"));
        if (!s.isDouble() || !(s.toDouble() > 0.0) || !std::isfinite(s.toDouble()))
            return Error {QStringLiteral("feedback.aggregated_speedup must be a positive number")};
        f.aggregatedSpeedup = s.toDouble();
        const QJsonArray cases = o.value(QStringLiteral("per_case_speedups")).toArray();
        for (const auto &v : cases) {
            const QJsonObject c = v.toObject();
            f.cases.append({c.value(QStringLiteral("case")).toString(), c.value(QStringLiteral("speedup")).toDouble(),
                c.value(QStringLiteral("runtime_ns")).toDouble(),
                c.value(QStringLiteral("ref_runtime_ns")).toDouble()});
        }
    } else {
        f.message = o.value(QStringLiteral("message")).toString();
        f.errorType = o.value(QStringLiteral("error_type")).toString();
        f.traceback = o.value(QStringLiteral("traceback")).toString();
    }
    return f;
}

} // namespace gpuf::search
