// What the Searches view shows of a store's searches: one summary per search folded from its event log (steps, GPU
// evaluations, forecasts, best measured speedup); search_reads.h reads them. The fold is display-only: it reads what
// the log says and never replays a search.
#pragma once

#include "core/common/result.h"
#include "core/domain/search.h"
#include "core/search/run_status.h"

#include <QList>
#include <QMetaType>
#include <QSet>

#include <optional>

namespace gpuf {

struct SearchSummary
{
    Search search;
    QString problemName; // empty when the search is not tied to a problem
    QString source; // where its events came from: "events.jsonl: run-std-1.jsonl", "paper search events", …
    qint64 events = 0;
    // The counts mean what the engine's own (SearchState, SearchSnapshot) mean, so the list, the live line and the
    // command line never disagree about one search.
    qint64 steps = 0; // distinct steps completed (a step that runs now is not counted yet)
    qint64 gpuEvaluations = 0; // evaluations that ran on the GPU (evaluation_completed, whatever its feedback)
    // evaluation_completed events with `reused_from`: the same binary's measurement on this GPU, not a GPU evaluation
    qint64 reusedEvaluations = 0;
    // of both, those without a successful speedup (compile, runtime, incorrect)
    qint64 unsuccessfulEvaluations = 0;
    qint64 evaluationFailures = 0; // evaluations that could not run at all (evaluation_failed): not GPU evaluations
    qint64 forecasts = 0; // forecasts that completed
    qint64 forecastFailures = 0; // forecasts that failed: not counted in `forecasts`
    std::optional<double> bestSpeedup; // the best aggregated speedup of a successful evaluation
    // Successful evaluations left out of bestSpeedup: they name a measurement the user quarantined (issue 28).
    qint64 quarantinedEvaluations = 0;
    QDateTime firstEvent;
    QDateTime lastEvent;
    // How its log ends, for the status column: a search this application runs (its search_initialized names the
    // "gpuf" engine) is finished, stopped, paused or — when none of these — interrupted; imported logs are recorded.
    bool ownEngine = false;
    bool finished = false;
    bool stopped = false;
    bool paused = false;
    QString finishReason; // the search_completed event's reason
    bool exhausted = false; // finished because its source of proposals ran out (the pool was all proposed)
};

// A search's status as the Searches view shows it. `live` is the running engine's (SearchSnapshot::status), nullopt
// when no engine of this window runs the search.
enum class SearchStatus { Running, Paused, Finished, Stopped, Interrupted, Recorded, Failed };
SearchStatus searchStatus(const SearchSummary &summary, std::optional<search::RunStatus> live);
QString searchStatusText(SearchStatus status);
// The status as the list and the status line say it: searchStatusText, and "finished — proposals ran out" for a search
// that ended because its source had nothing more to propose.
QString searchStatusText(SearchStatus status, const SearchSummary &summary);
// Whether a search in this status can be run on (started again or resumed) from the view.
bool isResumable(SearchStatus status);

// Folds one search's events (in sequence order) into its summary; kinds it does not know are counted as events only.
// An evaluation naming one of `quarantined` (its payload's measurement_ids) does not count for the best speedup.
SearchSummary summarizeSearch(
    const Search &search, const QList<SearchEvent> &events, const QSet<RowId> &quarantined = {});

// The aggregated speedup an evaluation_completed payload reports for a success, else nothing.
std::optional<double> evaluationSpeedup(const QJsonObject &payload);

// The step an event belongs to (its payload's "step"), or -1.
qint64 eventStep(const SearchEvent &event);

// A one-line account of an event's payload for the events table: the fields a person looks for first (step, node,
// parent, request, feedback kind and speedup, expected bin), then the rest, each value cut short.
QString eventGist(const SearchEvent &event);

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::SearchSummary)
