// The CLI runner itself (app/cli): typed options and their one-sentence refusals, a command's failures with and
// without --json, the store helpers on a missing, an empty and a foreign file, the progress printer, the local event
// loop wait, and the measure engine driven until its device settles (a stand-in gpuf-measure, tests/cli).
#include "app/cli/cli_engine.h"
#include "app/cli/invocation.h"
#include "app/cli/local_loop.h"
#include "app/cli/progress.h"
#include "app/cli/search_progress.h"
#include "core/store/store.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;
using gpuf::cli::Command;
using gpuf::cli::Invocation;
using gpuf::cli::Io;
using gpuf::cli::Option;

namespace {

// A command of the options under test, parsed from `args` (after the command's name).
struct Parsed
{
    Command command;
    QCommandLineParser parser;
    bool ok = false;

    Parsed(const QList<Option> &options, const QStringList &args)
    {
        command.name = u"probe"_s;
        command.options = options;
        gpuf::cli::addCommandOptions(parser, command);
        ok = parser.parse(QStringList {u"gpuf probe"_s} + args);
    }
};

// Both outputs of a command, as text.
struct Captured
{
    QString out;
    QString err;
    QTextStream outStream {&out};
    QTextStream errStream {&err};
    Io io {outStream, errStream};

    void flush()
    {
        outStream.flush();
        errStream.flush();
    }
};

QList<Option> numberOptions()
{
    return {
        Option::integer(u"count"_s, u"N"_s, u"a count"_s).atLeast(1),
        Option::integer(u"resamples"_s, u"N"_s, u"resamples"_s).atLeast(0).byDefault(u"0"_s),
        Option::integer(u"seeds"_s, u"N"_s, u"seeds"_s).atLeast(1).atMost(1000),
        Option::integer(u"poll-ms"_s, u"MS"_s, u"poll"_s).atLeast(100),
        Option::real(u"temperature"_s, u"T"_s, u"temperature"_s).atLeast(0),
        Option::real(u"tau"_s, u"T"_s, u"tau"_s).atLeast(0).atMost(1),
        Option::uint64(u"seed"_s, u"S"_s, u"seed"_s),
        Option::integer(u"bin"_s, u"B"_s, u"bin"_s).atLeast(1).atMost(8).refusedAs(u"%1: bins are 1 to 8"_s),
        Option::integer(u"rounds"_s, u"N"_s, u"rounds"_s).atLeast(1).refusedAs(u"needs a positive integer"_s),
    };
}

// A sender of a signal with an argument.
class Emitter : public QObject
{
    Q_OBJECT

Q_SIGNALS:
    void said(const QString &);
};

QString writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
        return {};
    return path;
}

} // namespace

