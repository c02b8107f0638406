// The recorded family sweeps that ship with gpuf (resources/sweeps, installed under share/gpuf/sweeps). The sample
// store holds every one of them, so a family search on it replays out of the box.
#pragma once

#include "core/mutators/sweep_file.h"

#include <QStringList>

namespace gpuf {
class Store;
}

namespace gpuf::families {

// The shipped sweep files (absolute paths), by name; empty when this installation has none.
QStringList shippedSweepFiles();

// Imports every shipped sweep into `store`, each in its own transaction (a sweep already there adds nothing); the
// report sums them. The error names the file.
Result<SweepImportReport> importShippedSweeps(Store &store);

} // namespace gpuf::families
