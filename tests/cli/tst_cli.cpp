// Integration tests of the `gpuf` command-line tool: the real executable on real store files, checking its
// output documents, exit codes (0 ok, 1 bad input, 2 usage) and that failed commands leave stores untouched.
#include "gpuf_config.h"
#include "tests/support/cli_run.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

using Run = gpuf::test::CliRun;
using gpuf::test::runGpufBytes;

QByteArray digest(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
                                       : QByteArray();
}

void writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
}

QString corpusDir() { return QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"); }

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void binsJsonIsExact()
    {
        const Run r = runGpufBytes(
            {QStringLiteral("bins"), QStringLiteral("--json"), QStringLiteral("0.4"), QStringLiteral("1.5")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("[{\"speedup\":0.4,\"bin\":1},{\"speedup\":1.5,\"bin\":5}]\n"));
    }

    void binsRejectsBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a number") << QStringList {QStringLiteral("bins"), QStringLiteral("fast")} << 1
                                      << QStringLiteral("'fast' is not a positive number");
        QTest::newRow("zero") << QStringList {QStringLiteral("bins"), QStringLiteral("0")} << 1
                              << QStringLiteral("'0' is not a positive number");
        QTest::newRow("no speedup") << QStringList {QStringLiteral("bins")} << 2 << QStringLiteral("at least one");
        QTest::newRow("unknown option") << QStringList {QStringLiteral("bins"), QStringLiteral("--frobnicate")} << 2
                                        << QStringLiteral("frobnicate");
        QTest::newRow("unknown command") << QStringList {QStringLiteral("fly")} << 2
                                         << QStringLiteral("unknown command 'fly'");
        QTest::newRow("no command") << QStringList {} << 2 << QStringLiteral("Usage");
    }
    void binsRejectsBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run r = runGpufBytes(args);
        QCOMPARE(r.exitCode, code);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void everyCommandHasHelp_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("usage");
        QTest::newRow("init") << u"init"_s << u"Usage: gpuf init [options] STORE"_s;
        QTest::newRow("import") << u"import"_s
                                << u"Usage: gpuf import [options] STORE FILE… | STORE TUNING-FILE [--hardware NAME] "
                                   u"[--name N] [--template FILE] [--reference CONFIG]"_s;
        QTest::newRow("export") << u"export"_s
                                << u"Usage: gpuf export [options] STORE FILE | STORE FILE --case KERNEL [--forecaster "
                                   u"NAME] [--hardware NAME] | STORE FILE --t4 --family F [--problem P] "
                                   u"[--hardware NAME]"_s;
        QTest::newRow("stats") << u"stats"_s << u"Usage: gpuf stats [options] STORE"_s;
        QTest::newRow("corpus") << u"corpus"_s << u"Usage: gpuf corpus [options] STORE DIR"_s;
        QTest::newRow("bins") << u"bins"_s << u"Usage: gpuf bins [options] SPEEDUP…"_s;
        QTest::newRow("metrics") << u"metrics"_s << u"Usage: gpuf metrics [options] STORE"_s;
        QTest::newRow("forecaster")
            << u"forecaster"_s
            << u"Usage: gpuf forecaster [options] add STORE NAME --endpoint URL --model MODEL | "
               u"list STORE"_s;
        QTest::newRow("forecast") << u"forecast"_s << u"Usage: gpuf forecast [options] STORE --forecaster NAME"_s;
        QTest::newRow("train") << u"train"_s << u"Usage: gpuf train [options] STORE --out MODEL"_s;
        QTest::newRow("measure") << u"measure"_s << u"Usage: gpuf measure [options] STORE KERNEL…"_s;
        QTest::newRow("device") << u"device"_s << u"Usage: gpuf device [options]"_s;
    }
    // The first line names the command once, its arguments once, and no path of the program.
    void everyCommandHasHelp()
    {
        QFETCH(QString, command);
        QFETCH(QString, usage);
        const Run r = runGpufBytes({command, QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--json"));
        const QString firstLine = QString::fromUtf8(r.out).section(u'\n', 0, 0);
        QCOMPARE(firstLine, usage);
    }

    // With --json, whatever fails, stdout holds exactly one document: {"error": "…"}, and the exit code says how.
    void jsonFailureIsOneDocument_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const QString missing = m_dir.filePath(u"missing.gpuf"_s);
        QTest::newRow("stats of a missing store")
            << QStringList {u"stats"_s, u"--json"_s, missing} << 1 << u"no such file"_s;
        QTest::newRow("bins of a word") << QStringList {u"bins"_s, u"--json"_s, u"fast"_s} << 1 << u"fast"_s;
        QTest::newRow("unknown option") << QStringList {u"metrics"_s, u"--json"_s, u"--frobnicate"_s} << 2
                                        << u"frobnicate"_s;
        QTest::newRow("forecast without forecaster")
            << QStringList {u"forecast"_s, u"--json"_s, missing} << 2 << u"--forecaster"_s;
        QTest::newRow("export without file") << QStringList {u"export"_s, u"--json"_s, missing} << 2 << u"export"_s;
        QTest::newRow("unknown command") << QStringList {u"fly"_s, u"--json"_s} << 2 << u"unknown command"_s;
        QTest::newRow("metrics of a missing store")
            << QStringList {u"metrics"_s, missing, u"--json"_s} << 1 << u"no such file"_s;
    }
    void jsonFailureIsOneDocument()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run r = runGpufBytes(args);
        QCOMPARE(r.exitCode, code);
        QCOMPARE(r.out.count('\n'), 1);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, r.out.constData());
        QCOMPARE(doc.object().keys(), QStringList {u"error"_s});
        QVERIFY2(doc.object().value(u"error"_s).toString().contains(message), r.out.constData());
        QVERIFY(r.err.contains(message.toUtf8())); // people reading the terminal see it too
    }

    void initStatsImportExportRoundTrip()
    {
        const QString store = m_dir.filePath(QStringLiteral("a.gpuf"));
        Run r = runGpufBytes({QStringLiteral("init"), QStringLiteral("--json"), store});
        QCOMPARE(r.exitCode, 0);
        // The program's schema version (it grows with each migration).
        QVERIFY(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("schema_version")).toInt() >= 2);

        r = runGpufBytes({QStringLiteral("corpus"), store, corpusDir()});
        QVERIFY2(r.exitCode == 0, r.err.constData());

        r = runGpufBytes({QStringLiteral("stats"), QStringLiteral("--json"), store});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject stats = QJsonDocument::fromJson(r.out).object();
        for (const char *key :
            {"kernels", "problems", "measurements", "forecasts", "forecasters", "hardware", "searches", "events"})
            QVERIFY2(stats.value(QLatin1StringView(key)).isDouble(), key);
        QVERIFY(stats.value(QStringLiteral("kernels")).toInt() >= 36);
        QVERIFY(stats.value(QStringLiteral("problems")).toInt() >= 6);
        QCOMPARE(r.out.count('\n'), 1); // exactly one JSON document

        const QString bundle = m_dir.filePath(QStringLiteral("a.jsonl"));
        r = runGpufBytes({QStringLiteral("export"), store, bundle});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString copy = m_dir.filePath(QStringLiteral("b.gpuf"));
        r = runGpufBytes({QStringLiteral("import"), QStringLiteral("--json"), copy, bundle});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QJsonDocument::fromJson(r.out).isObject());
        const QString again = m_dir.filePath(QStringLiteral("b.jsonl"));
        QCOMPARE(runGpufBytes({QStringLiteral("export"), copy, again}).exitCode, 0);
        QCOMPARE(digest(again), digest(bundle));
    }

    void badImportNamesLineAndChangesNothing()
    {
        const QString store = m_dir.filePath(QStringLiteral("c.gpuf"));
        QCOMPARE(runGpufBytes({QStringLiteral("corpus"), store, corpusDir()}).exitCode, 0);
        const QByteArray before = digest(store);
        const QString bad = m_dir.filePath(QStringLiteral("bad.jsonl"));
        writeFile(bad,
            "{\"type\":\"header\",\"format\":\"gpuf-bundle\",\"version\":1}\n"
            "{\"type\":\"hardware\",\"name\":\"X\"}\n"
            "{\"type\":\"teapot\"}\n");
        const Run r = runGpufBytes({QStringLiteral("import"), store, bad});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("bad.jsonl:3"), r.err.constData());
        QVERIFY2(r.err.contains("nothing was imported"), r.err.constData());
        QCOMPARE(digest(store), before);
        QCOMPARE(QJsonDocument::fromJson(runGpufBytes({QStringLiteral("stats"), QStringLiteral("--json"), store}).out)
                     .object()
                     .value(QStringLiteral("hardware"))
                     .toInt(),
            0);
    }

    // A refused event log or Python problem is one sentence saying once that nothing was imported (the core's
    // refusal and the command's both said it: "… nothing was imported (nothing was imported)").
    void refusalSaysNothingImportedOnce_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QByteArray>("file"); // written as FILE below (a folder's x/problem.py for corpus)
        QTest::addColumn<QString>("reason");
        QTest::newRow("event log without search_initialized")
            << u"import"_s
            << QByteArray(R"({"kind":"step_started","step":0,"time":"2026-01-01T00:00:00Z"})"
                          "\n")
            << u"the log starts with a step_started event, not search_initialized"_s;
        QTest::newRow("half a Python problem")
            << u"corpus"_s << QByteArray("TOLERANCE = {\"rtol\": 0, \"atol\": 0}\n")
            << u"a Python problem needs problem.py and variants.json; variants.json is missing"_s;
    }
    void refusalSaysNothingImportedOnce()
    {
        QFETCH(QString, command);
        QFETCH(QByteArray, file);
        QFETCH(QString, reason);
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-');
        const QString store = m_dir.filePath(tag + u".gpuf"_s);
        QCOMPARE(runGpufBytes({QStringLiteral("init"), store}).exitCode, 0);
        const QByteArray before = digest(store);
        QString path = m_dir.filePath(tag + u".jsonl"_s);
        if (command == u"corpus"_s) {
            path = m_dir.filePath(tag);
            QVERIFY(QDir().mkpath(path + u"/x"_s));
            writeFile(path + u"/x/problem.py"_s, file);
        } else {
            writeFile(path, file);
        }
        const Run r = runGpufBytes({command, store, path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(reason), r.err.constData());
        QCOMPARE(r.err.count("nothing was imported"), 1);
        QCOMPARE(r.err.count('\n'), 1);
        QCOMPARE(digest(store), before);
    }

    void refusesFilesThatAreNotStores()
    {
        const QString text = m_dir.filePath(QStringLiteral("notes.txt"));
        writeFile(text, "just some notes\n");
        const QByteArray before = digest(text);
        const Run r = runGpufBytes({QStringLiteral("stats"), text});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("not a gpuf store"), r.err.constData());
        QCOMPARE(digest(text), before);
        const Run missing = runGpufBytes({QStringLiteral("stats"), m_dir.filePath(QStringLiteral("missing.gpuf"))});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("no such file"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
