// Kernel Tuner's cache files: {"device_name", "kernel_name", "problem_size", "tune_params_keys", "tune_params",
// "objective", "cache": {"16,1,…": {tunable values, "time", "times", …}, …}}; see tuning_results.h.
#include "core/interop/tuning_reading.h"

#include <QJsonArray>

namespace gpuf::interop {

namespace {

enum class CacheTime { Number, Outside, CompileFailed, RuntimeFailed, Unknown };

// Kernel Tuner writes its failures as the names of its error classes. InvalidConfig (a configuration its restrictions
// or the device rule out) is what it exports to T4 as "constraints": outside the space.
CacheTime cacheTime(const QJsonValue &time)
{
    if (!time.isString())
        return CacheTime::Number; // numbers, and anything else for TuningCollector::time to refuse
    const QString word = time.toString();
    if (word == QLatin1StringView("InvalidConfig"))
        return CacheTime::Outside;
    if (word == QLatin1StringView("CompilationFailedConfig"))
        return CacheTime::CompileFailed;
    if (word == QLatin1StringView("RuntimeFailedConfig"))
        return CacheTime::RuntimeFailed;
    return CacheTime::Unknown;
}

// The tunables in tune_params_keys order with the values tune_params lists for them.
Status readTunables(const TuningDocument &doc, TuningResults &results)
{
    const QString keysName = QStringLiteral("tune_params_keys");
    const int keysLine = doc.memberLine(keysName);
    const QJsonValue keys = doc.root.value(keysName);
    if (keys.isUndefined())
        return doc.error(
            keysLine, QStringLiteral("the cache has no \"tune_params_keys\", so its tunables' order is unknown"));
    if (!keys.isArray() || keys.toArray().isEmpty())
        return doc.error(keysLine, QStringLiteral("\"tune_params_keys\" is not a list of tunable names"));
    for (const QJsonValue key : keys.toArray()) {
        if (!key.isString() || key.toString().isEmpty())
            return doc.error(
                keysLine, QStringLiteral("\"tune_params_keys\" has %1, not a tunable name").arg(jsonValueText(key)));
        if (results.tunableIndex(key.toString()) >= 0)
            return doc.error(
                keysLine, QStringLiteral("\"tune_params_keys\" names tunable '%1' twice").arg(key.toString()));
        results.tunables.append({key.toString(), {}});
    }

    const QJsonValue params = doc.root.value(QLatin1StringView("tune_params"));
    if (params.isUndefined())
        return {}; // the values seen in the cache are all there is
    const int paramsLine = doc.memberLine(QStringLiteral("tune_params"));
    if (!params.isObject())
        return doc.error(paramsLine, QStringLiteral("\"tune_params\" is %1, not an object").arg(jsonValueText(params)));
    const QJsonObject object = params.toObject();
    for (TuningTunable &tunable : results.tunables) {
        const QJsonValue values = object.value(tunable.name);
        if (values.isUndefined())
            continue;
        if (!values.isArray()) {
            return doc.error(paramsLine,
                QStringLiteral("\"tune_params\" gives tunable '%1' %2, not a list of values")
                    .arg(tunable.name, jsonValueText(values)));
        }
        for (const QJsonValue value : values.toArray()) {
            const std::optional<qint64> v = integerValue(value);
            if (!v) {
                return doc.error(paramsLine,
                    QStringLiteral("\"tune_params\" lists the value %1 for tunable '%2', but only integer tunables "
                                   "are supported")
                        .arg(jsonValueText(value), tunable.name));
            }
            tunable.values.append(*v);
        }
    }
    return {};
}

// The cache key is Kernel Tuner's own ",".join of the values: it must agree with the record.
Status checkKey(const TuningDocument &doc, const TuningResults &results, const QString &key,
    const QList<qint64> &configuration, int line)
{
    const QStringList parts = key.split(QLatin1Char(','));
    if (parts.size() != configuration.size()) {
        return doc.error(line,
            QStringLiteral("configuration '%1' has %2 values in its key, but the cache has %3 tunables")
                .arg(key)
                .arg(parts.size())
                .arg(configuration.size()));
    }
    for (qsizetype i = 0; i < parts.size(); ++i) {
        bool ok = false;
        const qint64 v = parts.at(i).trimmed().toLongLong(&ok);
        if (!ok || v != configuration.at(i)) {
            return doc.error(line,
                QStringLiteral("configuration '%1' disagrees with its record, which gives tunable '%2' the value %3")
                    .arg(key, results.tunables.at(i).name)
                    .arg(configuration.at(i)));
        }
    }
    return {};
}

} // namespace

Result<TuningResults> readKernelTunerCache(const TuningDocument &doc)
{
    TuningResults results;
    results.format = TuningFormat::KernelTunerCache;
    results.kernelName = doc.root.value(QLatin1StringView("kernel_name")).toString();
    results.hardware = doc.root.value(QLatin1StringView("device_name")).toString();
    results.objective = doc.root.value(QLatin1StringView("objective")).toString(QStringLiteral("time"));
    const QJsonValue problemSize = doc.root.value(QLatin1StringView("problem_size"));
    if (!problemSize.isUndefined() && !problemSize.isNull())
        results.problemSize = QJsonObject {{QStringLiteral("problem_size"), problemSize}};
    if (Status s = readTunables(doc, results); !s)
        return s.failure();

    const JsonChild *cacheMember = doc.member(QStringLiteral("cache"));
    const QJsonObject cache = doc.root.value(QLatin1StringView("cache")).toObject();
    const QList<JsonChild> records = jsonChildren(doc.text, cacheMember->valueOffset);
    TuningCollector collector(doc, results);
    results.entries.reserve(records.size());
    for (const JsonChild &record : records) {
        const int line = doc.lineAt(record.offset);
        const QString what = QStringLiteral("configuration '%1'").arg(record.key);
        const QJsonValue value = cache.value(record.key);
        if (!value.isObject())
            return doc.error(line, QStringLiteral("%1 is %2, not a record").arg(what, jsonValueText(value)));
        const QJsonObject object = value.toObject();
        const QJsonValue time = object.value(QLatin1StringView("time"));
        const CacheTime kind = cacheTime(time);
        if (kind == CacheTime::Outside)
            continue;
        if (kind == CacheTime::Unknown) {
            return doc.error(line,
                QStringLiteral("%1 has the time %2, which is neither a number nor one of Kernel Tuner's failures "
                               "(InvalidConfig, CompilationFailedConfig, RuntimeFailedConfig)")
                    .arg(what, jsonValueText(time)));
        }

        TuningEntry entry;
        entry.line = line;
        Result<QList<qint64>> configuration = collector.configuration(object, false, line, what);
        if (!configuration)
            return configuration.failure();
        entry.configuration = std::move(*configuration);
        if (Status s = checkKey(doc, results, record.key, entry.configuration, line); !s)
            return s.failure();
        entry.timestamp = object.value(QLatin1StringView("timestamp")).toString();
        if (kind == CacheTime::Number) {
            Result<double> us = collector.time(time, 1e3, line, what, QStringLiteral("\"time\""));
            if (!us)
                return us.failure();
            entry.timeUs = *us;
            Result<QList<double>> samples = collector.samples(
                object.value(QLatin1StringView("times")), 1e3, line, what, QStringLiteral("\"times\""));
            if (!samples)
                return samples.failure();
            entry.runtimesUs = std::move(*samples);
        } else {
            entry.outcome = kind == CacheTime::CompileFailed ? TuningEntry::Outcome::CompileFailed
                                                             : TuningEntry::Outcome::RuntimeFailed;
            entry.reason = time.toString();
        }
        if (Status s = collector.add(std::move(entry), what); !s)
            return s.failure();
    }
    if (Status s = collector.finish(doc.lineAt(cacheMember->offset)); !s)
        return s.failure();
    return results;
}

} // namespace gpuf::interop
