// Python candidates: a fresh interpreter per candidate (fork, exec of bwrap and the interpreter in the sandbox, or
// without one where allowed: own process group, optional network namespace), watched with its whole process tree for
// the wall-clock and memory limits; the harness's JSON result becomes the response body.
#include "core/gpu/python_runner.h"

#include "core/gpu/process_tree.h"

#include "core/common/resource_dir.h"

#include "gpuf_config.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace gpuf::gpu {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct NumberOption
{
    const char *key;
    double lo;
    double hi;
    bool integer;
};

// Options the harness reads (docs/python-problems.md); the worker checks their types so a typo is a bad_request.
constexpr NumberOption kHarnessNumbers[]
    = {{"correctness_runs", 1, 100, true}, {"warmup", 0, 1000, true}, {"min_samples", 1, 100000, true},
        {"max_samples", 1, 1000000, true}, {"target_rse", 0, 1, false}, {"time_budget_ms", 1, 3600000, false},
        {"wall_budget_ms", 1, 3600000, false}, {"seed", 0, 2147483647, true}, {"gpu_memory_limit_mb", 0, 1e7, false},
        {"launch_guard_us", 0, 100000, false}, {"launch_bound_margin", 0, 100, false}, {"noise_rse", 0, 1, false},
        {"cooldown_ms", 0, 600000, false}, {"call_warmup_ms", 0, 60000, false}, {"call_rep_ms", 0.001, 600000, false},
        {"cupti_max_samples", 1, 100000, true}, {"launch_bound_min_us", 0, 1e6, false}};
constexpr const char *kHarnessBools[] = {"check_correctness", "flush_l2", "time_reference", "recheck_after_timing",
    "disable_gc", "keep_samples", "call_time", "cupti", "after_sync"};

bool validName(const std::string &s)
{
    return !s.empty() && s.size() < 128 && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    });
}

void readOptions(const json &o, PythonJob &job, std::vector<std::string> &errors)
{
    if (o.is_null())
        return;
    if (!o.is_object()) {
        errors.emplace_back("options: expected an object");
        return;
    }
    for (const auto &[key, value] : o.items()) {
        const std::string field = "options." + key;
        bool handled = false;
        for (const auto &n : kHarnessNumbers) {
            if (key != n.key)
                continue;
            handled = true;
            if (!value.is_number())
                errors.push_back(field + ": expected a number");
            else if (value.get<double>() < n.lo || value.get<double>() > n.hi)
                errors.push_back(field + ": out of range [" + json(n.lo).dump() + ", " + json(n.hi).dump() + "]");
            else if (n.integer && value.get<double>() != std::floor(value.get<double>()))
                errors.push_back(field + ": expected an integer");
            else
                job.harnessOptions[key] = value;
        }
        for (const char *b : kHarnessBools) {
            if (key != b)
                continue;
            handled = true;
            if (!value.is_boolean())
                errors.push_back(field + ": expected true or false");
            else
                job.harnessOptions[key] = value;
        }
        if (handled)
            continue;
        if (key == "cases") {
            bool ok = value.is_array()
                && std::all_of(value.begin(), value.end(), [](const json &c) { return c.is_string(); });
            if (!ok)
                errors.push_back(field + ": expected an array of case names");
            else
                job.harnessOptions[key] = value;
        } else if (key == "timeout_ms") {
            if (!value.is_number() || value.get<double>() < 100 || value.get<double>() > 86400000)
                errors.push_back(field + ": expected a number of milliseconds in [100, 86400000]");
            else
                job.wallLimitMs = value.get<double>();
        } else if (key == "memory_limit_mb") {
            if (!value.is_number() || value.get<double>() < 16 || value.get<double>() > 1e7)
                errors.push_back(field + ": expected a number of MiB in [16, 10000000]");
            else
                job.memoryLimitMb = value.get<double>();
        } else if (key == "process_limit") {
            if (!value.is_number_integer() || value.get<long long>() < 8 || value.get<long long>() > 100000)
                errors.push_back(field + ": expected a whole number of processes and threads in [8, 100000]");
            else
                job.processLimit = value.get<int>();
        } else if (key == "network") {
            if (!value.is_string() || (value != "isolate" && value != "allow"))
                errors.push_back(field + ": expected \"isolate\" or \"allow\"");
            else
                job.isolateNetwork = value == "isolate";
        } else if (key == "triton_cache_dir") {
            if (!value.is_string())
                errors.push_back(field + ": expected a folder path");
            else
                job.tritonCacheDir = value.get<std::string>();
        } else if (key == "peak_bandwidth_gbs") {
            if (!value.is_number() || value.get<double>() <= 0)
                errors.push_back(field + ": expected a positive number (GB/s)");
            else
                job.peakBandwidthGBsOverride = value.get<double>();
        } else {
            errors.push_back(field + ": unknown option");
        }
    }
    const json &h = job.harnessOptions;
    if (h.contains("min_samples") && h.contains("max_samples") && h["max_samples"] < h["min_samples"])
        errors.emplace_back("options.max_samples: must be >= min_samples");
}

