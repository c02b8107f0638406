// How a search's best speedup grew: against GPU evaluations (each completed evaluation) and against candidates
// considered (at each step's end), so searches of one problem with different budgets and modes can be overlaid.
// Pure functions of the folded state.
#pragma once

#include "core/search/search_state.h"

#include <QList>

namespace gpuf::search {

struct ProgressPoint
{
    double x = 0.0; // GPU evaluations, or candidates considered
    double best = 0.0; // the best speedup found so far
};

struct ProgressCurve
{
    // One point per completed evaluation (x = evaluations so far), after a start point at 0 when a seed came with a
    // reward (the reference's 1.0 costs no evaluation). Evaluations without a success repeat the best.
    QList<ProgressPoint> byEvaluations;
    // One point per step that measured something (x = proposals with code and injected kernels through that step; the
    // best after its measurements), after the same start point. The step in progress counts with what it has so far.
    QList<ProgressPoint> byCandidates;
};

ProgressCurve progressCurve(const SearchState &state);

// Proposals with code (a mutation that answered, injected kernels) through `step` (every step when −1).
int candidatesConsidered(const SearchState &state, int step = -1);

} // namespace gpuf::search
