// ProblemRepo and KernelRepo: problems and the kernels that belong to them.
#pragma once

#include "core/common/result.h"
#include "core/domain/kernel.h"
#include "core/store/statement_cache.h"

#include <QList>
#include <optional>

namespace gpuf {

class Store;

class ProblemRepo
{
public:
    explicit ProblemRepo(Store &store)
        : m_cache(store)
    { }
    Result<RowId> insert(Problem &problem); // sets problem.id
    Result<RowId> ensure(Problem &problem); // by name: the existing id, or insert
    Result<std::optional<Problem>> find(RowId id);
    Result<std::optional<Problem>> findByName(const QString &name);
    Result<QList<Problem>> list(); // ordered by id
    Status setReferenceKernel(RowId problemId, RowId kernelId);

private:
    store::StatementCache m_cache;
};

// A light kernel row for tables: everything but the source text.
struct KernelSummary
{
    RowId id = 0;
    RowId problemId = 0;
    RowId parentId = 0;
    QString name;
    QString language;
    QString contentHash;
    QString origin;
    qint64 createdAtMs = 0; // ms since epoch, UTC
};

class KernelRepo
{
public:
    explicit KernelRepo(Store &store)
        : m_cache(store)
    { }
    // Deduplicates by (problem, content hash): returns the existing kernel's id when the source is already stored.
    // Fills in kernel.contentHash, kernel.id and, when not set, createdAt. `inserted` says which happened.
    Result<RowId> insertOrGet(Kernel &kernel, bool *inserted = nullptr);
    Result<std::optional<Kernel>> find(RowId id);
    Result<std::optional<Kernel>> findByHash(RowId problemId, const QString &contentHash);
    Result<QList<Kernel>> list(RowId problemId = 0); // all when 0; ordered by id
    Result<QList<KernelSummary>> summaries(); // every kernel, no source; ordered by id
    Status setParent(RowId kernelId, RowId parentId);
    // Replaces the kernel's parameters (its launch spec, for one): the source, and so the content hash, stay.
    Status setParameters(RowId kernelId, const QJsonObject &parameters);

private:
    store::StatementCache m_cache;
};

} // namespace gpuf
