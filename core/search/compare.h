// The equal-budget comparison of the three modes (the paper's §5.3 experiment, offline): every mode searches the same
// replay world with the same GPU budget per step, over N seeds; per mode, the best speedup against GPU evaluations
// (mean and spread over seeds) and the evaluations each needed to reach the standard mode's final best.
#pragma once

#include "core/search/search_config.h"
#include "core/search/search_setup.h"

#include <functional>

namespace gpuf::search {

struct CompareOptions
{
    SearchConfig base; // problem, hardware, forecaster, steps, parents, measure, keep, tau; mode and seed are set
    int seeds = 5;
    int proposalFactor = 4; // surrogate and selective propose k× the GPU budget per parent
    QList<Mode> modes {Mode::Standard, Mode::Surrogate, Mode::Selective};
    std::function<void(const QString &)> progress; // one line per finished search
};

struct ModeResult
{
    Mode mode = Mode::Standard;
    QList<double> finalBest; // per seed
    QList<int> evaluations; // GPU evaluations per seed
    QList<int> forecasts; // per seed
    // Per seed: GPU evaluations until the best reached the standard mode's final best of that seed; -1: never.
    QList<int> toReachStandard;
    // Best speedup after e GPU evaluations (e = 0..maxEvaluations), per seed.
    QList<QList<double>> curves;
};

struct CompareReport
{
    QString problem;
    QString hardware;
    QString forecaster;
    int gpuBudgetPerStep = 0;
    int steps = 0;
    QList<ModeResult> modes;
    QString text() const; // the table `gpuf search compare` prints
    QJsonObject toJson() const;
};

// Runs modes × seeds searches in memory (nothing is written to the store but the cost model's forecaster row).
Result<CompareReport> compareModes(Store &store, const CompareOptions &options, const SetupOptions &setup = {});

// One search to its end in memory; the state it ends in.
Result<SearchState> runInMemory(Store &store, const SearchConfig &config, const SetupOptions &setup);

} // namespace gpuf::search
