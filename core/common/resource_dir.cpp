// Shared-data lookup; see resource_dir.h.
#include "core/common/resource_dir.h"

#include <cstdlib>
#include <system_error>

namespace gpuf {
namespace {

namespace fs = std::filesystem;

// Relative path from the installed bin folder to the installed data folder, e.g. "../share/gpuf" (CMake computes
// it from GNUInstallDirs), and the source tree's resources folder for programs run from their build tree.
constexpr std::string_view kDataFromBinDir = GPUF_DATA_FROM_BINDIR;
constexpr std::string_view kSourceResources = GPUF_SOURCE_RESOURCES;

bool isDirectory(const fs::path &path)
{
    std::error_code ec;
    return !path.empty() && fs::is_directory(path, ec);
}

fs::path installedDataDirectory()
{
    const fs::path exeDir = executableDirectory();
    if (exeDir.empty())
        return {};
    return (exeDir / fs::path(kDataFromBinDir)).lexically_normal();
}

} // namespace

fs::path executableDirectory()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

bool isInstalledLayout() { return isDirectory(installedDataDirectory()); }

fs::path resourceDirectory()
{
    if (const char *overridden = std::getenv("GPUF_RESOURCE_DIR"); overridden && *overridden)
        return fs::path(overridden);
    if (fs::path installed = installedDataDirectory(); isDirectory(installed))
        return installed;
    return fs::path(kSourceResources);
}

fs::path findResource(std::string_view relative)
{
    const fs::path candidate = resourceDirectory() / fs::path(relative);
    std::error_code ec;
    return fs::exists(candidate, ec) ? candidate : fs::path();
}

} // namespace gpuf
