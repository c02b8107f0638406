// Other auto-tuners' results (tuning_results.h): small Kernel Tuner caches and T4 files read to the value, gzip, the
// T4 writer's round trip, and every refusal with its file, line and reason.
#include "core/interop/tuning_results.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace gpuf;
using namespace gpuf::interop;

namespace {

using Outcome = TuningEntry::Outcome;

QString fixture(const QString &name) { return QStringLiteral(GPUF_TEST_DATA_DIR "/tuning/") + name; }

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

TuningResults read(const QString &name)
{
    const Result<TuningResults> results = readTuningResults(fixture(name));
    if (!results) {
        qWarning("%s", qPrintable(results.error()));
        return {};
    }
    return *results;
}

QStringList names(const TuningResults &results)
{
    QStringList out;
    for (const TuningTunable &tunable : results.tunables)
        out.append(tunable.name);
    return out;
}

bool sameTime(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

} // namespace

class TestTuningFormats : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsKernelTunerCache()
    {
        const TuningResults r = read(QStringLiteral("kt-small.json"));
        QCOMPARE(r.format, TuningFormat::KernelTunerCache);
        QCOMPARE(r.kernelName, QStringLiteral("saxpy_tiled"));
        QCOMPARE(r.hardware, QStringLiteral("Test GPU 8GB"));
        QCOMPARE(r.objective, QStringLiteral("time"));
        QCOMPARE(r.problemSize.value(QStringLiteral("problem_size")).toArray(), QJsonArray {4096});
        QVERIFY(!r.unfinished);
        QCOMPARE(names(r), (QStringList {QStringLiteral("block_size_x"), QStringLiteral("tile")}));
        // tune_params' values sorted, plus 256 and 4, seen only in the cache; 128 stays although its only
        // configuration is an InvalidConfig, left out of the entries.
        QCOMPARE(r.tunables.at(0).values, (QList<qint64> {32, 64, 128, 256}));
        QCOMPARE(r.tunables.at(1).values, (QList<qint64> {1, 2, 4}));
        QCOMPARE(r.entries.size(), 5);

        const TuningEntry &ok = r.entries.at(0);
        QCOMPARE(ok.configuration, (QList<qint64> {32, 1}));
        QCOMPARE(ok.outcome, Outcome::Ok);
        QVERIFY(ok.reason.isEmpty());
        QCOMPARE(ok.timeUs, 500.0);
        QCOMPARE(ok.runtimesUs, (QList<double> {500.0, 250.0, 750.0}));
        QCOMPARE(ok.timestamp, QStringLiteral("2024-01-02 10:00:00.000000+00:00"));
        QCOMPARE(ok.line, 9);

        const TuningEntry &compile = r.entries.at(1);
        QCOMPARE(compile.configuration, (QList<qint64> {32, 2}));
        QCOMPARE(compile.outcome, Outcome::CompileFailed);
        QCOMPARE(compile.reason, QStringLiteral("CompilationFailedConfig"));
        QCOMPARE(compile.line, 10);

        const TuningEntry &runtime = r.entries.at(2);
        QCOMPARE(runtime.outcome, Outcome::RuntimeFailed);
        QCOMPARE(runtime.reason, QStringLiteral("RuntimeFailedConfig"));
        QVERIFY(runtime.runtimesUs.isEmpty());

        QCOMPARE(r.entries.at(3).timeUs, 2000.0);
        QCOMPARE(r.entries.at(3).runtimesUs, (QList<double> {2000.0}));
        QCOMPARE(r.entries.at(4).configuration, (QList<qint64> {256, 4}));
        QCOMPARE(r.entries.at(4).timeUs, 1250.0);
        QVERIFY(r.entries.at(4).runtimesUs.isEmpty());
        QCOMPARE(r.entries.at(4).line, 14);
        QCOMPARE(r.label(r.entries.at(4).configuration), QStringLiteral("block_size_x=256 tile=4"));
        QCOMPARE(r.tunableIndex(QStringLiteral("tile")), 1);
        QCOMPARE(r.tunableIndex(QStringLiteral("unroll")), -1);
    }

