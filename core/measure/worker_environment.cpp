// The measurement processes' environment; see worker_environment.h.
#include "core/measure/worker_environment.h"

#include "core/gpu/sandbox.h"

#include <algorithm>
#include <array>

namespace gpuf::measure {

namespace {

// Beyond what a Python candidate may see (core/gpu/sandbox.cpp's list): the user and the folders the worker keeps
// its caches and temporary files in, the program's own variables, the sanitizers' options, and Slurm's.
constexpr std::array kWorkerNames = {"HOME", "USER", "LOGNAME", "TMPDIR", "XDG_CACHE_HOME"};
constexpr std::array kWorkerPrefixes
    = {"PYTHON", "GPUF_", "ASAN_", "UBSAN_", "LSAN_", "TSAN_", "MSAN_", "SLURM_", "SBATCH_", "SQUEUE_", "SACCT_"};

} // namespace

bool passesToWorker(const QString &name)
{
    const std::string n = name.toStdString();
    if (gpu::looksSecret(n))
        return false;
    if (gpu::passesToCandidate(n))
        return true;
    if (std::find(kWorkerNames.begin(), kWorkerNames.end(), n) != kWorkerNames.end())
        return true;
    return std::any_of(kWorkerPrefixes.begin(), kWorkerPrefixes.end(),
        [&](const char *prefix) { return name.startsWith(QLatin1StringView(prefix)); });
}

QProcessEnvironment workerEnvironment(const QProcessEnvironment &from)
{
    QProcessEnvironment scrubbed;
    const QStringList names = from.keys();
    for (const QString &name : names) {
        if (passesToWorker(name))
            scrubbed.insert(name, from.value(name));
    }
    return scrubbed;
}

} // namespace gpuf::measure
