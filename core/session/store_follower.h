// StoreFollower: the open store as other programs write it. A watch on a thread of its own asks SQLite every kPollMs
// whether another connection committed (PRAGMA data_version, one cheap statement); when one did, it reads which rows
// were added since it last looked (storeGrowth) and the follower announces them through the session as typed changes
// (Searches, Kernels, Measurements, Forecasts, Forecasters, Lessons; Reload when rows were deleted, Import for a bulk
// write), so a `gpuf search` or an import run elsewhere shows in the views within a second, without View → Reload.
//
// The session's own writes commit through other connections too and are seen as well: announced again, views patch
// the same rows once more. The exception is what the session itself announces as "anything changed" (an import, a
// reload, a deletion or its undo): growth seen before it is dropped, and the watch starts again from the store as it
// is then.
#pragma once

#include "core/session/store_change.h"
#include "core/store/statistics.h"

#include <QObject>

#include <memory>

class QThread;

namespace gpuf {

class StoreSession;
namespace follower_detail {
struct Watch;
}

class StoreFollower : public QObject
{
    Q_OBJECT

public:
    static constexpr int kPollMs = 300;

    explicit StoreFollower(StoreSession *session, QObject *parent = nullptr);
    ~StoreFollower() override;

Q_SIGNALS:
    // Rows another connection added were announced (after the session's changed() signals); for tests and the log.
    void followed(const gpuf::StoreGrowth &growth);

private:
    void start(const QString &path);
    void stop(Qt::ConnectionType how = Qt::QueuedConnection);
    void grew(quint64 epoch, const StoreGrowth &growth);
    void announceGrowth(const StoreGrowth &growth);
    void sessionChanged(const StoreChange &change);

    StoreSession *m_session;
    QThread *m_thread;
    QObject *m_watch; // lives on m_thread: the watches' timers are its children
    std::shared_ptr<follower_detail::Watch> m_current; // the open store's watch (its state is touched on m_thread only)
    quint64 m_epoch = 0; // raised by each "anything changed" of the session's own; older growth is dropped
    bool m_announcing = false;
    StoreGrowth m_pending; // seen while the session was busy (an import running): told when it is done
    bool m_hasPending = false;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::StoreGrowth)
