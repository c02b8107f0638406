// CandidateTable: everything the candidate browser shows for a whole store, read in a few queries (never one per
// row) and handed to the GUI as one immutable value; values per hardware and per forecaster are all loaded, so
// switching which ones the table shows needs no reload.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/measurement.h"

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace gpuf {

class Store;

struct CandidateProblem
{
    RowId id = 0;
    QString name;
    RowId referenceKernelId = 0; // 0: the problem names no reference
};

// A search and the kernels that belong to it: the kernels its imported pair labels name (extra.source_search is the
// search's name) and the kernels its events name (payload.kernel_id).
struct CandidateSearch
{
    RowId id = 0;
    QString name;
    RowId problemId = 0; // 0: not tied to one problem
    QList<RowId> kernelIds; // ascending, unique
};

struct CandidateHardware
{
    RowId id = 0; // 0: the slot of pair labels that name no hardware
    QString name;
    qint64 measurements = 0; // latest measurement per (kernel, case)
    qint64 labels = 0; // candidates with a label
};

struct CandidateForecaster
{
    RowId id = 0;
    QString name;
    QString displayName;
    qint64 forecasts = 0; // candidates with an ok forecast
};

// What is known of one candidate's speedup on one hardware: its own measurements against its baseline's
// (DESIGN §4), and the newest imported pair label.
// A Python case's two figures as its measurement's counters.timings hold them (docs/python-problems.md): device
// time and call time medians in µs (0: not recorded), whether the speedup uses the call time, and the launch-bound
// flag.
struct PythonTimes
{
    float deviceUs = 0.0F;
    float callUs = 0.0F;
    bool byCall = false;
    bool launchBound = false;
};

struct MeasuredCell
{
    enum class State : quint8 {
        None, // no measurement on this hardware
        Speedup, // geometric mean over the cases both kernels measured ok
        Failed, // a case of the candidate failed: a failure, not a bin
        NoBaseline, // measured ok, but the baseline has no ok measurement of the same cases
    };
    State state = State::None;
    MeasurementStatus failure = MeasurementStatus::Ok; // the first failed case's status, when Failed
    int cases = 0; // cases in the geometric mean
    double speedup = 0.0;
    // The state rests on runtimes replayed from stored ones (source 'replay', MeasuredSpeedup::replayed), not on
    // runs made here; replayRecordedMs is when the newest replayed runtime was first recorded (0: not known).
    bool replayed = false;
    qint64 replayRecordedMs = 0;
    // Cases whose newest ok run beats the bandwidth floor on this hardware (plausibility_marks.h); 0: none. The text
    // says which case and by how much, for the mark's tool tip.
    int implausibleCases = 0;
    QString implausibleText;

    int runs = 0; // the newest run of each case measured on this hardware (what CandidateHardware::measurements counts)

    // A Python candidate's device time and call time, geometric means over its newest ok runs that hold both (0:
    // none does), whether its speedup uses the call time, and how many of those cases are launch-bound.
    float deviceUs = 0.0F;
    float callUs = 0.0F;
    int timesCases = 0;
    bool speedupByCall = false;
    int launchBoundCases = 0;

    RowId labelId = 0; // 0: no label
    RowId labelReferenceId = 0;
    std::optional<double> labelSpeedup; // absent: the label says the candidate failed
    std::optional<int> labelBin; // the true bin as published

    bool hasMeasurement() const { return state != State::None; }
    bool hasTimes() const { return timesCases > 0; }
    bool isReplay() const { return hasMeasurement() && replayed; }
    // The label stands in only where there is no measurement.
    bool usesLabel() const { return state == State::None && labelId != 0; }
    bool isKnown() const { return hasMeasurement() || labelId != 0; }
    bool failed() const;
    std::optional<double> truthSpeedup() const;
    std::optional<int> truthBin() const;
};

// The newest ok forecast of one candidate by one forecaster (forecasts against the candidate's baseline first).
struct ForecastCell
{
    RowId forecastId = 0; // 0: none
    RowId referenceKernelId = 0;
    RowId hardwareId = 0;
    int predictedBin = 0; // 1..8 (the model's own choice, else the most probable bin)
    double confidence = 0.0; // probability of the predicted bin
    double expectedBin = 0.0; // Σ b·p_b
    double expectedSpeedup = 0.0; // Σ p_b·m_b

    bool isValid() const { return forecastId != 0; }
};

struct CandidateRow
{
    RowId id = 0;
    RowId problemId = 0;
    RowId parentId = 0;
    // What the kernel is compared with: its problem's reference, else the reference of its newest pair label, else
    // that of its newest forecast; 0 when none is known.
    RowId baselineId = 0;
    QString name;
    QString contentHash;
    QString language;
    QString origin;
    qint64 createdAtMs = 0;
    int problemIndex = -1; // into CandidateTable::problems
    int changedLines = -1; // lines changed against the baseline; -1 until computed, or without a baseline
    bool isReference = false; // the reference kernel of its problem
    // Positions in a case-insensitive order of the texts, so the table sorts integers.
    int nameRank = 0;
    int problemRank = 0;
    int languageRank = 0;
    int originRank = 0;

    QString displayName() const; // the name, else the first 12 characters of the content hash
};

struct CandidateTable
{
    QList<CandidateRow> rows; // ascending id
    QList<CandidateProblem> problems; // ascending id
    QList<CandidateSearch> searches; // ascending id
    QList<CandidateHardware> hardware;
    QList<CandidateForecaster> forecasters;
    QStringList origins; // distinct origins, sorted
    QList<MeasuredCell> measured; // rows × hardware, row-major
    QList<ForecastCell> forecasts; // rows × forecasters, row-major
    int defaultHardware = -1; // the hardware with most measurements (then labels); -1: none
    int defaultForecaster = -1; // the forecaster with most forecasts; -1: none

    int rowOf(RowId kernelId) const; // -1 when absent
    int problemIndexOf(RowId problemId) const;
    int searchIndexOf(RowId searchId) const;
    const MeasuredCell &measuredCell(int row, int hardwareIndex) const;
    const ForecastCell &forecastCell(int row, int forecasterIndex) const;
    // Sets defaultHardware and defaultForecaster from the counts.
    void chooseDefaults();
};

// Loads the table in one read transaction. Checks `cancel` between stages and fails with Error::cancelled() once it is
// cancelled. changedLines are left at -1: computeChangedLines fills them in a second stage. The side reads run on a
// thread pool of the call's own (never the global one, which its caller may be running on: waiting there for
// global-pool work can deadlock when every global thread waits the same way).
Result<CandidateTable> loadCandidateTable(Store &store, const CancelToken &cancel = {});

// The rows of `ids` (ascending kernels of `base`) read again, as a table of those rows only: the kernels, problems and
// name ranks are taken from `base`, the hardware and forecasters read afresh, the searches not at all.
Result<CandidateTable> readCandidateRows(
    Store &store, const CandidateTable &base, const QList<RowId> &ids, const CancelToken &cancel = {});

// A table with the values of some rows read again after a write, so a view updates those rows only.
struct CandidatePatch
{
    // The write changed what the table is made of (a kernel it does not have, a new GPU or forecaster) or touched so
    // many rows that reading it whole is simpler: load it again instead.
    bool reloadAll = false;
    CandidateTable table; // the table with the rows replaced; per-hardware and per-forecaster counts follow them
    QList<int> rows; // the rows read again, ascending; a row whose baseline changed has changedLines -1
    QList<int> added; // growCandidateTable: the rows appended (at the end, ascending; also in rows)
};

// `table` after measurements, forecasts or labels of `kernelIds` changed: the rows of those kernels, and of the kernels
// compared with them, read again (a few queries bound to those ids; never the whole store).
Result<CandidatePatch> patchCandidateTable(
    Store &store, const CandidateTable &table, const QList<RowId> &kernelIds, const CancelToken &cancel = {});

// `table` after kernels were added or search events stored: kernels it does not have yet (ids above its last row's)
// appended as rows with their values (CandidatePatch::added), the kernels of `searchIds` read again from their
// events (a search it does not have added), then the rows of `kernelIds` it has patched as patchCandidateTable does.
// reloadAll when the new kernels cannot simply be appended (a lower id, an unknown problem, too many).
Result<CandidatePatch> growCandidateTable(Store &store, const CandidateTable &table, const QList<RowId> &kernelIds,
    const QList<RowId> &searchIds, const CancelToken &cancel = {});

// The rows' sort ranks (name, problem, language, origin) and the table's origins, from its rows; `nameRanks` are the
// rows' display names' dense ranks when known (rankCandidateRows computes them).
void applyCandidateRanks(CandidateTable &table, const QList<int> &nameRanks);
// Dense ranks of `texts` in case-insensitive order (equal texts share a rank).
QList<int> denseTextRanks(const QStringList &texts);
void rankCandidateRows(CandidateTable &table);

// Changed-line counts keyed by "<baseline hash>:<candidate hash>"; kept by the caller between loads so only new
// pairs are diffed again.
using ChangedLineCache = QHash<QString, int>;

struct ChangedLines
{
    QList<int> perRow; // parallel to CandidateTable::rows; -1 where the row has no baseline
    ChangedLineCache computed; // the counts this call had to diff (to merge into the caller's cache)
};

// diff::changedLineCount of every row against its baseline. Sources are read in id-range chunks and diffed in
// parallel on a thread pool of the call's own; pairs found in `known`, and identical hashes, are not diffed.
Result<ChangedLines> computeChangedLines(
    Store &store, const CandidateTable &table, const ChangedLineCache &known = {}, const CancelToken &cancel = {});

} // namespace gpuf
