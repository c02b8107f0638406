// `gpuf lessons` on the sample store: the shipped operation lessons and the demo student listed, the class report as
// a table and as CSV (the demo student's figures on the SGEMM lesson), family lessons generated from the shipped
// families, a scripted answer stored and reported, and bad input (an unknown lesson, a step out of range, weights
// that are all zero) refused with a clear message and nothing stored.
#include "gpuf_config.h"
#include "tests/support/cli_run.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

using Run = gpuf::test::CliRun;

Run runGpuf(const QStringList &args) { return gpuf::test::runProgram(QStringLiteral(GPUF_CLI_PATH), args, 120000); }

} // namespace

class TestLessonsCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_store;

private Q_SLOTS:
    void initTestCase()
    {
        m_store = m_dir.filePath(u"sample.gpuf"_s);
        const Run r
            = runGpuf({u"import"_s, m_store, QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("20 lessons"), r.out.constData());
    }

    void listAndReport()
    {
        const Run list = runGpuf({u"lessons"_s, u"list"_s, m_store});
        QVERIFY2(list.exitCode == 0, list.err.constData());
        QCOMPARE(list.out.count("\toperation\t"), 20);
        QVERIFY(list.out.contains("operation/sgemm\toperation\t10 steps"));
        QVERIFY(list.out.contains("student\tDemo Student (made up)\n"));

        const Run report = runGpuf({u"lessons"_s, u"report"_s, m_store, u"--lesson"_s, u"operation/sgemm"_s});
        QVERIFY2(report.exitCode == 0, report.err.constData());
        QVERIFY2(report.out.contains("Demo Student (made up)\toperation/sgemm\t10/10\t0.300\t0.700\t"),
            report.out.constData());
        QCOMPARE(report.out.count("  most wrong: step "), 3);

        const Run csv = runGpuf({u"lessons"_s, u"report"_s, m_store, u"--csv"_s, u"-"_s});
        QVERIFY2(csv.exitCode == 0, csv.err.constData());
        QVERIFY(
            csv.out.startsWith("student,lesson,steps,answered_steps,answers_scored,accuracy,within_one,brier,ece,"));
        QVERIFY(csv.out.contains("Demo Student (made up),operation/sgemm,10,10,20,0.3000,0.7000,"));
    }

    void answerAndFamilies()
    {
        const Run answer = runGpuf(
            {u"lessons"_s, u"answer"_s, m_store, u"--lesson"_s, u"operation/transpose"_s, u"--student"_s, u"Ada"_s,
                u"--step"_s, u"2"_s, u"--bin"_s, u"7"_s, u"--reasoning"_s, u"Tiles make both sides coalesced."_s});
        QVERIFY2(answer.exitCode == 0, answer.err.constData());
        QCOMPARE(answer.out, QByteArray("answer stored: step 2, bin 7 (2 forecasts)\n"));
        const Run report = runGpuf({u"lessons"_s, u"report"_s, m_store, u"--lesson"_s, u"operation/transpose"_s});
        QVERIFY2(report.out.contains("Ada\toperation/transpose\t1/10\t1.000\t1.000\t"), report.out.constData());

        const Run families = runGpuf({u"lessons"_s, u"generate"_s, m_store, u"--families"_s});
        QVERIFY2(families.exitCode == 0, families.err.constData());
        QVERIFY2(families.out.startsWith("6 lesson(s) added, 20 already in the store"), families.out.constData());
        const Run list = runGpuf({u"lessons"_s, u"list"_s, m_store});
        QVERIFY(list.out.contains("family/sgemm_tiled\tfamily\t"));
        QCOMPARE(list.out.count("\tfamily\t"), 6);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("unknown lesson") << QStringList {u"report"_s, u"--lesson"_s, u"nope"_s} << 1
                                        << QByteArray("no lesson named 'nope' in the store");
        QTest::newRow("step out of range") << QStringList {u"answer"_s, u"--lesson"_s, u"operation/sgemm"_s,
            u"--student"_s, u"Ada"_s, u"--step"_s, u"11"_s, u"--bin"_s, u"4"_s}
                                           << 2 << QByteArray("--step 11: lesson 'operation/sgemm' has steps 1 to 10");
        QTest::newRow("all zero") << QStringList {u"answer"_s, u"--lesson"_s, u"operation/sgemm"_s, u"--student"_s,
            u"Ada"_s, u"--step"_s, u"1"_s, u"--probabilities"_s, u"0,0,0,0,0,0,0,0"_s}
                                  << 2 << QByteArray("every bin has zero weight");
        QTest::newRow("seven weights") << QStringList {u"answer"_s, u"--lesson"_s, u"operation/sgemm"_s, u"--student"_s,
            u"Ada"_s, u"--step"_s, u"1"_s, u"--probabilities"_s, u"1,1,1,1,1,1,1"_s}
                                       << 2 << QByteArray("give 8 weights, one per bin (got 7)");
        QTest::newRow("no verb") << QStringList {} << 2 << QByteArray("lessons: give a verb");
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, message);
        QStringList full {u"lessons"_s};
        if (!args.isEmpty())
            full << args.first() << m_store << args.mid(1);
        const Run before = runGpuf({u"stats"_s, m_store});
        const Run r = runGpuf(full);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message), r.err.constData());
        QCOMPARE(runGpuf({u"stats"_s, m_store}).out, before.out); // nothing stored
    }
};

QTEST_GUILESS_MAIN(TestLessonsCli)
#include "tst_lessons_cli.moc"
