// Temperature scaling of the cost model's probabilities: p_T ∝ p^(1/T), i.e. the softmax logits divided by T. T is
// fitted on held-out predictions by minimising their negative log-likelihood; T = 1 changes nothing, T > 1 softens
// an over-confident model. Pure functions.
#pragma once

#include "core/bins/bins.h"

#include <span>

namespace gpuf::costmodel {

inline constexpr double kMinTemperature = 0.05;
inline constexpr double kMaxTemperature = 20.0;

// p^(1/T) renormalised; zeros stay zero. T must be positive.
bins::Distribution applyTemperature(const bins::Distribution &p, double temperature);

// Mean of −ln(max(p_T[t], 1e-12)) over the rows (trueBins are 1..8).
double meanNll(std::span<const bins::Distribution> predictions, std::span<const int> trueBins, double temperature);

// The T in [kMinTemperature, kMaxTemperature] minimising meanNll (golden-section search on log T, which is unimodal
// for this family); 1 when there are no rows.
double fitTemperature(std::span<const bins::Distribution> predictions, std::span<const int> trueBins);

} // namespace gpuf::costmodel
