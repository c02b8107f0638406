// Students and answers; see lesson_answers.h.
#include "core/lessons/lesson_answers.h"
#include "core/domain/lessons_tr.h"

#include "core/store/forecast_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <cmath>

namespace gpuf::lessons {
namespace {

// The GPUs on which both kernels of the pair have measurements, ascending.
Result<QList<RowId>> measuredOn(Store &store, RowId referenceId, RowId kernelId)
{
    MeasurementRepo runs(store);
    auto candidate = runs.forKernel(kernelId);
    if (!candidate)
        return Error {candidate.error()};
    auto reference = runs.forKernel(referenceId);
    if (!reference)
        return Error {reference.error()};
    QSet<RowId> referenceHardware;
    for (const Measurement &m : std::as_const(*reference))
        referenceHardware.insert(m.hardwareId);
    QList<RowId> out;
    for (const Measurement &m : std::as_const(*candidate)) {
        if (referenceHardware.contains(m.hardwareId) && !out.contains(m.hardwareId))
            out.append(m.hardwareId);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

Result<QList<Forecaster>> students(Store &store)
{
    auto all = ForecasterRepo(store).list();
    if (!all)
        return Error {all.error()};
    QList<Forecaster> out;
    for (const Forecaster &f : std::as_const(*all)) {
        if (f.kind == ForecasterKind::Human)
            out.append(f);
    }
    return out;
}

Result<Forecaster> ensureStudent(Store &store, const QString &displayName)
{
    const QString shown = displayName.simplified();
    if (shown.isEmpty())
        return Error {tr("a student profile needs a name")};
    Forecaster f;
    f.name = QStringLiteral("student:") + shown;
    f.kind = ForecasterKind::Human;
    f.displayName = shown;
    f.config = QJsonObject {{QStringLiteral("student"), shown}};
    ForecasterRepo repo(store);
    auto existing = repo.findByName(f.name);
    if (!existing)
        return Error {existing.error()};
    if (existing->has_value()) {
        if ((*existing)->kind != ForecasterKind::Human)
            return Error {tr("'%1' is a forecaster of another kind, not a student").arg(f.name)};
        return **existing;
    }
    if (auto id = repo.ensure(f); !id)
        return Error {id.error()};
    return f;
}

Result<QList<RowId>> saveAnswer(Store &store, const Answer &answer)
{
    double sum = 0.0;
    for (double v : answer.p) {
        if (!std::isfinite(v) || v < 0.0)
            return Error {tr("an answer's probabilities are numbers of zero or more")};
        sum += v;
    }
    if (std::abs(sum - 1.0) > 1e-6)
        return Error {tr("an answer's probabilities sum to %1, not 1").arg(sum)};
    if (answer.predictedBin < 1 || answer.predictedBin > bins::kBinCount)
        return Error {tr("an answer's bin is %1; bins are 1 to 8").arg(answer.predictedBin)};
    Transaction t(store);
    if (Status s = t.begin(); !s)
        return Error {s.error()};
    RowId studentId = answer.studentId;
    if (studentId == 0) {
        auto made = ensureStudent(store, answer.studentName);
        if (!made)
            return Error {made.error()};
        studentId = made->id;
    }
    auto student = ForecasterRepo(store).find(studentId);
    if (!student)
        return Error {student.error()};
    if (!student->has_value() || (*student)->kind != ForecasterKind::Human)
        return Error {tr("forecaster %1 is not a student profile").arg(studentId)};
    // A forecast of a deleted kernel cannot be stored: say so rather than let the store refuse it.
    KernelRepo kernels(store);
    for (const RowId id : {answer.referenceId, answer.kernelId}) {
        auto k = kernels.find(id);
        if (!k)
            return Error {k.error()};
        if (!k->has_value())
            return Error {tr("kernel %1 of the answered step is no longer in the store").arg(id)};
    }
    auto hardware = measuredOn(store, answer.referenceId, answer.kernelId);
    if (!hardware)
        return Error {hardware.error()};
    if (hardware->isEmpty())
        hardware->append(0);
    const QString response = QString::fromUtf8(QJsonDocument(
        QJsonObject {{QStringLiteral("lesson"), answer.lesson},
            {QStringLiteral("step"), answer.step}}).toJson(QJsonDocument::Compact));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    ForecastRepo forecasts(store);
    QList<RowId> ids;
    for (const RowId hardwareId : std::as_const(*hardware)) {
        Forecast f;
        f.referenceKernelId = answer.referenceId;
        f.candidateKernelId = answer.kernelId;
        f.hardwareId = hardwareId;
        f.forecasterId = studentId;
        f.probabilities = answer.p;
        f.predictedBin = answer.predictedBin;
        f.rawProbabilitySum = 1.0;
        f.reasoning = answer.reasoning.simplified();
        f.response = response;
        f.status = ForecastStatus::Ok;
        f.createdAt = now;
        auto id = forecasts.insert(f);
        if (!id)
            return Error {id.error()};
        ids.append(*id);
    }
    if (Status s = t.commit(); !s)
        return Error {s.error()};
    return ids;
}

} // namespace gpuf::lessons
