// `gpuf lessons` on the sample store: the shipped operation lessons and the demo student listed, the class report as
// a table and as CSV (the demo student's figures on the SGEMM lesson), family lessons generated from the shipped
// families, a scripted answer stored and reported, and bad input (an unknown lesson, a step out of range, weights
// that are all zero) refused with a clear message and nothing stored.
#include "gpuf_config.h"
#include "tests/support/cli_run.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

using gpuf::test::runGpuf;
using Run = gpuf::test::CliText;

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
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"20 lessons"_s), qPrintable(r.out));
    }

    void listAndReport()
    {
        const Run list = runGpuf({u"lessons"_s, u"list"_s, m_store});
        QVERIFY2(list.exitCode == 0, qPrintable(list.err));
        QCOMPARE(list.out.count(u"\toperation\t"_s), 20);
        QVERIFY(list.out.contains(u"operation/sgemm\toperation\t10 steps"_s));
        QVERIFY(list.out.contains(u"student\tDemo Student (made up)\n"_s));

        const Run report = runGpuf({u"lessons"_s, u"report"_s, m_store, u"--lesson"_s, u"operation/sgemm"_s});
        QVERIFY2(report.exitCode == 0, qPrintable(report.err));
        QVERIFY2(report.out.contains(u"Demo Student (made up)\toperation/sgemm\t10/10\t0.300\t0.700\t"_s),
            qPrintable(report.out));
        QCOMPARE(report.out.count(u"  most wrong: step "_s), 3);

        const Run csv = runGpuf({u"lessons"_s, u"report"_s, m_store, u"--csv"_s, u"-"_s});
        QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
        QVERIFY(
            csv.out.startsWith(u"student,lesson,steps,answered_steps,answers_scored,accuracy,within_one,brier,ece,"_s));
        QVERIFY(csv.out.contains(u"Demo Student (made up),operation/sgemm,10,10,20,0.3000,0.7000,"_s));
    }

    void answerAndFamilies()
    {
        const Run answer = runGpuf(
            {u"lessons"_s, u"answer"_s, m_store, u"--lesson"_s, u"operation/transpose"_s, u"--student"_s, u"Ada"_s,
                u"--step"_s, u"2"_s, u"--bin"_s, u"7"_s, u"--reasoning"_s, u"Tiles make both sides coalesced."_s});
        QVERIFY2(answer.exitCode == 0, qPrintable(answer.err));
        QCOMPARE(answer.out, u"answer stored: step 2, bin 7 (2 forecasts)\n"_s);
        const Run report = runGpuf({u"lessons"_s, u"report"_s, m_store, u"--lesson"_s, u"operation/transpose"_s});
        QVERIFY2(report.out.contains(u"Ada\toperation/transpose\t1/10\t1.000\t1.000\t"_s), qPrintable(report.out));

        const Run families = runGpuf({u"lessons"_s, u"generate"_s, m_store, u"--families"_s});
        QVERIFY2(families.exitCode == 0, qPrintable(families.err));
        QVERIFY2(families.out.startsWith(u"6 lesson(s) added, 20 already in the store"_s), qPrintable(families.out));
        const Run list = runGpuf({u"lessons"_s, u"list"_s, m_store});
        QVERIFY(list.out.contains(u"family/sgemm_tiled\tfamily\t"_s));
        QCOMPARE(list.out.count(u"\tfamily\t"_s), 6);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown lesson") << QStringList {u"report"_s, u"--lesson"_s, u"nope"_s} << 1
                                        << u"no lesson named 'nope' in the store"_s;
        QTest::newRow("step out of range") << QStringList {u"answer"_s, u"--lesson"_s, u"operation/sgemm"_s,
            u"--student"_s, u"Ada"_s, u"--step"_s, u"11"_s, u"--bin"_s, u"4"_s}
                                           << 2 << u"--step 11: lesson 'operation/sgemm' has steps 1 to 10"_s;
        QTest::newRow("all zero") << QStringList {u"answer"_s, u"--lesson"_s, u"operation/sgemm"_s, u"--student"_s,
            u"Ada"_s, u"--step"_s, u"1"_s, u"--probabilities"_s, u"0,0,0,0,0,0,0,0"_s}
                                  << 2 << u"every bin has zero weight"_s;
        QTest::newRow("seven weights") << QStringList {u"answer"_s, u"--lesson"_s, u"operation/sgemm"_s, u"--student"_s,
            u"Ada"_s, u"--step"_s, u"1"_s, u"--probabilities"_s, u"1,1,1,1,1,1,1"_s}
                                       << 2 << u"give 8 weights, one per bin (got 7)"_s;
        QTest::newRow("no verb") << QStringList {} << 2 << u"lessons: give a verb"_s;
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QStringList full {u"lessons"_s};
        if (!args.isEmpty())
            full << args.first() << m_store << args.mid(1);
        const Run before = runGpuf({u"stats"_s, m_store});
        const Run r = runGpuf(full);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(runGpuf({u"stats"_s, m_store}).out, before.out); // nothing stored
    }
};

QTEST_GUILESS_MAIN(TestLessonsCli)
#include "tst_lessons_cli.moc"
