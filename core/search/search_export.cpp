// events.jsonl export; see search_export.h.
#include "core/search/search_export.h"

#include "core/interop/json_writer.h"
#include "core/store/search_repo.h"
#include "core/store/sql.h"
#include "core/store/store.h"

#include <QJsonDocument>
#include <QSaveFile>

namespace gpuf::search {

QByteArray eventLine(const SearchEvent &event)
{
    QJsonObject rest = event.payload;
    const QString id = rest.take(QStringLiteral("id")).toString();
    QByteArray line = "{";
    if (!id.isEmpty())
        line += "\"id\":" + interop::jsonString(id) + ',';
    line += "\"ts\":" + interop::jsonString(sql::toStoredTime(event.time));
    line += ",\"kind\":" + interop::jsonString(event.kind);
    QByteArray body = QJsonDocument(rest).toJson(QJsonDocument::Compact);
    if (body.size() > 2) // "{}" is an empty payload
        line += ',' + body.mid(1, body.size() - 2);
    line += '}';
    return line;
}

Status exportEventLog(Store &store, const QString &searchName, const QString &file)
{
    SearchRepo searches(store);
    auto search = searches.findByName(searchName);
    if (!search)
        return Error {search.error()};
    if (!search->has_value())
        return Error {QStringLiteral("no search named '%1' in %2").arg(searchName, store.path())};
    auto events = searches.events((*search)->id);
    if (!events)
        return Error {events.error()};
    QSaveFile out(file); // written under a temporary name: a failed export leaves no partial file
    if (!out.open(QIODevice::WriteOnly))
        return Error {QStringLiteral("%1: cannot write: %2").arg(file, out.errorString())};
    for (const SearchEvent &e : std::as_const(*events)) {
        out.write(eventLine(e));
        out.write("\n");
    }
    if (!out.commit())
        return Error {QStringLiteral("%1: cannot write: %2").arg(file, out.errorString())};
    return {};
}

} // namespace gpuf::search
