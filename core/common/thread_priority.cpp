// lowerCurrentThreadPriority; see thread_priority.h.
#include "core/common/thread_priority.h"

#include <QThread>

#include <algorithm>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace gpuf {

bool lowerCurrentThreadPriority()
{
#ifdef Q_OS_LINUX
    // QThread's priorities change nothing under Linux's default scheduler (its only level is 0), but a thread's nice
    // value does: the scheduler then gives normal threads, the GUI's among them, most of a shared core.
    const auto tid = id_t(::syscall(SYS_gettid));
    errno = 0;
    const int current = ::getpriority(PRIO_PROCESS, tid);
    if (current == -1 && errno != 0)
        return false;
    if (current >= 10)
        return true; // lowered already (a pool thread that ran such work before)
    return ::setpriority(PRIO_PROCESS, tid, std::min(current + 10, 19)) == 0;
#else
    QThread::currentThread()->setPriority(QThread::LowestPriority);
    return true;
#endif
}

} // namespace gpuf
