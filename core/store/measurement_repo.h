// MeasurementRepo and PairLabelRepo: measured runtimes per kernel, and speedup labels per kernel pair.
#pragma once

#include "core/common/result.h"
#include "core/domain/measurement.h"
#include "core/store/statement_cache.h"

namespace gpuf {

class MeasurementRepo
{
public:
    explicit MeasurementRepo(Store &store)
        : m_cache(store)
    { }
    Result<RowId> insert(Measurement &measurement); // sets id and, when not set, createdAt
    Result<QList<Measurement>> forKernel(RowId kernelId, RowId hardwareId = 0);
    Result<QList<Measurement>> list(); // ordered by id
    // This machine's runs (source `local`) on `hardwareId` of the compiled binary whose SHA-256 is `binarySha256` (the
    // worker's `binary_sha256`, kept in each run's provenance), ordered by id.
    Result<QList<Measurement>> localRunsOfBinary(RowId hardwareId, const QString &binarySha256);

private:
    store::StatementCache m_cache;
};

class PairLabelRepo
{
public:
    explicit PairLabelRepo(Store &store)
        : m_cache(store)
    { }
    Result<RowId> insert(PairLabel &label);
    Result<std::optional<PairLabel>> findByExternalId(const QString &kind, const QString &externalId);
    Result<QList<PairLabel>> forPair(RowId referenceKernelId, RowId candidateKernelId); // ordered by id
    Result<QList<PairLabel>> list(); // ordered by id

private:
    store::StatementCache m_cache;
};

} // namespace gpuf
