// The bubblewrap sandbox of Python candidates; see sandbox.h.
#include "core/gpu/sandbox.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <glob.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace gpuf::gpu {

namespace fs = std::filesystem;

std::vector<char *> execPointers(const std::vector<std::string> &strings)
{
    std::vector<char *> out;
    out.reserve(strings.size() + 1);
    for (const auto &s : strings)
        out.push_back(const_cast<char *>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

namespace {

// The allow-list, in one place: exact names, then prefixes. A name that looks like a secret never passes.
constexpr std::string_view kAllowedNames[] = {"PATH", "LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH", "PYTHONPATH",
    "PYTHONHASHSEED", "PYTHONWARNINGS", "OMP_NUM_THREADS", "CC", "CXX"};
constexpr std::string_view kAllowedPrefixes[] = {"LC_", "CUDA_", "NVIDIA_", "TRITON_", "PYTORCH_", "TORCH_"};
constexpr std::string_view kSecretMarks[] = {"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH"};

// What every candidate sees of the system, read-only (missing ones are skipped): the programs and libraries, the
// loader's cache, the alternatives' links, the time zone and the user names (getpass, PyTorch's cache folders).
constexpr const char *kSystemFolders[] = {"/usr", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
    "/etc/alternatives", "/etc/localtime", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/python3",
    "/sys/block", "/sys/bus", "/sys/class", "/sys/dev", "/sys/devices"};
// Top-level names that are links into /usr on a merged-/usr system and folders elsewhere.
constexpr const char *kTopLevel[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

struct Captured
{
    int exitCode = -1;
    std::string output; // stdout and stderr together
    std::string startError;
};

// Runs a helper program (bwrap's probe, the interpreter's folders) and collects what it prints, killed after
// `timeoutMs`.
Captured runCaptured(const std::vector<std::string> &args, const std::vector<std::string> &env, int timeoutMs)
{
    Captured c;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        c.startError = std::string("pipe: ") + std::strerror(errno);
        return c;
    }
    std::vector<char *> argv = execPointers(args);
    std::vector<char *> envp = execPointers(env);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(fds[1], 1);
        ::dup2(fds[1], 2);
        ::execvpe(argv[0], argv.data(), envp.data());
        const std::string why = std::strerror(errno);
        ::write(2, why.c_str(), why.size());
        ::_exit(127);
    }
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        c.startError = std::string("fork: ") + std::strerror(errno);
        return c;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    char buffer[4096];
    for (;;) {
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd p {fds[0], POLLIN, 0};
        if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) == 0) {
            ::kill(pid, SIGKILL);
            c.output += "\n(no answer within " + std::to_string(timeoutMs / 1000) + " s)";
            break;
        }
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n <= 0)
            break;
        c.output.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    c.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return c;
}

std::string firstLine(const std::string &text)
{
    const auto begin = text.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos)
        return {};
    return text.substr(begin, text.find('\n', begin) - begin);
}

bool under(const fs::path &path, const fs::path &root)
{
    auto [r, p] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
    return r == root.end();
}

// `paths` made absolute and canonical, without missing ones, /usr's (bound as a whole) and those inside another.
std::vector<fs::path> normalized(const std::vector<fs::path> &paths)
{
    std::vector<fs::path> out;
    for (const auto &p : paths) {
        std::error_code ec;
        const fs::path c = fs::canonical(p, ec);
        if (!ec && c.is_absolute() && c != "/" && !under(c, "/usr") && !under(c, "/proc") && !under(c, "/dev"))
            out.push_back(c);
    }
    std::sort(out.begin(), out.end());
    std::vector<fs::path> kept;
    for (const auto &p : out) {
        if (kept.empty() || !under(p, kept.back()))
            kept.push_back(p);
    }
    return kept;
}

// The interpreter's prefixes, the folder of its executable and sys.path, asked from the interpreter itself.
std::vector<fs::path> pythonFolders(const std::string &interpreter, const std::vector<std::string> &env)
{
    const std::string script = "import json, os, sys; print('\\n' + json.dumps([sys.prefix, sys.base_prefix, "
                               "sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))] + sys.path))";
    const Captured c = runCaptured({interpreter, "-c", script}, env, 20000);
    std::vector<fs::path> folders;
    const auto lastLine = c.output.rfind('\n', c.output.size() > 1 ? c.output.size() - 2 : 0);
    const auto parsed = nlohmann::json::parse(
        lastLine == std::string::npos ? c.output : c.output.substr(lastLine + 1), nullptr, false);
    if (parsed.is_array()) {
        for (const auto &p : parsed) {
            if (p.is_string() && !p.get<std::string>().empty())
                folders.emplace_back(p.get<std::string>());
        }
    }
    return normalized(folders);
}

