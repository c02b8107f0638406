// The Lessons dock's data; see lesson_step_data.h.
#include "widgets/lessons/lesson_step_data.h"

#include <QCoreApplication>

#include <map>

namespace gpuf {
namespace {

QString trLessonsPanel(const char *text) { return QCoreApplication::translate("gpuf::LessonsPanel", text); }

} // namespace

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
                row.speedup += trLessonsPanel(" (replayed)");
            row.trueBin = t.bin;
            if (t.bin)
                row.score = lessons::scoreAnswer(p, predictedBin, *t.bin);
            break;
        case MeasuredSpeedup::State::Failed:
            row.speedup = trLessonsPanel("failed: %1").arg(measurementStatusName(t.measured.failure));
            break;
        case MeasuredSpeedup::State::NoBaseline:
            row.speedup = trLessonsPanel("the earlier kernel was not measured here");
            break;
        case MeasuredSpeedup::State::None:
            row.speedup = trLessonsPanel("not measured");
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
        // The name the Forecast dock, the Metrics and Calibration docks and the CLI show ("costmodel"), so a student
        // can find the same forecaster there; its display name ("Built-in cost model") is the row's tooltip.
        const Forecaster &who = pair.forecasters.value(f.forecasterId);
        said.forecaster = pair.forecasterName(f.forecasterId);
        if (who.displayName != said.forecaster)
            said.description = who.displayName;
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
    return score.hit() ? trLessonsPanel("hit") : trLessonsPanel("off by %1").arg(score.offBy);
}

} // namespace gpuf
