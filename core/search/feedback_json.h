// The evaluation payload of the event log (paper-facts §6): EvaluationFeedback to JSON and back.
#pragma once

#include "core/common/result.h"
#include "core/mutators/mutator.h"

#include <QJsonObject>

namespace gpuf::search {

QString feedbackKindName(EvaluationFeedback::Kind kind); // "success" | "compile_failed" | … | "none"
std::optional<EvaluationFeedback::Kind> feedbackKindFromName(const QString &name);

// {kind, aggregated_speedup, aggregation_method, per_case_speedups[{case, speedup, runtime_ns, ref_runtime_ns}]}
// for a success; {kind, message, error_type, traceback} otherwise.
QJsonObject feedbackToJson(const EvaluationFeedback &feedback);
Result<EvaluationFeedback> feedbackFromJson(const QJsonObject &object);

} // namespace gpuf::search
