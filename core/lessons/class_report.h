// The class report: per student and per lesson, how well the student's answers forecast the measured truth —
// accuracy, within-one, Brier, ECE (computed by core/metrics, exactly as for any forecaster) — and the steps they
// were most wrong on; written as CSV (the PDF with the reliability diagram is drawn by widgets/lessons).
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/problem.h"
#include "core/metrics/report.h"

#include <QList>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace gpuf {

class Store;

namespace lessons {

// One scored answer on one GPU.
struct StepResult
{
    int step = 0; // 1-based
    QString kernel; // the step's kernel name
    QString hardware;
    int predictedBin = 0;
    int trueBin = 0;
    double brier = 0.0; // ½·Σ
    int offBy() const { return std::abs(predictedBin - trueBin); }
};

struct StudentLessonReport
{
    RowId studentId = 0;
    QString student; // display name
    RowId lessonId = 0;
    QString lesson; // name
    QString lessonTitle;
    int steps = 0; // steps in the lesson
    int answeredSteps = 0; // steps with at least one scored answer
    std::shared_ptr<const metrics::MetricsReport> report; // over the scored answers (one row per answer and GPU)
    std::shared_ptr<const std::vector<metrics::ScoredRow>> rows;
    QList<StepResult> mostWrong; // the (up to three) steps furthest off in bins (ties: larger Brier), worst first

    double accuracy() const { return report->scalar(metrics::Scalar::Accuracy); }
    double withinOne() const { return report->scalar(metrics::Scalar::WithinOne); }
    double brier() const { return report->scalar(metrics::Scalar::BrierHalf); }
    double ece() const { return report->scalar(metrics::Scalar::Ece); }
};

struct ClassReport
{
    QList<StudentLessonReport> entries; // by lesson, then student; only (student, lesson) with a scored answer
    // The same pairs as forecast by another forecaster (the non-student one with the most scored forecasts of them; the
    // built-in cost model on a tie), for the reliability diagram's comparison; null when none forecast them.
    QString comparisonName;
    std::shared_ptr<const metrics::MetricsReport> comparison;
    std::shared_ptr<const std::vector<metrics::ScoredRow>> comparisonRows;
};

// Reads the report of `lessonName` (every lesson when empty) for every student. An unknown lesson is an error naming
// it. Checks `cancel` between stages.
Result<ClassReport> classReport(Store &store, const QString &lessonName = {}, const CancelToken &cancel = {});

// All students' scored rows in the report pooled into one report (the class as one forecaster).
std::shared_ptr<const metrics::MetricsReport> pooledReport(const ClassReport &report);

// CSV: student, lesson, steps, answered_steps, answers_scored, accuracy, within_one, brier, ece, most_wrong.
QString classReportCsv(const ClassReport &report);
// "step 4 (v3_reg_block_1d, H100): said bin 5, was bin 7" — the text of one step result.
QString stepResultText(const StepResult &result);
// A figure of the report as shown and printed: three decimals, "—" for none.
QString reportFigure(double value);

} // namespace lessons
} // namespace gpuf
