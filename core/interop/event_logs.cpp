// Import of search event logs (paper-facts §6): a search's raw events.jsonl, and the published search-event rows
// that hold many searches' events, one search per source_search.
#include "core/domain/search_event_kind.h"
#include "core/interop/event_log_check.h"
#include "core/interop/field_reader.h"
#include "core/interop/import_context.h"
#include "core/interop/importers.h"
#include "core/interop/line_reader.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace gpuf::interop {
namespace {

using Need = FieldReader::Need;

const QStringList kTimeKeys {QStringLiteral("ts"), QStringLiteral("time"), QStringLiteral("timestamp")};

// A kind this version does not know is refused with its line: what the event meant would be lost, and the log would
// fold into another search than the one it records.
Error unknownKind(const LineReader &reader, const QString &kind)
{
    return Error {QStringLiteral("%1: unknown search event kind '%2'").arg(reader.location(), kind)};
}

// The first of ts/time/timestamp that is present; an unreadable time is an error.
QDateTime eventTime(FieldReader &r, QString *usedKey = nullptr)
{
    for (const QString &key : kTimeKeys) {
        if (r.has(key)) {
            if (usedKey)
                *usedKey = key;
            return r.time(key);
        }
    }
    return {};
}

// ---- raw events.jsonl ----------------------------------------------------------------------------------------

struct LogScan
{
    QString searchName;
    QString mode; // from a gpuf log's search_initialized config; empty for other logs
    bool surrogate = false;
    qint64 skippedLine = 0; // a truncated last line, 0 when none
};

QString searchNameIn(const QJsonObject &event)
{
    for (const QJsonObject &scope : {event, event.value(QStringLiteral("payload")).toObject()}) {
        for (const char *key : {"search_id", "run_id"}) {
            const QJsonValue value = scope.value(QString::fromLatin1(key));
            if (value.isString() && !value.toString().isEmpty())
                return value.toString();
            if (value.isDouble())
                return QString::number(value.toInteger());
        }
    }
    return {};
}

// First pass: every line must be an event; only the last may be cut short (a crash while it was written).
Result<LogScan> scanEventLog(ImportContext &context, LineReader &reader)
{
    LogScan scan;
    QString pendingError; // a corrupt line: fatal unless it turns out to be the last one
    qint64 pendingLine = 0;
    while (reader.next()) {
        if (!pendingError.isEmpty())
            return Error {pendingError};
        int replaced = 0;
        auto object = parseLenientJsonObject(reader.line(), &replaced);
        if (!object) {
            pendingError = reader.location() + QStringLiteral(": ") + object.error();
            pendingLine = reader.lineNumber();
            continue;
        }
        ++context.report().lines;
        FieldReader r(*object, reader.location());
        const QString kind = r.string(QStringLiteral("kind"), Need::Required);
        eventTime(r);
        if (!r.ok())
            return Error {r.error()};
        const std::optional<SearchEventKind> known = eventKindFromName(kind);
        if (!known)
            return unknownKind(reader, kind);
        if (known == SearchEventKind::SearchInitialized && scan.searchName.isEmpty()) {
            scan.searchName = searchNameIn(*object);
            // Logs gpuf wrote name their mode (a selective search writes the same kinds as a surrogate one).
            const QString mode
                = object->value(QStringLiteral("config")).toObject().value(QStringLiteral("mode")).toString();
            if (mode == QLatin1StringView("standard") || mode == QLatin1StringView("surrogate")
                || mode == QLatin1StringView("selective"))
                scan.mode = mode;
        }
        scan.surrogate = scan.surrogate || isForecastingKind(*known);
        if (!context.progress(reader, 0, 2))
            return Error {QStringLiteral("import cancelled")};
    }
    if (!reader.readError().isEmpty())
        return Error {reader.readError()};
    if (!pendingError.isEmpty()) {
        context.warn(pendingError + QStringLiteral(" — the last line is incomplete and was skipped"));
        scan.skippedLine = pendingLine;
    }
    return scan;
}

QString fallbackSearchName(const QString &file)
{
    const QFileInfo info(file);
    // Runs keep their log as <run folder>/events.jsonl: the folder names the run better than "events" does.
    if (info.completeBaseName() == QLatin1StringView("events") && !info.absoluteDir().dirName().isEmpty())
        return info.absoluteDir().dirName();
    return info.completeBaseName();
}

// ---- published search-event rows ---------------------------------------------------------------------------

struct RowRef
{
    qint64 eventIndex = 0;
    qint64 offset = 0;
    qint64 lineNumber = 0;
};

struct RowSearch
{
    QString internalExperiment;
    bool surrogate = false;
    QList<RowRef> rows;
    QSet<qint64> indices;
};

// The payload is an object, or (as some exports write it) a string holding one.
QJsonObject rowPayload(FieldReader &r)
{
    const QJsonValue value = r.object().value(QStringLiteral("payload"));
    if (value.isString()) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(value.toString().toUtf8(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            r.fail(QStringLiteral("payload"), QStringLiteral("a string payload must hold a JSON object"));
            return {};
        }
        return doc.object();
    }
    return r.object(QStringLiteral("payload"), Need::Required);
}

struct HfRow
{
    qint64 eventIndex = 0;
    QString kind;
    QString search;
    QString internalExperiment;
    QJsonObject payload;
    QDateTime time; // from the payload's ts/time/timestamp, when it has one
};

HfRow readHfRow(FieldReader &r)
{
    HfRow row;
    row.eventIndex = r.integer(QStringLiteral("event_index"), 0, Need::Required);
    if (row.eventIndex < 0)
        r.fail(QStringLiteral("event_index"), QStringLiteral("must not be negative"));
    row.kind = r.string(QStringLiteral("event_kind"), Need::Required);
    row.search = r.idText(QStringLiteral("source_search"));
    row.internalExperiment = r.string(QStringLiteral("internal_experiment"));
    row.payload = rowPayload(r);
    if (auto payload = r.nested(row.payload, QStringLiteral("payload")))
        row.time = eventTime(*payload);
    return row;
}

Result<QStringList> scanHfRows(ImportContext &context, LineReader &reader, QHash<QString, RowSearch> &searches)
{
    QStringList order;
    while (reader.next()) {
        int replaced = 0;
        auto object = parseLenientJsonObject(reader.line(), &replaced);
        if (!object)
            return Error {reader.location() + QStringLiteral(": ") + object.error()};
        ++context.report().lines;
        FieldReader r(*object, reader.location());
        const HfRow row = readHfRow(r);
        if (!r.ok())
            return Error {r.error()};
        const std::optional<SearchEventKind> known = eventKindFromName(row.kind);
        if (!known)
            return unknownKind(reader, row.kind);
        if (!searches.contains(row.search))
            order.append(row.search);
        RowSearch &search = searches[row.search];
        if (search.indices.contains(row.eventIndex)) {
            r.fail(QStringLiteral("event_index"),
                QStringLiteral("event %1 of search '%2' is given twice").arg(row.eventIndex).arg(row.search));
            return Error {r.error()};
        }
        search.indices.insert(row.eventIndex);
        search.rows.append({row.eventIndex, reader.offset(), reader.lineNumber()});
        search.surrogate = search.surrogate || isForecastingKind(*known);
        if (search.internalExperiment.isEmpty())
            search.internalExperiment = row.internalExperiment;
        if (!context.progress(reader, 0, 2))
            return Error {QStringLiteral("import cancelled")};
    }
    if (!reader.readError().isEmpty())
        return Error {reader.readError()};
    return order;
}

Status writeHfSearch(ImportContext &context, LineReader &reader, const QString &name, RowSearch &rows)
{
    std::sort(rows.rows.begin(), rows.rows.end(),
        [](const RowRef &a, const RowRef &b) { return a.eventIndex < b.eventIndex; });
    Search search;
    search.name = name;
    search.mode = rows.surrogate ? QStringLiteral("surrogate") : QStringLiteral("standard");
    search.config = QJsonObject {{QStringLiteral("source"), QStringLiteral("paper-search-events")}};
    if (!rows.internalExperiment.isEmpty())
        search.config.insert(QStringLiteral("internal_experiment"), rows.internalExperiment);
    auto searchId = context.ensureSearch(search);
    if (!searchId)
        return Error {QStringLiteral("%1: search '%2': %3").arg(reader.path(), name, searchId.error())};
    qint64 sequence = 0;
    for (const RowRef &ref : std::as_const(rows.rows)) {
        if (Status s = reader.seek(ref.offset, ref.lineNumber); !s)
            return s;
        if (!reader.next())
            return Error {QStringLiteral("%1:%2: the file changed while it was being imported")
                              .arg(reader.path())
                              .arg(ref.lineNumber)};
        int replaced = 0;
        auto object = parseLenientJsonObject(reader.line(), &replaced);
        if (!object)
            return Error {reader.location() + QStringLiteral(": ") + object.error()};
        FieldReader r(*object, reader.location());
        HfRow row = readHfRow(r);
        if (!r.ok())
            return Error {r.error()};
        SearchEvent event;
        event.searchId = *searchId;
        event.kind = row.kind;
        event.payload = row.payload;
        event.time = row.time;
        if (Status s = context.putEvent(event, sequence); !s) {
            r.fail(QStringLiteral("event_index"), QStringLiteral("search '%1': %2").arg(name, s.error()));
            return Error {r.error()};
        }
        ++sequence;
        if (!context.progress(reader, 1, 2))
            return Error {QStringLiteral("import cancelled")};
    }
    if (!rows.rows.isEmpty() && (rows.rows.first().eventIndex != 0 || rows.rows.last().eventIndex != sequence - 1))
        context.warn(QStringLiteral("%1: search '%2': event_index runs %3..%4 with gaps; events were stored in that"
                                    " order at sequences 0..%5")
                         .arg(reader.path(), name)
                         .arg(rows.rows.first().eventIndex)
                         .arg(rows.rows.last().eventIndex)
                         .arg(sequence - 1));
    return {};
}

// Second pass: every event of the log, with its line, read before anything is written so the whole log is checked.
Result<QList<ReadEvent>> readEventLog(ImportContext &context, LineReader &reader, qint64 skippedLine)
{
    if (Status s = reader.seek(0, 1); !s)
        return Error {s.error()};
    QList<ReadEvent> events;
    while (reader.next()) {
        if (reader.lineNumber() == skippedLine)
            break;
        int replaced = 0;
        auto object = parseLenientJsonObject(reader.line(), &replaced);
        if (!object)
            return Error {reader.location() + QStringLiteral(": ") + object.error()};
        FieldReader r(*object, reader.location());
        SearchEvent event;
        event.kind = r.string(QStringLiteral("kind"), Need::Required);
        QString timeKey;
        event.time = eventTime(r, &timeKey);
        event.payload = *object; // everything but the kind and the time is the event's own data
        event.payload.remove(QStringLiteral("kind"));
        if (!timeKey.isEmpty())
            event.payload.remove(timeKey);
        if (!r.ok())
            return Error {r.error()};
        events.append({event, reader.location()});
        if (!context.progress(reader, 1, 2))
            return Error {QStringLiteral("import cancelled")};
    }
    return events;
}

} // namespace