std::string readFile(const fs::path &path, std::size_t tailBytes = 0)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {};
    std::ostringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    if (tailBytes && text.size() > tailBytes)
        text = "…" + text.substr(text.size() - tailBytes);
    return text;
}

bool writeFile(const fs::path &path, const std::string &text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

void writeAll(int fd, const char *text)
{
    const char *p = text;
    std::size_t left = std::strlen(text);
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n <= 0)
            return;
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

bool writeProcFile(const char *path, const std::string &text)
{
    int fd = ::open(path, O_WRONLY);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.c_str(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

// In the child, before exec (so nothing here allocates: the parent may have other threads): a network namespace of
// its own (only loopback, down). Unprivileged users get one inside a user namespace that maps their own ids, so
// files and devices keep their permissions. Writes one "N…" line to fd saying what happened.
void isolateNetwork(int fd, const std::string &uidMap, const std::string &gidMap)
{
    if (::unshare(CLONE_NEWNET) == 0) {
        writeAll(fd, "Nisolated (own network namespace)\n");
        return;
    }
    const int first = errno;
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0) {
        writeProcFile("/proc/self/setgroups", "deny");
        writeProcFile("/proc/self/uid_map", uidMap);
        writeProcFile("/proc/self/gid_map", gidMap);
        writeAll(fd, "Nisolated (own user and network namespace)\n");
        return;
    }
    const int second = errno;
    writeAll(fd, "Nnot isolated: unshare(CLONE_NEWNET) failed (");
    writeAll(fd, std::strerror(first));
    writeAll(fd, "), unshare(CLONE_NEWUSER|CLONE_NEWNET) failed (");
    writeAll(fd, std::strerror(second));
    writeAll(fd, ")\n");
}

// The candidate's environment: the worker's variables that pass the allow-list (sandbox.h), the harness first on
// PYTHONPATH, and HOME, TMPDIR and the compilers' caches inside its temporary directory.
std::vector<std::string> childEnvironment(
    const PythonSettings &settings, const fs::path &tmp, const std::string &triton)
{
    std::vector<std::string> env;
    std::string pythonPath = settings.harnessDir.string();
    for (char **e = environ; *e; ++e) {
        const std::string entry = *e;
        const std::string key = entry.substr(0, entry.find('='));
        if (key == "PYTHONPATH")
            pythonPath += ":" + entry.substr(key.size() + 1);
        else if (key != "TRITON_CACHE_DIR" && passesToCandidate(key))
            env.push_back(entry);
    }
    env.push_back("PYTHONPATH=" + pythonPath);
    env.push_back("HOME=" + tmp.string());
    env.push_back("TMPDIR=" + tmp.string());
    env.push_back("TRITON_CACHE_DIR=" + (triton.empty() ? (tmp / "triton").string() : triton));
    env.push_back("TORCHINDUCTOR_CACHE_DIR=" + (tmp / "inductor").string());
    env.emplace_back("PYTHONDONTWRITEBYTECODE=1");
    env.emplace_back("PYTHONUNBUFFERED=1");
    return env;
}

// The folders of LD_LIBRARY_PATH, which a sandboxed interpreter must still see to load CUDA's libraries.
std::vector<fs::path> libraryFolders()
{
    std::vector<fs::path> folders;
    const char *value = std::getenv("LD_LIBRARY_PATH");
    std::istringstream parts(value ? value : "");
    for (std::string part; std::getline(parts, part, ':');) {
        if (!part.empty())
            folders.emplace_back(part);
    }
    return folders;
}

// The command line that starts the harness: bwrap's arguments first when the candidate is sandboxed.
std::vector<std::string> commandLine(
    const PythonJob &job, const PythonSettings &settings, const fs::path &tmp, const SandboxStatus &sandbox)
{
    std::vector<std::string> args;
    if (sandbox.available) {
        SandboxLayout layout;
        layout.tempDir = tmp;
        layout.readOnly = libraryFolders();
        layout.readOnly.push_back(settings.harnessDir);
        layout.readOnly.push_back(job.problemDir);
        if (!job.tritonCacheDir.empty()) {
            // Made here: bwrap binds only what exists, and a cache folder left unbound would be read-only inside.
            std::error_code ec;
            fs::create_directories(job.tritonCacheDir, ec);
            layout.writable.emplace_back(job.tritonCacheDir);
        }
        layout.shareNetwork = !job.isolateNetwork;
        args = bwrapArguments(sandbox, layout);
    }
    for (const std::string &a : {settings.interpreter, std::string("-B"), std::string("-m"),
             std::string("gpuf_harness"), std::string("--job"), (tmp / "job.json").string(), std::string("--result"),
             (tmp / "result.json").string(), std::string("--progress"), (tmp / "progress.txt").string()})
        args.push_back(a);
    return args;
}

struct ChildOutcome
{
    std::string execError;
    std::string network = "not requested (options.network = \"allow\")";
    bool sandboxed = false;
    bool timedOut = false;
    bool memoryExceeded = false;
    bool processesExceeded = false;
    std::string processScope; // how the process limit was kept
    int peakTasks = 0;
    int exitCode = -1;
    int signal = 0;
    double peakRssMb = 0.0;
    double wallMs = 0.0;
};

// Polls the child until it exits; past the wall-clock or the memory limit (the resident memory of its whole tree)
// every process of the tree is killed. Whatever the tree still held when last seen is killed on the way out: an
// unsandboxed candidate's orphans included, as far as they were seen.
int waitWithLimits(pid_t pid, const PythonJob &job, std::chrono::steady_clock::time_point started,
    ChildOutcome &outcome, const PidsCgroup *group)
{
    int status = 0;
    std::vector<pid_t> tree = {pid};
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) {
            killAll(tree);
            return status;
        }
        const double elapsed
            = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        tree = processTree(pid);
        const double rss = residentMb(tree);
        outcome.peakRssMb = std::max(outcome.peakRssMb, rss);
        const int tasks = taskCount(tree);
        outcome.peakTasks = std::max(outcome.peakTasks, tasks);
        if (!outcome.timedOut && !outcome.memoryExceeded && !outcome.processesExceeded) {
            if (elapsed > job.wallLimitMs)
                outcome.timedOut = true;
            else if (rss > job.memoryLimitMb)
                outcome.memoryExceeded = true;
            else if (tasks > job.processLimit || (group && group->limitReached()))
                outcome.processesExceeded = true;
            if (outcome.timedOut || outcome.memoryExceeded || outcome.processesExceeded) {
                if (group)
                    group->killAll();
                ::kill(-pid, SIGKILL);
                killAll(tree);
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(elapsed < 1000 ? 10 : 20));
    }
}

// In the forked child: its own process group, the network namespace where an unsandboxed candidate asked for one
// (bwrap makes the sandbox's), /dev/null as stdin, the log as stdout and stderr, then exec. Nothing here allocates.
struct ChildStart
{
    std::vector<char *> argv;
    std::vector<char *> envp;
    std::string logPath;
    std::string tmpPath;
    std::string execFailed; // "Ecould not start …: ", followed by the reason
    std::string uidMap;
    std::string gidMap;
    bool isolate = false;
    int cgroupProcsFd = -1; // the candidate's pids cgroup, joined before exec
};

[[noreturn]] void execChild(int fd, const ChildStart &c)
{
    ::setpgid(0, 0); // its own process group: a timeout kills everything the candidate started
    if (c.cgroupProcsFd >= 0 && ::write(c.cgroupProcsFd, "0", 1) != 1) {
        writeAll(fd, "Ecould not join the candidate's pids cgroup: ");
        writeAll(fd, std::strerror(errno));
        writeAll(fd, "\n");
        ::_exit(127);
    }
    if (c.isolate)
        isolateNetwork(fd, c.uidMap, c.gidMap);
    int devNull = ::open("/dev/null", O_RDONLY);
    int log = ::open(c.logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (devNull >= 0)
        ::dup2(devNull, 0);
    if (log >= 0) {
        ::dup2(log, 1);
        ::dup2(log, 2);
    }
    if (::chdir(c.tmpPath.c_str()) != 0) {
        writeAll(fd, "Ecould not enter the temporary directory: ");
        writeAll(fd, std::strerror(errno));
        writeAll(fd, "\n");
        ::_exit(127);
    }
    ::execvpe(c.argv[0], c.argv.data(), c.envp.data());
    writeAll(fd, c.execFailed.c_str());
    writeAll(fd, std::strerror(errno));
    writeAll(fd, "\n");
    ::_exit(127);
}

// The child's "N…" (network) and "E…" (could not start) lines, read until exec closed the pipe.
void readHandshake(int fd, ChildOutcome &outcome)
{
    std::string handshake;
    char buffer[512];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
        handshake.append(buffer, static_cast<std::size_t>(n));
    ::close(fd);
    std::istringstream lines(handshake);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind('N', 0) == 0)
            outcome.network = line.substr(1);
        else if (line.rfind('E', 0) == 0)
            outcome.execError = line.substr(1);
    }
}

