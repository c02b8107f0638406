// A program that reports what the shared-data lookup and the worker locator decide for it, so tst_resource_dir can
// run copies of it from an installed-looking prefix and from the build tree.
#include "core/common/resource_dir.h"
#include "core/common/resources.h"
#include "core/measure/worker_locator.h"

#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    out << "installed " << (gpuf::isInstalledLayout() ? 1 : 0) << '\n'
        << "root " << gpuf::resourceDirectoryPath() << '\n';
    for (const QString &relative : QCoreApplication::arguments().mid(1))
        out << "find " << relative << ' ' << gpuf::resourcePath(relative) << '\n';
    for (const QString &folder : gpuf::measure::workerSearchFolders())
        out << "worker-folder " << folder << '\n';
    return 0;
}
