// Reading tuning results of other auto-tuners: the file, gzip, JSON with its positions, and which format it is; see
// tuning_results.h. The formats themselves: kernel_tuner_cache.cpp and t4_format.cpp.
#include "core/interop/tuning_results.h"
#include "core/interop/line_reader.h"
#include "core/interop/tuning_reading.h"

#include <QFile>
#include <QJsonDocument>

namespace gpuf::interop {

namespace {

// Kernel Tuner appends each record to its cache file as it tunes ("key": {…},) and closes the braces only when it
// is done; a file read while tuning, or left by an interrupted run, ends in that comma. Closes it; false when the text
// does not end that way.
bool closeUnfinishedCache(QByteArray &text)
{
    qsizetype end = text.size();
    while (end > 0
        && (text.at(end - 1) == ' ' || text.at(end - 1) == '\n' || text.at(end - 1) == '\r'
            || text.at(end - 1) == '\t'))
        --end;
    if (end == 0 || (text.at(end - 1) != ',' && text.at(end - 1) != '{') || !text.contains("\"cache\""))
        return false;
    if (text.at(end - 1) == ',')
        --end; // else: the cache's own brace, no record yet
    text.truncate(end);
    text.append("\n}\n}\n");
    return true;
}

} // namespace

QString tuningFormatName(TuningFormat format)
{
    switch (format) {
    case TuningFormat::KernelTunerCache:
        return QStringLiteral("Kernel Tuner cache");
    case TuningFormat::T4:
        break;
    }
    return QStringLiteral("T4");
}

int TuningResults::tunableIndex(const QString &name) const
{
    for (qsizetype i = 0; i < tunables.size(); ++i) {
        if (tunables.at(i).name == name)
            return int(i);
    }
    return -1;
}

QString TuningResults::label(const QList<qint64> &configuration) const
{
    QString text;
    for (qsizetype i = 0; i < tunables.size() && i < configuration.size(); ++i) {
        if (i > 0)
            text += QLatin1Char(' ');
        text += tunables.at(i).name + QLatin1Char('=') + QString::number(configuration.at(i));
    }
    return text;
}

Result<TuningResults> readTuningResults(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("%1: cannot open the file: %2").arg(path, file.errorString())};
    const QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return Error {QStringLiteral("%1: cannot read the file: %2").arg(path, file.errorString())};
    return parseTuningResults(bytes, path);
}

Result<TuningResults> parseTuningResults(const QByteArray &bytes, const QString &fileName)
{
    QByteArray text = bytes;
    if (isGzip(bytes)) {
        Result<QByteArray> inflated = gunzip(bytes);
        if (!inflated)
            return Error {QStringLiteral("%1: %2").arg(fileName, inflated.error())};
        text = std::move(*inflated);
    }

    TuningDocument doc;
    doc.fileName = fileName;
    QJsonParseError parseError;
    QJsonDocument json = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // Two cheap repairs, kept only when the result parses: an unfinished Kernel Tuner cache, and Python's bare
        // NaN/Infinity words (read as null, then refused where a time was expected, with a clear message).
        QByteArray repaired = text;
        const bool closed = closeUnfinishedCache(repaired);
        const bool replaced = replaceNonFiniteWords(repaired) > 0;
        QJsonParseError retryError;
        const QJsonDocument retried
            = (closed || replaced) ? QJsonDocument::fromJson(repaired, &retryError) : QJsonDocument();
        if (!(closed || replaced) || retryError.error != QJsonParseError::NoError) {
            const int line = LineIndex(text).lineAt(parseError.offset);
            return doc.error(line, QStringLiteral("invalid JSON: %1").arg(parseError.errorString()));
        }
        json = retried;
        text = std::move(repaired);
        doc.unfinished = closed;
        doc.nonFiniteWords = replaced;
    }

    doc.text = text;
    doc.lines = LineIndex(text);
    const qsizetype open = skipJsonWhitespace(text, 0);
    const QString neither = QStringLiteral("neither a Kernel Tuner cache (an object with \"cache\" and "
                                           "\"tune_params_keys\") nor T4 results (an object with \"schema_version\" "
                                           "and \"results\")");
    if (!json.isObject())
        return doc.error(doc.lineAt(open), neither);
    doc.root = json.object();
    doc.members = jsonChildren(text, open);

    const bool kernelTuner = doc.root.value(QLatin1StringView("cache")).isObject()
        && (doc.root.contains(QLatin1StringView("tune_params_keys"))
            || doc.root.contains(QLatin1StringView("tune_params")));
    const bool t4
        = doc.root.contains(QLatin1StringView("schema_version")) || doc.root.contains(QLatin1StringView("results"));
    Result<TuningResults> results = kernelTuner ? readKernelTunerCache(doc)
        : t4                                    ? readT4Results(doc)
                                                : Result<TuningResults>(doc.error(doc.lineAt(open), neither));
    if (results)
        results->unfinished = doc.unfinished;
    return results;
}

} // namespace gpuf::interop
