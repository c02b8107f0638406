// When a bundle's measurement, forecast or pair label is a row the store already holds: the same kernels, GPU and
// forecaster, the same outcome, and the same time when the record gives one. Importing a bundle twice, or again after
// a crash whose import had in fact committed, then adds nothing (as a recorded sweep imported twice adds nothing).
#pragma once

#include "core/domain/forecast.h"
#include "core/domain/measurement.h"

namespace gpuf::interop {

// `incoming` is the record (ids resolved), `stored` a row of the store. A record without a time matches a stored row
// of any time: the store gave it the time of its first import.
bool sameMeasurement(const Measurement &incoming, const Measurement &stored);
bool sameForecast(const Forecast &incoming, const Forecast &stored);
bool samePairLabel(const PairLabel &incoming, const PairLabel &stored);

} // namespace gpuf::interop
