// The shipped sweeps; see shipped_sweeps.h.
#include "core/mutators/shipped_sweeps.h"

#include "core/common/resources.h"
#include "core/mutators/shipped_families.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

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

bool looksLikeSweep(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QJsonObject header = QJsonDocument::fromJson(file.readLine(1 << 20).trimmed()).object();
    return header.value(QStringLiteral("format")).toString() == kSweepFormat
        && header.value(QStringLiteral("record")).toString() == QLatin1StringView("header");
}

Result<SweepImportReport> importSweepFile(Store &store, const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    auto sweep = readSweep(path);
    if (!sweep)
        return Error {QStringLiteral("%1: %2").arg(name, sweep.error())};
    auto family = findFamily(sweep->family);
    if (!family)
        return Error {QStringLiteral("%1: %2").arg(name, family.error())};
    auto report = importSweep(store, *sweep, *family, shippedCorpusDir());
    if (!report)
        return Error {QStringLiteral("%1: %2").arg(name, report.error())};
    return report;
}

Result<SweepImportReport> importShippedSweeps(Store &store)
{
    SweepImportReport total;
    for (const QString &file : shippedSweepFiles()) {
        auto report = importSweepFile(store, file);
        if (!report)
            return Error {report.error()};
        total.kernels += report->kernels;
        total.measurements += report->measurements;
    }
    return total;
}

} // namespace gpuf::families
