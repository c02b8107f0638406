// Tuning results of other auto-tuners read into one value: Kernel Tuner cache files (a JSON object whose `cache` maps
// each configuration's key to its record) and the Auto-Tuning Association's T4 results format (`schema_version`,
// `results[]`), plain or gzip-compressed; and the same value written back as T4, so Kernel Tuner's own tooling reads
// our spaces (docs/interop.md, "Tuning spaces"). Pure: no store, no search; the import as a searchable space is in
// core/interop/tuning_import.h, the way back from a recorded space in core/search/space_export.h.
#pragma once

#include "core/common/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace gpuf::interop {

enum class TuningFormat { KernelTunerCache, T4 };
QString tuningFormatName(TuningFormat format); // "Kernel Tuner cache" | "T4"

// A tunable and the values it takes in the file, ascending and distinct. Only integer tunables are read.
struct TuningTunable
{
    QString name;
    QList<qint64> values;
};

// One configuration as the file recorded it.
struct TuningEntry
{
    enum class Outcome { Ok, CompileFailed, RuntimeFailed, Incorrect };
    QList<qint64> configuration; // one value per tunable, in TuningResults::tunables order
    Outcome outcome = Outcome::Ok;
    QString reason; // the file's own word for a failure ("CompilationFailedConfig", "compile", …); empty when ok
    double timeUs = -1.0; // the objective as the file gives it (Kernel Tuner's "time", T4's "time" measurement), in µs
    QList<double> runtimesUs; // every sample the file keeps, in µs (may be empty)
    QString timestamp; // as written, when the file has one
    int line = 0; // 1-based line of the record in the (decompressed) file; 0 for entries not read from a file
};

struct TuningResults
{
    TuningFormat format = TuningFormat::T4;
    QString kernelName; // Kernel Tuner's kernel_name; empty when the file names none
    QString hardware; // the GPU: Kernel Tuner's device_name; T4 files name none (the caller's --hardware)
    QString objective = QStringLiteral("time");
    QJsonObject problemSize; // Kernel Tuner's problem_size as {"problem_size": [...]}, when given
    QList<TuningTunable> tunables; // in the file's own order (tune_params_keys, or the first configuration's keys)
    QList<TuningEntry> entries; // in file order; every configuration appears once
    // A Kernel Tuner cache still being written when it was read (its last record ends in ',' and the braces are not
    // closed): read as if closed. Worth saying to whoever imports it, since the space may be incomplete.
    bool unfinished = false;

    int tunableIndex(const QString &name) const; // -1 when there is none
    // "block_size_x=16 block_size_y=1 …" in tunable order.
    QString label(const QList<qint64> &configuration) const;
};

// Reads FILE: decompresses gzip (by its magic bytes, whatever the name), tells the two formats apart by content, and
// parses. Kernel Tuner's "InvalidConfig" records and T4's "constraints" results are configurations outside the space
// (Kernel Tuner maps the one to the other) and are left out. Errors name the file and the line of the offending
// record ("cache.json:1041: configuration '16,1,1,1,0,0,0,1,15,15' has no \"time\"") and nothing is returned
// half-read. Refused: invalid JSON, an unknown T4 schema_version (1.x is read), a missing or non-numeric time of a
// valid entry, a time (or sample) that is not a positive finite number (Python's NaN and Infinity included), a
// configuration whose tunables differ from the first's, a tunable value that is not an integer, the same
// configuration twice, no valid entry at all, a time unit that is not milliseconds, seconds or microseconds, data
// that decompresses to more than 1 GiB, and a file that is neither format.
Result<TuningResults> readTuningResults(const QString &path);
Result<TuningResults> parseTuningResults(const QByteArray &bytes, const QString &fileName);

// T4 results (schema 1.0.0, times in milliseconds as Kernel Tuner writes them): one result per entry and per line,
// configurations' keys in tunable order, failures with their invalidity ("compile", "runtime", "correctness") and no
// runtimes. `metadata` is merged into the file's metadata object (e.g. {"hardware": …, "source": "gpuf"}); its
// "timeunit" stays "milliseconds", the unit the times are written in. parseTuningResults reads it back to the same
// tunables, entries and outcomes, times within rounding (a ms ↔ µs conversion each way).
QByteArray writeT4(const TuningResults &results, const QJsonObject &metadata = {});

// gzip's decompression (the T4 hub ships .json.gz); an error when the data is not gzip, is cut short or corrupt, or
// would decompress to more than `limit` bytes. Concatenated gzip members are read one after another.
inline constexpr qint64 kGunzipLimit = qint64(1) << 30; // 1 GiB
Result<QByteArray> gunzip(const QByteArray &data, qint64 limit = kGunzipLimit);
bool isGzip(const QByteArray &data);

} // namespace gpuf::interop
