// ImportReport::text(); see interop.h. Counts are named for people ("3,570 forecasts", "1 labelled pair"), never by
// their record tags ("pair_label").
#include "core/interop/interop.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace gpuf::interop {
namespace {

// In the order a reader cares about; kinds not listed here follow under their own name.
const char *const kKindOrder[] = {"problem", "kernel", "measurement", "pair_label", "forecast", "forecaster",
    "hardware", "search", "search_event", "lesson"};

QString countText(const QString &kind, qint64 count)
{
    const int n = int(count);
    if (kind == QLatin1StringView("problem"))
        return QCoreApplication::translate("gpuf::interop", "%Ln problem(s)", nullptr, n);
    if (kind == QLatin1StringView("kernel"))
        return QCoreApplication::translate("gpuf::interop", "%Ln kernel(s)", nullptr, n);
    if (kind == QLatin1StringView("measurement"))
        return QCoreApplication::translate("gpuf::interop", "%Ln measurement(s)", nullptr, n);
    if (kind == QLatin1StringView("pair_label"))
        return QCoreApplication::translate("gpuf::interop", "%Ln labelled pair(s)", nullptr, n);
    if (kind == QLatin1StringView("forecast"))
        return QCoreApplication::translate("gpuf::interop", "%Ln forecast(s)", nullptr, n);
    if (kind == QLatin1StringView("forecaster"))
        return QCoreApplication::translate("gpuf::interop", "%Ln forecaster(s)", nullptr, n);
    if (kind == QLatin1StringView("hardware"))
        return QCoreApplication::translate("gpuf::interop", "%Ln GPU description(s)", nullptr, n);
    if (kind == QLatin1StringView("search"))
        return QCoreApplication::translate("gpuf::interop", "%Ln search(es)", nullptr, n);
    if (kind == QLatin1StringView("search_event"))
        return QCoreApplication::translate("gpuf::interop", "%Ln search event(s)", nullptr, n);
    if (kind == QLatin1StringView("lesson"))
        return QCoreApplication::translate("gpuf::interop", "%Ln lesson(s)", nullptr, n);
    return QStringLiteral("%1 %2").arg(count).arg(QString(kind).replace(QLatin1Char('_'), QLatin1Char(' ')));
}

QString formatText(FileFormat format)
{
    switch (format) {
    case FileFormat::Bundle:
        return QCoreApplication::translate("gpuf::interop", "gpuf bundle");
    case FileFormat::EvalSet:
        return QCoreApplication::translate("gpuf::interop", "the paper's eval set");
    case FileFormat::Predictions:
        return QCoreApplication::translate("gpuf::interop", "the paper's predictions");
    case FileFormat::DiscoveryPairs:
        return QCoreApplication::translate("gpuf::interop", "the paper's discovery pairs");
    case FileFormat::RlPool:
        return QCoreApplication::translate("gpuf::interop", "the paper's RL pool");
    case FileFormat::HfSearchEvents:
        return QCoreApplication::translate("gpuf::interop", "the paper's search events");
    case FileFormat::EventLog:
        return QCoreApplication::translate("gpuf::interop", "a search's event log");
    }
    return {};
}

QStringList orderedKinds(const QMap<QString, RecordCount> &counts)
{
    QStringList kinds;
    for (const char *kind : kKindOrder) {
        if (counts.contains(QLatin1StringView(kind)))
            kinds.append(QString::fromLatin1(kind));
    }
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (!kinds.contains(it.key()))
            kinds.append(it.key());
    }
    return kinds;
}

} // namespace

QString ImportReport::text() const
{
    QStringList lines;
    for (const FileReport &f : files) {
        QStringList added;
        QStringList stored;
        const QStringList kinds = orderedKinds(f.counts);
        for (const QString &kind : kinds) {
            const RecordCount &c = f.counts[kind];
            if (c.added > 0)
                added.append(countText(kind, c.added));
            if (c.deduplicated > 0)
                stored.append(countText(kind, c.deduplicated));
        }
        QString line = QCoreApplication::translate("gpuf::interop", "%1 (%2, %Ln line(s)): ", nullptr, int(f.lines))
                           .arg(QFileInfo(f.file).fileName(), formatText(f.format));
        line += added.isEmpty()
            ? QCoreApplication::translate("gpuf::interop", "nothing new added")
            : QCoreApplication::translate("gpuf::interop", "added %1").arg(added.join(QStringLiteral(", ")));
        if (!stored.isEmpty())
            line += QCoreApplication::translate("gpuf::interop", "; already in the store: %1")
                        .arg(stored.join(QStringLiteral(", ")));
        lines.append(line);
        for (const QString &warning : f.warnings)
            lines.append(QCoreApplication::translate("gpuf::interop", "  warning: %1").arg(warning));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace gpuf::interop
