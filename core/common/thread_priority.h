// Lowering the calling thread's CPU priority for long background work (training, sweeps), so that on a machine with
// few cores the GUI thread still gets the CPU whenever it wants it (DESIGN §8).
#pragma once

namespace gpuf {

// Makes the calling thread yield to normal-priority threads: on Linux its nice value rises by 10 (a per-thread
// setting there; it cannot be undone without privileges, so call it only on threads that do background work and
// nothing else), elsewhere QThread::LowestPriority. Returns false when the system refused.
bool lowerCurrentThreadPriority();

} // namespace gpuf
