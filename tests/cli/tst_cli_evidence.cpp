// gpuf evidence and gpuf quarantine on a real store: the JSON figures equal the stored ones, what a run lacks is
// "not recorded" (null in JSON), a quarantine shows in the evidence with its note and is released, and wrong input
// gets one clear sentence and changes nothing.
#include "../metrics/evidence_fixture.h"
#include "core/store/verdict_repo.h"
#include "tests/support/cli_run.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;
using gpuf::test::runGpuf;
using gpuf::test::runGpufBytes;

namespace {

QJsonObject measurementIn(const QJsonObject &evidence, qint64 id)
{
    for (const QJsonValue hw : evidence.value(u"hardware"_s).toArray()) {
        for (const QJsonValue m : hw.toObject().value(u"measurements"_s).toArray()) {
            if (m.toObject().value(u"measurement_id"_s).toInteger() == id)
                return m.toObject();
        }
    }
    return {};
}

} // namespace

class TestCliEvidence : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    EvidenceStore m_s;

    QJsonObject evidenceJson(RowId candidate)
    {
        const auto run
            = runGpufBytes({u"evidence"_s, m_path, u"--candidate"_s, QString::number(candidate), u"--json"_s});
        if (run.exitCode != 0)
            return {};
        return QJsonDocument::fromJson(run.out).object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(u"evidence.gpuf"_s);
        auto store = Store::open(m_path, Store::Mode::Create);
        QVERIFY2(store, qPrintable(store.error()));
        m_s = buildEvidenceStore(**store);
    }

    void jsonEqualsStored()
    {
        const QJsonObject e = evidenceJson(m_s.k);
        QCOMPARE(e.value(u"candidate_id"_s).toInteger(), m_s.k);
        QCOMPARE(e.value(u"baseline_id"_s).toInteger(), m_s.reference);
        const QJsonObject hw = e.value(u"hardware"_s).toArray().first().toObject();
        QCOMPARE(hw.value(u"hardware"_s).toString(), u"Test GPU"_s);
        QCOMPARE(hw.value(u"speedup"_s).toDouble(), 1.6);
        QCOMPARE(hw.value(u"cases"_s).toInt(), 2);
        const QJsonObject interval = hw.value(u"interval_95"_s).toObject();
        QVERIFY(interval.value(u"low"_s).toDouble() < 1.6 && interval.value(u"high"_s).toDouble() > 1.6);
        QVERIFY(interval.value(u"straddled_edge"_s).isNull());

        auto store = Store::open(m_path, Store::Mode::ReadOnly);
        QVERIFY(store);
        auto runs = MeasurementRepo(**store).forKernel(m_s.k);
        QVERIFY(runs);
        for (const Measurement &m : std::as_const(*runs)) {
            const QJsonObject j = measurementIn(e, m.id);
            QCOMPARE(j.value(u"median_ns"_s).toDouble(), m.runtime->medianNs);
            QCOMPARE(j.value(u"rel_std_err"_s).toDouble(), m.runtime->relStdErr);
            QCOMPARE(j.value(u"samples"_s).toInt(), m.runtime->samples);
            QCOMPARE(j.value(u"timing_method"_s).toString(), m.timingMethod);
            QCOMPARE(j.value(u"l2_flush"_s).toBool(), m.l2Flush);
            QCOMPARE(j.value(u"roofline_floor_ns"_s).toDouble(), m.counters.value(u"bytes_moved"_s).toDouble() / 256.0);
        }
        QCOMPARE(
            measurementIn(e, m_s.kLarge).value(u"verdict"_s).toObject().value(u"state"_s).toString(), u"suspicious"_s);
        QCOMPARE(measurementIn(e, m_s.kLarge)
                     .value(u"verdict"_s)
                     .toObject()
                     .value(u"rules"_s)
                     .toArray()
                     .first()
                     .toObject()
                     .value(u"rule"_s)
                     .toString(),
            u"rse-over-bound"_s);
    }

    void textSaysNotRecorded()
    {
        const auto run = runGpuf({u"evidence"_s, m_path, u"--candidate"_s, QString::number(m_s.q)});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(u"Measured by: imported"_s));
        QVERIFY(run.out.contains(u"Timing method: not recorded"_s));
        QVERIFY(run.out.contains(u"Relative standard error: not recorded"_s));
        QVERIFY(run.out.contains(u"95 % interval: not recorded"_s));
        const QJsonObject q = measurementIn(evidenceJson(m_s.q), m_s.qSmall);
        QVERIFY(q.value(u"samples"_s).isNull());
        QVERIFY(q.value(u"l2_flush"_s).isNull());
    }

    void quarantineAndRelease()
    {
        const QString id = QString::number(m_s.kSmall);
        auto q = runGpuf({u"quarantine"_s, m_path, u"--measurement"_s, id, u"--note"_s, u"throttled GPU"_s});
        QCOMPARE(q.exitCode, 0);
        QCOMPARE(q.out, u"measurement %1 quarantined\n"_s.arg(id));
        QJsonObject verdict = measurementIn(evidenceJson(m_s.k), m_s.kSmall).value(u"verdict"_s).toObject();
        QCOMPARE(verdict.value(u"state"_s).toString(), u"quarantined"_s);
        QCOMPARE(verdict.value(u"note"_s).toString(), u"throttled GPU"_s);
        auto r = runGpuf({u"quarantine"_s, m_path, u"--measurement"_s, id, u"--release"_s});
        QCOMPARE(r.exitCode, 0);
        verdict = measurementIn(evidenceJson(m_s.k), m_s.kSmall).value(u"verdict"_s).toObject();
        QCOMPARE(verdict.value(u"state"_s).toString(), u"suspicious"_s);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown candidate") << QStringList {u"evidence"_s, u"--candidate"_s, u"999"_s} << 1
                                           << u"gpuf: evidence: the store has no kernel 999\n"_s;
        QTest::newRow("candidate not a number") << QStringList {u"evidence"_s, u"--candidate"_s,
            u"k"_s} << 2 << u"gpuf: evidence: --candidate needs a kernel id (a positive integer)\n"_s;
        QTest::newRow("candidate 0") << QStringList {u"evidence"_s, u"--candidate"_s, u"0"_s} << 2
                                     << u"gpuf: evidence: --candidate needs a kernel id (a positive integer)\n"_s;
        QTest::newRow("no candidate") << QStringList {u"evidence"_s} << 2
                                      << u"gpuf: evidence: --candidate ID is required\n"_s;
        QTest::newRow("measurement not a number")
            << QStringList {u"quarantine"_s, u"--measurement"_s, u"-3"_s, u"--note"_s, u"x"_s} << 2
            << u"gpuf: quarantine: --measurement needs a measurement id (a positive integer)\n"_s;
        QTest::newRow("unknown measurement") << QStringList {u"quarantine"_s, u"--measurement"_s, u"999"_s, u"--note"_s,
            u"x"_s} << 1 << u"gpuf: quarantine: the store has no measurement 999\n"_s;
        QTest::newRow("neither note nor release") << QStringList {u"quarantine"_s, u"--measurement"_s,
            u"1"_s} << 2 << u"gpuf: quarantine: give either --note TEXT (quarantine) or --release\n"_s;
        QTest::newRow("empty note") << QStringList {u"quarantine"_s, u"--measurement"_s, u"1"_s, u"--note"_s, u" "_s}
                                    << 1 << u"gpuf: quarantine: a quarantine needs a note saying why\n"_s;
        QTest::newRow("release what is not quarantined") << QStringList {u"quarantine"_s, u"--measurement"_s, u"1"_s,
            u"--release"_s} << 1 << u"gpuf: quarantine: measurement 1 is not quarantined\n"_s;
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        args.insert(1, m_path);
        const auto run = runGpuf(args);
        QCOMPARE(run.exitCode, exitCode);
        QCOMPARE(run.err, message);
        auto store = Store::open(m_path, Store::Mode::ReadOnly);
        QVERIFY(store);
        auto verdicts = VerdictRepo(**store).all();
        QVERIFY(verdicts && verdicts->isEmpty()); // nothing was written
    }
};

QTEST_GUILESS_MAIN(TestCliEvidence)
#include "tst_cli_evidence.moc"
