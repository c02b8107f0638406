// The kinds of event a search's log holds (DESIGN §7), as one enum with one codec to the names written on disk.
#pragma once

#include "core/domain/search.h"

#include <optional>

namespace gpuf {

// Every kind gpuf writes and folds. The names on disk (eventKindName) are the paper's (paper-facts §6) and ours
// (docs/search.md, "The event log"); they never change, or stored logs and exported files would read differently.
enum class SearchEventKind {
    // The paper's standard search.
    SearchInitialized,
    StepStarted,
    MutationRequested,
    MutationCompleted,
    MutationFailed,
    EvaluationRequested,
    EvaluationCompleted,
    EvaluationFailed,
    StepCompleted,
    // The paper's surrogate-filtered search adds forecasts, decisions and barriers (ours: the selective mode too).
    ForecastRequested,
    ForecastCompleted,
    ForecastFailed,
    CandidateSelected,
    CandidateDeferred,
    MutationsDrained,
    ForecastsDrained,
    EvaluationsDrained,
    // Ours: the end of a search, control and configuration changes.
    SearchCompleted,
    SearchPaused,
    SearchResumed,
    SearchStopped,
    ConfigChanged,
    // Ours: steering.
    NodePinned,
    NodeUnpinned,
    NodeVetoed,
    NodeUnvetoed,
    MeasureForced,
    KernelInjected,
    // Ours: the certified setting's error among trusted forecasts left its bound (docs/search.md).
    DriftAlarm, // keep last, or move kSearchEventKindCount
};
inline constexpr int kSearchEventKindCount = int(SearchEventKind::DriftAlarm) + 1;

// The kind's name on disk, "search_initialized", "step_started", …
QString eventKindName(SearchEventKind kind);
// The kind a name on disk stands for; nullopt for a name this version does not know.
std::optional<SearchEventKind> eventKindFromName(const QString &name);
// The kind of a stored or imported event (its name parsed); nullopt for a kind this version does not know.
inline std::optional<SearchEventKind> eventKindOf(const SearchEvent &event) { return eventKindFromName(event.kind); }

// Kinds only a search that forecasts writes (the paper's surrogate-filtered mode, our selective one).
bool isForecastingKind(SearchEventKind kind);

} // namespace gpuf
