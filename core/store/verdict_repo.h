// VerdictRepo: what a person decided about a measurement (quarantined, with a note). Verdicts computed from the
// evidence (clean, suspicious) are never stored; they are derived each time from the measurement (core/evidence).
#pragma once

#include "core/common/result.h"
#include "core/domain/problem.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace gpuf {

class Store;

struct StoredVerdict
{
    RowId measurementId = 0;
    QString verdict; // "quarantined"
    QString note;
    QDateTime createdAt;
};

class VerdictRepo
{
public:
    explicit VerdictRepo(Store &store)
        : m_store(store)
    { }
    // Quarantines `measurementId` with `note` (a quarantine already there gets the new note). The measurement must
    // exist; the note must not be empty.
    Status quarantine(RowId measurementId, const QString &note, const QDateTime &at = {});
    // Lifts the quarantine; false when there was none.
    Result<bool> release(RowId measurementId);
    Result<std::optional<StoredVerdict>> find(RowId measurementId);
    // The kernel the measurement `measurementId` timed; 0 when the store has no such measurement.
    Result<RowId> kernelOfMeasurement(RowId measurementId);
    // Every stored verdict, by measurement id.
    Result<QHash<RowId, StoredVerdict>> all();

private:
    Store &m_store;
};

} // namespace gpuf
