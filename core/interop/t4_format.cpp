// The Auto-Tuning Association's T4 results format, read and written: {"schema_version": "1.0.0", "metadata":
// {"timeunit": …}, "results": [{"timestamp", "configuration", "times": {"runtimes": […], …}, "invalidity",
// "correctness", "measurements": [{"name": "time", "value", "unit"}], "objectives"}]}; see tuning_results.h.
#include "core/interop/json_writer.h"
#include "core/interop/tuning_reading.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gpuf::interop {

namespace {

// A result's "invalidity": a failure's outcome, or nullopt for words that are no entry ("constraints") or unknown.
struct Invalidity
{
    bool known = false;
    bool outsideSpace = false;
    TuningEntry::Outcome outcome = TuningEntry::Outcome::Ok;
};

Invalidity invalidityOf(const QString &word)
{
    using Outcome = TuningEntry::Outcome;
    if (word == QLatin1StringView("correct"))
        return {true, false, Outcome::Ok};
    if (word == QLatin1StringView("compile"))
        return {true, false, Outcome::CompileFailed};
    if (word == QLatin1StringView("runtime") || word == QLatin1StringView("timeout"))
        return {true, false, Outcome::RuntimeFailed};
    if (word == QLatin1StringView("correctness"))
        return {true, false, Outcome::Incorrect};
    if (word == QLatin1StringView("constraints"))
        return {true, true, Outcome::Ok};
    return {};
}

QString invalidityWord(TuningEntry::Outcome outcome)
{
    switch (outcome) {
    case TuningEntry::Outcome::CompileFailed:
        return QStringLiteral("compile");
    case TuningEntry::Outcome::RuntimeFailed:
        return QStringLiteral("runtime");
    case TuningEntry::Outcome::Incorrect:
        return QStringLiteral("correctness");
    case TuningEntry::Outcome::Ok:
        break;
    }
    return QStringLiteral("correct");
}

// The "time" measurement's value for a failure: Kernel Tuner's error class names, so its tools read them; it has
// none for a wrong result (it never records those), hence a name in the same style.
QString failureValue(TuningEntry::Outcome outcome)
{
    switch (outcome) {
    case TuningEntry::Outcome::CompileFailed:
        return QStringLiteral("CompilationFailedConfig");
    case TuningEntry::Outcome::RuntimeFailed:
        return QStringLiteral("RuntimeFailedConfig");
    case TuningEntry::Outcome::Incorrect:
        return QStringLiteral("IncorrectResultConfig");
    case TuningEntry::Outcome::Ok:
        break;
    }
    return {};
}

// The members of the object that is `key`'s value inside the object at `open`, in file order.
QList<JsonChild> childrenOf(const TuningDocument &doc, qsizetype open, const QString &key)
{
    const QList<JsonChild> members = jsonChildren(doc.text, open);
    for (qsizetype i = members.size() - 1; i >= 0; --i) {
        if (members.at(i).key == key)
            return jsonChildren(doc.text, members.at(i).valueOffset);
    }
    return {};
}

Status checkSchemaVersion(const TuningDocument &doc)
{
    const QString name = QStringLiteral("schema_version");
    const QJsonValue version = doc.root.value(name);
    const int line = doc.memberLine(name);
    if (version.isUndefined())
        return doc.error(line, QStringLiteral("T4 results without a \"schema_version\""));
    bool ok = false;
    const int major = version.toString().section(QLatin1Char('.'), 0, 0).toInt(&ok);
    if (!version.isString() || !ok || major != 1) {
        return doc.error(line,
            QStringLiteral("T4 schema_version %1 is not supported (version 1.x is read)").arg(jsonValueText(version)));
    }
    return {};
}

// µs per unit of the file's times: metadata.timeunit, milliseconds when the file names none.
Result<double> fileTimeUnit(const TuningDocument &doc)
{
    const QJsonValue metadata = doc.root.value(QLatin1StringView("metadata"));
    const QJsonValue unit = metadata.toObject().value(QLatin1StringView("timeunit"));
    if (unit.isUndefined())
        return 1e3;
    const std::optional<double> us = microsecondsPer(unit.toString());
    if (unit.isString() && us)
        return *us;
    int line = doc.memberLine(QStringLiteral("metadata"));
    for (const JsonChild &child : jsonChildren(doc.text, doc.member(QStringLiteral("metadata"))->valueOffset)) {
        if (child.key == QLatin1StringView("timeunit"))
            line = doc.lineAt(child.offset);
    }
    return doc.error(line,
        QStringLiteral("unknown time unit %1 (milliseconds, seconds or microseconds are read)")
            .arg(jsonValueText(unit)));
}

// The tunables, named in the order the first configuration of the space lists them.
Status takeTunables(const TuningDocument &doc, qsizetype resultOffset, int line, TuningResults &results)
{
    for (const JsonChild &child : childrenOf(doc, resultOffset, QStringLiteral("configuration")))
        results.tunables.append({child.key, {}});
    if (results.tunables.isEmpty())
        return doc.error(line, QStringLiteral("the first configuration has no tunables"));
    return {};
}

// The "time" measurement of a valid result, in µs.
Result<double> measuredTime(const TuningDocument &doc, const TuningCollector &collector, const QJsonObject &result,
    double fileUnit, int line, const QString &what)
{
    const QJsonArray measurements = result.value(QLatin1StringView("measurements")).toArray();
    for (const QJsonValue measurement : measurements) {
        const QJsonObject m = measurement.toObject();
        if (m.value(QLatin1StringView("name")).toString() != QLatin1StringView("time"))
            continue;
        const QString unit = m.value(QLatin1StringView("unit")).toString();
        double us = fileUnit;
        if (!unit.isEmpty()) {
            const std::optional<double> given = microsecondsPer(unit);
            if (!given) {
                return doc.error(line,
                    QStringLiteral("%1 gives its \"time\" measurement the unknown time unit '%2' (ms, s or µs are "
                                   "read)")
                        .arg(what, unit));
            }
            us = *given;
        }
        return collector.time(
            m.value(QLatin1StringView("value")), us, line, what, QStringLiteral("\"time\" measurement"));
    }
    return doc.error(line, QStringLiteral("%1 is valid but has no \"time\" measurement").arg(what));
}

// A valid result's time (its "time" measurement) and its samples ("times"."runtimes"), in µs.
Status readEntryTimes(const TuningDocument &doc, TuningCollector &collector, const QJsonObject &result, double fileUnit,
    int line, const QString &what, TuningEntry &entry)
{
    Result<double> us = measuredTime(doc, collector, result, fileUnit, line, what);
    if (!us)
        return us.failure();
    entry.timeUs = *us;
    const QJsonValue runtimes
        = result.value(QLatin1StringView("times")).toObject().value(QLatin1StringView("runtimes"));
    Result<QList<double>> samples = collector.samples(runtimes, fileUnit, line, what, QStringLiteral("\"runtimes\""));
    if (!samples)
        return samples.failure();
    entry.runtimesUs = std::move(*samples);
    return {};
}

} // namespace

