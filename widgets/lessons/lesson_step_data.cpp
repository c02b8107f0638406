// The Lessons dock's data; see lesson_step_data.h.
#include "widgets/lessons/lesson_step_data.h"

#include "core/lessons/lesson_answers.h"
#include "core/store/lesson_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QCoreApplication>

#include <map>

namespace gpuf {
namespace {

QString tr(const char *text) { return QCoreApplication::translate("gpuf::LessonsPanel", text); }

QString kernelTitle(const Kernel &k, const QString &role)
{
    return QStringLiteral("%1: %2").arg(role, k.name.isEmpty() ? QStringLiteral("#%1").arg(k.id) : k.name);
}

} // namespace

Result<LessonCatalog> loadLessonCatalog(const QString &path)
{
    auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!store)
        return Error {store.error()};
    LessonCatalog catalog;
    auto lessonList = LessonRepo(**store).list();
    if (!lessonList)
        return Error {lessonList.error()};
    // A lesson whose every kernel was deleted has no steps left to show.
    for (const Lesson &l : std::as_const(*lessonList)) {
        if (!l.steps.isEmpty())
            catalog.lessons.append(l);
    }
    auto studentList = lessons::students(**store);
    if (!studentList)
        return Error {studentList.error()};
    catalog.students = *studentList;
    return catalog;
}

Result<LessonStepData> loadLessonStep(const QString &path, RowId lessonId, int index, RowId studentId)
{
    auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!store)
        return Error {store.error()};
    auto lesson = LessonRepo(**store).find(lessonId);
    if (!lesson)
        return Error {lesson.error()};
    if (!lesson->has_value())
        return Error {tr("the lesson is no longer in the store")};
    LessonStepData data;
    data.lesson = **lesson;
    if (index < 0 || index >= data.lesson.steps.size())
        return Error {tr("lesson '%1' has no step %2").arg(data.lesson.label()).arg(index + 1)};
    data.index = index;
    const LessonStep &step = data.lesson.steps.at(index);
    KernelRepo kernels(**store);
    auto reference = kernels.find(step.referenceKernelId);
    auto kernel = kernels.find(step.kernelId);
    if (!reference || !kernel)
        return Error {reference ? kernel.error() : reference.error()};
    if (!reference->has_value() || !kernel->has_value())
        return Error {tr("step %1 names a kernel that is no longer in the store").arg(index + 1)};
    data.baseline = DiffSide {kernelTitle(**reference, tr("before")), (*reference)->language, (*reference)->source};
    data.candidate = DiffSide {kernelTitle(**kernel, tr("after")), (*kernel)->language, (*kernel)->source};
    auto annotations
        = loadForecastAnnotations(**store, step.kernelId, step.referenceKernelId, QStringLiteral("costmodel"));
    if (annotations)
        data.annotations = *annotations;
    auto pair = loadPairForecasts(**store, step.kernelId, step.referenceKernelId);
    if (!pair)
        return Error {pair.error()};
    data.pair = *pair;
    for (const Forecast &f : std::as_const(data.pair.forecasts)) {
        if (studentId > 0 && f.forecasterId == studentId && f.status == ForecastStatus::Ok)
            data.answer = f; // ordered by id: the last is the newest
    }
    return data;
}

QList<RevealRow> revealRows(const PairForecasts &pair, const bins::Distribution &p, int predictedBin)
{
    QList<RevealRow> rows;
    for (const PairTruth &t : pair.truths) {
        RevealRow row;
        row.hardware = t.hardwareName;
        switch (t.measured.state) {
        case MeasuredSpeedup::State::Speedup:
            row.speedup = bins::speedupText(t.measured.speedup);
            if (t.measured.replayed)
                row.speedup += tr(" (replayed)");
            row.trueBin = t.bin;
            if (t.bin)
                row.score = lessons::scoreAnswer(p, predictedBin, *t.bin);
            break;
        case MeasuredSpeedup::State::Failed:
            row.speedup = tr("failed: %1").arg(measurementStatusName(t.measured.failure));
            break;
        case MeasuredSpeedup::State::NoBaseline:
            row.speedup = tr("the earlier kernel was not measured here");
            break;
        case MeasuredSpeedup::State::None:
            row.speedup = tr("not measured");
            break;
        }
        rows.append(row);
    }
    return rows;
}

QList<ForecasterSaid> forecastersSaid(const PairForecasts &pair)
{
    std::map<std::pair<RowId, RowId>, Forecast> newest; // (forecaster, hardware) → newest ok forecast
    for (const Forecast &f : pair.forecasts) {
        const auto forecaster = pair.forecasters.constFind(f.forecasterId);
        if (forecaster != pair.forecasters.constEnd() && forecaster->kind == ForecasterKind::Human)
            continue;
        if (f.status == ForecastStatus::Ok && f.predictedBin)
            newest[{f.forecasterId, f.hardwareId}] = f;
    }
    QList<ForecasterSaid> out;
    for (const auto &[key, f] : newest) {
        ForecasterSaid said;
        // The display name ("Built-in cost model") reads better to a student than the stored name.
        const Forecaster &who = pair.forecasters.value(f.forecasterId);
        said.forecaster = who.displayName.isEmpty() ? pair.forecasterName(f.forecasterId) : who.displayName;
        said.hardware = pair.hardware.value(f.hardwareId).name;
        said.predictedBin = *f.predictedBin;
        said.confidence = f.probabilities[std::size_t(std::clamp(*f.predictedBin, 1, 8) - 1)];
        if (auto truth = pair.truthFor(f.hardwareId); truth && truth->hardwareId == f.hardwareId)
            said.trueBin = truth->bin;
        out.append(said);
    }
    return out;
}

QString scoreText(const lessons::StepScore &score)
{
    return score.hit() ? tr("hit") : tr("off by %1").arg(score.offBy);
}

} // namespace gpuf
