// StoreSession: the open store that every view observes. Opening, checking and counting happen off the GUI
// thread; the session hands finished values to the views by signals ("latest request wins").
#pragma once

#include "core/store/deletion.h"
#include "core/store/statistics.h"

#include <QFutureWatcher>
#include <QObject>

namespace gpuf {

struct StoreSnapshot
{
    QString path;
    StoreStatistics statistics;
};

// What a write did to the open store, so views can follow it: rows removed (a deletion) or put back (its undo), by
// kind; the rows that depend on them are among them.
struct StoreChange
{
    enum class Kind { Removed, Restored };
    Kind kind = Kind::Removed;
    QMap<RowKind, QList<RowId>> rows;
};

class StoreSession : public QObject
{
    Q_OBJECT

public:
    explicit StoreSession(QObject *parent = nullptr);
    ~StoreSession() override;

    // Opens (creating when missing) the store at `path` in the background; emits opened() or openFailed().
    void open(const QString &path);
    // Re-reads the open store's counts (after an import, say).
    void refresh();
    void close();

    QString path() const { return m_snapshot.path; }
    bool isOpen() const { return !m_snapshot.path.isEmpty(); }
    const StoreSnapshot &snapshot() const { return m_snapshot; }
    bool isBusy() const { return m_busy > 0; }

    // Tells every view what a write changed (changed()), then reads the store's counts again (opened()).
    void announce(const gpuf::StoreChange &change);

    // Background work other parts start on the store (imports, exports) so the status bar can show it.
    void beginWork(const QString &what);
    void endWork();

Q_SIGNALS:
    void opening(const QString &path);
    void opened(const gpuf::StoreSnapshot &snapshot);
    void openFailed(const QString &path, const QString &message);
    void closed();
    void busyChanged(bool busy, const QString &what);
    void changed(const gpuf::StoreChange &change);

private:
    struct LoadResult
    {
        quint64 generation = 0;
        QString path;
        QString error;
        StoreSnapshot snapshot;
    };
    void load(const QString &path, bool create);
    void applyResult(const LoadResult &result);

    quint64 m_generation = 0;
    StoreSnapshot m_snapshot;
    int m_busy = 0;
    QString m_busyWhat;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::StoreSnapshot)
Q_DECLARE_METATYPE(gpuf::StoreChange)
