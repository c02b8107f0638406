// A candidate's process tree as /proc shows it: every process descended from the one the worker started, their
// resident memory together, and killing them all. Orphans of a sandboxed candidate stay in the tree (the sandbox's
// init adopts them); an unsandboxed one's can leave it.
#pragma once

#include <sys/types.h>

#include <vector>

namespace gpuf::gpu {

// `root` and every process descended from it.
std::vector<pid_t> processTree(pid_t root);

// The resident memory of the processes in MiB (VmRSS summed; 0 once they are gone).
double residentMb(const std::vector<pid_t> &processes);

// SIGKILL to each of them.
void killAll(const std::vector<pid_t> &processes);

} // namespace gpuf::gpu
