// The search event kinds' codec; see search_event_kind.h.
#include "core/domain/search_event_kind.h"

#include <QHash>

namespace gpuf {

QString eventKindName(SearchEventKind kind)
{
    switch (kind) {
    case SearchEventKind::SearchInitialized:
        return QStringLiteral("search_initialized");
    case SearchEventKind::StepStarted:
        return QStringLiteral("step_started");
    case SearchEventKind::MutationRequested:
        return QStringLiteral("mutation_requested");
    case SearchEventKind::MutationCompleted:
        return QStringLiteral("mutation_completed");
    case SearchEventKind::MutationFailed:
        return QStringLiteral("mutation_failed");
    case SearchEventKind::EvaluationRequested:
        return QStringLiteral("evaluation_requested");
    case SearchEventKind::EvaluationCompleted:
        return QStringLiteral("evaluation_completed");
    case SearchEventKind::EvaluationFailed:
        return QStringLiteral("evaluation_failed");
    case SearchEventKind::StepCompleted:
        return QStringLiteral("step_completed");
    case SearchEventKind::ForecastRequested:
        return QStringLiteral("forecast_requested");
    case SearchEventKind::ForecastCompleted:
        return QStringLiteral("forecast_completed");
    case SearchEventKind::ForecastFailed:
        return QStringLiteral("forecast_failed");
    case SearchEventKind::CandidateSelected:
        return QStringLiteral("candidate_selected");
    case SearchEventKind::CandidateDeferred:
        return QStringLiteral("candidate_deferred");
    case SearchEventKind::MutationsDrained:
        return QStringLiteral("mutations_drained");
    case SearchEventKind::ForecastsDrained:
        return QStringLiteral("forecasts_drained");
    case SearchEventKind::EvaluationsDrained:
        return QStringLiteral("evaluations_drained");
    case SearchEventKind::SearchCompleted:
        return QStringLiteral("search_completed");
    case SearchEventKind::SearchPaused:
        return QStringLiteral("search_paused");
    case SearchEventKind::SearchResumed:
        return QStringLiteral("search_resumed");
    case SearchEventKind::SearchStopped:
        return QStringLiteral("search_stopped");
    case SearchEventKind::ConfigChanged:
        return QStringLiteral("config_changed");
    case SearchEventKind::NodePinned:
        return QStringLiteral("node_pinned");
    case SearchEventKind::NodeUnpinned:
        return QStringLiteral("node_unpinned");
    case SearchEventKind::NodeVetoed:
        return QStringLiteral("node_vetoed");
    case SearchEventKind::NodeUnvetoed:
        return QStringLiteral("node_unvetoed");
    case SearchEventKind::MeasureForced:
        return QStringLiteral("measure_forced");
    case SearchEventKind::KernelInjected:
        return QStringLiteral("kernel_injected");
    case SearchEventKind::DriftAlarm:
        return QStringLiteral("drift_alarm");
    }
    return {};
}

std::optional<SearchEventKind> eventKindFromName(const QString &name)
{
    // Built once from eventKindName, so the two directions cannot disagree; a fold parses every event it reads.
    static const QHash<QString, SearchEventKind> byName = [] {
        QHash<QString, SearchEventKind> out;
        for (int i = 0; i < kSearchEventKindCount; ++i)
            out.insert(eventKindName(SearchEventKind(i)), SearchEventKind(i));
        return out;
    }();
    const auto it = byName.constFind(name);
    if (it == byName.cend())
        return std::nullopt;
    return *it;
}

bool isForecastingKind(SearchEventKind kind)
{
    switch (kind) {
    case SearchEventKind::ForecastRequested:
    case SearchEventKind::ForecastCompleted:
    case SearchEventKind::ForecastFailed:
    case SearchEventKind::CandidateSelected:
    case SearchEventKind::CandidateDeferred:
    case SearchEventKind::MutationsDrained:
    case SearchEventKind::ForecastsDrained:
    case SearchEventKind::EvaluationsDrained:
    case SearchEventKind::DriftAlarm:
        return true;
    case SearchEventKind::SearchInitialized:
    case SearchEventKind::StepStarted:
    case SearchEventKind::MutationRequested:
    case SearchEventKind::MutationCompleted:
    case SearchEventKind::MutationFailed:
    case SearchEventKind::EvaluationRequested:
    case SearchEventKind::EvaluationCompleted:
    case SearchEventKind::EvaluationFailed:
    case SearchEventKind::StepCompleted:
    case SearchEventKind::SearchCompleted:
    case SearchEventKind::SearchPaused:
    case SearchEventKind::SearchResumed:
    case SearchEventKind::SearchStopped:
    case SearchEventKind::ConfigChanged:
    case SearchEventKind::NodePinned:
    case SearchEventKind::NodeUnpinned:
    case SearchEventKind::NodeVetoed:
    case SearchEventKind::NodeUnvetoed:
    case SearchEventKind::MeasureForced:
    case SearchEventKind::KernelInjected:
        return false;
    }
    return false;
}

} // namespace gpuf
