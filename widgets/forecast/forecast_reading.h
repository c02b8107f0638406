// How one forecast reads in words: a single headline that agrees with the figures beside it (the predicted bin, how
// concentrated the distribution is, whether it has two peaks) and, when the expected speedup lands in another bin than
// the predicted one, a note saying why — so "bin 1" never stands unexplained next to "1.22×". Pure; tested with tables.
#pragma once

#include "core/session/pair_forecasts.h"

#include <QString>

namespace gpuf {

struct ForecastReading
{
    // Concentrated: most of the probability sits on a few adjacent bins. Wide: it spreads over many bins. Split: two
    // separate peaks with little between them (a bimodal forecast).
    enum class Shape : quint8 { Concentrated, Wide, Split };
    Shape shape = Shape::Concentrated;
    int predictedBin = 0;
    int likelyBin = 0; // the most probable bin (ties → the lowest)
    // The narrowest run of adjacent bins holding at least kLikelyMass of the probability, and what it holds.
    int firstLikelyBin = 0;
    int lastLikelyBin = 0;
    double likelyMass = 0.0;
    int otherPeakBin = 0; // Split: the second peak (the first is likelyBin)
    int expectedSpeedupBin = 0; // the bin the expected speedup falls in
    QString headline;
    QString expectedNote; // empty when the expected speedup lies in the predicted bin
};

inline constexpr double kLikelyMass = 0.8;

ForecastReading readForecast(const ForecastFigures &figures);

// "bins 5–7 (1.41×–4.00×)" or "bin 4 (1.00×–1.41×)".
QString binSpanText(int firstBin, int lastBin);

} // namespace gpuf
