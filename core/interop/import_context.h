// ImportContext: the repositories, natural-key caches and per-file counters one import call shares across its
// files; it holds the dedup and event-sequence rules documented in interop.h.
#pragma once

#include "core/interop/interop.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/lesson_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "core/store/verdict_repo.h"

#include <QHash>
#include <QSet>

namespace gpuf::interop {

class LineReader;

class ImportContext
{
public:
    ImportContext(Store &store, const ImportOptions &options);

    ProblemRepo &problems() { return m_problems; }
    KernelRepo &kernels() { return m_kernels; }
    HardwareRepo &hardware() { return m_hardware; }
    MeasurementRepo &measurements() { return m_measurements; }
    PairLabelRepo &labels() { return m_labels; }
    ForecasterRepo &forecasters() { return m_forecasters; }
    ForecastRepo &forecasts() { return m_forecasts; }
    SearchRepo &searches() { return m_searches; }
    LessonRepo &lessons() { return m_lessons; }

    // The file now being imported: its report receives counts and warnings.
    void beginFile(FileReport *report, int index, int count);
    FileReport &report() { return *m_report; }
    void count(const QString &kind, bool added);
    // Counts the row named `key` once per file, however many records name it.
    void countOnce(const QString &kind, const QString &key, bool added);
    void warn(const QString &text) { m_report->warnings.append(text); }
    // Reports progress through pass `pass` of `passes` over the reader's file; false when the user cancelled.
    bool progress(const LineReader &reader, int pass, int passes);

    // Lookups by natural key: 0 when the store does not hold the row.
    Result<RowId> problemByName(const QString &name);
    Result<RowId> kernelByHash(RowId problemId, const QString &hash);
    Result<RowId> hardwareByName(const QString &name);
    Result<RowId> forecasterByName(const QString &name);
    Result<RowId> searchByName(const QString &name);

    // Insert unless a row with the same natural key exists (counted as added or deduplicated). `added` may be null.
    Result<RowId> ensureProblem(Problem &problem, bool *added = nullptr);
    Result<RowId> ensureKernel(Kernel &kernel, bool *added = nullptr);
    Result<RowId> ensureHardware(Hardware &hardware);
    Result<RowId> ensureForecaster(Forecaster &forecaster);
    Result<RowId> ensureSearch(Search &search);
    // A published hardware name: the preset's full row when the name matches one, else a row with only the name.
    Result<RowId> ensurePublishedHardware(const QString &name);

    // Insert unless the store (or this import) already holds an equal row (row_identity.h): counted as added or as
    // already in the store. False when it was already there.
    // Sets measurement.id to the stored row's (new or equal) either way.
    Result<bool> ensureMeasurement(Measurement &measurement);
    // Quarantines `measurementId` with `note` unless it is already quarantined with that note (counted as a
    // "verdict" added or already in the store).
    Result<bool> ensureQuarantine(RowId measurementId, const QString &note, const QDateTime &at);
    Result<bool> ensureForecast(Forecast &forecast);
    Result<bool> ensurePairLabel(PairLabel &label);

    // Stores `event` at `sequence` of its search (see interop.h for the rules); the error says what conflicts.
    Status putEvent(SearchEvent &event, qint64 sequence);

private:
    struct EventLogState
    {
        qint64 count = 0;
        bool loaded = false;
        QList<SearchEvent> stored; // by sequence, loaded only to compare events already stored
    };
    Result<EventLogState *> eventLog(RowId searchId);

    ProblemRepo m_problems;
    KernelRepo m_kernels;
    HardwareRepo m_hardware;
    MeasurementRepo m_measurements;
    PairLabelRepo m_labels;
    ForecasterRepo m_forecasters;
    ForecastRepo m_forecasts;
    SearchRepo m_searches;
    LessonRepo m_lessons;
    VerdictRepo m_verdicts;
    const ImportOptions &m_options;

    FileReport *m_report = nullptr;
    int m_fileIndex = 0;
    int m_fileCount = 0;
    qint64 m_lastProgressBytes = 0;
    int m_lastProgressPass = -1; // a new pass always reports

    QHash<QString, RowId> m_problemIds;
    QHash<QString, RowId> m_kernelIds; // "problemId:hash"
    QHash<QString, RowId> m_hardwareIds;
    QHash<QString, RowId> m_forecasterIds;
    QHash<QString, RowId> m_searchIds;
    QHash<RowId, EventLogState> m_eventLogs;
    // Rows of the store that records may equal, loaded per kernel pair on first need and grown by what is inserted.
    QHash<QString, QList<Measurement>> m_storedMeasurements; // "kernelId:hardwareId"
    QHash<RowId, QList<Forecast>> m_storedForecasts; // by candidate kernel
    QHash<QString, QList<PairLabel>> m_storedLabels; // "referenceId:candidateId"
    QSet<QString> m_counted; // "kind\x1fkey" counted in the current file
};

} // namespace gpuf::interop
