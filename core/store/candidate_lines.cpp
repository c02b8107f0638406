// computeChangedLines; see candidate_rows.h.
#include "core/store/candidate_rows.h"

#include "core/common/thread_priority.h"
#include "core/diff/line_diff.h"
#include "core/store/sql.h"
#include "core/store/store.h"

#include <QSet>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>

namespace gpuf {
namespace {

QString pairKey(const QString &baselineHash, const QString &candidateHash)
{
    return baselineHash + QLatin1Char(':') + candidateHash;
}

// Sources of `ids` (ascending), read with bound IN lists of at most kChunk ids.
Status readSources(QSqlDatabase &db, const QList<RowId> &ids, QHash<RowId, QString> &out, const CancelToken &cancel)
{
    constexpr qsizetype kChunk = 500;
    for (qsizetype begin = 0; begin < ids.size(); begin += kChunk) {
        if (cancel.isCancelled())
            return Error::cancelled();
        const qsizetype count = std::min(kChunk, ids.size() - begin);
        QString statement = QStringLiteral("SELECT id, source FROM kernels WHERE id IN (?");
        statement += QStringLiteral(",?").repeated(count - 1) + QLatin1Char(')');
        auto q = sql::prepare(db, statement);
        if (!q)
            return q.failure();
        for (qsizetype i = 0; i < count; ++i)
            q->addBindValue(ids[begin + i]);
        if (Status s = sql::exec(*q); !s)
            return s;
        while (q->next())
            out.insert(q->value(0).toLongLong(), q->value(1).toString());
    }
    return {};
}

struct DiffJob
{
    int row = 0;
    QString key;
    const QString *baseline = nullptr;
    QString candidate;
    int count = -1;
};

} // namespace

Result<ChangedLines> computeChangedLines(
    Store &store, const CandidateTable &table, const ChangedLineCache &known, const CancelToken &cancel)
{
    ChangedLines out;
    out.perRow.fill(-1, table.rows.size());
    QList<int> uncounted;
    QSet<RowId> baselineIds;
    for (qsizetype i = 0; i < table.rows.size(); ++i) {
        const CandidateRow &row = table.rows[i];
        const int baselineRow = row.baselineId == 0 ? -1 : table.rowOf(row.baselineId);
        if (baselineRow < 0)
            continue;
        const CandidateRow &baseline = table.rows[baselineRow];
        if (baseline.contentHash == row.contentHash) {
            out.perRow[i] = 0;
        } else if (const auto it = known.constFind(pairKey(baseline.contentHash, row.contentHash));
                   it != known.cend()) {
            out.perRow[i] = *it;
        } else {
            uncounted.append(int(i));
            baselineIds.insert(baseline.id);
        }
    }
    QList<RowId> sortedBaselines(baselineIds.cbegin(), baselineIds.cend());
    std::sort(sortedBaselines.begin(), sortedBaselines.end());
    QHash<RowId, QString> baselineSources;
    if (Status s = readSources(store.database(), sortedBaselines, baselineSources, cancel); !s)
        return s.failure();

    // A pool of this call's own, as in loadCandidateTable: the caller is usually a global-pool job.
    QThreadPool pool;
    constexpr qsizetype kChunk = 2000;
    for (qsizetype begin = 0; begin < uncounted.size(); begin += kChunk) {
        const QList<int> chunk = uncounted.mid(begin, kChunk);
        QList<RowId> ids;
        for (int row : chunk)
            ids.append(table.rows[row].id);
        QHash<RowId, QString> sources;
        if (Status s = readSources(store.database(), ids, sources, cancel); !s)
            return s.failure();
        QList<DiffJob> jobs;
        for (int row : chunk) {
            const CandidateRow &candidate = table.rows[row];
            const auto baseline = baselineSources.constFind(candidate.baselineId);
            const QString key
                = pairKey(table.rows[table.rowOf(candidate.baselineId)].contentHash, candidate.contentHash);
            if (const auto done = out.computed.constFind(key); done != out.computed.cend())
                out.perRow[row] = *done;
            else if (baseline != baselineSources.cend() && sources.contains(candidate.id))
                jobs.append({row, key, &*baseline, sources.value(candidate.id)});
        }
        QtConcurrent::blockingMap(&pool, jobs, [cancel](DiffJob &job) {
            lowerCurrentThreadPriority(); // background diffing yields the core to the GUI thread
            job.count = diff::changedLineCount(*job.baseline, job.candidate, false, cancel).value_or(-1);
        });
        if (cancel.isCancelled())
            return Error::cancelled();
        for (const DiffJob &job : std::as_const(jobs)) {
            out.perRow[job.row] = job.count;
            out.computed.insert(job.key, job.count);
        }
    }
    return out;
}

} // namespace gpuf