Result<TuningResults> readT4Results(const TuningDocument &doc)
{
    if (Status s = checkSchemaVersion(doc); !s)
        return s.failure();
    const Result<double> fileUnit = fileTimeUnit(doc);
    if (!fileUnit)
        return fileUnit.failure();

    const JsonChild *resultsMember = doc.member(QStringLiteral("results"));
    const QJsonValue resultsValue = doc.root.value(QLatin1StringView("results"));
    if (!resultsMember || !resultsValue.isArray()) {
        return doc.error(doc.memberLine(QStringLiteral("results")),
            resultsMember ? QStringLiteral("\"results\" is %1, not a list").arg(jsonValueText(resultsValue))
                          : QStringLiteral("T4 results without \"results\""));
    }
    const QJsonArray array = resultsValue.toArray();
    const QList<JsonChild> elements = jsonChildren(doc.text, resultsMember->valueOffset);
    Q_ASSERT(elements.size() == array.size());

    TuningResults results;
    results.format = TuningFormat::T4;
    // The schema's optional metadata.device names the GPU (gpuf's own export writes it; the hub's files do not).
    results.hardware = doc.root.value(QLatin1StringView("metadata"))
                           .toObject()
                           .value(QLatin1StringView("device"))
                           .toString()
                           .trimmed();
    TuningCollector collector(doc, results);
    results.entries.reserve(array.size());
    for (qsizetype i = 0; i < array.size() && i < elements.size(); ++i) {
        const int line = doc.lineAt(elements.at(i).offset);
        const QString what = QStringLiteral("result %1").arg(i + 1);
        if (!array.at(i).isObject())
            return doc.error(line, QStringLiteral("%1 is %2, not an object").arg(what, jsonValueText(array.at(i))));
        const QJsonObject result = array.at(i).toObject();
        const QJsonValue invalidity = result.value(QLatin1StringView("invalidity"));
        if (invalidity.isUndefined())
            return doc.error(line, QStringLiteral("%1 has no \"invalidity\"").arg(what));
        const Invalidity kind = invalidityOf(invalidity.toString());
        if (!kind.known) {
            return doc.error(line,
                QStringLiteral("%1 has the invalidity %2, which T4 does not define")
                    .arg(what, jsonValueText(invalidity)));
        }
        if (kind.outsideSpace)
            continue;
        const QJsonValue configuration = result.value(QLatin1StringView("configuration"));
        if (!configuration.isObject())
            return doc.error(line, QStringLiteral("%1 has no \"configuration\" object").arg(what));
        if (results.tunables.isEmpty()) {
            if (Status s = takeTunables(doc, elements.at(i).offset, line, results); !s)
                return s.failure();
            const QJsonArray objectives = result.value(QLatin1StringView("objectives")).toArray();
            if (!objectives.isEmpty() && objectives.at(0).isString())
                results.objective = objectives.at(0).toString();
        }

        TuningEntry entry;
        entry.line = line;
        entry.outcome = kind.outcome;
        Result<QList<qint64>> values = collector.configuration(configuration.toObject(), true, line, what);
        if (!values)
            return values.failure();
        entry.configuration = std::move(*values);
        entry.timestamp = result.value(QLatin1StringView("timestamp")).toString();
        if (kind.outcome == TuningEntry::Outcome::Ok) {
            if (Status s = readEntryTimes(doc, collector, result, *fileUnit, line, what, entry); !s)
                return s.failure();
        } else {
            entry.reason = invalidity.toString();
        }
        if (Status s = collector.add(std::move(entry), what); !s)
            return s.failure();
    }
    if (Status s = collector.finish(doc.lineAt(resultsMember->offset)); !s)
        return s.failure();
    return results;
}

