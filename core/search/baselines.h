// The baselines `gpuf search compare` runs beside the modes, on the same space, budget and seeds: the tuners people
// use, over a space with known outcomes (docs/search.md, "Comparing strategies"). Each evaluates a configuration at
// most once (a configuration seen before is answered from memory and costs nothing, as Kernel Tuner's cache does),
// and stops when the budget of GPU evaluations is spent or the space is exhausted. Pure and deterministic: the same
// space, budget and seed give the same evaluations on every machine.
#pragma once

#include "core/search/tuning_space.h"

namespace gpuf::search {

enum class Baseline { Random, HillClimb, Genetic };
QString baselineName(Baseline baseline); // "random" | "greedy" | "genetic"
std::optional<Baseline> baselineFromName(const QString &name);

// Uniform random search without replacement.
QList<int> randomSearch(const TuningSpace &space, int budget, quint64 seed);

// Greedy neighbour hill climbing with restarts: from a random configuration, evaluate its neighbours (one tunable one
// step, TuningSpace::neighbours) in a seeded random order and move to the first that is faster; at a local optimum
// (no neighbour faster) restart from a random configuration not evaluated yet.
QList<int> hillClimb(const TuningSpace &space, int budget, quint64 seed);

// A genetic algorithm over the tunables: a population of `population` configurations, tournament selection of two
// parents, uniform crossover, and mutation of each tunable with probability 1/tunables to a neighbouring value;
// children outside the space are drawn again (a few tries, then a random configuration not evaluated yet).
struct GeneticOptions
{
    int population = 20;
    int tournament = 3;
};
QList<int> geneticSearch(const TuningSpace &space, int budget, quint64 seed, const GeneticOptions &options = {});

QList<int> runBaseline(Baseline baseline, const TuningSpace &space, int budget, quint64 seed);

} // namespace gpuf::search
