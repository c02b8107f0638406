// Students and their answers. A student profile is a forecaster of kind 'human'; each answer to a lesson step is
// stored as an ordinary Forecast of that forecaster for the step's pair, once per GPU the pair was measured on, so
// every calibration view (reliability, confusion, risk–coverage, the metrics table) scores students on the same pairs
// and with the same code as the cost model and the LLMs. Answering a step again adds a newer forecast, which is the
// one that counts (the metrics keep the newest per pair).
#pragma once

#include "core/bins/bins.h"
#include "core/common/result.h"
#include "core/domain/forecast.h"

#include <QList>

namespace gpuf {

class Store;

namespace lessons {

// Every student profile (forecasters of kind 'human'), ascending id.
Result<QList<Forecaster>> students(Store &store);
// The profile called `displayName` (stored as "student:<display name>"), made when missing. An empty name is refused.
Result<Forecaster> ensureStudent(Store &store, const QString &displayName);

struct Answer
{
    RowId studentId = 0;
    QString lesson; // the lesson's name, recorded with the answer
    int step = 0; // 1-based
    RowId referenceId = 0;
    RowId kernelId = 0;
    bins::Distribution p {}; // normalised (normalisedDistribution)
    int predictedBin = 0; // 1..8
    QString reasoning; // optional, one sentence
    // With studentId 0: the student's display name, whose profile is made (ensureStudent) in the answer's own
    // transaction, so that a refused answer leaves no new student behind.
    QString studentName;
};

// Stores the answer as forecasts, in one transaction: one per hardware on which both kernels have measurements, else
// one that names no hardware. Refuses a distribution that does not sum to 1, a bin outside 1..8, or a forecaster
// that is not a student, and kernels no longer in the store. Returns the forecasts' ids.
Result<QList<RowId>> saveAnswer(Store &store, const Answer &answer);

} // namespace lessons
} // namespace gpuf
