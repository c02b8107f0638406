// CandidateSource: the candidate table of the open store, loaded off the GUI thread in two stages (the table,
// then the lines changed against each baseline) and shared by the candidate browser and the problems tree.
// It also holds the set of kernels queued for measurement, which the views mark "pending".
#pragma once

#include "core/common/cancel.h"
#include "widgets/candidates/candidate_query.h"

#include <QObject>
#include <QSet>

#include <memory>

namespace gpuf {

class StoreSession;

class CandidateSource : public QObject
{
    Q_OBJECT

public:
    // Follows `session` (may be null): loads when it opens or refreshes a store, clears when it closes.
    explicit CandidateSource(StoreSession *session, QObject *parent = nullptr);
    ~CandidateSource() override;

    // Loads the store at `path` (an existing store; the newest request wins).
    void load(const QString &path);
    void clear();

    CandidateTablePtr table() const { return m_table; }
    QString path() const { return m_path; }
    bool isLoading() const { return m_loading; }
    bool changedLinesPending() const { return m_changedLinesPending; }

    // The hook for a measurement queue: kernels queued for measurement show as pending.
    QSet<RowId> pendingIds() const { return m_pending; }
    void setPendingIds(const QSet<RowId> &ids);

Q_SIGNALS:
    void loadingStarted(const QString &path);
    // A new table: other rows than before. Changed lines are not known yet (-1).
    void tableLoaded(const gpuf::CandidateTablePtr &table);
    // The same rows with more values: the changed-line counts arrived.
    void tableUpdated(const gpuf::CandidateTablePtr &table);
    void loadFailed(const QString &message);
    void cleared();
    void pendingIdsChanged(const QSet<gpuf::RowId> &ids);

private:
    struct TableResult
    {
        quint64 generation = 0;
        QString error;
        CandidateTablePtr table;
    };
    struct LinesResult
    {
        quint64 generation = 0;
        QString error;
        CandidateTablePtr table; // the loaded table with its changed-line counts
        ChangedLineCache computed;
    };
    void applyTable(const TableResult &result);
    void startChangedLines(quint64 generation);
    void applyChangedLines(const LinesResult &result);
    void cancelRunning();

    quint64 m_generation = 0;
    CancelToken m_cancel;
    QString m_path;
    CandidateTablePtr m_table;
    ChangedLineCache m_lineCache;
    QSet<RowId> m_pending;
    bool m_loading = false;
    bool m_changedLinesPending = false;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::CandidateTablePtr)
