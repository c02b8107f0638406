// Compile features for the cost model: registers, spills, shared and local memory and the PTX instruction mix of a
// CUDA kernel, from a `compile` request with an explicit arch and "ptx_mix": true to a gpuf-measure process (no GPU
// needed; the application never runs NVRTC itself). A small blocking client — QProcess waits, no event loop — for
// the threads that may block: the CLI, training, the forecast engine's thread. Never the GUI thread.
#pragma once

#include "core/common/result.h"
#include "core/domain/hardware.h"
#include "core/domain/kernel.h"
#include "core/features/kernel_features.h"

#include <QJsonObject>
#include <QMutex>
#include <QProcess>

#include <memory>

namespace gpuf::costmodel {

// "9.0" → "sm_90"; empty when the compute capability is not "M.m".
QString archOf(const Hardware &hardware);

// The compile request's spec for a kernel: its source, and from parameters.spec its NVRTC options and entry points.
// Empty for kernels that are not CUDA (Triton, PyTorch).
QJsonObject compileSpecOf(const Kernel &kernel);

class CompileFeatureWorker
{
public:
    // Starts gpuf-measure (found by core/measure's locator unless `program` is given); an error says why not.
    static Result<std::unique_ptr<CompileFeatureWorker>> start(const QString &program = {}, int budgetMs = 120000);
    ~CompileFeatureWorker();
    CompileFeatureWorker(const CompileFeatureWorker &) = delete;
    CompileFeatureWorker &operator=(const CompileFeatureWorker &) = delete;

    // The worker's `compile` object for the kernel on `arch` (with ptx_mix); an error for a kernel that is not CUDA,
    // does not compile, or a worker that died (it is not restarted). Thread-safe: requests are serialised.
    Result<QJsonObject> compile(const Kernel &kernel, const QString &arch);

    // The kernel's source features plus its compile features; the source features alone when the compile failed.
    features::KernelFeatures features(const Kernel &kernel, const QString &arch, QString *error = nullptr);

private:
    CompileFeatureWorker() = default;
    Result<QJsonObject> exchange(const QJsonObject &request);

    QMutex m_lock;
    QProcess m_process;
    int m_budgetMs = 120000;
    quint64 m_nextId = 1;
    QString m_dead; // why the worker can no longer answer
};

} // namespace gpuf::costmodel
