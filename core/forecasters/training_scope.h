// What a cost-model forecaster was trained on (the operations and GPUs in its model's manifest), so that a ranking of
// forecasters can say when one is scored on pairs it learnt from ("in-sample") instead of presenting its figures as if
// it had never seen them.
#pragma once

#include "core/domain/forecast.h"
#include "core/metrics/scored_row.h"

#include <QHash>
#include <QList>
#include <QStringList>

#include <optional>
#include <span>

namespace gpuf {

struct ScoredPairs;

struct TrainingScope
{
    QStringList operations; // problem names
    QStringList hardware; // GPU names; empty: not recorded (any hardware counts)

    // A pair of `problem` measured on `hardware` is one the model learnt from.
    bool covers(const QString &problem, const QString &hardwareName) const;
};

// The scope of `forecaster`'s model: read from the manifest its configuration names (model_source: "built-in" or a
// model file). Empty for forecasters that are not cost models, for held-out predictions (out of sample by
// construction) and when the manifest cannot be read.
std::optional<TrainingScope> trainingScopeOf(const Forecaster &forecaster);

// Per forecaster id: how many of its rows in `rows` are pairs its model was trained on. Forecasters with none are
// absent.
QHash<qint64, qint64> inSampleRows(
    const ScoredPairs &pairs, std::span<const metrics::ScoredRow> rows, const QList<Forecaster> &forecasters);

} // namespace gpuf
