// The 8 half-octave speedup bins and the scores derived from a bin distribution
// (DESIGN §4, paper-facts §1 and §3). The one implementation used everywhere.
#pragma once

#include <QList>
#include <QString>

#include <array>
#include <optional>
#include <span>

namespace gpuf::bins {

inline constexpr int kBinCount = 8;
using Distribution = std::array<double, kBinCount>; // p[0] is bin 1

// bin = clamp(floor(2·log2 S) + 4, 1, 8); nullopt for S that is not a positive number.
std::optional<int> binOf(double speedup);

// Lower-inclusive edge of bin b (1..8): 0, 0.5, √½, 1, √2, 2, 2√2, 4.
double lowerEdge(int bin);
// Upper-exclusive edge of bin b (1..8): 0.5, √½, …, 4, +∞.
double upperEdge(int bin);
// Geometric midpoint m_b: 2^((2b−7)/4) for bins 2..7, √(0.25·0.5) for bin 1, √(4·8) for bin 8.
double midpoint(int bin);

// Tool-schema key stem of bin b: "severe_slowdown" … "extreme_speedup".
QString key(int bin);
// Human label of bin b by its range ("slight speedup" for bin 4, [1, 1.41)) and the range ("1.00×–1.41×").
QString label(int bin);
// The same label in English whatever translation is installed (prompts must not change with the UI language).
QString untranslatedLabel(int bin);
// "4 · slight speedup": the bin's number and its label, as tables and drill-downs list a bin.
QString numberedLabel(int bin);
QString rangeText(int bin);

// A speedup as "1.23×" with at least `minDecimals` decimals, and more where fewer would round it across a bin edge
// (0.9996 shows as "0.9996×", never "1.00×" beside a real 1.00× of the next bin), so the shown value always lies in
// the value's own bin; past 5 decimals it is cut toward its bin instead of rounded. "—" for no positive number.
QString speedupText(double speedup, int minDecimals = 2);

// Geometric mean of per-case speedups; nullopt when empty or any value is not a positive number.
std::optional<double> geometricMean(std::span<const double> speedups);

// Σ b·p_b and Σ p_b·m_b.
double expectedBin(const Distribution &p);
double expectedSpeedup(const Distribution &p);

// Divides by the raw sum; nullopt when the sum is not positive and finite.
std::optional<Distribution> renormalised(const Distribution &p);

// Confidence scores (larger = surer), paper-facts §3.
enum class ConfidenceScore { MaxProb, NegEntropy, Top2Margin };
inline constexpr std::array<ConfidenceScore, 3> kConfidenceScores {
    ConfidenceScore::MaxProb, ConfidenceScore::NegEntropy, ConfidenceScore::Top2Margin};
QString confidenceScoreName(ConfidenceScore score); // "max_prob" | "neg_entropy" | "top2_margin"
std::optional<ConfidenceScore> confidenceScoreFromName(const QString &name);

double entropy(const Distribution &p); // nats, 0·ln 0 = 0
double confidence(ConfidenceScore score, const Distribution &p, int predictedBin);

// Index (1..8) of the largest probability; ties → lowest bin.
int argmaxBin(const Distribution &p);

} // namespace gpuf::bins
