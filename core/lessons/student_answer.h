// A student's answer to a lesson step: the distribution they give over the 8 speedup bins (kept summing to 1 while
// they edit it), and the score of that answer against the measured bin (hit or off by N, Brier, log score), with the
// same formulas the calibration metrics use (core/metrics).
#pragma once

#include "core/bins/bins.h"
#include "core/common/result.h"

namespace gpuf::lessons {

// Weights the student gave (slider positions, a drawn histogram) as a distribution: each weight divided by their
// sum. Negative or non-finite weights, and weights that are all zero, are refused with a sentence saying why.
Result<bins::Distribution> normalisedDistribution(const std::array<double, bins::kBinCount> &weights);

// All the probability on one bin (the student picked a bin rather than a distribution).
bins::Distribution pointDistribution(int bin);

// The distribution after the student sets bin `bin` (1..8) to `share` (clamped to [0, 1]): the other bins share the
// rest in their current proportions (equally when they were all zero). The result always sums to 1.
bins::Distribution withShare(const bins::Distribution &p, int bin, double share);

// The predicted bin of an answer: the most probable bin (the lowest on a tie).
int answerBin(const bins::Distribution &p);

struct StepScore
{
    int predictedBin = 0;
    int trueBin = 0;
    int offBy = 0; // |predicted − true|; 0 is a hit
    double brier = 0.0; // ½·Σ (p_b − y_b)², as the metrics table's Brier
    double logScore = 0.0; // ln p(true bin), floored at ln 1e-12 as the metrics' NLL; 0 is perfect
    bool hit() const { return offBy == 0; }
};

// Scores an answer against the measured bin (1..8).
StepScore scoreAnswer(const bins::Distribution &p, int predictedBin, int trueBin);

} // namespace gpuf::lessons
