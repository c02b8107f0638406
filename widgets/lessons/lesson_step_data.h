// What the Lessons dock's reveal says about a step read by core/session/lesson_step: the measured speedup on each GPU
// with the student's score against it, what the stored forecasters said, and the score in words. Pure functions of
// the step's values.
#pragma once

#include "core/lessons/student_answer.h"
#include "core/session/lesson_step.h"

#include <optional>

namespace gpuf {

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
    QString forecaster; // its name, as every dock and the CLI show it
    QString description; // its display name where it differs from the name (the row's tooltip)
    QString hardware;
    int predictedBin = 0;
    double confidence = 0.0; // p of its predicted bin
    std::optional<int> trueBin; // on that GPU
};
QList<ForecasterSaid> forecastersSaid(const PairForecasts &pair);

// "hit", "off by 2".
QString scoreText(const lessons::StepScore &score);

} // namespace gpuf
