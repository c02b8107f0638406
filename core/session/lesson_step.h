// One step of a lesson as the Lessons dock shows it, read off the GUI thread as one immutable value: both kernels for
// the diff (their notes held back until the reveal), the cost model's line annotations, the pair's measured truths
// and stored forecasts (pair_forecasts.h), and the student's newest answer to it if they gave one.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/forecast.h"
#include "core/domain/lesson.h"
#include "core/session/diff_side.h"
#include "core/session/forecast_annotations.h"
#include "core/session/pair_forecasts.h"

#include <optional>

namespace gpuf {

class Store;

struct LessonStepData
{
    Lesson lesson;
    int index = 0; // 0-based
    DiffSide baseline; // notes empty: the kernels' notes are part of what the reveal shows
    DiffSide candidate;
    ForecastAnnotations annotations;
    PairForecasts pair;
    std::optional<Forecast> answer; // the student's newest answer to this step

    const LessonStep &step() const { return lesson.steps.at(index); }
};

// Step `index` (0-based) of lesson `lessonId` with `studentId`'s newest answer (0: no student). Refuses a lesson no
// longer in the store, a step it does not have and a step whose kernel is gone, each with a sentence saying so.
// Nothing is written.
Result<LessonStepData> readLessonStep(
    Store &store, RowId lessonId, int index, RowId studentId, const CancelToken &cancel = {});

} // namespace gpuf
