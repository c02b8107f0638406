// Tests for core/mutators/sweep_file: the sweep plan (every spec valid, the reference's spec), the gpuf-sweep/1 round
// trip, broken files (line-numbered errors, a cut-short last line tolerated), speedups, and the import of a sweep into
// a real SQLite store (kernels, measurements, idempotent, a sweep of another family version refused).
#include "core/domain/kernel.h"
#include "core/mutators/shipped_families.h"
#include "core/mutators/sweep_file.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::families;
using namespace Qt::StringLiterals;

namespace {

QJsonObject device()
{
    return QJsonObject {{u"name"_s, u"NVIDIA H100 80GB HBM3"_s}, {u"compute_capability"_s, u"9.0"_s},
        {u"arch"_s, u"sm_90"_s}, {u"sm_count"_s, 132}, {u"peak_bandwidth_gbs"_s, 3352.32},
        {u"memory_bus_width_bits"_s, 5120}, {u"total_memory_bytes"_s, 85017493504.0}};
}

SweepCase okCase(const QString &name, double medianUs)
{
    SweepCase c;
    c.name = name;
    c.status = u"ok"_s;
    c.medianNs = medianUs * 1e3;
    c.result = QJsonObject {{u"name"_s, name}, {u"status"_s, u"ok"_s},
        {u"timing"_s,
            QJsonObject {{u"median_us"_s, medianUs}, {u"mean_us"_s, medianUs}, {u"min_us"_s, medianUs},
                {u"std_us"_s, 0.1}, {u"n"_s, 50}, {u"rel_std_error"_s, 0.001}, {u"method"_s, u"cuda_events"_s},
                {u"flush_l2"_s, true}}}};
    return c;
}

// A sweep of the first `count` valid transpose configurations: the reference at 100 us per case, configuration i at
// 100 / (1 + i/10) us, except configuration 1 which is incorrect.
Sweep transposeSweep(const KernelFamily &family, const QList<Configuration> &valid, int count)
{
    Sweep s;
    s.family = family.name;
    s.familyHash = family.contentHash;
    s.problem = family.problem;
    s.device = device();
    s.options = QJsonObject {{u"flush_l2"_s, true}};
    s.configsValid = int(valid.size());
    s.seed = 5;
    s.startedAt = u"2026-11-26T09:00:00.000Z"_s;
    QFile ref(QStringLiteral(":/gpuf/corpus/transpose/v0_naive.cu"));
    ref.open(QIODevice::ReadOnly);
    s.reference.name = family.referenceVariant;
    s.reference.contentHash = contentHashOf(QString::fromUtf8(ref.readAll()));
    s.reference.status = u"ok"_s;
    s.reference.measuredAt = u"2026-11-26T09:00:01.000Z"_s;
    s.reference.cases = {okCase(u"4096x8192"_s, 100), okCase(u"5000x3000"_s, 100)};
    for (int i = 0; i < count; ++i) {
        SweepEntry e;
        e.tunables = configurationJson(family, valid[i]);
        auto x = expand(family, valid[i]);
        e.name = x->name;
        e.contentHash = contentHashOf(x->source);
        e.measuredAt = u"2026-11-26T09:00:%1.000Z"_s.arg(10 + i);
        if (i == 1) {
            e.status = u"incorrect"_s;
            e.message = u"case 4096x8192: 12 of 33554432 elements differ"_s;
            SweepCase c;
            c.name = u"4096x8192"_s;
            c.status = u"incorrect"_s;
            c.result = QJsonObject {{u"name"_s, c.name}, {u"status"_s, c.status}};
            e.cases = {c};
        } else {
            e.status = u"ok"_s;
            const double us = 100.0 / (1.0 + i / 10.0);
            e.cases = {okCase(u"4096x8192"_s, us), okCase(u"5000x3000"_s, us)};
        }
        s.entries.append(e);
    }
    return s;
}

} // namespace

