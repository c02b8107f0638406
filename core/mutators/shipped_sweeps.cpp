// The shipped sweeps; see shipped_sweeps.h.
#include "core/mutators/shipped_sweeps.h"

#include "core/common/resources.h"
#include "core/mutators/shipped_families.h"

#include <QDir>

namespace gpuf::families {

QStringList shippedSweepFiles()
{
    const QString dir = resourcePath(QStringLiteral("sweeps"));
    if (dir.isEmpty())
        return {};
    QStringList files;
    const QDir folder(dir);
    for (const QString &name : folder.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name))
        files.append(folder.absoluteFilePath(name));
    return files;
}

Result<SweepImportReport> importShippedSweeps(Store &store)
{
    SweepImportReport total;
    for (const QString &file : shippedSweepFiles()) {
        const QString name = QFileInfo(file).fileName();
        auto sweep = readSweep(file);
        if (!sweep)
            return Error {QStringLiteral("%1: %2").arg(name, sweep.error())};
        auto family = findFamily(sweep->family);
        if (!family)
            return Error {QStringLiteral("%1: %2").arg(name, family.error())};
        auto report = importSweep(store, *sweep, *family, shippedCorpusDir());
        if (!report)
            return Error {QStringLiteral("%1: %2").arg(name, report.error())};
        total.kernels += report->kernels;
        total.measurements += report->measurements;
    }
    return total;
}

} // namespace gpuf::families
