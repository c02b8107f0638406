// ProblemRepo and KernelRepo; see problem_repo.h.
#include "core/store/problem_repo.h"

#include "core/store/json_text.h"
#include "core/store/sql.h"
#include "core/store/store.h"

namespace gpuf {
namespace {

const QString kProblemColumns = QStringLiteral(
    "id, name, description, family, reference_kernel_id, cases_json, tolerances_json, backend, created_at");

Problem problemFrom(const QSqlQuery &q)
{
    Problem p;
    p.id = q.value(0).toLongLong();
    p.name = q.value(1).toString();
    p.description = q.value(2).toString();
    p.family = q.value(3).toString();
    p.referenceKernelId = q.value(4).toLongLong();
    p.cases = store::jsonArray(q.value(5).toString());
    p.tolerances = store::jsonObject(q.value(6).toString());
    p.backend = backendFromName(q.value(7).toString()).value_or(Backend::Cuda);
    p.createdAt = sql::fromStoredTime(q.value(8).toString());
    return p;
}

const QString kKernelColumns = QStringLiteral(
    "id, problem_id, parent_id, name, language, source, content_hash, origin, parameters_json, notes, created_at");

Kernel kernelFrom(const QSqlQuery &q)
{
    Kernel k;
    k.id = q.value(0).toLongLong();
    k.problemId = q.value(1).toLongLong();
    k.parentId = q.value(2).toLongLong();
    k.name = q.value(3).toString();
    k.language = q.value(4).toString();
    k.source = q.value(5).toString();
    k.contentHash = q.value(6).toString();
    k.origin = q.value(7).toString();
    k.parameters = store::jsonObject(q.value(8).toString());
    k.notes = q.value(9).toString();
    k.createdAt = sql::fromStoredTime(q.value(10).toString());
    return k;
}

} // namespace

Result<RowId> ProblemRepo::insert(Problem &problem)
{
    if (problem.name.trimmed().isEmpty())
        return Error {QStringLiteral("a problem needs a name")};
    auto q = m_cache.get(QStringLiteral(
        "INSERT INTO problems (name, description, family, reference_kernel_id, cases_json, tolerances_json, backend,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    if (!q)
        return Error {q.error()};
    if (!problem.createdAt.isValid())
        problem.createdAt = QDateTime::currentDateTimeUtc();
    Status s = store::execBound(*q,
        {problem.name, problem.description, problem.family, sql::idOrNull(problem.referenceKernelId),
            store::jsonText(problem.cases), store::jsonText(problem.tolerances), backendName(problem.backend),
            sql::toStoredTime(problem.createdAt)});
    if (!s)
        return Error {QStringLiteral("cannot store problem '%1': %2").arg(problem.name, s.error())};
    problem.id = (*q)->lastInsertId().toLongLong();
    return problem.id;
}

Result<RowId> ProblemRepo::ensure(Problem &problem)
{
    auto existing = findByName(problem.name);
    if (!existing)
        return Error {existing.error()};
    if (existing->has_value()) {
        problem.id = (*existing)->id;
        return problem.id;
    }
    return insert(problem);
}

Result<std::optional<Problem>> ProblemRepo::find(RowId id)
{
    return store::fetchOne<Problem>(
        m_cache.get(QStringLiteral("SELECT ") + kProblemColumns + QStringLiteral(" FROM problems WHERE id = ?")), {id},
        problemFrom);
}

Result<std::optional<Problem>> ProblemRepo::findByName(const QString &name)
{
    return store::fetchOne<Problem>(
        m_cache.get(QStringLiteral("SELECT ") + kProblemColumns + QStringLiteral(" FROM problems WHERE name = ?")),
        {name}, problemFrom);
}

Result<QList<Problem>> ProblemRepo::list()
{
    auto q = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT ") + kProblemColumns + QStringLiteral(" FROM problems ORDER BY id"));
    if (!q)
        return Error {q.error()};
    QList<Problem> out;
    while (q->next())
        out.append(problemFrom(*q));
    return out;
}

Status ProblemRepo::setReferenceKernel(RowId problemId, RowId kernelId)
{
    auto q = m_cache.get(QStringLiteral("UPDATE problems SET reference_kernel_id = ? WHERE id = ?"));
    if (!q)
        return Error {q.error()};
    return store::execBound(*q, {sql::idOrNull(kernelId), problemId});
}

Result<RowId> KernelRepo::insertOrGet(Kernel &kernel, bool *inserted)
{
    if (inserted)
        *inserted = false;
    if (kernel.problemId <= 0)
        return Error {QStringLiteral("a kernel needs a problem")};
    if (!isValidOrigin(kernel.origin))
        return Error {QStringLiteral("'%1' is not a valid kernel origin (seed, corpus, param, manual, llm:<model>,"
                                     " import:<source>)")
                          .arg(kernel.origin)};
    kernel.contentHash = contentHashOf(kernel.source);
    if (kernel.language.isEmpty())
        kernel.language = guessLanguage(kernel.source);
    // Insert first and look up only on a conflict: new kernels (the common case in batches) cost one statement.
    auto q = m_cache.get(QStringLiteral(
        "INSERT INTO kernels (problem_id, parent_id, name, language, source, content_hash, origin, parameters_json,"
        " notes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (problem_id, content_hash) DO NOTHING"));
    if (!q)
        return Error {q.error()};
    if (!kernel.createdAt.isValid())
        kernel.createdAt = QDateTime::currentDateTimeUtc();
    Status s = store::execBound(*q,
        {kernel.problemId, sql::idOrNull(kernel.parentId), kernel.name, kernel.language, kernel.source,
            kernel.contentHash, kernel.origin, store::jsonText(kernel.parameters), kernel.notes,
            sql::toStoredTime(kernel.createdAt)});
    if (!s)
        return Error {QStringLiteral("cannot store kernel: %1").arg(s.error())};
    if ((*q)->numRowsAffected() == 0) {
        auto find = m_cache.get(QStringLiteral("SELECT id FROM kernels WHERE problem_id = ? AND content_hash = ?"));
        if (!find)
            return Error {find.error()};
        if (Status f = store::execBound(*find, {kernel.problemId, kernel.contentHash}); !f)
            return Error {f.error()};
        if (!(*find)->next())
            return Error {QStringLiteral("kernel %1 vanished while storing it").arg(kernel.contentHash)};
        kernel.id = (*find)->value(0).toLongLong();
        return kernel.id;
    }
    kernel.id = (*q)->lastInsertId().toLongLong();
    if (inserted)
        *inserted = true;
    return kernel.id;
}

Result<std::optional<Kernel>> KernelRepo::find(RowId id)
{
    return store::fetchOne<Kernel>(
        m_cache.get(QStringLiteral("SELECT ") + kKernelColumns + QStringLiteral(" FROM kernels WHERE id = ?")), {id},
        kernelFrom);
}

Result<std::optional<Kernel>> KernelRepo::findByHash(RowId problemId, const QString &contentHash)
{
    return store::fetchOne<Kernel>(m_cache.get(QStringLiteral("SELECT ") + kKernelColumns
                                       + QStringLiteral(" FROM kernels WHERE problem_id = ? AND content_hash = ?")),
        {problemId, contentHash}, kernelFrom);
}

Result<QList<Kernel>> KernelRepo::list(RowId problemId)
{
    QString statement = QStringLiteral("SELECT ") + kKernelColumns + QStringLiteral(" FROM kernels");
    if (problemId > 0)
        statement += QStringLiteral(" WHERE problem_id = ?");
    statement += QStringLiteral(" ORDER BY id");
    auto q = problemId > 0 ? sql::run(m_cache.store().database(), statement, {problemId})
                           : sql::run(m_cache.store().database(), statement);
    if (!q)
        return Error {q.error()};
    QList<Kernel> out;
    while (q->next())
        out.append(kernelFrom(*q));
    return out;
}

Result<QList<KernelSummary>> KernelRepo::summaries()
{
    auto q = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT id, problem_id, parent_id, name, language, content_hash, origin,"
                       " CAST((julianday(created_at) - 2440587.5) * 86400000.0 AS INTEGER)"
                       " FROM kernels ORDER BY id"));
    if (!q)
        return Error {q.error()};
    QList<KernelSummary> out;
    while (q->next()) {
        KernelSummary k;
        k.id = q->value(0).toLongLong();
        k.problemId = q->value(1).toLongLong();
        k.parentId = q->value(2).toLongLong();
        k.name = q->value(3).toString();
        k.language = q->value(4).toString();
        k.contentHash = q->value(5).toString();
        k.origin = q->value(6).toString();
        k.createdAtMs = q->value(7).toLongLong();
        out.append(std::move(k));
    }
    return out;
}

Status KernelRepo::setParent(RowId kernelId, RowId parentId)
{
    if (kernelId == parentId && kernelId > 0)
        return Error {QStringLiteral("a kernel cannot be its own parent")};
    auto q = m_cache.get(QStringLiteral("UPDATE kernels SET parent_id = ? WHERE id = ?"));
    if (!q)
        return Error {q.error()};
    return store::execBound(*q, {sql::idOrNull(parentId), kernelId});
}

Status KernelRepo::setParameters(RowId kernelId, const QJsonObject &parameters)
{
    auto q = m_cache.get(QStringLiteral("UPDATE kernels SET parameters_json = ? WHERE id = ?"));
    if (!q)
        return Error {q.error()};
    return store::execBound(*q, {store::jsonText(parameters), kernelId});
}

} // namespace gpuf