    void readsUnfinishedKernelTunerCache()
    {
        const TuningResults r = read(QStringLiteral("kt-unfinished.json"));
        QVERIFY(r.unfinished);
        QCOMPARE(r.entries.size(), 2);
        QCOMPARE(r.entries.at(1).configuration, (QList<qint64> {32, 2}));
        QCOMPARE(r.entries.at(1).timeUs, 750.0);
        QCOMPARE(r.entries.at(1).line, 10);
        // A cache opened but holding no record yet reads as one without a configuration.
        QByteArray empty = readAll(fixture(QStringLiteral("kt-unfinished.json")));
        empty.truncate(empty.indexOf("\"32,1\""));
        const Result<TuningResults> none = parseTuningResults(empty, QStringLiteral("fresh.json"));
        QVERIFY(!none);
        QVERIFY2(none.error().startsWith(QStringLiteral("fresh.json:8: the file holds no configuration")),
            qPrintable(none.error()));
    }

    void readsT4()
    {
        const TuningResults r = read(QStringLiteral("t4-small.json"));
        QCOMPARE(r.format, TuningFormat::T4);
        QVERIFY(r.kernelName.isEmpty());
        QVERIFY(r.hardware.isEmpty());
        // The first configuration's own key order, not QJsonObject's sorted one.
        QCOMPARE(names(r), (QStringList {QStringLiteral("tile"), QStringLiteral("block_size_x")}));
        // The "constraints" result (tile 8, block 1024) is outside the space: neither an entry nor a value.
        QCOMPARE(r.tunables.at(0).values, (QList<qint64> {1, 2, 4}));
        QCOMPARE(r.tunables.at(1).values, (QList<qint64> {32, 64, 256}));
        QCOMPARE(r.entries.size(), 5);

        const QList<Outcome> outcomes {
            Outcome::Ok, Outcome::CompileFailed, Outcome::RuntimeFailed, Outcome::Incorrect, Outcome::Ok};
        const QStringList reasons {
            QString(), QStringLiteral("compile"), QStringLiteral("runtime"), QStringLiteral("correctness"), QString()};
        const QList<int> lines {5, 14, 23, 31, 47};
        for (qsizetype i = 0; i < r.entries.size(); ++i) {
            QCOMPARE(r.entries.at(i).outcome, outcomes.at(i));
            QCOMPARE(r.entries.at(i).reason, reasons.at(i));
            QCOMPARE(r.entries.at(i).line, lines.at(i));
        }
        QCOMPARE(r.entries.at(0).configuration, (QList<qint64> {1, 32}));
        QCOMPARE(r.entries.at(0).timeUs, 500.0);
        QCOMPARE(r.entries.at(0).runtimesUs, (QList<double> {500.0, 250.0, 750.0}));
        QCOMPARE(r.entries.at(0).timestamp, QStringLiteral("2024-01-02 10:00:00.000000+00:00"));
        QVERIFY(r.entries.at(2).timestamp.isEmpty());
        // The "time" measurement is found among others, its "ms" unit honoured.
        QCOMPARE(r.entries.at(4).configuration, (QList<qint64> {4, 256}));
        QCOMPARE(r.entries.at(4).timeUs, 1250.0);
        QCOMPARE(r.entries.at(4).runtimesUs, (QList<double> {1250.0, 1500.0}));
    }

