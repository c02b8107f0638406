// A candidate's process tree as /proc shows it: every process descended from the one the worker started, their
// resident memory together, and killing them all. Orphans of a sandboxed candidate stay in the tree (the sandbox's
// init adopts them); an unsandboxed one's can leave it.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace gpuf::gpu {

// `root` and every process descended from it.
std::vector<pid_t> processTree(pid_t root);

// The resident memory of the processes in MiB (VmRSS summed; 0 once they are gone).
double residentMb(const std::vector<pid_t> &processes);

// SIGKILL to each of them.
void killAll(const std::vector<pid_t> &processes);

// The processes and threads of the processes together (each process's Threads in /proc/PID/status).
int taskCount(const std::vector<pid_t> &processes);

// A pids cgroup of its own for one candidate's tree, where this system lets the worker make one (cgroup v1's pids
// hierarchy, or a v2 cgroup whose parent delegates the pids controller; typically as root, or in a delegated
// systemd scope): the kernel then refuses every fork past `maxTasks` (processes and threads together) at once, where
// the poll of the tree would see a fork bomb only after it grew. Destroying it kills whatever is still in it.
class PidsCgroup
{
public:
    // Null where no such cgroup can be made; `*why` then says why.
    static std::unique_ptr<PidsCgroup> create(int maxTasks, std::string *why);
    ~PidsCgroup();
    PidsCgroup(const PidsCgroup &) = delete;
    PidsCgroup &operator=(const PidsCgroup &) = delete;

    // cgroup.procs, open for writing: the forked child writes "0" into it before exec and so joins with all it starts.
    int procsFd() const { return m_procsFd; }
    // Whether the kernel refused a fork for the limit (pids.events), i.e. the tree tried to grow past it.
    bool limitReached() const;
    void killAll() const;
    const std::string &path() const { return m_dir; }

private:
    PidsCgroup() = default;
    std::string m_dir;
    int m_procsFd = -1;
};

} // namespace gpuf::gpu