ChildOutcome runChild(
    const PythonJob &job, const PythonSettings &settings, const fs::path &tmp, const SandboxStatus &sandbox)
{
    ChildOutcome outcome;
    outcome.sandboxed = sandbox.available;
    if (sandbox.available && job.isolateNetwork)
        outcome.network = "isolated (the sandbox's own network namespace)";
    const std::vector<std::string> args = commandLine(job, settings, tmp, sandbox);
    const std::vector<std::string> env = childEnvironment(settings, tmp, job.tritonCacheDir);
    // Everything the child needs is made here: between fork and exec it must not allocate.
    ChildStart start;
    start.argv = execPointers(args);
    start.envp = execPointers(env);
    start.logPath = (tmp / "output.log").string();
    start.tmpPath = tmp.string();
    start.execFailed = sandbox.available ? "Ecould not start the sandbox '" + sandbox.bwrap + "': "
                                         : "Ecould not start the Python interpreter '" + settings.interpreter + "': ";
    start.uidMap = std::to_string(::getuid()) + " " + std::to_string(::getuid()) + " 1";
    start.gidMap = std::to_string(::getgid()) + " " + std::to_string(::getgid()) + " 1";
    start.isolate = job.isolateNetwork && !sandbox.available;
    // The kernel's own limit on the tree where a pids cgroup can be made; the count of the tree at every poll as well.
    std::string noCgroup = "not asked for";
    const std::unique_ptr<PidsCgroup> group
        = settings.pidsCgroup ? PidsCgroup::create(job.processLimit, &noCgroup) : nullptr;
    start.cgroupProcsFd = group ? group->procsFd() : -1;
    outcome.processScope = group
        ? "a pids cgroup of its own (" + group->path() + ", forks past the limit refused) and the whole process tree"
        : "the whole process tree, counted at every poll (no pids cgroup: " + noCgroup + ")";
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        outcome.execError = std::string("pipe: ") + std::strerror(errno);
        return outcome;
    }
    const auto started = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipeFds[0]);
        execChild(pipeFds[1], start);
    }
    ::close(pipeFds[1]);
    if (pid < 0) {
        outcome.execError = std::string("fork: ") + std::strerror(errno);
        ::close(pipeFds[0]);
        return outcome;
    }
    readHandshake(pipeFds[0], outcome);
    const int status = waitWithLimits(pid, job, started, outcome, group.get());
    ::kill(-pid, SIGKILL); // whatever an unsandboxed candidate left running in its group
    outcome.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    if (WIFEXITED(status))
        outcome.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        outcome.signal = WTERMSIG(status);
    // bwrap reports a command killed by signal N as exit code 128 + N.
    if (outcome.sandboxed && outcome.exitCode > 128 && outcome.exitCode <= 128 + 64) {
        outcome.signal = outcome.exitCode - 128;
        outcome.exitCode = -1;
    }
    return outcome;
}

