// CandidateSource: the candidate table of the open store, loaded off the GUI thread in two stages (the table,
// then the lines changed against each baseline) and shared by the candidate browser and the problems tree. After a
// write it reads again only the rows the write changed, and appends the kernels it added (rowsPatched), unless the
// write changed what the table is made of. It also holds the set of kernels queued for measurement, which the views
// mark "pending".
#pragma once

#include "core/session/candidate_query.h"
#include "core/session/latest_job.h"
#include "core/session/store_change.h"

#include <QObject>
#include <QSet>

#include <memory>

namespace gpuf {

class StoreSession;

class CandidateSource : public QObject
{
    Q_OBJECT

public:
    // Follows `session` (may be null): loads when it opens a store, patches or reloads after its changes, clears when
    // it closes.
    explicit CandidateSource(StoreSession *session, QObject *parent = nullptr);
    ~CandidateSource() override;

    // Loads the store at `path` (an existing store; the newest request wins).
    void load(const QString &path);
    void clear();
    // Follows a write to the loaded store: the rows of the kernels it changed are read again (rowsPatched), or the
    // whole table when the write changed what it is made of; a change that touches no row does nothing.
    void applyChange(const gpuf::StoreChange &change);

    CandidateTablePtr table() const { return m_table; }
    QString path() const { return m_path; }
    bool isLoading() const { return m_tableJob.isRunning(); }
    bool changedLinesPending() const { return m_linesJob.isRunning(); }
    bool isPatching() const { return m_patchJob.isRunning(); }

    // The hook for a measurement queue: kernels queued for measurement show as pending.
    QSet<RowId> pendingIds() const { return m_pending; }
    void setPendingIds(const QSet<RowId> &ids);

Q_SIGNALS:
    void loadingStarted(const QString &path);
    // A new table: other rows than before. Changed lines are not known yet (-1).
    void tableLoaded(const gpuf::CandidateTablePtr &table);
    // The same rows with more values: the changed-line counts arrived.
    void tableUpdated(const gpuf::CandidateTablePtr &table);
    // The values of `rows` (indices into table->rows, ascending) read again after a write. The table may have grown:
    // the rows past the previous table's end are new kernels, appended (and among `rows`).
    void rowsPatched(const gpuf::CandidateTablePtr &table, const QList<int> &rows);
    void loadFailed(const QString &message);
    void cleared();
    void pendingIdsChanged(const QSet<gpuf::RowId> &ids);

private:
    struct Lines
    {
        CandidateTablePtr table; // the table the job started from, with its changed-line counts
        ChangedLineCache computed;
    };
    struct Patched
    {
        CandidatePatch patch;
        QList<RowId> ids; // the kernels it read again
        QList<RowId> searches; // the searches whose kernels it read again
    };
    void applyTable(const CandidateTablePtr &table);
    void startChangedLines();
    void applyChangedLines(const CandidateTablePtr &base, Result<Lines> lines);
    void startPatch();
    void applyPatch(const CandidateTablePtr &base, Result<Patched> patched);

    QString m_path;
    CandidateTablePtr m_table;
    ChangedLineCache m_lineCache;
    QSet<RowId> m_pending;
    QList<RowId> m_patchIds; // kernels changed since the table was read and not patched yet
    QList<RowId> m_patchSearches; // searches whose events changed since then
    LatestJob<CandidateTablePtr> m_tableJob {this};
    LatestJob<Lines> m_linesJob {this};
    LatestJob<Patched> m_patchJob {this};
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::CandidateTablePtr)