QByteArray writeT4(const TuningResults &results, const QJsonObject &metadata)
{
    QJsonObject meta = metadata;
    meta.insert(
        QStringLiteral("timeunit"), QStringLiteral("milliseconds")); // the unit written below, whatever was given
    QList<QByteArray> names;
    names.reserve(results.tunables.size());
    for (const TuningTunable &tunable : results.tunables)
        names.append(jsonString(tunable.name));

    QByteArray out;
    out.reserve(qsizetype(200) * (results.entries.size() + 1));
    out += "{\n\"schema_version\": \"1.0.0\",\n\"metadata\": " + QJsonDocument(meta).toJson(QJsonDocument::Compact)
        + ",\n\"results\": [\n";
    for (qsizetype i = 0; i < results.entries.size(); ++i) {
        const TuningEntry &entry = results.entries.at(i);
        const bool ok = entry.outcome == TuningEntry::Outcome::Ok;
        QByteArray configuration = "{";
        for (qsizetype t = 0; t < names.size() && t < entry.configuration.size(); ++t) {
            if (t > 0)
                configuration += ',';
            configuration += names.at(t) + ':' + QByteArray::number(entry.configuration.at(t));
        }
        configuration += '}';
        QByteArray runtimes = "[";
        for (qsizetype r = 0; ok && r < entry.runtimesUs.size(); ++r) {
            if (r > 0)
                runtimes += ',';
            runtimes += jsonNumber(entry.runtimesUs.at(r) / 1e3);
        }
        runtimes += ']';
        JsonObjectWriter measurement;
        measurement.string("name", QStringLiteral("time"));
        if (ok)
            measurement.number("value", entry.timeUs / 1e3);
        else
            measurement.string("value", failureValue(entry.outcome));
        measurement.string("unit", QStringLiteral("ms"));

        JsonObjectWriter result;
        if (!entry.timestamp.isEmpty())
            result.string("timestamp", entry.timestamp);
        result.raw("configuration", configuration)
            .raw("times", "{\"runtimes\":" + runtimes + '}')
            .string("invalidity", invalidityWord(entry.outcome))
            .integer("correctness", ok ? 1 : 0)
            .raw("measurements", '[' + measurement.finish() + ']')
            .raw("objectives", "[\"time\"]"); // the measurement written, whatever the file's objective was
        out += result.finish();
        out += i + 1 < results.entries.size() ? ",\n" : "\n";
    }
    out += "]\n}\n";
    return out;
}

} // namespace gpuf::interop
