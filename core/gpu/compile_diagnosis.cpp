// Reading NVRTC's log for missing headers and unresolved entry points; see compile_diagnosis.h.
#include "core/gpu/compile_diagnosis.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace gpuf::gpu {
namespace {

std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

std::string withoutSpaces(std::string s)
{
    s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
    return s;
}

std::string fileName(const std::string &path)
{
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string bracketed(const std::string &header) { return "<" + header + ">"; }

std::string describeMissing(const MissingHeader &missing, const std::string &programName,
    const std::vector<IncludeLine> &includes, const std::function<bool(const std::string &)> &found)
{
    const std::string advice = "NVRTC compiles device code only and has no host C/C++ library headers: remove the "
                               "#include if the kernel does not use it, or give the header's folder to gpuf-measure "
                               "with --include-dir";
    std::ostringstream out;
    if (fileName(missing.includedFrom) == fileName(programName)) {
        out << "#include " << bracketed(missing.header) << " (line " << missing.line << ") cannot be found; " << advice;
        return out.str();
    }
    out << "header " << bracketed(missing.header) << " cannot be found (needed by " << fileName(missing.includedFrom)
        << ", line " << missing.line << ")";
    std::vector<std::string> leads;
    for (const IncludeLine &include : includes) {
        if (found && found(include.header))
            leads.push_back("#include " + bracketed(include.header) + " (line " + std::to_string(include.line) + ")");
    }
    if (!leads.empty()) {
        out << ", which the source reaches through ";
        for (std::size_t i = 0; i < leads.size(); ++i)
            out << (i == 0 ? "" : (i + 1 == leads.size() ? " or " : ", ")) << leads[i];
    }
    out << "; " << advice;
    return out.str();
}

} // namespace

std::vector<IncludeLine> includeLines(const std::string &source)
{
    static const std::regex includeRe(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
    std::vector<IncludeLine> out;
    const std::vector<std::string> lines = splitLines(source);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (std::regex_search(lines[i], m, includeRe))
            out.push_back({int(i + 1), m[1]});
    }
    return out;
}

std::vector<MissingHeader> missingHeaders(const std::string &log)
{
    static const std::regex missingRe(
        R"rx(^(.*)\((\d+)\): (?:catastrophic )?error: cannot open source file "([^"]+)")rx");
    std::vector<MissingHeader> out;
    for (const std::string &line : splitLines(log)) {
        std::smatch m;
        if (std::regex_search(line, m, missingRe))
            out.push_back({m[3], m[1], std::stoi(m[2])});
    }
    return out;
}

std::vector<EntryProblem> entryProblems(const std::string &log, const std::vector<std::string> &entries)
{
    // NVRTC compiles each name expression as "#pragma nv_mangled_name EXPR" in a pseudo-file; an error there is
    // followed by that line, which tells which expression it was about.
    static const std::regex errorRe(R"(^__nv_name_map\(\d+\): error: (.*)$)");
    static const std::regex pragmaRe(R"(#pragma nv_mangled_name (.*)$)");
    const std::vector<std::string> lines = splitLines(log);
    std::vector<EntryProblem> out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (!std::regex_search(lines[i], m, errorRe))
            continue;
        const std::string reason = m[1];
        std::string expression;
        for (std::size_t k = i + 1; k < lines.size() && k <= i + 2; ++k) {
            std::smatch p;
            if (std::regex_search(lines[k], p, pragmaRe)) {
                expression = withoutSpaces(p[1]);
                break;
            }
        }
        const auto entry = std::find_if(
            entries.begin(), entries.end(), [&](const std::string &e) { return withoutSpaces(e) == expression; });
        if (entry == entries.end())
            continue;
        const bool generic = reason.rfind("Error in parsing name expression", 0) == 0;
        auto known = std::find_if(out.begin(), out.end(), [&](const EntryProblem &p) { return p.entry == *entry; });
        if (known == out.end())
            out.push_back({*entry, reason});
        else if (!generic && known->reason.rfind("Error in parsing name expression", 0) == 0)
            known->reason = reason; // a specific reason beats the generic one
    }
    return out;
}

std::string diagnoseCompileLog(const std::string &log, const std::string &programName, const std::string &source,
    const std::vector<std::string> &entries, const std::function<bool(const std::string &)> &found)
{
    std::vector<std::string> sentences;
    const std::vector<IncludeLine> includes = includeLines(source);
    for (const MissingHeader &missing : missingHeaders(log))
        sentences.push_back(describeMissing(missing, programName, includes, found));
    for (const EntryProblem &problem : entryProblems(log, entries)) {
        sentences.push_back("entry '" + problem.entry + "' does not name a __global__ function of the source ("
            + problem.reason
            + "); give an extern \"C\" name, a C++ name or a template instantiation such as "
              "sgemm<64, 8>");
    }
    std::string out;
    for (const std::string &s : sentences)
        out += (out.empty() ? "" : "\n") + s;
    return out;
}

} // namespace gpuf::gpu
