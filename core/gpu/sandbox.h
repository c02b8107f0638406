// The sandbox a Python candidate runs in (docs/python-problems.md): bubblewrap with its own user, PID, mount, network
// and IPC namespaces, a read-only view of the system and of the Python environment, one writable temporary directory
// and an environment reduced to an allow-list. Probed once; where it cannot be made, the reason is kept.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gpuf::gpu {

// Whether a variable of the worker's environment may reach a candidate: the allow-list (PATH, locale, the CUDA,
// NVIDIA, Triton and PyTorch variables, …), never a name that looks like a secret (…KEY, …TOKEN, …SECRET…).
bool passesToCandidate(std::string_view name);

// argv or envp for execve: the strings' pointers and a null (valid while `strings` lives).
std::vector<char *> execPointers(const std::vector<std::string> &strings);

// Whether a variable's name looks like a secret's (…KEY…, …TOKEN…, …SECRET…, …PASSWORD…): such a variable reaches
// neither a candidate nor, from the application, gpuf-measure or Slurm.
bool looksSecret(std::string_view name);

// What the probe found: bwrap runs a trivial command in the same namespaces a candidate gets, or the reason it
// cannot ("bwrap: setting up uid map: Permission denied"). pythonRoots: the interpreter's prefixes and sys.path
// folders outside /usr, bound read-only for every candidate.
struct SandboxStatus
{
    bool available = false;
    std::string bwrap; // the program used
    std::string version; // "bubblewrap 0.8.0"
    std::string reason; // why it is not available
    std::vector<std::filesystem::path> pythonRoots;
};

// Runs the probe (a few milliseconds); `interpreter` is asked for its folders with `environment` as its environment.
SandboxStatus probeSandbox(
    const std::string &bwrap, const std::string &interpreter, const std::vector<std::string> &environment);

// One candidate's view of the machine.
struct SandboxLayout
{
    std::filesystem::path tempDir; // the only writable folder; HOME, TMPDIR and the working directory
    std::vector<std::filesystem::path> readOnly; // harness, problem, Python environment, library folders
    std::vector<std::filesystem::path> writable; // folders the request named (a shared Triton cache)
    bool shareNetwork = false; // options.network = "allow"
};

// bwrap's arguments for `layout`, the program first, ending with "--" (the command follows).
std::vector<std::string> bwrapArguments(const SandboxStatus &status, const SandboxLayout &layout);

} // namespace gpuf::gpu
