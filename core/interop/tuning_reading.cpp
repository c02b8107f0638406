// The parts both tuning-result readers share; see tuning_reading.h.
#include "core/interop/tuning_reading.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace gpuf::interop {

const JsonChild *TuningDocument::member(const QString &key) const
{
    // The last of repeated names, as QJsonObject keeps it.
    for (qsizetype i = members.size() - 1; i >= 0; --i) {
        if (members.at(i).key == key)
            return &members.at(i);
    }
    return nullptr;
}

int TuningDocument::memberLine(const QString &key) const
{
    const JsonChild *child = member(key);
    return child ? lineAt(child->offset) : 1;
}

Error TuningDocument::error(int line, const QString &message) const
{
    return Error {QStringLiteral("%1:%2: %3").arg(fileName).arg(line).arg(message)};
}

std::optional<qint64> integerValue(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double v = value.toDouble();
    constexpr double kExactIntegers = 9007199254740992.0; // 2^53
    if (!std::isfinite(v) || std::trunc(v) != v || std::fabs(v) > kExactIntegers)
        return std::nullopt;
    return qint64(v);
}

QString jsonValueText(const QJsonValue &value)
{
    QString text;
    if (value.isUndefined())
        return QStringLiteral("nothing");
    if (value.isString())
        text = QLatin1Char('\'') + value.toString() + QLatin1Char('\'');
    else if (value.isDouble())
        text = QString::number(value.toDouble(), 'g', 17);
    else
        text = QString::fromUtf8(QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact).chopped(1).sliced(1));
    constexpr qsizetype kLongest = 60;
    if (text.size() > kLongest)
        text = text.left(kLongest - 1) + QChar(0x2026);
    return text;
}

std::optional<double> microsecondsPer(const QString &unit)
{
    if (unit == QLatin1StringView("ms") || unit == QLatin1StringView("milliseconds")
        || unit == QLatin1StringView("miliseconds")) // sic: what Kernel Tuner writes into T4 metadata
        return 1e3;
    if (unit == QLatin1StringView("s") || unit == QLatin1StringView("seconds"))
        return 1e6;
    if (unit == QLatin1StringView("us") || unit == QStringView(u"µs") || unit == QLatin1StringView("microseconds"))
        return 1.0;
    return std::nullopt;
}

TuningCollector::TuningCollector(const TuningDocument &doc, TuningResults &results)
    : m_doc(doc)
    , m_results(results)
{ }

Result<QList<qint64>> TuningCollector::configuration(
    const QJsonObject &object, bool exact, int line, const QString &what) const
{
    QList<qint64> values;
    values.reserve(m_results.tunables.size());
    for (const TuningTunable &tunable : m_results.tunables) {
        const QJsonValue value = object.value(tunable.name);
        if (value.isUndefined()) {
            return m_doc.error(line,
                exact ? QStringLiteral("%1 has no value for tunable '%2', which the first configuration has")
                            .arg(what, tunable.name)
                      : QStringLiteral("%1 has no value for tunable '%2'").arg(what, tunable.name));
        }
        const std::optional<qint64> v = integerValue(value);
        if (!v) {
            return m_doc.error(line,
                QStringLiteral("%1 gives tunable '%2' the value %3, but only integer tunables are supported")
                    .arg(what, tunable.name, jsonValueText(value)));
        }
        values.append(*v);
    }
    if (exact && object.size() != m_results.tunables.size()) {
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (m_results.tunableIndex(it.key()) < 0) {
                return m_doc.error(line,
                    QStringLiteral("%1 has a tunable '%2' that the first configuration does not have")
                        .arg(what, it.key()));
            }
        }
    }
    return values;
}

Result<double> TuningCollector::time(
    const QJsonValue &value, double microsecondsPerUnit, int line, const QString &what, const QString &field) const
{
    if (value.isUndefined())
        return m_doc.error(line, QStringLiteral("%1 has no %2").arg(what, field));
    if (value.isNull()) {
        return m_doc.error(line,
            m_doc.nonFiniteWords
                ? QStringLiteral("%1 has a %2 of NaN or Infinity, not a finite number").arg(what, field)
                : QStringLiteral("%1 has a %2 of null, not a number").arg(what, field));
    }
    if (!value.isDouble()) {
        return m_doc.error(
            line, QStringLiteral("%1 is valid but its %2 is %3, not a number").arg(what, field, jsonValueText(value)));
    }
    const double v = value.toDouble();
    if (!(v > 0.0)) {
        return m_doc.error(line,
            QStringLiteral("%1 has a %2 of %3, but times must be positive").arg(what, field, jsonValueText(value)));
    }
    const double us = v * microsecondsPerUnit;
    if (!std::isfinite(us)) {
        return m_doc.error(line,
            QStringLiteral("%1 has a %2 of %3, which is not a finite time").arg(what, field, jsonValueText(value)));
    }
    return us;
}

Result<QList<double>> TuningCollector::samples(
    const QJsonValue &value, double microsecondsPerUnit, int line, const QString &what, const QString &field) const
{
    QList<double> out;
    if (value.isUndefined() || value.isNull())
        return out;
    if (!value.isArray()) {
        return m_doc.error(
            line, QStringLiteral("%1 has %2 %3, not a list of times").arg(what, field, jsonValueText(value)));
    }
    const QJsonArray array = value.toArray();
    out.reserve(array.size());
    for (const QJsonValue sample : array) {
        Result<double> us = time(sample, microsecondsPerUnit, line, what, QStringLiteral("sample in %1").arg(field));
        if (!us)
            return us.failure();
        out.append(*us);
    }
    return out;
}

Status TuningCollector::add(TuningEntry entry, const QString &what)
{
    const auto seen = m_seen.constFind(entry.configuration);
    if (seen != m_seen.constEnd()) {
        return m_doc.error(entry.line,
            QStringLiteral("%1 repeats the configuration of line %2 (%3)")
                .arg(what)
                .arg(seen.value())
                .arg(m_results.label(entry.configuration)));
    }
    m_seen.insert(entry.configuration, entry.line);
    for (qsizetype t = 0; t < entry.configuration.size(); ++t)
        m_results.tunables[t].values.append(entry.configuration.at(t));
    m_anyValid = m_anyValid || entry.outcome == TuningEntry::Outcome::Ok;
    m_results.entries.append(std::move(entry));
    return {};
}

Status TuningCollector::finish(int line)
{
    if (m_results.entries.isEmpty())
        return m_doc.error(line, QStringLiteral("the file holds no configuration"));
    if (!m_anyValid) {
        return m_doc.error(line,
            QStringLiteral("none of the %1 configurations has a valid time (all failed)")
                .arg(m_results.entries.size()));
    }
    for (TuningTunable &tunable : m_results.tunables) {
        std::sort(tunable.values.begin(), tunable.values.end());
        tunable.values.erase(std::unique(tunable.values.begin(), tunable.values.end()), tunable.values.end());
    }
    return {};
}

} // namespace gpuf::interop
