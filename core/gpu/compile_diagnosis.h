// Turning NVRTC's compile log into the reason a person can act on: which #include could not be found (and which of
// the source's own includes led to it), and which entry point NVRTC could not resolve. Pure text work, no CUDA.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gpuf::gpu {

struct IncludeLine
{
    int line = 0; // 1-based
    std::string header; // as written between <> or ""
};

// The `#include` lines of a source, in order (comments are not looked into: a commented-out include is rare and
// naming it does no harm).
std::vector<IncludeLine> includeLines(const std::string &source);

struct MissingHeader
{
    std::string header; // "cstdio"
    std::string includedFrom; // the file NVRTC was reading: the program's own name, or a header's path
    int line = 0;
};

// Every "cannot open source file" in an NVRTC log, in order.
std::vector<MissingHeader> missingHeaders(const std::string &log);

struct EntryProblem
{
    std::string entry; // the name expression as the spec gave it
    std::string reason; // NVRTC's first error about it
};

// Errors NVRTC reports against the name expressions it was given (its "__nv_name_map" pseudo-file), matched back to
// the entries as the spec wrote them.
std::vector<EntryProblem> entryProblems(const std::string &log, const std::vector<std::string> &entries);

// One or more sentences naming the cause, or empty when the log shows nothing this recognises. `programName` is the
// name the source was compiled under ("softmax/v1.cu"); `found(header)` says whether an include of the source
// resolves on the worker's include path (only such an include can lead into a header that fails further down).
std::string diagnoseCompileLog(const std::string &log, const std::string &programName, const std::string &source,
    const std::vector<std::string> &entries, const std::function<bool(const std::string &)> &found);

} // namespace gpuf::gpu
