// Starting and resuming searches stored in a store: every check before anything is written (a problem without a
// reference, an unknown forecaster, a budget of 0, a mutator that cannot start, a resume under a different
// configuration), then the search's first events; and the factory that builds a SearchRun for the engine's thread.
#pragma once

#include "core/measure/measure_engine.h"
#include "core/search/replay_world.h"
#include "core/search/search_run.h"

#include <functional>
#include <memory>

namespace gpuf {
class Store;
}

namespace gpuf::search {

struct MutatorContext
{
    Store *store = nullptr;
    SearchConfig config;
    Problem problem;
    Kernel reference;
    std::shared_ptr<const ReplayWorld> world; // when the store holds recorded runtimes of the problem
};

// The mutator a configuration names ("pool", "injected"; kernel families and the LLM generator register here too).
Result<std::unique_ptr<Mutator>> makeMutator(const MutatorContext &context);

struct SetupOptions
{
    QString costModelPath; // the cost-model forecaster's model file; empty: the built-in one
    std::shared_ptr<const ReplayWorld> world; // a world already loaded (compare runs many searches over one)
    MeasureEngineConfig measureConfig; // --gpu local: the measurement queue's workers
    // --gpu local: what the worker says once when a search is created (that it refuses Python candidates, and why).
    std::function<void(const QString &)> notice;
    // Wraps the forecaster built for the run (compare times it); none: used as built.
    std::function<std::unique_ptr<CandidateForecaster>(std::unique_ptr<CandidateForecaster>)> wrapForecaster;
};

// The GPU whose recorded runtimes a replay of `config` answers from: its own `hardware`, else for a family search the
// GPU with most recorded configurations of that family, else "" (the problem's busiest GPU, loadReplayWorld's default).
QString replayHardwareFor(Store &store, const SearchConfig &config);

// Everything a run needs, built on the calling thread's store connection from a configuration (nothing is written
// but the cost model's forecaster row, which every store gets on first use).
Result<RunParts> buildParts(Store &store, const SearchConfig &config, const SetupOptions &options = {});

// Checks and creates a search named `name`: refused when the name is taken or any part cannot be built; on success the
// searches row and the first events are in the store (one transaction).
Result<RowId> createSearch(Store &store, const QString &name, SearchConfig config, const SetupOptions &options = {});

// The stored configuration of a search, after its configuration changes.
Result<SearchConfig> storedConfig(Store &store, const QString &name);

// A factory for SearchEngine: opens its own connection to `storePath` (on the engine's thread), builds the parts
// from the stored configuration and returns the run over the search's log.
std::function<Result<std::unique_ptr<SearchRun>>()> storeRunFactory(
    const QString &storePath, const QString &name, const SetupOptions &options = {});

// Folds a stored search's whole log (status, export, tests).
Result<SearchState> foldStoredSearch(Store &store, const QString &name);

} // namespace gpuf::search
