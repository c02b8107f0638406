// Process trees from /proc; see process_tree.h.
#include "core/gpu/process_tree.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace gpuf::gpu {

namespace {

// The parent of every process now running, from /proc/PID/stat (its fourth field, after the parenthesised name).
std::multimap<pid_t, pid_t> childrenByParent()
{
    std::multimap<pid_t, pid_t> children;
    DIR *proc = ::opendir("/proc");
    if (!proc)
        return children;
    while (const dirent *entry = ::readdir(proc)) {
        char *end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (pid <= 0 || *end != '\0')
            continue;
        std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
        std::string stat;
        std::getline(in, stat);
        const auto close = stat.rfind(')');
        if (close == std::string::npos || close + 4 >= stat.size())
            continue;
        const long parent = std::strtol(stat.c_str() + close + 4, nullptr, 10);
        children.emplace(static_cast<pid_t>(parent), static_cast<pid_t>(pid));
    }
    ::closedir(proc);
    return children;
}

} // namespace

std::vector<pid_t> processTree(pid_t root)
{
    const auto children = childrenByParent();
    std::vector<pid_t> tree = {root};
    for (std::size_t i = 0; i < tree.size(); ++i) {
        auto [begin, end] = children.equal_range(tree[i]);
        for (auto it = begin; it != end; ++it)
            tree.push_back(it->second);
    }
    return tree;
}

double residentMb(const std::vector<pid_t> &processes)
{
    double total = 0.0;
    for (pid_t pid : processes) {
        std::ifstream in("/proc/" + std::to_string(pid) + "/status");
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("VmRSS:", 0) == 0) {
                total += std::atof(line.c_str() + 6) / 1024.0;
                break;
            }
        }
    }
    return total;
}

void killAll(const std::vector<pid_t> &processes)
{
    for (pid_t pid : processes)
        ::kill(pid, SIGKILL);
}

int taskCount(const std::vector<pid_t> &processes)
{
    int total = 0;
    for (pid_t pid : processes) {
        std::ifstream in("/proc/" + std::to_string(pid) + "/status");
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("Threads:", 0) == 0) {
                total += std::atoi(line.c_str() + 8);
                break;
            }
        }
    }
    return total;
}

namespace {

std::string firstLine(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

bool writeText(const std::string &path, const std::string &text)
{
    std::ofstream out(path);
    out << text;
    out.flush();
    return static_cast<bool>(out);
}

// The folder under which this process may make a pids cgroup: v1's pids hierarchy at this process's own place in it,
// or v2's own cgroup where its parent's subtree_control enables pids. Empty, with the reason, where neither is.
std::string pidsParent(std::string *why)
{
    std::ifstream in("/proc/self/cgroup");
    std::string v1;
    std::string v2;
    for (std::string line; std::getline(in, line);) {
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos)
            continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (controllers == "pids")
            v1 = path;
        else if (controllers.empty() && line.compare(0, first, "0") == 0)
            v2 = path;
    }
    if (!v1.empty() && ::access(("/sys/fs/cgroup/pids" + v1).c_str(), W_OK) == 0)
        return "/sys/fs/cgroup/pids" + (v1 == "/" ? std::string() : v1);
    if (!v2.empty()) {
        std::string dir = "/sys/fs/cgroup" + (v2 == "/" ? std::string() : v2);
        const std::string enabled = firstLine(dir + "/cgroup.subtree_control");
        if (enabled.find("pids") != std::string::npos && ::access(dir.c_str(), W_OK) == 0)
            return dir;
    }
    *why = v1.empty() && v2.empty() ? "no cgroup file system"
                                    : "no writable pids cgroup (neither cgroup v1's pids hierarchy nor a v2 cgroup "
                                      "delegating pids to this process)";
    return {};
}

std::atomic<int> cgroupSerial {0};

} // namespace

std::unique_ptr<PidsCgroup> PidsCgroup::create(int maxTasks, std::string *why)
{
    const std::string parent = pidsParent(why);
    if (parent.empty())
        return nullptr;
    std::unique_ptr<PidsCgroup> group(new PidsCgroup);
    group->m_dir = parent + "/gpuf-candidate-" + std::to_string(::getpid()) + "-" + std::to_string(++cgroupSerial);
    if (::mkdir(group->m_dir.c_str(), 0755) != 0) {
        *why = "could not make " + group->m_dir + ": " + std::strerror(errno);
        group->m_dir.clear();
        return nullptr;
    }
    if (!writeText(group->m_dir + "/pids.max", std::to_string(maxTasks))) {
        *why = "could not set " + group->m_dir + "/pids.max";
        return nullptr; // the destructor removes the folder
    }
    group->m_procsFd = ::open((group->m_dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
    if (group->m_procsFd < 0) {
        *why = "could not open " + group->m_dir + "/cgroup.procs: " + std::strerror(errno);
        return nullptr;
    }
    return group;
}

bool PidsCgroup::limitReached() const
{
    std::ifstream in(m_dir + "/pids.events");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("max ", 0) == 0)
            return std::atoll(line.c_str() + 4) > 0;
    }
    return false;
}

void PidsCgroup::killAll() const
{
    // cgroup.kill where the kernel has it (v2, Linux 5.14); else each listed process, until none is left.
    if (writeText(m_dir + "/cgroup.kill", "1"))
        return;
    for (int round = 0; round < 100; ++round) {
        std::ifstream in(m_dir + "/cgroup.procs");
        bool any = false;
        for (pid_t pid = 0; in >> pid;) {
            ::kill(pid, SIGKILL);
            any = true;
        }
        if (!any)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

PidsCgroup::~PidsCgroup()
{
    if (m_procsFd >= 0)
        ::close(m_procsFd);
    if (m_dir.empty())
        return;
    killAll();
    // A cgroup goes once its last process is reaped; rmdir waits for that briefly.
    for (int round = 0; round < 200 && ::rmdir(m_dir.c_str()) != 0 && errno == EBUSY; ++round)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

} // namespace gpuf::gpu
