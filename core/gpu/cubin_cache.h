// On-disk cache of compiled cubins keyed by (source, options, architecture, NVRTC version).
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpuf::gpu {

// clang-tidy 14 reads a throw into nlohmann::json's noexcept move (its invariant check only asserts).
struct CachedCubin // NOLINT(bugprone-exception-escape)
{
    std::vector<char> cubin;
    nlohmann::json meta; // the compile log and the ptxas resource report, so a hit reports what a miss did
};

class CubinCache
{
public:
    // An empty directory disables the cache.
    explicit CubinCache(std::filesystem::path directory);

    // $XDG_CACHE_HOME/gpuf/cubins, else $HOME/.cache/gpuf/cubins.
    static std::filesystem::path defaultDirectory();

    static std::string key(const std::string &source, const std::vector<std::string> &options, const std::string &arch,
        const std::string &compilerVersion);

    std::optional<CachedCubin> load(const std::string &key) const;
    // Written to a temporary file and renamed, so concurrent workers never read half a cubin.
    void store(const std::string &key, const std::vector<char> &cubin, const nlohmann::json &meta) const;
    const std::filesystem::path &directory() const { return m_directory; }

private:
    std::filesystem::path m_directory;
};

} // namespace gpuf::gpu
