// Python candidates (docs/python-problems.md): runs the product's harness in a fresh interpreter per candidate, inside
// the bubblewrap sandbox (sandbox.h), with a wall-clock and a memory limit on its whole process tree, its own
// temporary directory and no network. Without a sandbox a candidate runs only where the user allowed it.
#pragma once

#include "core/gpu/expected.h"
#include "core/gpu/sandbox.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace gpuf::gpu {

inline constexpr const char *kPythonCandidateFormat = "gpuf-python/1";

struct PythonSettings
{
    std::string interpreter = "python3"; // a path, or a name looked up on PATH
    std::filesystem::path harnessDir; // the folder that holds gpuf_harness/
    std::filesystem::path problemsDir; // where "problem": {"name": …} is looked up
    std::string bwrap = "bwrap"; // bubblewrap: a path, or a name looked up on PATH
    bool allowUnsandboxed = false; // gpuf-measure --unsandboxed: run candidates where no sandbox can be made
    bool pidsCgroup = true; // limit a candidate's tree by a pids cgroup where one can be made (false: the count only)
};

// What one request asks for, validated.
struct PythonJob
{
    std::string candidateName;
    std::string candidateSource;
    std::filesystem::path problemDir;
    nlohmann::json harnessOptions = nlohmann::json::object(); // passed through to the harness (known keys only)
    double wallLimitMs = 300000.0;
    double memoryLimitMb = 16384.0; // resident memory of the interpreter and every process it starts, together
    int processLimit = 1024; // processes and threads of the whole tree together (a fork bomb stops here)
    bool isolateNetwork = true;
    std::string tritonCacheDir; // empty: inside the candidate's own temporary directory
    double peakBandwidthGBsOverride = -1.0; // for GPU-free runs, where no device gives one
};

// Reads candidate/problem/options of a measure request whose candidate has format gpuf-python/1. Errors name the
// field ("options.timeout_ms: expected a number").
std::variant<PythonJob, std::vector<std::string>> parsePythonJob(
    const nlohmann::json &body, const PythonSettings &settings);

// The device as the harness should see it: ordinal, name, peak bandwidth and L2 size (empty without a GPU).
struct PythonDevice
{
    int ordinal = 0;
    bool available = false;
    std::string name;
    std::string uuid;
    double peakBandwidthGBs = 0.0;
    long long l2Bytes = 0;
};

// Probes the sandbox for `settings` (bwrap, and the interpreter's folders to bind); done once per worker.
SandboxStatus probePythonSandbox(const PythonSettings &settings);

// The sentence a refused candidate gets when `sandbox` is not available and unsandboxed runs are not allowed.
std::string sandboxRefusal(const SandboxStatus &sandbox);

// Runs the job in `sandbox` (refused where it is not available, unless settings allow unsandboxed runs) and returns
// the response body (status, message, cases, provenance, isolation, …) without id/type.
nlohmann::json runPythonJob(
    const PythonJob &job, const PythonSettings &settings, const PythonDevice &device, const SandboxStatus &sandbox);

// The harness folder next to an installed or carried worker, else the source tree's; empty when none exists.
std::filesystem::path defaultHarnessDir(const std::filesystem::path &executable);
std::filesystem::path defaultProblemsDir(const std::filesystem::path &executable);

} // namespace gpuf::gpu
