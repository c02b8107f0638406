// Process trees from /proc; see process_tree.h.
#include "core/gpu/process_tree.h"

#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <map>
#include <string>

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

} // namespace gpuf::gpu
