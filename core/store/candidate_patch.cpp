// patchCandidateTable; see candidate_rows.h.
#include "core/store/candidate_rows.h"

#include <QSet>

#include <algorithm>

namespace gpuf {
namespace {

// A patch of more rows than this reads the whole table instead (about as fast, and simpler to show).
constexpr qsizetype kMaxPatchRows = 2000;

bool sameShape(const CandidateTable &a, const CandidateTable &b)
{
    const auto hardwareIds = [](const CandidateTable &t) {
        QList<RowId> ids;
        for (const CandidateHardware &h : t.hardware)
            ids.append(h.id);
        return ids;
    };
    const auto forecasterIds = [](const CandidateTable &t) {
        QList<RowId> ids;
        for (const CandidateForecaster &f : t.forecasters)
            ids.append(f.id);
        return ids;
    };
    return hardwareIds(a) == hardwareIds(b) && forecasterIds(a) == forecasterIds(b);
}

// `table` with the values of `rows` taken from `fresh` (the same kernels read again) and its counts moved with them.
CandidatePatch mergePatch(const CandidateTable &table, const CandidateTable &fresh, const QList<RowId> &rows)
{
    CandidatePatch patch;
    patch.table = table;
    CandidateTable &out = patch.table;
    const qsizetype hardwareCount = out.hardware.size();
    const qsizetype forecasterCount = out.forecasters.size();
    for (RowId id : rows) {
        const int to = out.rowOf(id);
        const int from = fresh.rowOf(id);
        CandidateRow &row = out.rows[to];
        if (row.baselineId != fresh.rows[from].baselineId) {
            row.baselineId = fresh.rows[from].baselineId;
            row.changedLines = -1; // against another kernel now: computed again by the caller
        }
        for (qsizetype h = 0; h < hardwareCount; ++h) {
            MeasuredCell &cell = out.measured[to * hardwareCount + h];
            const MeasuredCell &now = fresh.measured[from * hardwareCount + h];
            out.hardware[h].measurements += now.runs - cell.runs;
            out.hardware[h].labels += int(now.labelId != 0) - int(cell.labelId != 0);
            cell = now;
        }
        for (qsizetype f = 0; f < forecasterCount; ++f) {
            ForecastCell &cell = out.forecasts[to * forecasterCount + f];
            const ForecastCell &now = fresh.forecasts[from * forecasterCount + f];
            out.forecasters[f].forecasts += int(now.isValid()) - int(cell.isValid());
            cell = now;
        }
        patch.rows.append(to);
    }
    out.chooseDefaults();
    return patch;
}

} // namespace

Result<CandidatePatch> patchCandidateTable(
    Store &store, const CandidateTable &table, const QList<RowId> &kernelIds, const CancelToken &cancel)
{
    CandidatePatch patch;
    const QSet<RowId> changed(kernelIds.cbegin(), kernelIds.cend());
    QList<RowId> rows; // the rows to read again: the changed kernels and the rows measured against them
    for (const CandidateRow &row : table.rows) {
        if (changed.contains(row.id) || changed.contains(row.baselineId))
            rows.append(row.id);
    }
    const bool unknown
        = std::any_of(kernelIds.cbegin(), kernelIds.cend(), [&table](RowId id) { return table.rowOf(id) < 0; });
    if (unknown || rows.size() > kMaxPatchRows) {
        patch.reloadAll = true; // a kernel the table does not have, or a reference measured for thousands of rows
        return patch;
    }
    QSet<RowId> read(rows.cbegin(), rows.cend());
    for (RowId id : std::as_const(rows))
        read.insert(table.rows[table.rowOf(id)].baselineId);
    // A second pass only when a row's baseline is new (its first forecast named one) and was not read with it.
    for (int pass = 0; pass < 2; ++pass) {
        read.remove(0);
        QList<RowId> ids(read.cbegin(), read.cend());
        std::sort(ids.begin(), ids.end());
        auto fresh = readCandidateRows(store, table, ids, cancel);
        if (!fresh)
            return fresh.failure();
        if (!sameShape(table, *fresh)) {
            patch.reloadAll = true; // a new GPU or forecaster: the table's columns of values change
            return patch;
        }
        bool complete = true;
        for (RowId id : std::as_const(rows)) {
            const RowId baseline = fresh->rows[fresh->rowOf(id)].baselineId;
            if (baseline != 0 && !read.contains(baseline)) {
                read.insert(baseline);
                complete = false;
            }
        }
        if (complete)
            return mergePatch(table, *fresh, rows);
    }
    patch.reloadAll = true;
    return patch;
}

} // namespace gpuf
