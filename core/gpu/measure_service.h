// Request handling of gpuf-measure: hello, device_info, compile and measure, each returning one response object.
#pragma once

#include "core/gpu/device_query.h"
#include "core/gpu/nvrtc_compiler.h"
#include "core/gpu/protocol.h"
#include "core/gpu/python_runner.h"

#include <filesystem>
#include <memory>
#include <optional>

namespace gpuf::gpu {

struct ServiceConfig
{
    int deviceOrdinal = 0;
    std::filesystem::path cacheDir; // empty: no cubin cache
    std::vector<std::string> includeDirs;
    std::string workerVersion;
    PythonSettings python; // interpreter, harness and problems folders for gpuf-python/1 candidates
};

class MeasureService
{
public:
    explicit MeasureService(ServiceConfig config);
    ~MeasureService();

    nlohmann::json handle(const Request &request);
    // True once a CUDA fault or a hung kernel has poisoned the context: the worker answers and exits.
    bool mustExit() const { return m_mustExit; }

private:
    nlohmann::json hello(const Request &request);
    nlohmann::json deviceInfo(const Request &request);
    nlohmann::json compile(const Request &request);
    nlohmann::json measure(const Request &request);
    nlohmann::json measurePython(const Request &request);
    nlohmann::json measureOnDevice(const Request &request, GpuDevice &gpu, const KernelSpec &candidate,
        const KernelSpec *reference, const MeasureOptions &opts);

    // The device, opened on first use; the failure text is the exact reason there is none.
    Expected<GpuDevice *> device();
    nlohmann::json provenance(const GpuDevice &gpu, const std::vector<std::string> &compileOptions) const;
    // The Python candidates' sandbox, probed on first use and kept: the machine does not change under the worker.
    const SandboxStatus &sandbox();

    struct CaseRun;
    CaseResult runCase(CaseRun &run);

    ServiceConfig m_config;
    NvrtcCompiler m_compiler;
    std::unique_ptr<GpuDevice> m_device;
    std::string m_deviceFailure;
    bool m_deviceTried = false;
    std::optional<SandboxStatus> m_sandbox;
    bool m_mustExit = false;
};

} // namespace gpuf::gpu
