// What `gpuf search` says about a stored search; see search_report.h.
#include "app/cli/search_report.h"

#include "core/search/certified_trust.h"
#include "core/search/node_names.h"
#include "core/search/search_engine.h"
#include "core/store/problem_repo.h"

#include <QJsonValue>

namespace gpuf::cli {

using namespace gpuf::search;

QJsonObject searchStatusJson(const SearchState &state)
{
    const SearchSnapshot s = snapshotOf(state);
    QJsonObject best;
    if (const Candidate *c = state.candidate(state.bestNode)) {
        best = {{QStringLiteral("node_id"), c->nodeId}, {QStringLiteral("kernel_id"), c->kernelId},
            {QStringLiteral("content_hash"), c->contentHash}, {QStringLiteral("speedup"), c->reward.value_or(0.0)},
            {QStringLiteral("step"), c->step}, {QStringLiteral("replay"), c->feedback.replayed},
            {QStringLiteral("seed"), c->seedNode}};
    }
    return {{QStringLiteral("name"), state.name}, {QStringLiteral("mode"), s.mode},
        {QStringLiteral("status"), runStatusName(s.status)}, {QStringLiteral("step"), s.step},
        {QStringLiteral("steps"), s.steps}, {QStringLiteral("gpu_evaluations"), s.gpuEvaluations},
        {QStringLiteral("unsuccessful_evaluations"), s.unsuccessfulEvaluations},
        {QStringLiteral("evaluation_failures"), s.evaluationFailures},
        {QStringLiteral("forecast_failures"), s.forecastFailures},
        {QStringLiteral("replayed_evaluations"), s.replayedEvaluations},
        {QStringLiteral("reused_evaluations"), s.reusedEvaluations}, {QStringLiteral("forecasts"), s.forecasts},
        {QStringLiteral("deferred"), s.deferred}, {QStringLiteral("queued"), s.queued},
        {QStringLiteral("archive_size"), s.archiveSize}, {QStringLiteral("events"), s.events},
        {QStringLiteral("best_speedup"), s.bestSpeedup ? QJsonValue(*s.bestSpeedup) : QJsonValue()},
        {QStringLiteral("best_kernel"), best.isEmpty() ? QJsonValue() : QJsonValue(best)},
        {QStringLiteral("gpu"), state.config.gpu.name()}, {QStringLiteral("hardware"), state.config.hardware},
        {QStringLiteral("finish_reason"), s.finishReason.isEmpty() ? QJsonValue() : QJsonValue(s.finishReason)},
        {QStringLiteral("exhausted"), s.exhausted},
        {QStringLiteral("certified"), state.certified.isEmpty() ? QJsonValue() : QJsonValue(state.certified)},
        {QStringLiteral("drift_alarm"), state.driftAlarm.isEmpty() ? QJsonValue() : QJsonValue(state.driftAlarm)}};
}

QString bestNodeName(Store &store, const SearchState &state)
{
    const Candidate *c = state.candidate(state.bestNode);
    if (!c)
        return {};
    QString name;
    if (c->kernelId > 0) {
        if (auto kernel = KernelRepo(store).find(c->kernelId); kernel && *kernel)
            name = (*kernel)->name;
    }
    return nodeDisplayName(c->parameters, name);
}

void printSearchStatus(QTextStream &out, const SearchState &state, const QString &bestName)
{
    const SearchSnapshot s = snapshotOf(state);
    out << "search " << state.name << " (" << s.mode << ", " << runStatusName(s.status) << "): step " << s.step << "/"
        << s.steps << ", " << s.gpuEvaluations << " GPU evaluation(s)";
    if (s.replayedEvaluations > 0)
        out << " (" << s.replayedEvaluations << " replayed ↺)";
    if (s.reusedEvaluations > 0)
        out << ", " << s.reusedEvaluations << " reused (same binary measured on this GPU)";
    if (s.evaluationFailures > 0)
        out << ", " << s.evaluationFailures << " could not run";
    out << ", " << s.forecasts << " forecast(s)";
    if (s.forecastFailures > 0)
        out << " (" << s.forecastFailures << " failed)";
    out << ", " << s.deferred << " deferred";
    if (s.queued > 0)
        out << " (" << s.queued << " queued)";
    out << ", archive " << s.archiveSize << '\n';
    if (s.exhausted)
        out << "the proposals ran out: " << s.finishReason << '\n';
    if (s.bestSpeedup) {
        const Candidate *c = state.candidate(state.bestNode);
        out << "best " << QString::number(*s.bestSpeedup, 'f', 3) << "×";
        if (c && c->feedback.replayed)
            out << " (replay)";
        if (c && !bestName.isEmpty())
            out << ": " << bestName << " (kernel " << c->kernelId << ", node " << c->nodeId << ")";
        else if (c)
            out << ": kernel " << c->kernelId << " (" << c->contentHash.left(12) << "), node " << c->nodeId;
        out << '\n';
    }
    for (const QString &line : trustStatusLines(state))
        out << line << '\n';
    out.flush();
}

} // namespace gpuf::cli
