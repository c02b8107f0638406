// What the Kernel Tuner cache and T4 readers (tuning_results.h) share: the parsed document with the positions
// QJsonDocument does not keep, and the checks every configuration of either format goes through. Internal to
// core/interop.
#pragma once

#include "core/interop/json_offsets.h"
#include "core/interop/tuning_results.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>

#include <optional>

namespace gpuf::interop {

// One parsed file: its text (decompressed, repaired where that was cheap), the JSON, and where things are in it.
struct TuningDocument
{
    QByteArrayView text;
    QJsonObject root;
    QString fileName;
    LineIndex lines;
    QList<JsonChild> members; // the root object's members in file order
    bool nonFiniteWords = false; // Python's NaN/Infinity were read as null
    bool unfinished = false; // a Kernel Tuner cache still being written, closed here

    const JsonChild *member(const QString &key) const; // nullptr when absent
    int memberLine(const QString &key) const; // the line of the member's key; 1 when absent
    int lineAt(qsizetype offset) const { return lines.lineAt(offset); }
    // "FILE:LINE: message" as an Error.
    Error error(int line, const QString &message) const;
};

Result<TuningResults> readKernelTunerCache(const TuningDocument &doc);
Result<TuningResults> readT4Results(const TuningDocument &doc);

// The value as an integer when it is a JSON number with an integral value that a double holds exactly.
std::optional<qint64> integerValue(const QJsonValue &value);
// The value as it would be written in JSON, cut to a length fit for a message.
QString jsonValueText(const QJsonValue &value);

// Microseconds per unit for the time units the formats use ("ms", "milliseconds", T4's "miliseconds", "s",
// "seconds", "us", "µs", "microseconds"); nullopt for anything else.
std::optional<double> microsecondsPer(const QString &unit);

// Collects the entries of one file: reads each configuration in the tunables' order, checks times, refuses repeated
// configurations, and at the end makes each tunable's value list (values given up front plus those seen).
// `what` in each call names the record for messages ("configuration '16,1,1'", "result 12").
class TuningCollector
{
public:
    TuningCollector(const TuningDocument &doc, TuningResults &results);

    // The values of the results' tunables in `object`. `exact`: the object holds the tunables and nothing else (T4's
    // configuration object); else other fields may sit beside them (Kernel Tuner's record).
    Result<QList<qint64>> configuration(const QJsonObject &object, bool exact, int line, const QString &what) const;
    // A time of a valid entry (`field` names it) in µs: a finite, positive number.
    Result<double> time(
        const QJsonValue &value, double microsecondsPerUnit, int line, const QString &what, const QString &field) const;
    // Samples (a JSON array of times; absent or null: none) in µs, each checked like time().
    Result<QList<double>> samples(
        const QJsonValue &value, double microsecondsPerUnit, int line, const QString &what, const QString &field) const;
    // Appends the entry unless its configuration was seen before.
    Status add(TuningEntry entry, const QString &what);
    // Sorts the tunables' values; an error (at `line`) when no entry is valid.
    Status finish(int line);

private:
    const TuningDocument &m_doc;
    TuningResults &m_results;
    QHash<QList<qint64>, int> m_seen; // configuration → line of its first record
    bool m_anyValid = false;
};

} // namespace gpuf::interop