class TestSweepFile : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    KernelFamily m_family;
    QList<Configuration> m_valid;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto f = findFamily(u"transpose"_s);
        QVERIFY2(f, qPrintable(f.error()));
        m_family = *f;
        auto valid = validConfigurations(m_family);
        QVERIFY(valid);
        m_valid = *valid;
    }

    void planHoldsCompleteSpecs()
    {
        const QString path = m_dir.filePath(u"transpose.plan.jsonl"_s);
        const auto chosen = sampleConfigurations(m_valid, 5, 3);
        QVERIFY(writeSweepPlan(path, m_family, shippedCorpusDir(), chosen, int(m_valid.size()), 3));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 6);
        const QJsonObject header = QJsonDocument::fromJson(lines[0]).object();
        QCOMPARE(header.value(u"format"_s).toString(), u"gpuf-sweep-plan/1"_s);
        QCOMPARE(header.value(u"configs_valid"_s).toInt(), m_valid.size());
        QCOMPARE(header.value(u"configs_planned"_s).toInt(), 5);
        QCOMPARE(header.value(u"family_hash"_s).toString(), m_family.contentHash);
        const QJsonObject reference = header.value(u"reference"_s).toObject();
        QCOMPARE(reference.value(u"name"_s).toString(), u"v0_naive"_s);
        QVERIFY(validateKernelSpec(reference.value(u"spec"_s).toObject()).isEmpty());
        for (int i = 1; i < lines.size(); ++i) {
            const QJsonObject line = QJsonDocument::fromJson(lines[i]).object();
            QCOMPARE(line.value(u"index"_s).toInt(), i - 1);
            const QJsonObject spec = line.value(u"spec"_s).toObject();
            QVERIFY(validateKernelSpec(spec).isEmpty());
            QCOMPARE(line.value(u"content_hash"_s).toString(), contentHashOf(spec.value(u"source"_s).toString()));
            QCOMPARE(line.value(u"tunables"_s).toObject(), configurationJson(m_family, chosen[i - 1]));
        }
    }

    void roundTrip()
    {
        const Sweep sweep = transposeSweep(m_family, m_valid, 4);
        const QString path = m_dir.filePath(u"round.jsonl"_s);
        QVERIFY(writeSweep(path, sweep));
        auto back = readSweep(path);
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(back->family, sweep.family);
        QCOMPARE(back->familyHash, sweep.familyHash);
        QCOMPARE(back->device, sweep.device);
        QCOMPARE(back->seed, quint64(5));
        QCOMPARE(back->configsValid, sweep.configsValid);
        QCOMPARE(back->hardwareName(), u"NVIDIA H100 80GB HBM3"_s);
        QCOMPARE(back->reference.contentHash, sweep.reference.contentHash);
        QCOMPARE(back->entries.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(back->entries[i].tunables, sweep.entries[i].tunables);
            QCOMPARE(back->entries[i].status, sweep.entries[i].status);
            QCOMPARE(back->entries[i].cases.size(), sweep.entries[i].cases.size());
            QCOMPARE(back->entries[i].cases.first().result, sweep.entries[i].cases.first().result);
        }
        // Writing what was read gives the same file.
        const QString again = m_dir.filePath(u"again.jsonl"_s);
        QVERIFY(writeSweep(again, *back));
        QFile a(path), b(again);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll(), b.readAll());
    }

    void speedups()
    {
        const Sweep sweep = transposeSweep(m_family, m_valid, 4);
        QCOMPARE(*entrySpeedup(sweep, sweep.entries[0]), 1.0);
        QVERIFY(!entrySpeedup(sweep, sweep.entries[1])); // incorrect: a failure, not a speedup
        QVERIFY(qFuzzyCompare(*entrySpeedup(sweep, sweep.entries[3]), 1.3));
    }

    void brokenFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("error"); // empty: it reads
        const QByteArray header = "{\"format\":\"gpuf-sweep/1\",\"record\":\"header\",\"family\":\"transpose\","
                                  "\"problem\":\"transpose\",\"device\":{\"name\":\"GPU\"}}";
        const QByteArray reference = "{\"record\":\"reference\",\"name\":\"v0_naive\",\"content_hash\":\""
            + QByteArray(64, 'a') + "\",\"status\":\"ok\",\"cases\":[]}";
        QTest::newRow("empty") << QByteArray() << u"empty file"_s;
        QTest::newRow("not a sweep") << QByteArray("{\"format\":\"gpuf-kernel/1\"}")
                                     << u":1: expected a gpuf-sweep/1 header line"_s;
        QTest::newRow("no reference") << header + '\n' << u"no 'reference' record"_s;
        QTest::newRow("corrupt middle line") << header + "\n{broken\n" + reference + '\n' << u":2: not a JSON object"_s;
        QTest::newRow("cut-short last line")
            << header + '\n' + reference + "\n{\"record\":\"config\",\"tun" << QString();
        QTest::newRow("unknown record") << header + '\n' + reference + "\n{\"record\":\"colour\"}\n"
                                        << u":3: field 'record': unknown record 'colour'"_s;
        QTest::newRow("bad hash") << header + "\n{\"record\":\"reference\",\"content_hash\":\"ab\",\"status\":\"ok\"}\n"
                                  << u":2: field 'content_hash': expected a SHA-256 in hex"_s;
        const QByteArray timed = "{\"record\":\"reference\",\"name\":\"v0_naive\",\"content_hash\":\""
            + QByteArray(64, 'a')
            + "\",\"status\":\"ok\",\"cases\":[{\"name\":\"4096x8192\",\"status\":\"ok\","
              "\"floor_us\":80,\"implausible\":false,\"timing\":{\"median_us\":";
        QTest::newRow("infinite runtime") << header + '\n' + timed + "1e308}}]}\n"
                                          << u":2: case '4096x8192': 'timing.median_us' 1e+308 is not a runtime"_s;
        QTest::newRow("zero runtime") << header + '\n' + timed + "0}}]}\n"
                                      << u":2: case '4096x8192': 'timing.median_us' 0 is not a runtime"_s;
        QTest::newRow("runtime below its own floor")
            << header + '\n' + timed + "1e-300}}]}\n"
            << u":2: case '4096x8192': 'timing.median_us' 1e-300 is below the case's own roofline floor of 80 µs"_s;
        QTest::newRow("ok case without a runtime") << header + '\n' + timed.left(timed.indexOf("\"timing\""))
                + "\"timing\":{}}]}\n" << u"an ok case needs a numeric 'timing.median_us'"_s;
        QTest::newRow("below the floor but marked")
            << header + '\n' + QByteArray(timed).replace("\"implausible\":false", "\"implausible\":true") + "1e-3}}]}\n"
            << QString();
        QTest::newRow("config without tunables") << header + '\n' + reference
                + "\n{\"record\":\"config\",\"content_hash\":\"" + QByteArray(64, 'b')
                + "\",\"status\":\"ok\"}\n" << u":3: field 'tunables': expected the configuration"_s;
    }
    void brokenFiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, error);
        const QString path = m_dir.filePath(u"broken.jsonl"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
        f.close();
        auto sweep = readSweep(path);
        if (error.isEmpty()) {
            QVERIFY2(sweep, qPrintable(sweep.error()));
            QCOMPARE(sweep->entries.size(), 0);
        } else {
            QVERIFY(!sweep);
            QVERIFY2(sweep.error().contains(error), qPrintable(sweep.error()));
            QVERIFY(sweep.error().startsWith(path));
        }
    }

    void importIntoStore()
    {
        const QString storePath = m_dir.filePath(u"import.gpuf"_s);
        auto store = Store::open(storePath, Store::Mode::CreateIfMissing);
        QVERIFY2(store, qPrintable(store.error()));
        const Sweep sweep = transposeSweep(m_family, m_valid, 4);
        auto report = importSweep(**store, sweep, m_family, shippedCorpusDir());
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->kernels, 4);
        QCOMPARE(report->measurements, 2 + 3 * 2 + 1); // reference, three ok configurations, one incorrect case
        KernelRepo kernels(**store);
        auto stored = kernels.list(report->problemId);
        QVERIFY(stored);
        int family = 0;
        for (const Kernel &k : std::as_const(*stored)) {
            if (k.origin != u"param"_s)
                continue;
            ++family;
            QCOMPARE(k.parameters.value(u"family"_s).toString(), u"transpose"_s);
        }
        QCOMPARE(family, 4);
        MeasurementRepo measurements(**store);
        auto all = measurements.list();
        QVERIFY(all);
        QCOMPARE(all->size(), 9);
        QCOMPARE(all->first().provenance.value(u"sweep"_s).toString(), u"transpose"_s);
        HardwareRepo hardware(**store);
        QVERIFY(hardware.findByName(u"NVIDIA H100 80GB HBM3"_s)->has_value());

        // The same sweep again stores nothing new.
        auto twice = importSweep(**store, sweep, m_family, shippedCorpusDir());
        QVERIFY2(twice, qPrintable(twice.error()));
        QCOMPARE(twice->measurements, 0);
        QCOMPARE(measurements.list()->size(), 9);

        // A sweep recorded with another version of the family is refused, and nothing changes.
        Sweep other = sweep;
        other.familyHash = QString(64, u'c');
        auto refused = importSweep(**store, other, m_family, shippedCorpusDir());
        QVERIFY(!refused);
        QVERIFY2(
            refused.error().contains(u"recorded with another version of the family"_s), qPrintable(refused.error()));
        QCOMPARE(measurements.list()->size(), 9);

        // A header naming another problem, or a case the problem does not have, is refused before anything is stored.
        Sweep elsewhere = sweep;
        elsewhere.problem = u"sgemm"_s;
        auto wrongProblem = importSweep(**store, elsewhere, m_family, shippedCorpusDir());
        QVERIFY(!wrongProblem);
        QVERIFY2(
            wrongProblem.error().contains(u"the sweep's header names problem 'sgemm', but family 'transpose' is of "
                                          "problem 'transpose'"_s),
            qPrintable(wrongProblem.error()));
        Sweep unknownCase = transposeSweep(m_family, m_valid, 6);
        unknownCase.entries[5].cases[1] = okCase(u"9x9"_s, 50);
        auto wrongCase = importSweep(**store, unknownCase, m_family, shippedCorpusDir());
        QVERIFY(!wrongCase);
        QVERIFY2(wrongCase.error().contains(u"case '9x9' is not a case of problem 'transpose' (its cases: 4096x8192, "
                                            "5000x3000)"_s),
            qPrintable(wrongCase.error()));
        QCOMPARE(measurements.list()->size(), 9);
        QCOMPARE(kernels.list(report->problemId)->size(), stored->size());
    }
};

QTEST_GUILESS_MAIN(TestSweepFile)
#include "tst_sweep_file.moc"
