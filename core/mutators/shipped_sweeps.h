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

// Is `path` a recorded sweep (its first line a gpuf-sweep/1 header)? Reads that line only.
bool looksLikeSweep(const QString &path);

// Imports the sweep file `path` of a shipped family into `store` (one transaction; what is already there is reused).
// The error names the file.
Result<SweepImportReport> importSweepFile(Store &store, const QString &path);

// Imports every shipped sweep into `store`, each in its own transaction (a sweep already there adds nothing); the
// report sums them. The error names the file.
Result<SweepImportReport> importShippedSweeps(Store &store);

} // namespace gpuf::families
