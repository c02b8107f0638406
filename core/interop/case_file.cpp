// Reading a case file's view; see case_file.h.
#include "core/interop/case_file.h"

#include "core/interop/field_reader.h"
#include "core/interop/line_reader.h"

#include <QFileInfo>

#include <optional>

namespace gpuf::interop {

bool isCaseFileName(const QString &file)
{
    return QFileInfo(file).suffix().compare(QLatin1StringView(kCaseFileSuffix), Qt::CaseInsensitive) == 0;
}

Result<bundle::CaseViewRecord> readCaseView(const QString &file)
{
    LineReader reader(file);
    if (Status s = reader.open(); !s)
        return s.failure();
    std::optional<bundle::CaseViewRecord> view;
    bool first = true;
    while (reader.next()) {
        auto object = parseJsonObject(reader.line());
        if (!object)
            return Error {reader.location() + QStringLiteral(": ") + object.error()};
        FieldReader r(*object, reader.location());
        if (first) {
            bundle::decodeHeader(r);
            if (!r.ok())
                return Error {r.error()};
            first = false;
            continue;
        }
        if (object->value(QStringLiteral("type")).toString() != QLatin1StringView("case_view"))
            continue;
        if (view)
            return Error {
                QStringLiteral("%1: a second case_view record; a case file shows one pair").arg(reader.location())};
        view = bundle::decodeCaseView(r);
        if (!r.ok())
            return Error {r.error()};
    }
    if (!reader.readError().isEmpty())
        return Error {reader.readError()};
    if (first)
        return Error {QStringLiteral("%1: empty file; a case file is a gpuf bundle").arg(file)};
    if (!view)
        return Error {
            QStringLiteral("%1 holds no case_view record: it is a gpuf bundle, not a case file; import it into "
                           "a store with File → Import… or gpuf import")
                .arg(file)};
    return *view;
}

} // namespace gpuf::interop