std::string exitText(const ChildOutcome &o)
{
    if (o.signal)
        return "killed by signal " + std::to_string(o.signal) + " (" + strsignal(o.signal) + ")";
    return "exit code " + std::to_string(o.exitCode);
}

// The response body when the harness wrote no result: the interpreter never started, was stopped, or died.
json withoutResult(const ChildOutcome &o, const PythonJob &job, bool harnessStarted, const std::string &progress,
    const std::string &logTail)
{
    json r;
    const std::string phase = progress.empty() ? std::string("starting") : progress;
    if (!o.execError.empty()) {
        r["status"] = "infrastructure_failure";
        r["message"] = o.execError;
    } else if (o.timedOut) {
        r["status"] = "timeout";
        r["message"] = "the candidate ran past its wall-clock limit of " + json(job.wallLimitMs / 1000.0).dump()
            + " s (last phase: " + phase + ")";
    } else if (o.memoryExceeded) {
        r["status"] = "runtime_error";
        r["message"] = "the candidate's processes went over their memory limit of " + json(job.memoryLimitMb).dump()
            + " MiB (resident, all its processes together; last phase: " + phase + ")";
        r["error"] = {{"phase", phase}, {"type", "MemoryLimitExceeded"}, {"message", r["message"]}, {"traceback", ""}};
    } else if (o.processesExceeded) {
        r["status"] = "runtime_error";
        r["message"] = "the candidate's processes went over their limit of " + std::to_string(job.processLimit)
            + " processes and threads (all its processes together; last phase: " + phase + ")";
        r["error"] = {{"phase", phase}, {"type", "ProcessLimitExceeded"}, {"message", r["message"]}, {"traceback", ""}};
    } else if (!harnessStarted && o.sandboxed && logTail.rfind("bwrap: ", 0) == 0) {
        // bwrap said why it could not start the interpreter: the machine's failure, with bwrap's own words.
        const std::string said = logTail.substr(7, logTail.find('\n') - 7);
        r["status"] = "infrastructure_failure";
        r["message"] = said.rfind("execvp ", 0) == 0
            ? "could not start the Python interpreter in the sandbox: " + said.substr(7)
            : "the sandbox could not start the candidate: " + said;
    } else if (!harnessStarted) {
        r["status"] = "infrastructure_failure";
        r["message"] = "the harness did not start (" + exitText(o) + "); is '" + "gpuf_harness"
            + "' on the interpreter's path and the interpreter Python 3.8 or newer?";
    } else {
        r["status"] = "runtime_error";
        r["message"] = "the Python process ended without a result (" + exitText(o) + ") during " + phase
            + " — the candidate exited or crashed the interpreter";
        r["error"] = {{"phase", phase}, {"type", o.signal ? "Signal" : "ProcessExit"}, {"message", exitText(o)},
            {"traceback", ""}};
    }
    r["log_tail"] = logTail;
    return r;
}

