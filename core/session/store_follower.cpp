// StoreFollower; see store_follower.h.
#include "core/session/store_follower.h"

#include "core/common/thread_priority.h"
#include "core/session/store_session.h"

#include <QPointer>
#include <QThread>
#include <QTimer>

#include <memory>

namespace gpuf {
namespace follower_detail {

// The watch's state, touched only on its thread.
struct Watch
{
    std::unique_ptr<Store> store;
    StoreMarks marks;
    qint64 version = -1;
    quint64 epoch = 0;
    QTimer *timer = nullptr;

    // Opens `path`, takes the store as it is now as the starting point and looks every kPollMs; `report` gets what
    // each look found.
    template<typename Report>
    void begin(const QString &path, QObject *owner, Report report)
    {
        // A connection that may write (it only reads): it keeps the WAL's shared index open, without which a
        // read-only connection opened while no writer is there never sees another program's commits. Where the file
        // cannot be written (a read-only mount) a reader follows what it can.
        auto opened = openWriteConnection(path);
        if (!opened)
            opened = openReadConnection(path);
        if (!opened)
            return; // the session reports a store it cannot open; nothing to follow
        store = std::move(*opened);
        rebase();
        timer = new QTimer(owner);
        timer->setInterval(StoreFollower::kPollMs);
        QObject::connect(timer, &QTimer::timeout, timer, [this, report] {
            if (auto growth = look())
                report(epoch, *growth);
        });
        timer->start();
    }

    void rebase()
    {
        if (!store)
            return;
        auto now = storeDataVersion(*store);
        version = now ? *now : -1;
        if (auto current = storeMarks(*store))
            marks = *current;
    }

    void end()
    {
        delete timer;
        timer = nullptr;
        store.reset();
    }

    // What other connections added since the last look; nothing when no one committed.
    std::optional<StoreGrowth> look()
    {
        if (!store)
            return std::nullopt;
        auto now = storeDataVersion(*store);
        if (!now || *now == version)
            return std::nullopt;
        version = *now;
        auto growth = storeGrowth(*store, marks);
        if (!growth)
            return std::nullopt;
        marks = growth->marks;
        if (growth->isEmpty())
            return std::nullopt;
        return *growth;
    }
};

void unite(StoreGrowth &into, const StoreGrowth &more)
{
    into.marks = more.marks;
    into.shrank = into.shrank || more.shrank;
    into.bulk = into.bulk || more.bulk;
    into.kernels += more.kernels;
    into.measuredKernels += more.measuredKernels;
    into.forecastKernels += more.forecastKernels;
    into.forecasters += more.forecasters;
    into.searches += more.searches;
    into.lessons += more.lessons;
}

} // namespace follower_detail

using follower_detail::Watch;

StoreFollower::StoreFollower(StoreSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_thread(new QThread(this))
    , m_watch(new QObject)
{
    qRegisterMetaType<StoreGrowth>();
    m_thread->setObjectName(QStringLiteral("gpuf store follower"));
    m_watch->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_watch, &QObject::deleteLater);
    m_thread->start(QThread::LowPriority);
    connect(session, &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) { start(snapshot.path); });
    connect(session, &StoreSession::closed, this, [this] { stop(); });
    connect(session, &StoreSession::changed, this, &StoreFollower::sessionChanged);
    connect(session, &StoreSession::busyChanged, this, [this](bool busy) {
        if (busy)
            return;
        // An import announces itself right after its work ends: pending growth waits for that first.
        QTimer::singleShot(0, this, [this] {
            if (m_hasPending && !m_session->isBusy()) {
                m_hasPending = false;
                announceGrowth(std::exchange(m_pending, {}));
            }
        });
    });
    if (session->isOpen())
        start(session->path());
}

StoreFollower::~StoreFollower()
{
    stop(Qt::BlockingQueuedConnection); // the connection closes on its own thread before that thread ends
    m_thread->quit();
    m_thread->wait();
}

void StoreFollower::start(const QString &path)
{
    stop();
    const quint64 epoch = ++m_epoch;
    auto watch = std::make_shared<Watch>();
    watch->epoch = epoch;
    m_current = watch;
    QPointer<StoreFollower> self(this);
    QMetaObject::invokeMethod(m_watch, [watch, path, owner = m_watch, self] {
        lowerCurrentThreadPriority();
        watch->begin(path, owner, [self](quint64 epoch, const StoreGrowth &growth) {
            if (self)
                QMetaObject::invokeMethod(self, [self, epoch, growth] {
                    if (self)
                        self->grew(epoch, growth);
                });
        });
    });
}

void StoreFollower::stop(Qt::ConnectionType how)
{
    ++m_epoch;
    m_hasPending = false;
    if (auto watch = std::exchange(m_current, {}))
        QMetaObject::invokeMethod(
            m_watch, [watch] { watch->end(); }, how);
}

void StoreFollower::sessionChanged(const StoreChange &change)
{
    using Kind = StoreChange::Kind;
    if (m_announcing || !m_current)
        return;
    if (change.kind != Kind::Import && change.kind != Kind::Reload && change.kind != Kind::Removed
        && change.kind != Kind::Restored)
        return;
    // The session said "anything may have changed" itself: what the watch saw up to now is covered by it.
    const quint64 epoch = ++m_epoch;
    m_hasPending = false;
    QMetaObject::invokeMethod(m_watch, [watch = m_current, epoch] {
        watch->epoch = epoch;
        watch->rebase();
    });
}

void StoreFollower::grew(quint64 epoch, const StoreGrowth &growth)
{
    if (epoch != m_epoch || !m_session->isOpen())
        return;
    if (m_session->isBusy()) {
        // An import of the session's own, most likely: held until it says what it did.
        if (m_hasPending)
            follower_detail::unite(m_pending, growth);
        else
            m_pending = growth;
        m_hasPending = true;
        return;
    }
    announceGrowth(growth);
}

void StoreFollower::announceGrowth(const StoreGrowth &growth)
{
    using Kind = StoreChange::Kind;
    m_announcing = true;
    if (growth.shrank) {
        m_session->announce(StoreChange::of(Kind::Reload));
    } else if (growth.bulk) {
        m_session->announce(StoreChange::of(Kind::Import));
    } else {
        // Kernels first: a search's or a measurement's change may name kernels the views have not read yet.
        if (!growth.kernels.isEmpty())
            m_session->announce(StoreChange::of(Kind::Kernels, growth.kernels));
        if (!growth.forecasters.isEmpty())
            m_session->announce(StoreChange::of(Kind::Forecasters, growth.forecasters));
        if (!growth.measuredKernels.isEmpty())
            m_session->announce(StoreChange::of(Kind::Measurements, growth.measuredKernels));
        if (!growth.forecastKernels.isEmpty())
            m_session->announce(StoreChange::of(Kind::Forecasts, growth.forecastKernels));
        if (!growth.searches.isEmpty())
            m_session->announce(StoreChange::of(Kind::Searches, growth.searches, growth.kernels));
        if (!growth.lessons.isEmpty())
            m_session->announce(StoreChange::of(Kind::Lessons, growth.lessons));
    }
    m_announcing = false;
    Q_EMIT followed(growth);
}

} // namespace gpuf