class TestCliRunner : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("zero count") << QStringList {u"--count"_s, u"0"_s} << u"--count takes a positive integer"_s;
        QTest::newRow("word") << QStringList {u"--count"_s, u"many"_s} << u"--count takes a positive integer"_s;
        QTest::newRow("fraction") << QStringList {u"--count"_s, u"1.5"_s} << u"--count takes a positive integer"_s;
        QTest::newRow("negative resamples")
            << QStringList {u"--resamples"_s, u"-1"_s} << u"--resamples takes a non-negative integer"_s;
        QTest::newRow("seeds below") << QStringList {u"--seeds"_s, u"0"_s}
                                     << u"--seeds takes an integer from 1 to 1000"_s;
        QTest::newRow("seeds above") << QStringList {u"--seeds"_s, u"1001"_s}
                                     << u"--seeds takes an integer from 1 to 1000"_s;
        QTest::newRow("poll") << QStringList {u"--poll-ms"_s, u"99"_s}
                              << u"--poll-ms takes an integer of at least 100"_s;
        QTest::newRow("temperature") << QStringList {u"--temperature"_s, u"-0.5"_s}
                                     << u"--temperature takes a non-negative number"_s;
        QTest::newRow("tau") << QStringList {u"--tau"_s, u"1.5"_s} << u"--tau takes a number from 0 to 1"_s;
        QTest::newRow("negative seed") << QStringList {u"--seed"_s, u"-1"_s}
                                       << u"--seed takes a non-negative integer"_s;
        QTest::newRow("worded with the value") << QStringList {u"--bin"_s, u"9"_s} << u"--bin 9: bins are 1 to 8"_s;
        QTest::newRow("worded by the command")
            << QStringList {u"--rounds"_s, u"0"_s} << u"--rounds needs a positive integer"_s;
        QTest::newRow("int overflow") << QStringList {u"--count"_s, u"99999999999"_s}
                                      << u"--count takes a positive integer"_s;
    }
    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        Parsed p(numberOptions(), args);
        QVERIFY(p.ok);
        const auto checked = gpuf::cli::checkOptions(p.command.options, p.parser);
        QVERIFY(!checked);
        QCOMPARE(checked.error(), error);
    }

    void valuesInRange()
    {
        Parsed p(numberOptions(),
            {u"--count"_s, u"3"_s, u"--seeds"_s, u"1000"_s, u"--tau"_s, u"0"_s, u"--seed"_s, u"18446744073709551615"_s,
                u"--poll-ms"_s, u"100"_s, u"--bin"_s, u"8"_s});
        QVERIFY(p.ok);
        const auto v = gpuf::cli::checkOptions(p.command.options, p.parser);
        QVERIFY2(v, qPrintable(v.error()));
        QCOMPARE(v->integer(u"count"_s), 3);
        QCOMPARE(v->integer(u"seeds"_s), 1000);
        QCOMPARE(v->real(u"tau"_s, 0.5), 0.0);
        QCOMPARE(v->uint64(u"seed"_s), std::numeric_limits<quint64>::max());
        QCOMPARE(v->integer(u"poll-ms"_s), 100);
        QCOMPARE(v->integer(u"bin"_s), 8);
        // Not given: its default, else the caller's fallback.
        QCOMPARE(v->integer(u"resamples"_s, 7), 0);
        QCOMPARE(v->integer(u"rounds"_s, 7), 7);
        QCOMPARE(v->real(u"temperature"_s, 1.0), 1.0);
    }

    // A bad value of an option not asked about is not refused; those asked about are checked in the order asked.
    void onlyTheOptionsNamed()
    {
        Parsed p(numberOptions(), {u"--count"_s, u"0"_s, u"--seeds"_s, u"0"_s, u"--tau"_s, u"2"_s});
        QVERIFY(p.ok);
        QVERIFY(gpuf::cli::checkOptions(p.command.options, p.parser, {u"bin"_s, u"rounds"_s}));
        QCOMPARE(gpuf::cli::checkOptions(p.command.options, p.parser, {u"tau"_s, u"seeds"_s}).error(),
            u"--tau takes a number from 0 to 1"_s);
        QCOMPARE(gpuf::cli::checkOptions(p.command.options, p.parser).error(), u"--count takes a positive integer"_s);
    }

    void requiredOption_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("missing") << QStringList {} << u"--out MODEL is required"_s;
        QTest::newRow("empty") << QStringList {u"--out"_s, QString()} << u"--out MODEL is required"_s;
        QTest::newRow("given") << QStringList {u"--out"_s, u"m.json"_s} << QString();
    }
    void requiredOption()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        Parsed p({Option::text(u"out"_s, u"MODEL"_s, u"the model"_s).mandatory()}, args);
        QVERIFY(p.ok);
        QCOMPARE(gpuf::cli::checkOptions(p.command.options, p.parser).error(), error);
    }

    // --help shows an option as it is described: its name, value name and help.
    void helpFromTheDescription()
    {
        Parsed p({Option::integer(u"rounds"_s, u"N"_s, u"Boosting rounds."_s).byDefault(u"200"_s),
                     Option::flag(u"quiet"_s, u"No progress."_s)},
            {});
        QVERIFY(p.ok);
        const QString help = p.parser.helpText();
        QVERIFY2(help.contains(u"--rounds <N>"_s), qPrintable(help));
        QVERIFY(help.contains(u"Boosting rounds."_s));
        QVERIFY(help.contains(u"--quiet"_s));
        QCOMPARE(p.parser.value(u"rounds"_s), u"200"_s);
    }

    void failuresNameTheCommand()
    {
        Parsed p({}, {});
        Captured c;
        Invocation run(p.command, p.parser, c.io);
        QCOMPARE(run.usage(u"give exactly one STORE"_s), int(gpuf::cli::UsageError));
        run.setPrefix(u"probe add"_s);
        QCOMPARE(run.bad(u"'x' exists already"_s), int(gpuf::cli::BadInput));
        QCOMPARE(run.report(gpuf::cli::BadInput, u"/s.gpuf: not a gpuf store"_s), int(gpuf::cli::BadInput));
        c.flush();
        QCOMPARE(c.err,
            u"gpuf: probe: give exactly one STORE\ngpuf: probe add: 'x' exists already\n"
            u"gpuf: /s.gpuf: not a gpuf store\n"_s);
        QCOMPARE(c.out, QString());
    }

    // With --json a failure is also the one document on stdout.
    void failureAsJson()
    {
        Parsed p({}, {});
        Captured c;
        c.io.json = true;
        Invocation run(p.command, p.parser, c.io);
        QVERIFY(run.json());
        QCOMPARE(run.usage(u"--count takes a positive integer"_s), int(gpuf::cli::UsageError));
        c.flush();
        QCOMPARE(c.err, u"gpuf: probe: --count takes a positive integer\n"_s);
        QCOMPARE(c.out.count(u'\n'), 1);
        QCOMPARE(QJsonDocument::fromJson(c.out.toUtf8()).object(),
            (QJsonObject {{u"error"_s, u"probe: --count takes a positive integer"_s}}));
    }

    // The helpers keep Store::open's rules: a read or an existing store must be there and not empty; a created one
    // may be a missing file, an empty one only through Store::Mode::Create (gpuf init); a file of another program is
    // refused, unchanged.
    void storeHelpers()
    {
        Parsed p({}, {});
        Captured c;
        const Invocation run(p.command, p.parser, c.io);
        const QString missing = m_dir.filePath(u"missing.gpuf"_s);
        QCOMPARE(run.readStore(missing).error(), missing + u": no gpuf store there (no such file)"_s);
        QCOMPARE(run.existingStore(missing).error(), missing + u": no gpuf store there (no such file)"_s);
        QVERIFY(!QFile::exists(missing));

        const QString empty = writeFile(m_dir.filePath(u"empty.gpuf"_s), {});
        QVERIFY(!empty.isEmpty());
        const QString notAStore
            = empty + u" is an empty file, not a gpuf store; run gpuf init to make one (the file was not changed)"_s;
        QCOMPARE(run.readStore(empty).error(), notAStore);
        QCOMPARE(run.existingStore(empty).error(), notAStore);
        // Commands that make a missing store (import) leave an empty file alone too: a failed copy leaves those, and
        // only gpuf init turns one into a store.
        QCOMPARE(run.createStore(empty).error(), notAStore);
        QCOMPARE(QFileInfo(empty).size(), 0);
        {
            auto made = gpuf::Store::open(empty, gpuf::Store::Mode::Create);
            QVERIFY2(made, qPrintable(made.error()));
        }
        QVERIFY(QFileInfo(empty).size() > 0);
        QVERIFY(run.readStore(empty));

        const QString notes = writeFile(m_dir.filePath(u"notes.txt"_s), "just some notes\n");
        auto refused = run.createStore(notes);
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(u"not a gpuf store"_s), qPrintable(refused.error()));
        QFile f(notes);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("just some notes\n"));
    }

    void progressLines()
    {
        Captured c;
        gpuf::cli::Progress progress(c.errStream);
        progress.setTerminal(false);
        progress.line(u"measure: submitted"_s);
        progress.start(2);
        progress.item(u"k1: ok"_s, false);
        progress.item(u"k2: compile_error"_s, true);
        progress.count(3, 10, u"surrogate seed 3"_s);
        c.flush();
        QCOMPARE(c.err, u"measure: submitted\n[1/2] k1: ok\n[2/2] k2: compile_error\n[3/10] surrogate seed 3\n"_s);
    }

    // A search's status line (gpuf search start): reused evaluations (the same binary's measurement taken on this
    // GPU) are said apart from GPU evaluations, and only when there are some.
    void searchLineCountsReuseApart()
    {
        Captured c;
        gpuf::cli::Progress progress(c.errStream);
        progress.setTerminal(false);
        gpuf::cli::SearchProgress search(progress);
        gpuf::search::SearchSnapshot s;
        s.name = u"free"_s;
        s.step = 2;
        s.steps = 5;
        s.gpuEvaluations = 4;
        s.bestSpeedup = 1.5;
        search.step(s);
        s.reusedEvaluations = 3;
        search.step(s);
        c.flush();
        QCOMPARE(c.err,
            u"free: step 2/5, 4 GPU evaluation(s), best 1.500×\n"_s
            u"free: step 2/5, 4 GPU evaluation(s), 3 reused, best 1.500×\n"_s);
    }

    void progressBar()
    {
        Captured c;
        gpuf::cli::Progress progress(c.errStream);
        progress.setTerminal(true);
        progress.start(4);
        progress.item(u"k1: ok"_s, false);
        progress.item(u"k2: failed"_s, true);
        c.flush();
        QCOMPARE(c.err,
            u"\r[##########..............................] 1/4, 0 failed"_s
            u"\r[####################....................] 2/4, 1 failed"_s);
        progress.item(u"k3: ok"_s, false);
        progress.item(u"k4: ok"_s, false);
        c.flush();
        QVERIFY(c.err.endsWith(u"\r[########################################] 4/4, 1 failed\n"_s));
    }

    void quietProgress()
    {
        Captured c;
        gpuf::cli::Progress progress(c.errStream, true);
        progress.line(u"a"_s);
        progress.start(1);
        progress.item(u"b"_s, false);
        progress.count(1, 1, u"c"_s);
        c.flush();
        QCOMPARE(c.err, QString());
    }

    // The wait runs the loop until the signal's arguments say so, and not at all when the start already did.
    void localLoopWait()
    {
        QTimer timer;
        timer.setInterval(1);
        int ticks = 0;
        gpuf::cli::waitFor(
            timer, &QTimer::timeout, [&ticks] { return ++ticks == 3; }, [&timer] { timer.start(); });
        QCOMPARE(ticks, 3);
        timer.stop();

        Emitter emitter;
        QStringList heard;
        const auto done = [&heard](const QString &text) {
            heard.append(text);
            return text == u"done"_s;
        };
        gpuf::cli::waitFor(emitter, &Emitter::said, done, [&emitter] {
            Q_EMIT emitter.said(u"working"_s);
            Q_EMIT emitter.said(u"done"_s);
            Q_EMIT emitter.said(u"after"_s);
        });
        QCOMPARE(heard, (QStringList {u"working"_s, u"done"_s}));
    }

    // A wait on two signals ends on the first whose arguments say so (a search halts, or fails).
    void localLoopOnTwoSignals()
    {
        Emitter progress;
        Emitter failure;
        QString error;
        gpuf::cli::LocalLoop loop;
        loop.endOn(progress, &Emitter::said, [](const QString &text) { return text == u"halted"_s; });
        loop.endOn(failure, &Emitter::said, [&error](const QString &text) {
            error = text;
            return true;
        });
        QTimer::singleShot(0, &progress, [&] { Q_EMIT progress.said(u"step 1"_s); });
        QTimer::singleShot(1, &failure, [&] { Q_EMIT failure.said(u"the store went away"_s); });
        QTimer::singleShot(5, &progress, [&] { Q_EMIT progress.said(u"halted"_s); });
        loop.run();
        QCOMPARE(error, u"the store went away"_s);
    }

    // The device settles through a stand-in gpuf-measure; the workers shut down; an idle engine returns at once.
    void engineSettlesOnAStandIn()
    {
        const QString worker = m_dir.filePath(u"gpuf-measure"_s);
        QVERIFY(QFile::copy(QStringLiteral(GPUF_CLI_TEST_DIR "/fake_gpu_worker.sh"), worker));
        QVERIFY(QFile::setPermissions(worker, QFile::permissions(worker) | QFileDevice::ExeOwner));
        gpuf::cli::CliEngine engine(worker);
        QCOMPARE(engine.runUntilIdle().items.size(), 0);
        const gpuf::DeviceState device = engine.probeDevice();
        QVERIFY2(device.isAvailable(), qPrintable(device.reason));
        QCOMPARE(device.devices.size(), 1);
        QCOMPARE(device.devices.first().name, u"Test GPU 9000"_s);
        engine.shutdown();
        engine.shutdown(); // once is enough
    }

    void engineSaysWhyThereIsNoDevice()
    {
        gpuf::cli::CliEngine engine(m_dir.filePath(u"no-such-worker"_s));
        const gpuf::DeviceState device = engine.probeDevice();
        QVERIFY(!device.isAvailable());
        QVERIFY2(device.reason.startsWith(u"gpuf-measure does not start"_s), qPrintable(device.reason));
    }
};

QTEST_GUILESS_MAIN(TestCliRunner)
#include "tst_cli_runner.moc"