Status importEventLog(ImportContext &context, const QString &file)
{
    LineReader reader(file);
    if (Status s = reader.open(); !s)
        return s;
    auto scan = scanEventLog(context, reader);
    if (!scan)
        return Error {scan.error()};
    auto events = readEventLog(context, reader, scan->skippedLine);
    if (!events)
        return Error {events.error()};
    // A log that could never be shown or resumed is refused before its search exists (the caller says that nothing
    // was imported, as for any refused file).
    if (Status checked = checkEventLog(*events); !checked)
        return Error {checked.error()};
    Search search;
    search.name = scan->searchName.isEmpty() ? fallbackSearchName(file) : scan->searchName;
    search.mode = !scan->mode.isEmpty() ? scan->mode
        : scan->surrogate               ? QStringLiteral("surrogate")
                                        : QStringLiteral("standard");
    search.config = QJsonObject {{QStringLiteral("source"), QStringLiteral("events-jsonl")},
        {QStringLiteral("file"), QFileInfo(file).fileName()}};
    auto searchId = context.ensureSearch(search);
    if (!searchId)
        return Error {QStringLiteral("%1: search '%2': %3").arg(file, search.name, searchId.error())};
    qint64 sequence = 0;
    for (ReadEvent &e : *events) {
        e.event.searchId = *searchId;
        if (Status s = context.putEvent(e.event, sequence); !s)
            return Error {QStringLiteral("%1: search '%2': %3").arg(e.location, search.name, s.error())};
        ++sequence;
    }
    return {};
}

Status importHfSearchEvents(ImportContext &context, const QString &file)
{
    LineReader reader(file);
    if (Status s = reader.open(); !s)
        return s;
    QHash<QString, RowSearch> searches;
    auto order = scanHfRows(context, reader, searches);
    if (!order)
        return Error {order.error()};
    for (const QString &name : std::as_const(*order)) {
        if (Status s = writeHfSearch(context, reader, name, searches[name]); !s)
            return s;
    }
    return {};
}

} // namespace gpuf::interop
