// Content-addressed cubin files: <key>.cubin next to <key>.json.
#include "core/gpu/cubin_cache.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace gpuf::gpu {

namespace {

// Two independent FNV-1a passes give a 128-bit key; collisions are not a practical concern for a local cache.
std::uint64_t fnv1a(const std::string &data, std::uint64_t basis)
{
    std::uint64_t h = basis;
    for (unsigned char c : data) {
        h ^= c;
        h *= 0x100000001B3ull;
    }
    return h;
}

std::optional<std::string> readFile(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool writeAtomically(const std::filesystem::path &path, const char *data, std::size_t size)
{
    const std::filesystem::path tmp = path.string() + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out.write(data, static_cast<std::streamsize>(size)))
            return false;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec)
        std::filesystem::remove(tmp, ec);
    return !ec;
}

} // namespace

CubinCache::CubinCache(std::filesystem::path directory)
    : m_directory(std::move(directory))
{
    if (!m_directory.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(m_directory, ec);
    }
}

std::filesystem::path CubinCache::defaultDirectory()
{
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "gpuf" / "cubins";
    if (const char *home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "gpuf" / "cubins";
    return std::filesystem::temp_directory_path() / "gpuf-cubins";
}

std::string CubinCache::key(const std::string &source, const std::vector<std::string> &options, const std::string &arch,
    const std::string &compilerVersion)
{
    std::string material = "gpuf-cubin/1\n" + compilerVersion + '\n' + arch + '\n';
    for (const auto &o : options)
        material += o + '\0';
    material += '\n' + source;
    char out[40];
    std::snprintf(out, sizeof out, "%016llx%016llx",
        static_cast<unsigned long long>(fnv1a(material, 0xCBF29CE484222325ull)),
        static_cast<unsigned long long>(fnv1a(material, 0x84222325CBF29CE4ull)));
    return out;
}

std::optional<CachedCubin> CubinCache::load(const std::string &key) const
{
    if (m_directory.empty())
        return std::nullopt;
    auto cubin = readFile(m_directory / (key + ".cubin"));
    auto meta = readFile(m_directory / (key + ".json"));
    if (!cubin || !meta || cubin->empty())
        return std::nullopt;
    CachedCubin c;
    c.meta = nlohmann::json::parse(*meta, nullptr, false);
    if (c.meta.is_discarded())
        return std::nullopt;
    c.cubin.assign(cubin->begin(), cubin->end());
    return c;
}

void CubinCache::store(const std::string &key, const std::vector<char> &cubin, const nlohmann::json &meta) const
{
    if (m_directory.empty())
        return;
    const std::string text = meta.dump();
    // The metadata goes last: load() needs both, so a reader never sees a cubin without its report.
    if (writeAtomically(m_directory / (key + ".cubin"), cubin.data(), cubin.size()))
        writeAtomically(m_directory / (key + ".json"), text.data(), text.size());
}

} // namespace gpuf::gpu
