// Locating gpuf-measure; see worker_locator.h.
#include "core/measure/worker_locator.h"

#include "core/common/resource_dir.h"
#include "gpuf_config.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace gpuf::measure {

namespace {
const QString kWorkerName = QStringLiteral("gpuf-measure");
}

QStringList workerSearchFolders()
{
    QStringList folders;
    if (QCoreApplication::instance())
        folders.append(QCoreApplication::applicationDirPath());
    // The build tree this program came from, so a developer's build and the tests find the worker built beside them;
    // an installed program never looks there.
    if (!isInstalledLayout())
        folders.append(QStringLiteral(GPUF_MEASURE_BUILD_DIR));
    folders.removeDuplicates();
    return folders;
}

Result<QString> locateMeasureWorker()
{
    const QStringList folders = workerSearchFolders();
    for (const QString &folder : folders) {
        const QFileInfo candidate(QDir(folder).filePath(kWorkerName));
        if (candidate.isFile() && candidate.isExecutable())
            return candidate.absoluteFilePath();
    }
    const QString onPath = QStandardPaths::findExecutable(kWorkerName);
    if (!onPath.isEmpty())
        return onPath;
    if (!GPUF_HAVE_CUDA)
        return Error {QStringLiteral("gpuf-measure not built: CUDA toolkit missing")};
    return Error {QStringLiteral("gpuf-measure not found (looked in %1 and on PATH)")
                      .arg(QDir::toNativeSeparators(folders.join(QStringLiteral(", "))))};
}

QString pythonInterpreter()
{
    QString fromEnvironment = qEnvironmentVariable("GPUF_PYTHON");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    return QSettings().value(QString::fromLatin1(kPythonInterpreterKey)).toString();
}

QStringList withPythonInterpreter(QStringList args)
{
    const QString python = pythonInterpreter();
    if (!python.isEmpty() && !args.contains(QStringLiteral("--python")))
        args << QStringLiteral("--python") << python;
    const QString unsandboxed = QString::fromLatin1(kUnsandboxedArgument);
    if (QSettings().value(QString::fromLatin1(kPythonUnsandboxedKey)).toBool() && !args.contains(unsandboxed))
        args << unsandboxed;
    return args;
}

} // namespace gpuf::measure
