// `gpuf search` as a user runs it: the real executable on real store files. Start, status, list, export and compare;
// bad input; a replay search killed with kill -9 at random moments and resumed each time ends with the archive of an
// uninterrupted run; and several writers at once (a search, two imports and a forecast batch on one store).
#include "core/search/search_setup.h"
#include "core/store/search_repo.h"
#include "search_fixture.h"
#include "tests/support/cli_run.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

// A QStringList from literals (the project builds with QT_NO_CAST_FROM_ASCII).
[[maybe_unused]] QStringList list(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *item : items)
        out << QString::fromUtf8(item);
    return out;
}

using Run = gpuf::test::CliText;

// How long each gpuf run may take.
constexpr int kGpufTimeoutMs = 300000;

QString canonical(const QString &store, const QString &name)
{
    auto s = Store::open(store, Store::Mode::ExistingOnly);
    if (!s)
        return s.error();
    auto state = search::foldStoredSearch(**s, name);
    return state ? search::canonicalArchive(*state) : state.error();
}

QString data(const char *file) { return QStringLiteral(GPUF_TEST_DATA_DIR "/interop/") + QLatin1StringView(file); }

} // namespace

class TestSearchCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_world;

    QString freshStore(const QString &name)
    {
        QString path = m_dir.filePath(name);
        QFile::remove(path);
        QFile::copy(m_world, path);
        return path;
    }

    QStringList startArgs(const QString &store, const QString &name, const QString &mode, int steps)
    {
        return {QStringLiteral("search"), QStringLiteral("start"), store, QStringLiteral("--name"), name,
            QStringLiteral("--problem"), QStringLiteral("sgemm"), QStringLiteral("--mode"), mode,
            QStringLiteral("--steps"), QString::number(steps), QStringLiteral("--measure"), QStringLiteral("2"),
            QStringLiteral("--seed"), QStringLiteral("5")};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_world = m_dir.filePath(QStringLiteral("world.gpuf"));
        const QString error = testing::makeWorldStore(m_world);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void startStatusListExport()
    {
        const QString store = freshStore(QStringLiteral("cli.gpuf"));
        Run r = test::runGpuf(
            startArgs(store, QStringLiteral("s1"), QStringLiteral("selective"), 5) << QStringLiteral("--json"),
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject done = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(done.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        QCOMPARE(done.value(QStringLiteral("step")).toInt(), 5);
        // Not a terminal: one line per step on stderr.
        QCOMPARE(r.err.count(u"s1: step "_s), 5);

        r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("status"), store, QStringLiteral("s1"), QStringLiteral("--json")},
            kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject status = QJsonDocument::fromJson(r.out.toUtf8()).object();
        for (const char *key : {"step", "gpu_evaluations", "forecasts", "deferred", "best_speedup", "best_kernel"})
            QVERIFY2(status.contains(QLatin1StringView(key)), key);
        QVERIFY(status.value(QStringLiteral("gpu_evaluations")).toInt() > 0);
        QVERIFY(status.value(QStringLiteral("forecasts")).toInt() > 0);
        QVERIFY(status.value(QStringLiteral("best_speedup")).toDouble() >= 1.0);
        QVERIFY(status.value(QStringLiteral("best_kernel")).toObject().value(QStringLiteral("kernel_id")).toInt() > 0);
        QCOMPARE(status, done);

        r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("status"), store, QStringLiteral("s1")}, kGpufTimeoutMs);
        QVERIFY(r.out.contains(u"(replay)"_s));

        r = test::runGpuf({QStringLiteral("search"), QStringLiteral("list"), store}, kGpufTimeoutMs);
        QVERIFY2(r.out.contains(u"s1"_s) && r.out.contains(u"(replay)"_s), qPrintable(r.out));
        r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("list"), store, QStringLiteral("--json")}, kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).array().size(), 1);

        const QString file = m_dir.filePath(QStringLiteral("s1.jsonl"));
        r = test::runGpuf({QStringLiteral("search"), QStringLiteral("export"), store, QStringLiteral("s1"),
                              QStringLiteral("--out"), file},
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString copy = m_dir.filePath(QStringLiteral("copy.gpuf"));
        r = test::runGpuf({QStringLiteral("import"), copy, file}, kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(canonical(copy, QStringLiteral("s1")), canonical(store, QStringLiteral("s1")));

        // Deterministic: the same seed replays the same search.
        r = test::runGpuf(
            startArgs(store, QStringLiteral("s2"), QStringLiteral("selective"), 5) << QStringLiteral("--quiet"),
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(canonical(store, QStringLiteral("s2")), canonical(store, QStringLiteral("s1")));
    }

    // A recorded pool that runs out ends the search after the step that learned it, and says why (status text and JSON,
    // the progress line), instead of running empty steps to the budget and calling that "finished".
    void poolRunsOut()
    {
        const QString store = freshStore(QStringLiteral("pool.gpuf"));
        Run r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("start"), store, QStringLiteral("--name"), QStringLiteral("p1"),
                QStringLiteral("--problem"), QStringLiteral("transpose"), QStringLiteral("--steps"),
                QStringLiteral("20"), QStringLiteral("--seed"), QStringLiteral("5"), QStringLiteral("--json")},
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject done = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(done.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        QVERIFY(done.value(QStringLiteral("exhausted")).toBool());
        const int steps = done.value(QStringLiteral("step")).toInt();
        QVERIFY2(steps >= 1 && steps < 20, qPrintable(QString::number(steps)));
        const QString reason = done.value(QStringLiteral("finish_reason")).toString();
        QVERIFY2(reason.startsWith(QStringLiteral("the recorded pool is exhausted: its ")), qPrintable(reason));
        // Every kernel of the pool was proposed; the reference seeds the search, so at most that many evaluations.
        const int poolSize = reason.section(QLatin1Char(' '), 6, 6).toInt();
        QVERIFY2(poolSize > 0, qPrintable(reason));
        QVERIFY(done.value(QStringLiteral("gpu_evaluations")).toInt() > 0);
        QVERIFY(done.value(QStringLiteral("gpu_evaluations")).toInt() <= poolSize);
        QVERIFY2(r.err.contains(QStringLiteral("p1: finished at step %1 of 20: %2").arg(steps).arg(reason)),
            qPrintable(r.err));

        r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("status"), store, QStringLiteral("p1")}, kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("the proposals ran out: ") + reason), qPrintable(r.out));
        // A larger budget does not revive it: the pool is still spent.
        r = test::runGpuf({QStringLiteral("search"), QStringLiteral("resume"), store, QStringLiteral("p1"),
                              QStringLiteral("--steps"), QStringLiteral("30"), QStringLiteral("--json")},
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject again = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(again.value(QStringLiteral("exhausted")).toBool());
        QCOMPARE(again.value(QStringLiteral("gpu_evaluations")), done.value(QStringLiteral("gpu_evaluations")));
        QVERIFY(again.value(QStringLiteral("step")).toInt() <= steps + 1);
    }

    void compare()
    {
        const QString store = freshStore(QStringLiteral("compare.gpuf"));
        Run r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("compare"), store, QStringLiteral("--problem"),
                QStringLiteral("sgemm"), QStringLiteral("--steps"), QStringLiteral("4"), QStringLiteral("--seeds"),
                QStringLiteral("2"), QStringLiteral("--json"), QStringLiteral("--quiet")},
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject report = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray strategies = report.value(QStringLiteral("strategies")).toArray();
        QCOMPARE(strategies.size(), 4); // the three modes and random search, by default
        const QJsonObject standard = strategies.at(0).toObject();
        QCOMPARE(standard.value(QStringLiteral("name")).toString(), QStringLiteral("standard"));
        QCOMPARE(standard.value(QStringLiteral("curves")).toArray().size(), 2); // one per seed
        QCOMPARE(strategies.at(3).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("baseline"));
        // Every curve spans the same budget, and random search's expectation is there to read them against.
        const int budget = report.value(QStringLiteral("budget")).toInt();
        QCOMPARE(standard.value(QStringLiteral("curve")).toObject().value(QStringLiteral("mean")).toArray().size(),
            budget + 1);
        QCOMPARE(
            report.value(QStringLiteral("random")).toObject().value(QStringLiteral("expected_curve")).toArray().size(),
            budget + 1);
    }

    // A pool smaller than the budget: the text says which strategies ran out, and the anytime table stops at the most
    // evaluations any search made instead of repeating flat columns up to the budget.
    void compareOnAPoolThatRunsOut()
    {
        const QString store = freshStore(QStringLiteral("compare-out.gpuf"));
        Run r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("compare"), store, QStringLiteral("--problem"),
                QStringLiteral("transpose"), QStringLiteral("--seeds"), QStringLiteral("2"),
                QStringLiteral("--strategies"), QStringLiteral("standard,random"), QStringLiteral("--quiet")},
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'));
        const auto row = [&lines](const QString &start) {
            for (const QString &line : lines) {
                if (line.startsWith(start))
                    return line;
            }
            return QString();
        };
        // In the table of costs, the column says in how many searches each strategy stopped short of the budget.
        const qsizetype costs = lines.indexOf(row(QStringLiteral("strategy   best speedup")));
        QVERIFY2(costs > 0 && lines.at(costs).contains(QLatin1StringView("ran out")), qPrintable(r.out));
        QVERIFY2(lines.value(costs + 1).startsWith(QLatin1StringView("standard "))
                && lines.value(costs + 1).contains(QLatin1StringView(" 2/2 ")),
            qPrintable(r.out));
        const QString title = row(QStringLiteral("best speedup after e GPU evaluations"));
        QVERIFY2(title.contains(QLatin1StringView("no search made more than ")), qPrintable(r.out));
        const int most = title.section(QStringLiteral("more than "), 1).section(QLatin1Char(' '), 0, 0).toInt();
        QVERIFY2(most > 0 && most <= 11, qPrintable(title));
        const QString marks = row(QStringLiteral("e      "));
        QCOMPARE(marks.split(QLatin1Char(' '), Qt::SkipEmptyParts).last().toInt(), most);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("budget 0") << list({"--measure", "0"}) << QStringLiteral("GPU budget of 0");
        QTest::newRow("unknown forecaster")
            << list({"--mode", "surrogate", "--forecaster", "oracle"}) << QStringLiteral("unknown forecaster 'oracle'");
        QTest::newRow("unknown mode") << list({"--mode", "greedy"}) << QStringLiteral("--mode must be");
        QTest::newRow("unknown problem") << list({"--problem", "nope"}) << QStringLiteral("no problem 'nope'");
        QTest::newRow("unknown gpu") << list({"--gpu", "remote"})
                                     << QStringLiteral("--gpu must be local, replay or cluster:PROFILE");
        QTest::newRow("unknown mutator") << list({"--mutator", "magic"})
                                         << QStringLiteral("unknown mutator 'magic' (pool, injected, family, llm)");
        QTest::newRow("unknown cluster") << list({"--gpu", "cluster:no-such-profile"})
                                         << QStringLiteral("no cluster profile named 'no-such-profile'");
        QTest::newRow("huge proposals") << list({"--mode", "surrogate", "--proposals", "2000000000"})
                                        << QStringLiteral("--proposals takes at most 16384, not 2000000000");
        QTest::newRow("huge measure") << list({"--mode", "selective", "--measure", "1000000000"})
                                      << QStringLiteral("search start: --measure takes at most 4096, not 1000000000\n");
        QTest::newRow("unknown family") << list({"--family", "nosuch"})
                                        << QStringLiteral("no kernel family named 'nosuch' (there are: reduce_sum,");
        // Counts, rates and seeds are typed options of the runner, each refused in its own sentence.
        QTest::newRow("steps not a number")
            << list({"--steps", "many"})
            << QStringLiteral("search start: --steps takes a whole number of at least 0, not 'many'\n");
        QTest::newRow("alpha at 1") << list({"--mode", "selective", "--alpha", "1"})
                                    << QStringLiteral("search start: --alpha takes an error rate in (0, 1), not '1'\n");
        QTest::newRow("alpha at 0") << list({"--mode", "selective", "--alpha", "0"})
                                    << QStringLiteral("--alpha takes an error rate in (0, 1), not '0'");
        QTest::newRow("negative seed") << list({"--seed", "-1"})
                                       << QStringLiteral("--seed takes a whole number, not '-1'");
        QTest::newRow("tau not a number") << list({"--mode", "selective", "--tau", "high"})
                                          << QStringLiteral("--tau takes a number in [0, 1], not 'high'");
        QTest::newRow("negative pace") << list({"--pace", "-1"})
                                       << QStringLiteral("--pace takes steps per second from 0 to 1000, not '-1'");
        QTest::newRow("pace not a number")
            << list({"--pace", "fast"}) << QStringLiteral("--pace takes steps per second from 0 to 1000, not 'fast'");
        QTest::newRow("pace too fast") << list({"--pace", "5000"})
                                       << QStringLiteral("--pace takes steps per second from 0 to 1000, not '5000'");
        QTest::newRow("missing families folder")
            << list({"--family", "sgemm_tiled", "--families-dir", "/nonexistent/families"})
            << QStringLiteral("--families-dir: there is no folder /nonexistent/families");
    }
    void badInput()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        const QString store = freshStore(QStringLiteral("bad.gpuf"));
        QFile f(store);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        const Run r = test::runGpuf(
            startArgs(store, QStringLiteral("b"), QStringLiteral("standard"), 3) << extra, kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!r.err.contains(u"INSERT"_s) && !r.err.contains(u"SELECT"_s));
        auto s = Store::open(store, Store::Mode::ExistingOnly);
        QCOMPARE((*s)->counts().value().searches, 0);
    }

    // --pace holds the steps apart, so that the explorer beside it shows each; --paused creates the search and pauses
    // it before its first step, and resume runs it; resume refuses --paused.
    void paceAndPaused()
    {
        const QString store = freshStore(QStringLiteral("paced.gpuf"));
        QElapsedTimer clock;
        clock.start();
        Run r = test::runGpuf(startArgs(store, QStringLiteral("paced"), QStringLiteral("standard"), 4)
                << QStringLiteral("--pace") << QStringLiteral("5"),
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.err.count(u"paced: step "_s), 4);
        // Four steps at five a second: each step begins at least 200 ms after the one before it ended.
        QVERIFY2(clock.elapsed() >= 580, qPrintable(QString::number(clock.elapsed())));
        {
            auto s = Store::open(store, Store::Mode::ExistingOnly);
            SearchRepo repo(**s);
            auto events = repo.events((*repo.findByName(QStringLiteral("paced")))->id);
            QDateTime ended;
            int waits = 0;
            for (const SearchEvent &e : std::as_const(*events)) {
                if (e.kind == u"step_completed"_s)
                    ended = e.time;
                if (e.kind == u"step_started"_s && ended.isValid()) {
                    QVERIFY2(ended.msecsTo(e.time) >= 195, qPrintable(QString::number(ended.msecsTo(e.time))));
                    ++waits;
                }
            }
            QCOMPARE(waits, 3);
        }

        r = test::runGpuf(startArgs(store, QStringLiteral("waiting"), QStringLiteral("standard"), 3)
                << QStringLiteral("--paused") << QStringLiteral("--json"),
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject paused = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(paused.value(QStringLiteral("status")).toString(), QStringLiteral("paused"));
        QCOMPARE(paused.value(QStringLiteral("step")).toInt(), 0);
        {
            auto s = Store::open(store, Store::Mode::ExistingOnly);
            SearchRepo repo(**s);
            auto events = repo.events((*repo.findByName(QStringLiteral("waiting")))->id);
            QStringList kinds;
            for (const SearchEvent &e : std::as_const(*events))
                kinds << e.kind;
            QVERIFY2(
                kinds.contains(u"search_paused"_s) && !kinds.contains(u"step_started"_s), qPrintable(kinds.join(u' ')));
        }
        r = test::runGpuf({QStringLiteral("search"), QStringLiteral("resume"), store, QStringLiteral("waiting"),
                              QStringLiteral("--paused")},
            kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"--paused is for start: resume runs the search"_s), qPrintable(r.err));
        r = test::runGpuf({QStringLiteral("search"), QStringLiteral("resume"), store, QStringLiteral("waiting"),
                              QStringLiteral("--json")},
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject done = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(done.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        QCOMPARE(done.value(QStringLiteral("step")).toInt(), 3);
    }

    // --families-dir is where --family is looked up: a family only that folder has is found there (and then refused
    // for what it lacks: a recorded sweep of it), and not found without it.
    void familiesFromAnotherFolder()
    {
        const QString dir = m_dir.filePath(QStringLiteral("families"));
        QVERIFY(QDir().mkpath(dir));
        QFile::remove(dir + QStringLiteral("/transpose.cu"));
        QVERIFY(QFile::copy(
            QStringLiteral(GPUF_SOURCE_DIR "/resources/families/transpose.cu"), dir + QStringLiteral("/transpose.cu")));
        QFile in(QStringLiteral(GPUF_SOURCE_DIR "/resources/families/transpose.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject family = QJsonDocument::fromJson(in.readAll()).object();
        family.insert(QStringLiteral("name"), QStringLiteral("transpose_local"));
        QFile out(dir + QStringLiteral("/transpose_local.json"));
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(QJsonDocument(family).toJson());
        out.close();
        const QString store = freshStore(QStringLiteral("families-dir.gpuf"));
        const QStringList start {QStringLiteral("search"), QStringLiteral("start"), store, QStringLiteral("--name"),
            QStringLiteral("f"), QStringLiteral("--family"), QStringLiteral("transpose_local"),
            QStringLiteral("--steps"), QStringLiteral("2")};
        Run r = test::runGpuf(start, kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(u"no kernel family named 'transpose_local'"_s), qPrintable(r.err));
        r = test::runGpuf(QStringList(start) << QStringLiteral("--families-dir") << dir, kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(u"has no recorded sweep of the family 'transpose_local'"_s), qPrintable(r.err));
    }

    // An LLM forecaster whose endpoint refuses every connection: the search is refused before anything is written.
    void endpointFailingEveryCall()
    {
        const QString store = freshStore(QStringLiteral("endpoint.gpuf"));
        Run r = test::runGpuf({QStringLiteral("forecaster"), QStringLiteral("add"), store, QStringLiteral("dead"),
                                  QStringLiteral("--endpoint"), QStringLiteral("http://127.0.0.1:9/v1"),
                                  QStringLiteral("--model"), QStringLiteral("m")},
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto before = Store::open(store, Store::Mode::ExistingOnly).value()->counts().value();
        r = test::runGpuf(startArgs(store, QStringLiteral("e"), QStringLiteral("surrogate"), 3)
                << QStringLiteral("--forecaster") << QStringLiteral("dead"),
            kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(u"forecaster 'dead' failed its first call"_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(u"the search was not started"_s), qPrintable(r.err));
        auto after = Store::open(store, Store::Mode::ExistingOnly).value()->counts().value();
        QCOMPARE(after.searches, before.searches);
        QCOMPARE(after.events, before.events);
        QCOMPARE(after.forecasts, before.forecasts);
    }

    void resumeUnderAnotherConfiguration()
    {
        const QString store = freshStore(QStringLiteral("resume.gpuf"));
        QCOMPARE(test::runGpuf(startArgs(store, QStringLiteral("r"), QStringLiteral("standard"), 2), kGpufTimeoutMs)
                     .exitCode,
            0);
        const QString before = canonical(store, QStringLiteral("r"));
        Run r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("resume"), store, QStringLiteral("r"), QStringLiteral("--mode"),
                QStringLiteral("surrogate"), QStringLiteral("--seed"), QStringLiteral("9")},
            kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(u"--mode surrogate (the search has standard)"_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(u"--seed 9 (the search has 5)"_s), qPrintable(r.err));
        QCOMPARE(canonical(store, QStringLiteral("r")), before);
        // The same configuration resumes; more steps extend the budget (recorded as a configuration change).
        r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("resume"), store, QStringLiteral("r"), QStringLiteral("--steps"),
                QStringLiteral("3"), QStringLiteral("--json"), QStringLiteral("--quiet")},
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("step")).toInt(), 3);
        // A budget below the steps done is refused, and the log stays as it was.
        const QString done = canonical(store, QStringLiteral("r"));
        r = test::runGpuf({QStringLiteral("search"), QStringLiteral("resume"), store, QStringLiteral("r"),
                              QStringLiteral("--steps"), QStringLiteral("2")},
            kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(u"'r' has completed 3 steps already; --steps is the whole budget, so it takes at least 3"_s),
            qPrintable(r.err));
        QCOMPARE(canonical(store, QStringLiteral("r")), done);
    }

    void pauseAndStopFromAnotherProcess()
    {
        {
            // A long search paused by another process halts, says so, and resumes where it stopped.
            const QString store = freshStore(QStringLiteral("pause.gpuf"));
            QProcess running;
            running.start(QStringLiteral(GPUF_CLI_PATH),
                startArgs(store, QStringLiteral("long"), QStringLiteral("standard"), 1000000)
                    << QStringLiteral("--json"));
            QVERIFY(running.waitForStarted());
            auto started = [&store] {
                auto s = Store::open(store, Store::Mode::ReadOnly, Store::Check::Header);
                return s && (*s)->counts().value().searches > 0;
            };
            while (!started() && !running.waitForFinished(20)) { }
            QCOMPARE(running.state(), QProcess::Running);
            Run r = test::runGpuf(
                {QStringLiteral("search"), QStringLiteral("pause"), store, QStringLiteral("long")}, kGpufTimeoutMs);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QVERIFY(running.waitForFinished(60000));
            QCOMPARE(running.exitCode(), 0);
            const QJsonObject paused = QJsonDocument::fromJson(running.readAllStandardOutput()).object();
            QCOMPARE(paused.value(QStringLiteral("status")).toString(), QStringLiteral("paused"));
            const int step = paused.value(QStringLiteral("step")).toInt();
            QVERIFY(step < 1000000);
            r = test::runGpuf({QStringLiteral("search"), QStringLiteral("resume"), store, QStringLiteral("long"),
                                  QStringLiteral("--steps"), QString::number(step + 2), QStringLiteral("--json"),
                                  QStringLiteral("--quiet")},
                kGpufTimeoutMs);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("step")).toInt(), step + 2);
        }
        const QString store = freshStore(QStringLiteral("control.gpuf"));
        QCOMPARE(test::runGpuf(startArgs(store, QStringLiteral("p"), QStringLiteral("standard"), 1), kGpufTimeoutMs)
                     .exitCode,
            0);
        // A finished search reports it; a paused one resumes to the budget it was given.
        Run r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("pause"), store, QStringLiteral("p")}, kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(u"already finished"_s));
        r = test::runGpuf({QStringLiteral("search"), QStringLiteral("resume"), store, QStringLiteral("p"),
                              QStringLiteral("--steps"), QStringLiteral("4"), QStringLiteral("--quiet")},
            kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 0);
        r = test::runGpuf(
            {QStringLiteral("search"), QStringLiteral("stop"), store, QStringLiteral("p")}, kGpufTimeoutMs);
        QCOMPARE(r.exitCode, 0);
    }

    // kill -9 at ≥ 10 random moments, resume each time: the archive equals the uninterrupted run's.
    void crashAndResume()
    {
        const int steps = 20;
        const QString store = freshStore(QStringLiteral("crash.gpuf"));
        Run r = test::runGpuf(
            startArgs(store, QStringLiteral("whole"), QStringLiteral("selective"), steps) << QStringLiteral("--quiet"),
            kGpufTimeoutMs);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString expected = canonical(store, QStringLiteral("whole"));

        qint64 total = 0;
        {
            auto s = Store::open(store, Store::Mode::ExistingOnly);
            auto whole = SearchRepo(**s).findByName(QStringLiteral("whole"));
            total = SearchRepo(**s).eventCount((*whole)->id).value();
        }
        QVERIFY(total > 120);
        // Kill points: a random number of events past where the log stands, small at first (proposals are forecast
        // and measured in the first steps), so every kill lands while the search is writing.
        QRandomGenerator random(20261126);
        auto eventsOfKilled = [&store]() -> qint64 {
            auto s = Store::open(store, Store::Mode::ReadOnly, Store::Check::Header);
            if (!s)
                return 0;
            auto search = SearchRepo(**s).findByName(QStringLiteral("killed"));
            if (!search || !search->has_value())
                return 0;
            return SearchRepo(**s).eventCount((*search)->id).value();
        };
        int kills = 0;
        bool finished = false;
        QStringList args = startArgs(store, QStringLiteral("killed"), QStringLiteral("selective"), steps)
            << QStringLiteral("--quiet");
        for (int attempt = 0; attempt < 100 && !finished; ++attempt) {
            QProcess p;
            p.start(QStringLiteral(GPUF_CLI_PATH), args);
            QVERIFY(p.waitForStarted());
            bool killed = false;
            if (kills < 12) {
                const qint64 target = eventsOfKilled() + 1 + random.bounded(kills < 6 ? 12 : 50);
                // Waiting on the process (not sleeping): it either reaches the kill point or ends.
                while (!p.waitForFinished(2)) {
                    const qint64 events = eventsOfKilled();
                    if (events >= target) {
                        ::kill(pid_t(p.processId()), SIGKILL);
                        QVERIFY(p.waitForFinished(30000));
                        ++kills;
                        killed = true;
                        qInfo("kill %d at %lld of %lld events", kills, events, total);
                        break;
                    }
                }
            } else {
                QVERIFY2(p.waitForFinished(300000), "the resumed search did not finish");
            }
            if (!killed) {
                QVERIFY2(
                    p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
                finished = true;
            }
            // Killed before the search was created: start it again; otherwise resume it.
            bool exists = false;
            if (auto s = Store::open(store, Store::Mode::ExistingOnly))
                exists = SearchRepo(**s).findByName(QStringLiteral("killed")).value().has_value();
            if (exists)
                args = {QStringLiteral("search"), QStringLiteral("resume"), store, QStringLiteral("killed"),
                    QStringLiteral("--quiet")};
        }
        QVERIFY(finished);
        QVERIFY2(kills >= 10, qPrintable(QStringLiteral("only %1 kills").arg(kills)));
        QCOMPARE(canonical(store, QStringLiteral("killed")), expected);
        // No measurement repeated, none lost: each evaluation request answered once, one request per node.
        auto s = Store::open(store, Store::Mode::ExistingOnly);
        auto search = SearchRepo(**s).findByName(QStringLiteral("killed"));
        auto events = SearchRepo(**s).events((*search)->id);
        QSet<QString> evaluatedNodes;
        int completed = 0;
        for (const SearchEvent &e : std::as_const(*events)) {
            if (e.kind == QLatin1StringView("evaluation_requested")) {
                const QString node = e.payload.value(QStringLiteral("node_id")).toString();
                QVERIFY2(!evaluatedNodes.contains(node), "a node was sent to the GPU twice");
                evaluatedNodes.insert(node);
            }
            completed += e.kind == QLatin1StringView("evaluation_completed");
        }
        QCOMPARE(completed, int(evaluatedNodes.size()));
    }

    // A search, two imports and a forecast batch on one store at once: all complete, nothing lost.
    void severalWriters()
    {
        const QString store = freshStore(QStringLiteral("writers.gpuf"));
        QList<QProcess *> processes;
        auto launch = [&](const QStringList &args) {
            auto *p = new QProcess(this);
            p->start(QStringLiteral(GPUF_CLI_PATH), args);
            processes.append(p);
        };
        launch(startArgs(store, QStringLiteral("w"), QStringLiteral("surrogate"), 150) << QStringLiteral("--quiet"));
        launch({QStringLiteral("import"), store, data("bundle_full.jsonl")});
        launch({QStringLiteral("import"), store, data("bundle_full.jsonl"), data("events_standard.jsonl")});
        launch({QStringLiteral("forecast"), store, QStringLiteral("--forecaster"), QStringLiteral("costmodel")});
        for (QProcess *p : std::as_const(processes)) {
            QVERIFY(p->waitForFinished(300000));
            QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0,
                qPrintable(p->arguments().join(QLatin1Char(' ')) + QStringLiteral(": ")
                    + QString::fromUtf8(p->readAllStandardError())));
            QVERIFY(!p->readAllStandardError().contains("SELECT"));
        }
        qDeleteAll(processes);
        auto s = Store::open(store, Store::Mode::ExistingOnly);
        QVERIFY(s);
        auto state = search::foldStoredSearch(**s, QStringLiteral("w"));
        QVERIFY2(state, qPrintable(state.error()));
        // It ran to its end: the step budget, or the pool of sgemm kernels spent (the surrogate mode proposes 4× its
        // GPU budget, so 150 steps draw more than the 268 kernels recorded).
        QVERIFY(state->finished);
        QVERIFY2(state->completedSteps() == 150 || !state->exhausted.isEmpty(),
            qPrintable(QString::number(state->completedSteps())));
        QVERIFY(SearchRepo(**s).findByName(QStringLiteral("run-std-1")).value().has_value());
        QVERIFY((*s)->counts().value().forecasts > 0);
    }
};

QTEST_GUILESS_MAIN(TestSearchCli)
#include "tst_search_cli.moc"
