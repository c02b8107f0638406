// Qt wrappers of the shared-data lookup; see resources.h.
#include "core/common/resources.h"

#include "core/common/resource_dir.h"

namespace gpuf {

QString resourceDirectoryPath() { return QString::fromStdString(resourceDirectory().string()); }

QString resourcePath(const QString &relative)
{
    const std::filesystem::path found = findResource(relative.toStdString());
    return found.empty() ? QString() : QString::fromStdString(found.string());
}

} // namespace gpuf
