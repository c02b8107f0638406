// Compile features: registers, spills, shared and local memory and the PTX instruction mix of a kernel, read from a
// gpuf-measure `compile` answer (docs/measure-protocol.md) or from a stored measurement's resource usage. Optional:
// without them the features stay missing and the cost model treats them as such.
#pragma once

#include "core/features/kernel_features.h"

#include <QJsonObject>

namespace gpuf::features {

// `compile`: the worker's compile object ({"ok", "kernels": [...], "ptx_mix": {...}}). The heaviest kernel (most
// registers) gives registers, spills, static shared and local bytes; ptx_mix (summed over the module) gives the
// instruction counts. Returns false (features untouched) when the object holds no usable kernel.
bool applyCompileResult(KernelFeatures &features, const QJsonObject &compile);

// Registers, shared and local bytes as a measurement stores them (-1: unknown, left missing).
void applyResourceUsage(KernelFeatures &features, int registers, int sharedMemoryBytes, int localMemoryBytes);

// True when any compile feature is present.
bool hasCompileFeatures(const KernelFeatures &features);

// Sets every compile feature to missing (what a forecast without the toolkit sees).
void clearCompileFeatures(KernelFeatures &features);

} // namespace gpuf::features