    void convertsTimeUnits_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("timeUs");
        QTest::addColumn<QList<double>>("runtimesUs");
        QTest::newRow("T4 miliseconds (sic)")
            << QStringLiteral("t4-small.json") << 500.0 << QList<double> {500.0, 250.0, 750.0};
        QTest::newRow("T4 seconds") << QStringLiteral("t4-seconds.json") << 3000.0 << QList<double> {2000.0, 4000.0};
        QTest::newRow("T4 microseconds, schema 1.2.0")
            << QStringLiteral("t4-microseconds.json") << 13.0 << QList<double> {12.5, 13.5};
        QTest::newRow("Kernel Tuner milliseconds")
            << QStringLiteral("kt-small.json") << 500.0 << QList<double> {500.0, 250.0, 750.0};
    }

    void convertsTimeUnits()
    {
        QFETCH(QString, file);
        QFETCH(double, timeUs);
        QFETCH(QList<double>, runtimesUs);
        const TuningResults r = read(file);
        QVERIFY(!r.entries.isEmpty());
        QVERIFY(sameTime(r.entries.at(0).timeUs, timeUs));
        QCOMPARE(r.entries.at(0).runtimesUs.size(), runtimesUs.size());
        for (qsizetype i = 0; i < runtimesUs.size(); ++i)
            QVERIFY(sameTime(r.entries.at(0).runtimesUs.at(i), runtimesUs.at(i)));
    }

    void readsGzip()
    {
        const QByteArray packed = readAll(fixture(QStringLiteral("t4-small.json.gz")));
        const QByteArray plain = readAll(fixture(QStringLiteral("t4-small.json")));
        QVERIFY(isGzip(packed));
        QVERIFY(!isGzip(plain));
        const Result<QByteArray> inflated = gunzip(packed);
        QVERIFY2(inflated, qPrintable(inflated.error()));
        QCOMPARE(*inflated, plain);

        const TuningResults fromGzip = read(QStringLiteral("t4-small.json.gz"));
        const TuningResults fromPlain = read(QStringLiteral("t4-small.json"));
        QCOMPARE(fromGzip.entries.size(), fromPlain.entries.size());
        QCOMPARE(fromGzip.entries.last().line, fromPlain.entries.last().line); // lines of the decompressed text
        QCOMPARE(fromGzip.entries.last().timeUs, fromPlain.entries.last().timeUs);
        // Recognised by content, whatever the name says.
        const Result<TuningResults> named = parseTuningResults(packed, QStringLiteral("results.json"));
        QVERIFY2(named, qPrintable(named.error()));
        QCOMPARE(named->entries.size(), 5);

        // Concatenated members read as one stream (what `cat a.gz b.gz` makes).
        const Result<QByteArray> twice = gunzip(packed + packed);
        QVERIFY2(twice, qPrintable(twice.error()));
        QCOMPARE(*twice, plain + plain);
    }

    void refusesBadGzip_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<QString>("reason");
        const QByteArray packed = readAll(fixture(QStringLiteral("t4-small.json.gz")));
        QTest::newRow("not gzip") << QByteArray("{\"results\": []}") << kGunzipLimit << QStringLiteral("not gzip");
        QTest::newRow("cut short") << packed.left(packed.size() / 2) << kGunzipLimit << QStringLiteral("cut short");
        QByteArray corrupt = packed;
        corrupt[12] = char(0xff);
        corrupt[13] = char(0xff);
        QTest::newRow("corrupt") << corrupt << kGunzipLimit << QStringLiteral("corrupt");
        QTest::newRow("over the limit") << packed << qint64(1024) << QStringLiteral("more than 1024 bytes");
    }

    void refusesBadGzip()
    {
        QFETCH(QByteArray, data);
        QFETCH(qint64, limit);
        QFETCH(QString, reason);
        const Result<QByteArray> r = gunzip(data, limit);
        QVERIFY(!r);
        QVERIFY2(r.error().contains(reason), qPrintable(r.error()));
        if (isGzip(data) && limit == kGunzipLimit) {
            const Result<TuningResults> parsed = parseTuningResults(data, QStringLiteral("packed.json.gz"));
            QVERIFY(!parsed);
            QVERIFY2(parsed.error().startsWith(QStringLiteral("packed.json.gz: ")), qPrintable(parsed.error()));
        }
    }

    void roundTripsThroughT4_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("T4") << QStringLiteral("t4-small.json");
        QTest::newRow("Kernel Tuner cache") << QStringLiteral("kt-small.json");
        QTest::newRow("T4 in seconds") << QStringLiteral("t4-seconds.json");
    }

    void roundTripsThroughT4()
    {
        QFETCH(QString, file);
        const TuningResults original = read(file);
        QVERIFY(!original.entries.isEmpty());
        const QJsonObject metadata {{QStringLiteral("hardware"), QStringLiteral("Test GPU 8GB")},
            {QStringLiteral("source"), QStringLiteral("gpuf")},
            {QStringLiteral("timeunit"), QStringLiteral("seconds")}};
        const QByteArray written = writeT4(original, metadata);

        const QJsonObject root = QJsonDocument::fromJson(written).object();
        QCOMPARE(root.value(QStringLiteral("schema_version")).toString(), QStringLiteral("1.0.0"));
        const QJsonObject meta = root.value(QStringLiteral("metadata")).toObject();
        QCOMPARE(meta.value(QStringLiteral("timeunit")).toString(), QStringLiteral("milliseconds"));
        QCOMPARE(meta.value(QStringLiteral("hardware")).toString(), QStringLiteral("Test GPU 8GB"));
        QCOMPARE(meta.value(QStringLiteral("source")).toString(), QStringLiteral("gpuf"));

        const Result<TuningResults> back = parseTuningResults(written, QStringLiteral("written.json"));
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(back->format, TuningFormat::T4);
        QCOMPARE(names(*back), names(original));
        for (qsizetype t = 0; t < original.tunables.size(); ++t) {
            // Values that only a left-out configuration had (Kernel Tuner's tune_params) are not written.
            for (const qint64 v : back->tunables.at(t).values)
                QVERIFY(original.tunables.at(t).values.contains(v));
        }
        QCOMPARE(back->entries.size(), original.entries.size());
        for (qsizetype i = 0; i < original.entries.size(); ++i) {
            const TuningEntry &a = original.entries.at(i);
            const TuningEntry &b = back->entries.at(i);
            QCOMPARE(b.configuration, a.configuration);
            QCOMPARE(b.outcome, a.outcome);
            QCOMPARE(b.timestamp, a.timestamp);
            QCOMPARE(b.line, i + 5); // one result per line, after four lines of header
            if (a.outcome != Outcome::Ok) {
                QVERIFY(b.runtimesUs.isEmpty());
                continue;
            }
            QVERIFY2(sameTime(b.timeUs, a.timeUs), qPrintable(QString::number(b.timeUs - a.timeUs)));
            QCOMPARE(b.runtimesUs.size(), a.runtimesUs.size());
            for (qsizetype s = 0; s < a.runtimesUs.size(); ++s)
                QVERIFY(sameTime(b.runtimesUs.at(s), a.runtimesUs.at(s)));
        }
    }

    void writesValuesNotReadFromAFile()
    {
        TuningResults results;
        results.tunables = {{QStringLiteral("z_last"), {1, 2}}, {QStringLiteral("a_first"), {7}}};
        TuningEntry ok;
        ok.configuration = {2, 7};
        ok.timeUs = 1.0 / 3.0; // no short decimal form
        ok.runtimesUs = {0.1, 1e-3, 12345.678901234567};
        TuningEntry wrong;
        wrong.configuration = {1, 7};
        wrong.outcome = Outcome::Incorrect;
        wrong.reason = QStringLiteral("max abs error 0.5");
        results.entries = {ok, wrong};

        const Result<TuningResults> back = parseTuningResults(writeT4(results), QStringLiteral("made.json"));
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(names(*back), (QStringList {QStringLiteral("z_last"), QStringLiteral("a_first")}));
        QCOMPARE(back->entries.size(), 2);
        QVERIFY(sameTime(back->entries.at(0).timeUs, ok.timeUs));
        for (qsizetype s = 0; s < ok.runtimesUs.size(); ++s)
            QVERIFY(sameTime(back->entries.at(0).runtimesUs.at(s), ok.runtimesUs.at(s)));
        QCOMPARE(back->entries.at(1).outcome, Outcome::Incorrect);
        QCOMPARE(back->entries.at(1).reason, QStringLiteral("correctness"));
    }

    void refusesBadInput_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("reason");
        const auto row = [](const char *file, int line, const char *reason) {
            QTest::newRow(file) << QString::fromLatin1(file) << line << QString::fromUtf8(reason);
        };
        row("bad-json.json", 6, "invalid JSON");
        row("bad-neither.json", 1, "neither a Kernel Tuner cache");
        row("bad-schema-version.json", 2, "schema_version '2.1.0' is not supported");
        row("bad-time-unit.json", 3, "unknown time unit 'fortnights'");
        row("bad-t4-missing-time.json", 6, "result 2 is valid but has no \"time\" measurement");
        row("bad-t4-time-string.json", 6, "is 'RuntimeFailedConfig', not a number");
        row("bad-t4-missing-tunable.json", 7, "result 3 has no value for tunable 'tile'");
        row("bad-t4-extra-tunable.json", 6, "has a tunable 'unroll' that the first configuration does not have");
        row("bad-t4-non-integer.json", 6, "the value 1.5, but only integer tunables are supported");
        row("bad-t4-duplicate.json", 8, "result 4 repeats the configuration of line 6");
        row("bad-t4-no-valid.json", 4, "none of the 2 configurations has a valid time");
        row("bad-t4-negative-time.json", 6, "of -0.5, but times must be positive");
        row("bad-t4-huge-time.json", 6, "of 1e+308, which is not a finite time");
        row("bad-t4-negative-sample.json", 6, "sample in \"runtimes\" of -0.25, but times must be positive");
        row("bad-kt-missing-time.json", 10, "configuration '32,2' has no \"time\"");
        row("bad-kt-time-word.json", 10,
            "'TimeoutConfig', which is neither a number nor one of Kernel Tuner's failures");
        row("bad-kt-zero-time.json", 11, "configuration '64,1' has a \"time\" of 0, but times must be positive");
        row("bad-kt-nan-time.json", 10, "has a \"time\" of NaN or Infinity, not a finite number");
        row("bad-kt-infinite-time.json", 10, "has a \"time\" of NaN or Infinity, not a finite number");
        row("bad-kt-missing-tunable.json", 10, "configuration '32,2' has no value for tunable 'tile'");
        row("bad-kt-extra-tunable.json", 10, "has 3 values in its key, but the cache has 2 tunables");
        row("bad-kt-key-mismatch.json", 10,
            "disagrees with its record, which gives tunable 'block_size_x' the value 64");
        row("bad-kt-non-integer.json", 6,
            "the value 'row' for tunable 'tile', but only integer tunables are supported");
        row("bad-kt-duplicate.json", 11, "configuration '32,1' repeats the configuration of line 9");
        row("bad-kt-no-valid.json", 8, "none of the 2 configurations has a valid time");
    }

    void refusesBadInput()
    {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(QString, reason);
        const Result<TuningResults> r = readTuningResults(fixture(file));
        QVERIFY2(!r, qPrintable(file));
        const QString where = file + QLatin1Char(':') + QString::number(line) + QStringLiteral(": ");
        QVERIFY2(r.error().contains(where), qPrintable(r.error()));
        QVERIFY2(r.error().contains(reason), qPrintable(r.error()));
        QVERIFY2(!r.error().contains(QLatin1Char('\n')), qPrintable(r.error())); // one sentence, one line
    }

    void refusesMissingFile()
    {
        const Result<TuningResults> r = readTuningResults(fixture(QStringLiteral("no-such-file.json")));
        QVERIFY(!r);
        QVERIFY2(r.error().contains(QStringLiteral("no-such-file.json: cannot open")), qPrintable(r.error()));
    }
};

QTEST_GUILESS_MAIN(TestTuningFormats)
#include "tst_tuning_formats.moc"
