// The thread pool the product's background work runs on (views' reads, writes, the candidate table's loads), kept
// apart from Qt's global pool: Qt's raster painting splits large fills into tasks on the global pool and the GUI
// thread waits for them, so a paint queued behind our reads (or on a thread whose priority a read lowered) stalls.
#pragma once

class QThreadPool;

namespace gpuf {

// One pool for the whole process, made on first use: one thread fewer than the machine has cores, but at least two, so
// one long read cannot hold up another view's read or the opening of a store. Its jobs lower their threads' priority
// (lowerCurrentThreadPriority), which is what leaves the GUI thread a core on a two-core machine.
QThreadPool *backgroundPool();

} // namespace gpuf
