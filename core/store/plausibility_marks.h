// Which kernels have a measured time that beats the bandwidth floor (faster than their bytes can move): gpuf-measure's
// own verdict where the measurement carries it (counters floor_us and implausible), else bytes ÷ peak bandwidth from
// the problem's spec and the GPU's peak rates (core/domain/roofline.h). For the candidate table, the forecast panel
// and a search's tree, which marks such a kernel as implausible — the sign of a broken or cheating kernel.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/problem.h"

#include <QHash>
#include <QList>
#include <QSqlDatabase>
#include <QString>

namespace gpuf {

class Store;

struct ImplausibleCase
{
    QString caseName;
    double timeNs = 0.0; // the median measured
    double floorNs = 0.0; // bytes ÷ peak bandwidth
    bool fromWorker = false; // gpuf-measure's verdict, else computed here
};

// One kernel's newest measurements on one GPU that are implausible (at least one case).
struct ImplausibleMark
{
    RowId kernelId = 0;
    RowId hardwareId = 0;
    QString hardwareName;
    QList<ImplausibleCase> cases; // in case-name order

    // "n=16M: 40.0 µs, below the 60.1 µs its bytes need at peak bandwidth" (the first case, and how many more).
    QString text() const;
};

// Kernel id → its marks, one per GPU with an implausible newest measurement. Kernels without one are absent, so a
// search's tree asks `marks.contains(node.kernelId)` per node.
using ImplausibleMarks = QHash<RowId, QList<ImplausibleMark>>;

// The per-node flag a search's tree draws: the node's kernel has an implausible newest time on `hardwareId` (any GPU
// when 0).
bool hasImplausibleTime(const ImplausibleMarks &marks, RowId kernelId, RowId hardwareId = 0);

// The marks of `kernelIds` (every kernel when empty), from the newest ok measurement of each (kernel, GPU, case).
// Checks `cancel` while reading and fails with Error::cancelled() once it is set.
Result<ImplausibleMarks> readImplausibleMarks(
    Store &store, const QList<RowId> &kernelIds = {}, const CancelToken &cancel = {});
// The same on a connection of the caller's (a side read of the candidate table).
Result<ImplausibleMarks> readImplausibleMarks(
    QSqlDatabase &db, const QList<RowId> &kernelIds, const CancelToken &cancel = {});

} // namespace gpuf
