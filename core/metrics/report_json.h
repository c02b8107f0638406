// JSON form of a metrics report: the object each forecaster maps to in `gpuf metrics --json`.
#pragma once

#include "core/metrics/report.h"

#include <QJsonObject>

#include <functional>

namespace gpuf::metrics {

// Keys: n_total, n_parsed, every scalarName(), reliability (list of {low, high, mean_confidence, accuracy,
// count}), confusion (8×8 counts, rows = true bin, columns = predicted bin), ordinal, cumulative_reliability and
// prediction_sets (ordinal_json.h) and, when the report was
// bootstrapped, ci: {scalar name: [low, high], reliability_accuracy: [[low, high] per bucket]}.
// NaN becomes null.
QJsonObject toJson(const MetricsReport &report);

// One object keyed by the name the caller gives each group (e.g. the forecaster's name).
QJsonObject toJson(const std::vector<GroupReport> &groups, const std::function<QString(const GroupKey &)> &nameOf);

} // namespace gpuf::metrics
