// The class report; see class_report.h.
#include "core/lessons/class_report.h"
#include "core/domain/lessons_tr.h"

#include "core/lessons/lesson_answers.h"
#include "core/metrics/calibration.h"
#include "core/metrics/from_store.h"
#include "core/store/lesson_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/scored_pairs.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <map>

namespace gpuf::lessons {
namespace {

using PairKey = std::pair<RowId, RowId>; // (reference, candidate)

metrics::MetricsOptions reportOptions()
{
    metrics::MetricsOptions options;
    options.regretCurves = false;
    return options;
}

std::shared_ptr<const std::vector<metrics::ScoredRow>> rowsOf(const ScoredPairs &all, const QList<ScoredPair> &pairs)
{
    ScoredPairs subset;
    subset.pairs = pairs;
    subset.forecasters = all.forecasters;
    return std::make_shared<const std::vector<metrics::ScoredRow>>(metrics::toScoredRows(subset));
}

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvNumber(double v) { return std::isfinite(v) ? QString::number(v, 'f', 4) : QString(); }

// The comparison forecaster: the non-student forecaster with the most scored answers on these pairs (the built-in cost
// model on a tie), so the diagram compares the class with the forecaster that saw the most of what they saw.
Result<std::optional<ScoredPairs>> comparisonPairs(Store &store, const QSet<PairKey> &pairs, const CancelToken &cancel)
{
    auto all = loadScoredPairs(store, {}, cancel);
    if (!all)
        return Error {all.error()};
    QSet<RowId> humans;
    if (auto list = students(store); list) {
        for (const Forecaster &f : std::as_const(*list))
            humans.insert(f.id);
    }
    std::map<RowId, QList<ScoredPair>> byForecaster;
    for (const ScoredPair &p : std::as_const(all->pairs)) {
        if (!humans.contains(p.forecasterId) && pairs.contains({p.referenceId, p.candidateId}))
            byForecaster[p.forecasterId].append(p);
    }
    if (byForecaster.empty())
        return std::optional<ScoredPairs>();
    RowId chosen = 0;
    qsizetype most = 0;
    for (const ScoredPairsForecaster &f : std::as_const(all->forecasters)) {
        const auto it = byForecaster.find(f.id);
        const qsizetype n = it == byForecaster.end() ? 0 : it->second.size();
        if (n > most || (n == most && n > 0 && f.name == QLatin1StringView("costmodel"))) {
            chosen = f.id;
            most = n;
        }
    }
    ScoredPairs out;
    out.pairs = byForecaster[chosen];
    for (const ScoredPairsForecaster &f : std::as_const(all->forecasters)) {
        if (f.id == chosen)
            out.forecasters.append(f);
    }
    return std::optional<ScoredPairs>(out);
}

struct Names
{
    QHash<RowId, QString> kernels;
    QHash<RowId, QString> hardware;
};

// The (up to three) steps furthest off in bins (ties: the larger Brier), each step once.
QList<StepResult> mostWrongSteps(QList<StepResult> results)
{
    std::stable_sort(results.begin(), results.end(), [](const StepResult &a, const StepResult &b) {
        return a.offBy() != b.offBy() ? a.offBy() > b.offBy() : a.brier > b.brier;
    });
    QList<StepResult> out;
    QSet<int> listed;
    for (const StepResult &r : std::as_const(results)) {
        if (out.size() == 3)
            break;
        if (r.offBy() == 0 || listed.contains(r.step))
            continue;
        listed.insert(r.step);
        out.append(r);
    }
    return out;
}

// One student's report on one lesson; nullopt when none of their answers to it is scored. Adds the lesson's
// answered pairs to `answeredPairs`.
std::optional<StudentLessonReport> studentReport(const Lesson &lesson, const Forecaster &student,
    const ScoredPairs &scored, const Names &names, QSet<PairKey> &answeredPairs)
{
    std::map<PairKey, int> stepOf;
    for (qsizetype i = 0; i < lesson.steps.size(); ++i)
        stepOf.emplace(PairKey {lesson.steps[i].referenceKernelId, lesson.steps[i].kernelId}, int(i + 1));
    QList<ScoredPair> pairs;
    QList<StepResult> results;
    QSet<int> answered;
    for (const ScoredPair &p : std::as_const(scored.pairs)) {
        const auto step = stepOf.find({p.referenceId, p.candidateId});
        if (p.forecasterId != student.id || step == stepOf.end() || !p.parsed || !p.predictedBin)
            continue;
        pairs.append(p);
        answered.insert(step->second);
        answeredPairs.insert(step->first);
        results.append({step->second, names.kernels.value(p.candidateId), names.hardware.value(p.hardwareId),
            *p.predictedBin, p.trueBin, metrics::brierHalf(p.p, p.trueBin)});
    }
    if (pairs.isEmpty())
        return std::nullopt;
    StudentLessonReport entry;
    entry.studentId = student.id;
    entry.student = student.displayName.isEmpty() ? student.name : student.displayName;
    entry.lessonId = lesson.id;
    entry.lesson = lesson.name;
    entry.lessonTitle = lesson.label();
    entry.steps = int(lesson.steps.size());
    entry.answeredSteps = int(answered.size());
    entry.rows = rowsOf(scored, pairs);
    entry.report = std::make_shared<const metrics::MetricsReport>(metrics::computeReport(*entry.rows, reportOptions()));
    entry.mostWrong = mostWrongSteps(results);
    return entry;
}

} // namespace

Result<ClassReport> classReport(Store &store, const QString &lessonName, const CancelToken &cancel)
{
    QList<Lesson> lessonList;
    LessonRepo lessonRepo(store);
    if (lessonName.isEmpty()) {
        auto all = lessonRepo.list();
        if (!all)
            return Error {all.error()};
        lessonList = *all;
    } else {
        auto one = lessonRepo.findByName(lessonName);
        if (!one)
            return Error {one.error()};
        if (!one->has_value())
            return Error {tr("no lesson named '%1' in the store").arg(lessonName)};
        lessonList.append(**one);
    }
    auto studentList = students(store);
    if (!studentList)
        return Error {studentList.error()};
    ClassReport out;
    if (studentList->isEmpty() || lessonList.isEmpty())
        return out;
    ScoredPairFilter filter;
    for (const Forecaster &s : std::as_const(*studentList))
        filter.forecasters << s.name;
    auto scored = loadScoredPairs(store, filter, cancel);
    if (!scored)
        return Error {scored.error()};
    auto kernels = KernelRepo(store).summaries();
    if (!kernels)
        return Error {kernels.error()};
    Names names;
    for (const KernelSummary &k : std::as_const(*kernels))
        names.kernels.insert(k.id, k.name.isEmpty() ? QStringLiteral("#%1").arg(k.id) : k.name);
    for (const NamedRow &h : std::as_const(scored->hardware))
        names.hardware.insert(h.id, h.name);
    QSet<PairKey> allPairs;
    for (const Lesson &lesson : std::as_const(lessonList)) {
        for (const Forecaster &student : std::as_const(*studentList)) {
            if (cancel.isCancelled())
                return Error::cancelled();
            if (auto entry = studentReport(lesson, student, *scored, names, allPairs))
                out.entries.append(*entry);
        }
    }
    auto comparison = comparisonPairs(store, allPairs, cancel);
    if (!comparison)
        return Error {comparison.error()};
    if (comparison->has_value()) {
        const ScoredPairs &c = **comparison;
        // Named as every dock and the CLI name a forecaster (its stored name), not by its display name.
        out.comparisonName = c.forecasters.isEmpty() ? QString() : c.forecasters.first().name;
        out.comparisonRows = rowsOf(c, c.pairs);
        out.comparison = std::make_shared<const metrics::MetricsReport>(
            metrics::computeReport(*out.comparisonRows, reportOptions()));
    }
    return out;
}

std::shared_ptr<const metrics::MetricsReport> pooledReport(const ClassReport &report)
{
    std::vector<metrics::ScoredRow> rows;
    for (const StudentLessonReport &e : report.entries)
        rows.insert(rows.end(), e.rows->begin(), e.rows->end());
    return std::make_shared<const metrics::MetricsReport>(metrics::computeReport(rows, reportOptions()));
}

QString stepResultText(const StepResult &r)
{
    return tr("step %1 (%2, %3): said bin %4, was bin %5")
        .arg(r.step)
        .arg(r.kernel, r.hardware)
        .arg(r.predictedBin)
        .arg(r.trueBin);
}

QString classReportCsv(const ClassReport &report)
{
    QString out = QStringLiteral(
        "student,lesson,steps,answered_steps,answers_scored,accuracy,within_one,brier,ece,most_wrong\n");
    for (const StudentLessonReport &e : report.entries) {
        QStringList wrong;
        for (const StepResult &r : e.mostWrong)
            wrong << stepResultText(r);
        out += QStringList {csvField(e.student), csvField(e.lesson), QString::number(e.steps),
                   QString::number(e.answeredSteps), QString::number(e.report->nParsed), csvNumber(e.accuracy()),
                   csvNumber(e.withinOne()), csvNumber(e.brier()), csvNumber(e.ece()),
                   csvField(wrong.join(QStringLiteral("; ")))}
                   .join(QLatin1Char(','))
            + QLatin1Char('\n');
    }
    return out;
}

QString reportFigure(double value)
{
    return std::isfinite(value) ? QString::number(value, 'f', 3) : QStringLiteral("—");
}

} // namespace gpuf::lessons
