// Import into and export from a store: gpuf bundles, the paper's published rows and search event logs
// (DESIGN §9, paper-facts §6 and §8).
//
// Import rules (all formats):
// - every file of one importFiles() call is imported in ONE transaction: on any error nothing is written;
// - problems, kernels, hardware, forecasters and searches are deduplicated by natural key (problem name; kernel
//   (problem, SHA-256 of the source); hardware, forecaster and search names): an existing row is reused as it is;
// - a bundle's measurement, forecast or pair label equal to a stored row (row_identity.h: same kernels, GPU,
//   forecaster, outcome and time) is not stored again, so importing a bundle twice, or retrying an import that had
//   committed before a crash, adds nothing; the report counts such rows as already in the store;
// - published rows are keyed by their published ids: a pair label whose (kind, external id) is already stored is
//   deduplicated, as is a prediction already imported (its cache key names label, comparison and repeat);
// - search events keep their sequence: into a new search they are appended as they are; into an existing search
//   an event at a sequence already stored must equal the stored one (then it is deduplicated), a different event
//   there is a conflict (an error), and events past the end must continue the log without a gap.
#pragma once

#include "core/common/result.h"
#include "core/domain/problem.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace gpuf {
class Store;
}

namespace gpuf::interop {

enum class FileFormat {
    Bundle, // gpuf bundle: a header line, then typed records
    EvalSet, // published eval set: comparison_id + anchor_code
    Predictions, // published predictions: surrogate_label
    DiscoveryPairs, // published discovery pairs: pair_id + parent_code
    RlPool, // published RL pool: row_id + pair_type
    HfSearchEvents, // published search-event rows: event_kind + event_index + payload
    EventLog, // a search's raw events.jsonl: kind
};

// "gpuf-bundle", "paper-eval", "paper-predictions", "paper-discovery", "paper-rl-pool", "paper-search-events",
// "events-jsonl".
QString formatName(FileFormat format);

// The format of a JSON Lines file, from its first record's keys.
Result<FileFormat> detectFormat(const QString &file);

struct RecordCount
{
    qint64 added = 0;
    qint64 deduplicated = 0;
};

struct FileReport
{
    QString file;
    FileFormat format = FileFormat::Bundle;
    qint64 lines = 0; // records read (non-blank lines)
    QMap<QString, RecordCount> counts; // by record kind: "problem", "kernel", "pair_label", "search_event", …
    QStringList warnings;
};

struct ImportReport
{
    QList<FileReport> files; // in the order the files were given
    RecordCount total(const QString &kind) const;
    // One line per file, in words for people: "sample.jsonl (gpuf bundle, 4,508 lines): added 13 problems, 152
    // kernels, 3,570 forecasts; 2 kernels were already stored", then its warnings.
    QString text() const;
};

struct ImportProgress
{
    int fileIndex = 0; // 0-based, in the order the files are processed
    int fileCount = 0;
    QString file;
    double fraction = 0.0; // of the current file, 0..1
};

struct ImportOptions
{
    // Called a few times per megabyte; returning false cancels the import (nothing is written).
    std::function<bool(const ImportProgress &)> progress;
};

Result<ImportReport> importFiles(Store &store, const QStringList &files, const ImportOptions &options = {});

// Writes the whole store as a gpuf bundle: records by kind in dependency order (hardware, forecaster, problem,
// kernel, measurement, pair_label, forecast, search, search_event), then by row id. The file is written under a
// temporary name and renamed at the end, so a failed export never leaves a partial file.
Status exportBundle(Store &store, const QString &file);

// The window's choices a case file keeps, so that opening it shows the pair as it was seen: the forecaster and GPU by
// name (empty: none) and the trust threshold τ.
struct CaseViewChoice
{
    QString forecaster;
    QString hardware;
    std::optional<double> trustThreshold;
};

// A case file (issue 28): one pair as a gpuf bundle — the candidate `candidateId`, its problem's reference and the
// problem, their measurements with verdicts, the pair's labels and forecasts with reasoning, only the hardware and
// forecasters these name, and last the view (a case_view record). Imported like any bundle, it adds what the store
// lacks and nothing twice. Fails when the kernel is unknown or is its problem's reference.
Status exportCase(Store &store, const QString &file, RowId candidateId, const CaseViewChoice &view = {});

} // namespace gpuf::interop