// The installation folders of the compilers CC and CXX name by an absolute path: the folder above the program's
// bin/ (where its libraries and headers are), else the program's own folder.
std::vector<fs::path> compilerRoots(const std::vector<std::string> &environment)
{
    std::vector<fs::path> roots;
    for (const std::string &entry : environment) {
        const auto equals = entry.find('=');
        const std::string name = entry.substr(0, equals);
        if (equals == std::string::npos || (name != "CC" && name != "CXX"))
            continue;
        const fs::path program = entry.substr(equals + 1);
        std::error_code ec;
        if (!program.is_absolute() || !fs::exists(program, ec))
            continue;
        const fs::path real = fs::canonical(program, ec);
        if (ec)
            continue;
        const fs::path folder = real.parent_path();
        roots.push_back(folder.filename() == "bin" ? folder.parent_path() : folder);
    }
    return roots;
}

void add(std::vector<std::string> &args, std::initializer_list<std::string> more) { args.insert(args.end(), more); }

// The system part of every sandbox: namespaces, the read-only system, fresh /proc and /dev, the GPU's device nodes.
void systemArguments(std::vector<std::string> &args, bool shareNetwork)
{
    add(args, {"--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"});
    if (shareNetwork)
        args.emplace_back("--share-net");
    for (const char *top : kTopLevel) {
        std::error_code ec;
        if (fs::is_symlink(top, ec))
            add(args, {"--symlink", fs::read_symlink(top, ec).string(), top});
        else if (fs::is_directory(top, ec))
            add(args, {"--ro-bind", top, top});
    }
    for (const char *folder : kSystemFolders)
        add(args, {"--ro-bind-try", folder, folder});
    add(args, {"--proc", "/proc", "--dev", "/dev"});
    glob_t found {};
    if (::glob("/dev/nvidia*", 0, nullptr, &found) == 0) {
        for (std::size_t i = 0; i < found.gl_pathc; ++i)
            add(args, {"--dev-bind-try", found.gl_pathv[i], found.gl_pathv[i]});
    }
    ::globfree(&found);
}

} // namespace

bool looksSecret(std::string_view name)
{
    std::string upper(name);
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
    return std::any_of(std::begin(kSecretMarks), std::end(kSecretMarks),
        [&](std::string_view mark) { return upper.find(mark) != std::string::npos; });
}

bool passesToCandidate(std::string_view name)
{
    if (looksSecret(name))
        return false;
    if (std::find(std::begin(kAllowedNames), std::end(kAllowedNames), name) != std::end(kAllowedNames))
        return true;
    return std::any_of(std::begin(kAllowedPrefixes), std::end(kAllowedPrefixes),
        [&](std::string_view prefix) { return name.substr(0, prefix.size()) == prefix; });
}

std::vector<std::string> bwrapArguments(const SandboxStatus &status, const SandboxLayout &layout)
{
    std::vector<std::string> args = {status.bwrap};
    systemArguments(args, layout.shareNetwork);
    std::vector<fs::path> readOnly = status.pythonRoots;
    readOnly.insert(readOnly.end(), layout.readOnly.begin(), layout.readOnly.end());
    for (const auto &p : normalized(readOnly)) {
        if (!under(layout.tempDir, p))
            add(args, {"--ro-bind", p.string(), p.string()});
    }
    for (const auto &p : layout.writable)
        add(args, {"--bind-try", p.string(), p.string()});
    add(args, {"--bind", layout.tempDir.string(), layout.tempDir.string(), "--chdir", layout.tempDir.string()});
    // The root itself (a tmpfs holding the mount points) becomes read-only last: only the temporary folder is
    // writable.
    add(args, {"--remount-ro", "/", "--"});
    return args;
}

SandboxStatus probeSandbox(
    const std::string &bwrap, const std::string &interpreter, const std::vector<std::string> &environment)
{
    SandboxStatus status;
    status.bwrap = bwrap;
    const Captured version = runCaptured({bwrap, "--version"}, environment, 10000);
    if (version.exitCode != 0) {
        status.reason = "could not start '" + bwrap + "': " + firstLine(version.output + version.startError);
        return status;
    }
    status.version = firstLine(version.output);
    // The same namespaces and binds as a candidate's, around an empty temporary folder.
    std::error_code ec;
    std::string folder = (fs::temp_directory_path(ec) / "gpuf-probe-XXXXXX").string();
    if (!::mkdtemp(folder.data())) {
        status.reason = std::string("could not create a temporary directory: ") + std::strerror(errno);
        return status;
    }
    SandboxLayout layout;
    layout.tempDir = folder;
    std::vector<std::string> args = bwrapArguments(status, layout);
    args.emplace_back("true");
    const Captured probe = runCaptured(args, environment, 10000);
    fs::remove_all(folder, ec);
    if (probe.exitCode != 0) {
        const std::string said = firstLine(probe.output + probe.startError);
        status.reason = said.empty() ? "bwrap exited with code " + std::to_string(probe.exitCode) : said;
        return status;
    }
    status.available = true;
    status.pythonRoots = pythonFolders(interpreter, environment);
    // Triton builds its launcher with the C compiler CC names; one installed outside the system folders (a
    // machine's /opt/gcc) is bound read-only, or every Triton kernel fails its first compile inside the sandbox.
    for (const fs::path &root : compilerRoots(environment))
        status.pythonRoots.push_back(root);
    status.pythonRoots = normalized(status.pythonRoots);
    return status;
}

} // namespace gpuf::gpu
