// Format detection and the import entry point: one transaction over all files, files ordered so that what a file
// refers to is imported before it; see interop.h.
#include "core/interop/interop.h"

#include "core/interop/import_context.h"
#include "core/interop/importers.h"
#include "core/interop/line_reader.h"
#include "core/store/store.h"

#include <algorithm>
#include <numeric>

namespace gpuf::interop {
namespace {

bool hasAll(const QJsonObject &object, std::initializer_list<const char *> keys)
{
    return std::all_of(
        keys.begin(), keys.end(), [&object](const char *key) { return object.contains(QString::fromLatin1(key)); });
}

// Files others depend on come first: bundles, then pair labels, then logs, then predictions (which join labels).
int processingRank(FileFormat format)
{
    switch (format) {
    case FileFormat::Bundle:
        return 0;
    case FileFormat::EvalSet:
    case FileFormat::DiscoveryPairs:
    case FileFormat::RlPool:
        return 1;
    case FileFormat::HfSearchEvents:
    case FileFormat::EventLog:
        return 2;
    case FileFormat::Predictions:
        return 3;
    }
    return 4;
}

Status importOne(ImportContext &context, const QString &file, FileFormat format)
{
    switch (format) {
    case FileFormat::Bundle:
        return importBundle(context, file);
    case FileFormat::EvalSet:
    case FileFormat::DiscoveryPairs:
    case FileFormat::RlPool:
        return importPairRows(context, file, format);
    case FileFormat::Predictions:
        return importPredictions(context, file);
    case FileFormat::EventLog:
        return importEventLog(context, file);
    case FileFormat::HfSearchEvents:
        return importHfSearchEvents(context, file);
    }
    return Error {QStringLiteral("%1: unknown format").arg(file)};
}

} // namespace

QString formatName(FileFormat format)
{
    switch (format) {
    case FileFormat::Bundle:
        return QStringLiteral("gpuf-bundle");
    case FileFormat::EvalSet:
        return QStringLiteral("paper-eval");
    case FileFormat::Predictions:
        return QStringLiteral("paper-predictions");
    case FileFormat::DiscoveryPairs:
        return QStringLiteral("paper-discovery");
    case FileFormat::RlPool:
        return QStringLiteral("paper-rl-pool");
    case FileFormat::HfSearchEvents:
        return QStringLiteral("paper-search-events");
    case FileFormat::EventLog:
        return QStringLiteral("events-jsonl");
    }
    return {};
}

Result<FileFormat> detectFormat(const QString &file)
{
    LineReader reader(file);
    if (Status s = reader.open(); !s)
        return Error {s.error()};
    if (!reader.next()) {
        if (!reader.readError().isEmpty())
            return Error {reader.readError()};
        return Error {QStringLiteral("%1: empty file; nothing to import").arg(file)};
    }
    int replaced = 0;
    auto object = parseLenientJsonObject(reader.line(), &replaced);
    if (!object)
        return Error {reader.location() + QStringLiteral(": ") + object.error()};
    const QJsonObject &o = *object;
    if (o.value(QStringLiteral("type")).toString() == QLatin1StringView("header")
        && o.value(QStringLiteral("format")).toString() == QLatin1StringView("gpuf-bundle"))
        return FileFormat::Bundle;
    if (hasAll(o, {"surrogate_label"}))
        return FileFormat::Predictions;
    if (hasAll(o, {"comparison_id", "anchor_code"}))
        return FileFormat::EvalSet;
    if (hasAll(o, {"pair_id", "parent_code"}))
        return FileFormat::DiscoveryPairs;
    if (hasAll(o, {"row_id", "pair_type"}))
        return FileFormat::RlPool;
    if (hasAll(o, {"event_kind", "event_index", "payload"}))
        return FileFormat::HfSearchEvents;
    if (hasAll(o, {"kind"}))
        return FileFormat::EventLog;
    QStringList keys = o.keys();
    if (keys.size() > 8)
        keys = keys.mid(0, 8) << QStringLiteral("…");
    return Error {QStringLiteral("%1:%2: unknown format: the first record has keys {%3}; expected a gpuf bundle"
                                 " header, a published eval/predictions/discovery/RL-pool/search-event row, or a"
                                 " search event with 'kind'")
                      .arg(file)
                      .arg(reader.lineNumber())
                      .arg(keys.join(QStringLiteral(", ")))};
}

RecordCount ImportReport::total(const QString &kind) const
{
    RecordCount sum;
    for (const FileReport &f : files) {
        const RecordCount c = f.counts.value(kind);
        sum.added += c.added;
        sum.deduplicated += c.deduplicated;
    }
    return sum;
}

Result<ImportReport> importFiles(Store &store, const QStringList &files, const ImportOptions &options)
{
    if (store.isReadOnly())
        return Error {QStringLiteral("%1: the store is open read-only").arg(store.path())};
    ImportReport report;
    for (const QString &file : files) {
        auto format = detectFormat(file);
        if (!format)
            return Error {format.error()};
        FileReport f;
        f.file = file;
        f.format = *format;
        report.files.append(f);
    }
    QList<int> order(report.files.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&report](int a, int b) {
        return processingRank(report.files[a].format) < processingRank(report.files[b].format);
    });

    Transaction transaction(store);
    if (Status s = transaction.begin(); !s)
        return Error {s.error()};
    ImportContext context(store, options);
    for (qsizetype i = 0; i < order.size(); ++i) {
        FileReport &f = report.files[order[i]];
        context.beginFile(&f, int(i), int(order.size()));
        if (Status s = importOne(context, f.file, f.format); !s)
            return Error {s.error()}; // the transaction rolls back: the store is as it was
    }
    if (Status s = transaction.commit(); !s)
        return Error {s.error()};
    return report;
}

} // namespace gpuf::interop
