// What the Lessons dock shows, as immutable values read off the GUI thread: the store's lessons and student profiles,
// and one step — both kernels for the diff (their notes held back until the reveal), the cost model's line
// annotations, the pair's measured truths and stored forecasts (widgets/forecast PairForecasts), and the student's
// newest answer to it if they gave one.
#pragma once

#include "core/common/result.h"
#include "core/domain/forecast.h"
#include "core/lessons/lesson.h"
#include "core/lessons/student_answer.h"
#include "core/session/forecast_annotations.h"
#include "core/session/pair_forecasts.h"
#include "widgets/diff/diff_document.h"

#include <optional>

namespace gpuf {

struct LessonCatalog
{
    QList<Lesson> lessons;
    QList<Forecaster> students;
};

struct LessonStepData
{
    Lesson lesson;
    int index = 0; // 0-based
    DiffSide baseline; // notes empty: the kernels' notes are part of what the reveal shows
    DiffSide candidate;
    ForecastAnnotations annotations;
    PairForecasts pair;
    std::optional<Forecast> answer; // the student's newest answer to this step
};

Result<LessonCatalog> loadLessonCatalog(const QString &path);
Result<LessonStepData> loadLessonStep(const QString &path, RowId lessonId, int index, RowId studentId);

// What the reveal says about one GPU: the measured speedup and bin, and the student's score against it.
struct RevealRow
{
    QString hardware;
    QString speedup; // "2.20×", or why there is none ("failed: incorrect", "not measured")
    std::optional<int> trueBin;
    std::optional<lessons::StepScore> score;
};
QList<RevealRow> revealRows(const PairForecasts &pair, const bins::Distribution &p, int predictedBin);

// One stored forecaster's forecast of the step (students excluded), newest per forecaster and GPU.
struct ForecasterSaid
{
    QString forecaster;
    QString hardware;
    int predictedBin = 0;
    double confidence = 0.0; // p of its predicted bin
    std::optional<int> trueBin; // on that GPU
};
QList<ForecasterSaid> forecastersSaid(const PairForecasts &pair);

// "hit", "off by 2".
QString scoreText(const lessons::StepScore &score);

} // namespace gpuf
