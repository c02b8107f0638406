// The equal-budget comparison of search strategies on one space with known outcomes (the paper's §5.3 experiment,
// offline, widened to the tuners people use; docs/search.md, "Comparing strategies"): the three modes run as real
// searches over the replay world, the baselines (random, greedy, genetic) over the same space, with the same GPU
// budget and seeds. Per strategy: anytime curves with 95 % intervals over seeds, evaluations to the optimum and to
// within 1 % and 5 % of it, the performance score against random search's exact expectation, forecasts and forecaster
// time, and the GPU time the evaluations cost by their recorded runtimes.
#pragma once

#include "core/common/cancel.h"
#include "core/search/baselines.h"
#include "core/search/compare_figures.h"
#include "core/search/search_config.h"
#include "core/search/search_setup.h"

#include <QJsonObject>

#include <functional>
#include <variant>

namespace gpuf::search {

struct SearchState;

// A mode (a real search) or a baseline.
struct Strategy
{
    std::variant<Mode, Baseline> kind;
    QString name() const;
    bool isMode() const { return std::holds_alternative<Mode>(kind); }
};
// "standard,surrogate,random": names separated by commas; an error names what is unknown and lists the choices.
Result<QList<Strategy>> strategiesFromNames(const QString &names);
QList<Strategy> defaultStrategies(); // the three modes and random search

struct CompareOptions
{
    SearchConfig base; // problem, mutator (a family), hardware, forecaster, steps, parents, measure, keep, tau
    QString storePath; // each worker opens its own connection (SQLite: one connection per thread)
    int seeds = 10;
    int proposalFactor = 4; // surrogate and selective propose k× the GPU budget per parent
    QList<Strategy> strategies = defaultStrategies();
    int jobs = 1; // searches run at once: 1 runs them one after another on the calling thread, N on N pool threads
    CancelToken cancel;
    // After each finished run: runs done, runs in all, one line ("random seed 3: best 2.31× after 81 GPU evaluations").
    std::function<void(int, int, const QString &)> progress;
};

// One strategy's runs, one entry per seed in seed order.
struct StrategyResult
{
    Strategy strategy;
    QList<QList<double>> curves; // best speedup after e = 0..budget GPU evaluations
    QList<int> evaluations; // GPU evaluations made (≤ budget; fewer when its proposals ran out)
    QList<int> forecasts;
    QList<double> forecasterSeconds;
    QList<double> gpuSeconds; // Σ of the evaluated kernels' recorded runtimes (one run of every case)
    QList<int> toOptimum, toWithin1, toWithin5; // −1: not reached within the budget
    QList<double> scores; // the performance score; NaN when undefined
    QList<bool> exhausted; // stopped before the budget: nothing new left to propose
    // Modes (compare_learner.h): the learner's Spearman correlation after 30 measurements, over the space and over
    // the search's proposals (NaN: not reached); trusted forecasts and the wrong ones among them (α only).
    QList<double> learnerSpearmanSpace, learnerSpearmanProposals;
    QList<int> trusted, trustedWrong;

    Interval curveAt(int e) const;
};

struct CompareReport
{
    QString space; // the family or problem searched
    QString problem;
    QString hardware;
    QString forecaster;
    int spaceSize = 0; // configurations with a recorded outcome
    int spaceFailures = 0; // of them, those that fail
    double optimum = 0.0;
    int steps = 0;
    int gpuBudgetPerStep = 0;
    int budget = 0; // GPU evaluations every strategy may spend: steps × budget per step (+ 1 when the seed is measured)
    int seeds = 0;
    double alpha = 0.0; // the modes' certified setting (0: none)
    QList<double> randomExpected; // random search's exact expected curve
    double randomToOptimum = 0.0, randomToWithin1 = 0.0, randomToWithin5 = 0.0; // (N + 1) / (k + 1)
    int scoreFrom = 1, scoreTo = 0; // the budgets the performance score covers (scoreRange)
    QList<StrategyResult> strategies;
    QStringList notes; // what the reader must know (a strategy that ran out of proposals, …)

    const StrategyResult *find(const QString &name) const;
    QString text() const; // the tables `gpuf search compare` prints
    QJsonObject toJson() const;
    QString toCsv() const; // one row per strategy and budget e: mean, low, high
};

// Runs strategies × seeds (modes in memory: nothing is written to the store but the cost model's forecaster row).
Result<CompareReport> compareStrategies(const CompareOptions &options, const SetupOptions &setup = {});

// One search to its end in memory; the state it ends in. `cancel` is checked between the engine's actions.
Result<SearchState> runInMemory(
    Store &store, const SearchConfig &config, const SetupOptions &setup, const CancelToken &cancel = {});

} // namespace gpuf::search
