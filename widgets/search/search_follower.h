// SearchFollower: one search's log and its folded state on the GUI thread, kept current without reloading. The first
// read (the whole log, folded) runs off the GUI thread through the session; afterwards, whenever the log has grown (a
// running engine's snapshot says so), only the new events are read in the background and folded here, one by one, and
// the views get them as a batch (appended()). At most one read is in flight; a poke meanwhile is remembered and served
// after it.
#pragma once

#include "core/search/search_reads.h"
#include "core/search/search_state.h"

#include <QHash>
#include <QObject>

#include <memory>

namespace gpuf {

class StoreSession;

class SearchFollower : public QObject
{
    Q_OBJECT

public:
    explicit SearchFollower(StoreSession *session, QObject *parent = nullptr);
    ~SearchFollower() override;

    // Reads the search's whole log and folds it; loaded() follows (or failed()).
    void follow(RowId searchId, const QString &name);
    void clear();
    // The log holds (at least) `events` events now: read those not read yet.
    void poke(qint64 events);

    RowId searchId() const { return m_searchId; }
    StoreSession *session() const { return m_session; }
    QString storePath() const { return m_path; }
    QString name() const { return m_name; }
    bool isLoading() const { return m_reading; }
    const QList<SearchEvent> &events() const { return m_events; }
    // The folded state; null until loaded, or when the log does not fold (an imported log of another shape).
    const search::SearchState *state() const { return m_foldError.isEmpty() ? m_state.get() : nullptr; }
    QString foldError() const { return m_foldError; }
    RowId referenceKernelId() const { return m_referenceKernelId; }
    // The node's readable name (its configuration or kernel name; search::nodeDisplayName), empty when it has none.
    QString nodeName(const QString &nodeId) const { return m_names.value(nodeId); }
    const QHash<QString, QString> &nodeNames() const { return m_names; }
    RowId problemId() const { return m_problemId; }

Q_SIGNALS:
    void loaded();
    void appended(const QList<gpuf::SearchEvent> &events);
    void failed(const QString &message);

private:
    void readMore();
    void applyFull(quint64 generation, Result<search::FollowedSearch> read);
    void applyMore(quint64 generation, Result<QList<SearchEvent>> read);
    void nameNodes(const QList<SearchEvent> &events);

    StoreSession *m_session;
    RowId m_searchId = 0;
    QString m_name;
    QString m_path; // the store the search was read from
    quint64 m_generation = 0;
    bool m_reading = false;
    qint64 m_wanted = 0; // the log's length the last poke announced
    QList<SearchEvent> m_events;
    std::shared_ptr<search::SearchState> m_state;
    QString m_foldError;
    RowId m_referenceKernelId = 0;
    RowId m_problemId = 0;
    QHash<QString, QString> m_names; // node id → readable name
};

} // namespace gpuf
