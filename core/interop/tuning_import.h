// A tuning result of another auto-tuner (Kernel Tuner cache, T4; tuning_results.h) stored as a searchable space: a
// problem named for the space, one kernel per configuration (the kernel template with the tunables' #defines above it
// when one is given, else a source that only lists the configuration), the reference configuration, the GPU, and one
// recorded measurement per configuration (failures with the file's reason), so replay searches, `gpuf search
// compare` and the explorer use it like a family's recorded sweep. Idempotent: importing the same file again adds
// nothing. (The way back, a recorded space as T4: core/search/space_export.h.)
#pragma once

#include "core/common/result.h"
#include "core/domain/problem.h"
#include "core/interop/tuning_results.h"

namespace gpuf {
class Store;
}

namespace gpuf::interop {

struct TuningImportOptions
{
    QString name; // the space's and its problem's name; empty: the file's kernel name, else its base name
    QString hardware; // the GPU's name; required when the file names none (T4), else it must agree with the file
    QString templateText; // the kernel template (Kernel Tuner's kernel source without the tunables' #defines)
    QString templateFile; // its path, for error messages
    // The reference configuration ("block_size_x=16 tile_size_x=2 …", every tunable); empty: the valid configuration
    // of median time, so speedups spread around 1×.
    QString reference;
    QString sourceFile; // the file read, for provenance
};

struct TuningImportReport
{
    QString space;
    RowId problemId = 0;
    RowId hardwareId = 0;
    QString hardware;
    int configurations = 0; // configurations in the file
    int kernelsAdded = 0;
    int measurementsAdded = 0;
    int failures = 0; // configurations whose evaluation failed (stored as failed measurements)
    QString reference; // the reference configuration's label
    bool withTemplate = false;
    QStringList warnings; // e.g. tunables the template never names
    QString text() const; // one line for people, then the warnings
};

// Checks everything first (names, the template, the reference), then writes in one transaction; an error leaves the
// store as it was.
Result<TuningImportReport> importTuningResults(
    Store &store, const TuningResults &results, const TuningImportOptions &options);

// Whether FILE looks like another auto-tuner's results rather than JSON Lines (gzip, or a JSON document with a
// Kernel Tuner `cache` or T4 `results`), so `gpuf import` and File → Import… route it here.
bool looksLikeTuningResults(const QString &file);

// What a template does with the tunables. Errors: a #define of a tunable that is not guarded by #ifndef (Kernel Tuner
// puts the tunables' #defines above the template, so an unguarded one redefines them). Warnings: a tunable the
// template never names (it changes nothing in the code; real spaces have such tunables).
struct TemplateCheck
{
    QStringList errors;
    QStringList warnings;
};
TemplateCheck checkTemplate(const QString &text, const QString &file, const QList<TuningTunable> &tunables);

} // namespace gpuf::interop