fs::path firstExisting(const std::vector<fs::path> &candidates, const char *marker)
{
    for (const auto &c : candidates) {
        std::error_code ec;
        if (fs::exists(c / marker, ec))
            return fs::weakly_canonical(c, ec);
    }
    return {};
}

} // namespace

std::variant<PythonJob, std::vector<std::string>> parsePythonJob(const json &body, const PythonSettings &settings)
{
    PythonJob job;
    std::vector<std::string> errors;
    const json &candidate = body.at("candidate");
    if (auto n = candidate.find("name"); n != candidate.end()) {
        if (!n->is_string())
            errors.emplace_back("candidate.name: expected a string");
        else
            job.candidateName = n->get<std::string>();
    }
    if (auto s = candidate.find("source"); s == candidate.end() || !s->is_string() || s->get<std::string>().empty())
        errors.emplace_back("candidate.source: required (the candidate's Python source, defining custom_kernel(data))");
    else
        job.candidateSource = s->get<std::string>();
    for (const auto &[key, value] : candidate.items()) {
        if (key != "format" && key != "name" && key != "source" && key != "language")
            errors.push_back("candidate." + key + ": unknown field of a gpuf-python/1 candidate");
    }
    auto problem = body.find("problem");
    if (problem == body.end() || !problem->is_object()) {
        errors.emplace_back("problem: required ({\"name\": …} or {\"dir\": …}) for a Python candidate");
    } else if (auto d = problem->find("dir"); d != problem->end()) {
        if (!d->is_string())
            errors.emplace_back("problem.dir: expected a folder path");
        else
            job.problemDir = d->get<std::string>();
    } else if (auto n = problem->find("name"); n != problem->end()) {
        if (!n->is_string() || !validName(n->get<std::string>()))
            errors.emplace_back("problem.name: expected a problem name (letters, digits, '_' and '-')");
        else if (settings.problemsDir.empty())
            errors.emplace_back("problem.name: no problems folder is known to this worker (give problem.dir)");
        else
            job.problemDir = settings.problemsDir / n->get<std::string>();
    } else {
        errors.emplace_back("problem: give \"name\" or \"dir\"");
    }
    std::error_code ec;
    if (!job.problemDir.empty() && !fs::is_regular_file(job.problemDir / "problem.py", ec))
        errors.push_back("problem: no problem.py in " + job.problemDir.string());
    if (!job.problemDir.empty())
        job.problemDir = fs::absolute(job.problemDir, ec);
    if (auto r = body.find("reference"); r != body.end() && !r->is_null())
        errors.emplace_back("reference: a Python candidate's reference is its problem's ref_kernel (leave it out)");
    readOptions(body.value("options", json()), job, errors);
    if (!errors.empty())
        return errors;
    if (job.candidateName.empty())
        job.candidateName = "candidate";
    return job;
}

