// gpuf-measure: the Qt-free GPU worker. Reads JSON Lines requests on stdin, writes one response line per
// request on stdout (docs/measure-protocol.md); exits after a fault that poisons the CUDA context.
#include "core/gpu/measure_service.h"
#include "core/gpu/protocol.h"

#include "gpuf_config.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

namespace {

void printUsage()
{
    // The layout of Qt's --help (usage, description, "Options:" list), so the manual page is made from it alike.
    std::cout << "Usage: gpuf-measure [--device N] [--cache-dir DIR | --no-cache] [--include-dir DIR]\n"
                 "                    [--python PATH] [--harness-dir DIR] [--problems-dir DIR]\n"
                 "                    [--bwrap PATH] [--unsandboxed]\n"
                 "The GPU worker of GPU Forecaster Explorer: compiles CUDA kernels with NVRTC and times them on the\n"
                 "local GPU, and starts the Python harness for Python candidates. It reads one JSON request per line\n"
                 "on stdin and writes one response per line on stdout (docs/measure-protocol.md,\n"
                 "docs/python-problems.md); gpuf and gpuf-explorer start it.\n"
                 "\n"
                 "Options:\n"
                 "  --device N          the GPU to use, by CUDA ordinal (default 0)\n"
                 "  --cache-dir DIR     keep compiled kernels here (default $XDG_CACHE_HOME/gpuf/cubins)\n"
                 "  --no-cache          compile every kernel afresh\n"
                 "  --include-dir DIR   look for #include files here first (may be repeated)\n"
                 "  --python PATH       the interpreter started for each Python candidate (default python3)\n"
                 "  --harness-dir DIR   where the gpuf_harness package lives (default: the installed one)\n"
                 "  --problems-dir DIR  where Python problems live (default: the installed ones)\n"
                 "  --bwrap PATH        bubblewrap, the sandbox of Python candidates (default bwrap)\n"
                 "  --unsandboxed       run Python candidates even where no sandbox can be made\n"
                 "  --version           print the worker, protocol and NVRTC versions\n"
                 "  -h, --help          print this help\n";
}

std::vector<std::string> defaultIncludeDirs()
{
    // The toolkit's headers (cooperative_groups, cuda/std, cub) are found where the build found them, or in
    // the usual install location on the machine that runs the worker.
    std::vector<std::string> dirs;
    for (const std::string &base : {std::string(GPUF_CUDA_INCLUDE_DIR), std::string("/usr/local/cuda/include")}) {
        if (!std::filesystem::is_directory(base))
            continue;
        dirs.push_back(base);
        if (std::filesystem::is_directory(base + "/cccl"))
            dirs.push_back(base + "/cccl");
        break;
    }
    return dirs;
}

// Writes one response line and flushes: the application reads line by line.
void send(const nlohmann::json &response)
{
    const std::string line = response.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

// Answers the requests on stdin, one per line, until shutdown or its end; returns the exit status.
int answerRequests(const gpuf::gpu::ServiceConfig &config)
{
    gpuf::gpu::MeasureService service(config);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        auto parsed = gpuf::gpu::parseRequestLine(line);
        if (auto *error = std::get_if<nlohmann::json>(&parsed)) {
            send(*error);
            continue;
        }
        const auto &request = std::get<gpuf::gpu::Request>(parsed);
        if (request.type == "shutdown") {
            send(gpuf::gpu::makeResponse(request.id, "shutdown", gpuf::gpu::Status::Ok));
            return 0;
        }
        nlohmann::json response;
        try {
            response = service.handle(request);
        } catch (const std::exception &e) {
            // Nothing below is expected to throw; if it does, the answer is still a response, not a crash.
            response = gpuf::gpu::makeResponse(request.id, request.type, gpuf::gpu::Status::InfrastructureFailure,
                std::string("internal error: ") + e.what());
        }
        send(response);
        if (service.mustExit()) {
            std::fflush(stdout);
            std::_Exit(3); // the CUDA context is unusable; a fresh process is the only recovery
        }
    }
    return 0;
}

// Reads the arguments and serves requests from stdin until shutdown or its end; returns the exit status.
int serve(int argc, char **argv)
{
    gpuf::gpu::ServiceConfig config;
    config.workerVersion = GPUF_VERSION_STRING;
    config.cacheDir = gpuf::gpu::CubinCache::defaultDirectory();
    config.includeDirs = defaultIncludeDirs();
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    config.python.harnessDir = gpuf::gpu::defaultHarnessDir(self);
    config.python.problemsDir = gpuf::gpu::defaultProblemsDir(self);
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--version") {
            std::cout << "gpuf-measure " << GPUF_VERSION_STRING << " (protocol " << gpuf::gpu::kProtocolVersion
                      << ", NVRTC " << gpuf::gpu::NvrtcCompiler::version() << ")\n";
            return 0;
        } else if (arg == "--help" || arg == "-h") {
            printUsage();
            return 0;
        } else if (arg == "--device" && hasValue) {
            config.deviceOrdinal = std::atoi(argv[++i]);
        } else if (arg == "--cache-dir" && hasValue) {
            config.cacheDir = argv[++i];
        } else if (arg == "--no-cache") {
            config.cacheDir.clear();
        } else if (arg == "--python" && hasValue) {
            config.python.interpreter = argv[++i];
        } else if (arg == "--harness-dir" && hasValue) {
            config.python.harnessDir = argv[++i];
        } else if (arg == "--problems-dir" && hasValue) {
            config.python.problemsDir = argv[++i];
        } else if (arg == "--bwrap" && hasValue) {
            config.python.bwrap = argv[++i];
        } else if (arg == "--unsandboxed") {
            config.python.allowUnsandboxed = true;
        } else if (arg == "--include-dir" && hasValue) {
            config.includeDirs.insert(config.includeDirs.begin(), argv[++i]);
        } else {
            std::cerr << "gpuf-measure: unknown argument '" << arg << "'\n";
            printUsage();
            return 2;
        }
    }

    return answerRequests(config);
}

} // namespace

int main(int argc, char **argv)
{
    // A request's own failures are answered (serve); what escapes it (std::bad_alloc, a filesystem error) ends the
    // worker with its reason on stderr rather than with std::terminate's abort.
    try {
        return serve(argc, argv);
    } catch (const std::exception &e) {
        std::cerr << "gpuf-measure: " << e.what() << '\n';
    } catch (...) {
        std::cerr << "gpuf-measure: unknown exception\n";
    }
    return 1;
}
