// backgroundPool; see background_pool.h.
#include "core/common/background_pool.h"

#include <QThread>
#include <QThreadPool>

#include <algorithm>

namespace gpuf {

QThreadPool *backgroundPool()
{
    // Destroyed at exit like Qt's global pool, after waiting for what still runs (the programs wait before that, while
    // their application object exists: app/explorer/main.cpp).
    static QThreadPool pool;
    static const bool sized = [] {
        pool.setObjectName(QStringLiteral("gpuf background"));
        pool.setMaxThreadCount(std::max(2, QThread::idealThreadCount() - 1));
        return true;
    }();
    Q_UNUSED(sized);
    return &pool;
}

} // namespace gpuf
