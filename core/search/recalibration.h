// Making a search's confidence mean something (docs/search.md, "Calibration in a search"): the learner's spread
// rescaled by a temperature fitted on the pairs the search has measured, an isotonic (PAV) map from a forecast's
// confidence to how often such forecasts were right, and τ chosen by conformal risk control so that the error among
// trusted forecasts stays below a given α. Pure functions of measured pairs, no Qt GUI, no I/O.
#pragma once

#include <QList>

#include <vector>

namespace gpuf::search {

// The temperature of a Gaussian forecaster from the standardised errors z = (measured − mean) / sd of its earlier
// forecasts: T = √((1 + Σ z²) / (1 + n)) (one pseudo-pair at T = 1, so no pairs give 1), kept in [kMinTemperature,
// kMaxTemperature]. Its forecasts' sd × T then has mean squared standardised error ≈ 1 on the pairs seen.
inline constexpr double kMinTemperature = 0.25;
inline constexpr double kMaxTemperature = 100.0;
double temperatureOf(const std::vector<double> &z);

// One measured pair as calibration sees it: the forecast's confidence and whether the forecast was right.
struct ScoredPair
{
    double confidence = 0.0;
    bool correct = false;
};

// The isotonic map (pool-adjacent-violators) from confidence to the share of right forecasts, fitted on `pairs`:
// knots in increasing confidence, each with the share of its pooled block. Empty without pairs.
struct IsotonicMap
{
    std::vector<double> confidence; // block upper ends, increasing
    std::vector<double> accuracy; // non-decreasing
    // The recalibrated confidence of a raw one: the share of the first block whose upper end is ≥ raw (the last
    // block's above); `raw` itself without knots.
    double operator()(double raw) const;
};
IsotonicMap fitIsotonic(const QList<ScoredPair> &pairs);

// τ by conformal risk control (docs/search.md): among the distinct confidences of the pairs, taken from the highest
// down, a candidate τ trusts the pairs with confidence ≥ τ; its bound is (wrong + 1) / (trusted + 1), the finite-sample
// correction of the error among those trusted for one more exchangeable pair whose loss is at most 1. τ is the lowest
// candidate whose bound is ≤ α (the most forecasts trusted). With no candidate meeting α, nothing is trusted: τ = 1 + ε
// (above any confidence).
struct CertifiedTau
{
    double tau = 1.0 + 1e-9;
    int pairs = 0; // measured pairs it was set on
    int trusted = 0; // of those, with confidence ≥ τ
    int wrong = 0; // of the trusted, forecasts that were wrong
    double bound = 1.0; // (wrong + 1) / (trusted + 1)
    bool trustsAny() const { return trusted > 0; }
    double achieved() const { return trusted > 0 ? double(wrong) / trusted : 0.0; } // error among trusted
};
CertifiedTau conformalTau(const QList<ScoredPair> &pairs, double alpha);

// The drift alarm: the error among trusted forecasts since τ was certified leaves its bound when, over at least
// kDriftMinTrusted trusted forecasts, more were wrong than α allows with a one-sided binomial margin (normal
// approximation, z = 2): wrong > α·n + 2·√(n·α·(1 − α)).
inline constexpr int kDriftMinTrusted = 8;
bool driftExceeded(int trusted, int wrong, double alpha);

} // namespace gpuf::search