SandboxStatus probePythonSandbox(const PythonSettings &settings)
{
    std::error_code ec;
    return probeSandbox(
        settings.bwrap, settings.interpreter, childEnvironment(settings, fs::temp_directory_path(ec), std::string()));
}

std::string sandboxRefusal(const SandboxStatus &sandbox)
{
    return "the sandbox for Python candidates could not be made: " + sandbox.reason
        + "; install bubblewrap, or allow unsandboxed Python candidates (--unsandboxed, or 'Python without "
          "sandbox' in the explorer's Measurements dock) if you trust every candidate";
}

json runPythonJob(
    const PythonJob &job, const PythonSettings &settings, const PythonDevice &device, const SandboxStatus &sandbox)
{
    if (!sandbox.available && !settings.allowUnsandboxed)
        return {{"status", "infrastructure_failure"}, {"message", sandboxRefusal(sandbox)},
            {"isolation", {{"sandbox", "unavailable: " + sandbox.reason}}}};
    std::error_code ec;
    std::string pattern = (fs::temp_directory_path(ec) / "gpuf-py-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        return {{"status", "infrastructure_failure"},
            {"message", std::string("could not create a temporary directory: ") + std::strerror(errno)}};
    const fs::path tmp = pattern;
    json deviceJson = {{"ordinal", device.ordinal}, {"available", device.available}};
    if (device.available) {
        deviceJson["name"] = device.name;
        deviceJson["peak_bandwidth_gbs"] = device.peakBandwidthGBs;
        deviceJson["l2_bytes"] = device.l2Bytes;
    }
    if (job.peakBandwidthGBsOverride > 0)
        deviceJson["peak_bandwidth_gbs"] = job.peakBandwidthGBsOverride;
    const json harnessJob
        = {{"problem_dir", job.problemDir.string()}, {"candidate_file", (tmp / "candidate.py").string()},
            {"candidate_name", job.candidateName}, {"options", job.harnessOptions}, {"device", deviceJson},
            {"host_memory_limit_mb", job.memoryLimitMb}, {"limit_address_space", !device.available}};
    if (!writeFile(tmp / "candidate.py", job.candidateSource) || !writeFile(tmp / "job.json", harnessJob.dump())) {
        fs::remove_all(tmp, ec);
        return {{"status", "infrastructure_failure"}, {"message", "could not write the job into " + tmp.string()}};
    }
    const ChildOutcome outcome = runChild(job, settings, tmp, sandbox);
    const std::string progress = [&] {
        std::string p = readFile(tmp / "progress.txt");
        while (!p.empty() && (p.back() == '\n' || p.back() == '\r'))
            p.pop_back();
        return p;
    }();
    const bool harnessStarted = fs::exists(tmp / "progress.txt", ec);
    const std::string logTail = readFile(tmp / "output.log", 4000);
    json body;
    const std::string resultText = readFile(tmp / "result.json");
    if (outcome.execError.empty() && !outcome.timedOut && !outcome.memoryExceeded && !outcome.processesExceeded
        && !resultText.empty()) {
        body = json::parse(resultText, nullptr, false);
        if (body.is_discarded() || !body.is_object() || !body.contains("status"))
            body = {{"status", "infrastructure_failure"}, {"message", "the harness wrote an unreadable result"}};
        else if (body["status"] != "ok")
            body["log_tail"] = logTail;
    } else {
        body = withoutResult(outcome, job, harnessStarted, progress, logTail);
    }
    body["isolation"] = {{"process", "fresh interpreter (" + settings.interpreter + "), own process group"},
        {"sandbox",
            sandbox.available ? sandbox.version
                    + " (own user, PID, mount, network and IPC namespaces; read-only system; only the temporary "
                      "directory writable; environment reduced to an allow-list)"
                              : "none, allowed by --unsandboxed (" + sandbox.reason + ")"},
        {"network", outcome.network}, {"temp_dir", "own, removed afterwards"}, {"wall_limit_ms", job.wallLimitMs},
        {"memory_limit_mb", job.memoryLimitMb}, {"memory_scope", "the whole process tree"},
        {"process_limit", job.processLimit}, {"process_scope", outcome.processScope}, {"peak_tasks", outcome.peakTasks},
        {"peak_rss_mb", outcome.peakRssMb}, {"wall_ms", outcome.wallMs}, {"exit", exitText(outcome)}};
    fs::remove_all(tmp, ec);
    return body;
}

fs::path defaultHarnessDir(const fs::path &executable)
{
    const fs::path dir = executable.parent_path();
    // Beside the worker (a relocated bundle), else the shared data: installed, or the source tree's when run where
    // it was built (resource_dir.h decides, so an installed worker never looks into a source tree).
    return firstExisting({dir / "python", gpuf::resourceDirectory() / "python"}, "gpuf_harness");
}

fs::path defaultProblemsDir(const fs::path &executable)
{
    const fs::path dir = executable.parent_path();
    return firstExisting({dir / "problems", gpuf::resourceDirectory() / "problems"}, "README.md");
}

} // namespace gpuf::gpu
