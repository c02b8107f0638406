// A CUDA candidate's answer from gpuf-measure, through the same mapping the queue and the cluster backend use, into a
// real store and out again as its evidence: the stop rule, the cluster node and the compiled binary's hash the worker
// reported are shown, not "not recorded" (issue 28). The answers have the worker's exact shape
// (docs/measure-protocol.md); tst_measure_worker checks the hash against the real gpuf-measure's cubin.
#include "core/evidence/evidence_format.h"
#include "core/evidence/evidence_reads.h"
#include "core/measure/measure_plan.h"
#include "measure_fixture.h"

#include <QJsonArray>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

const QString kCandidateHash = u"3f79bb7b435b05321651daefd374cdc681dc06faa65e374e38337b88ca046dea"_s;
const QString kReferenceHash = u"0b1f4f4c7a6c4d0f36a2d1ed8f6ab8a3c6a3bd1cbbd7c8d0b2f2b1f3e5c4d6a7"_s;

QJsonObject device()
{
    return {{u"name"_s, u"NVIDIA H200"_s}, {u"compute_capability"_s, u"9.0"_s}, {u"sm_count"_s, 132},
        {u"sm_clock_khz"_s, 1980000}, {u"memory_clock_khz"_s, 3201000}, {u"memory_bus_width_bits"_s, 6144}};
}

QJsonObject timing(double medianUs, bool reachedTarget, int samples)
{
    return {{u"method"_s, u"cuda_events"_s}, {u"n"_s, samples}, {u"median_us"_s, medianUs},
        {u"mean_us"_s, medianUs * 1.001}, {u"min_us"_s, medianUs * 0.99}, {u"std_us"_s, medianUs * 0.01},
        {u"rel_std_error"_s, reachedTarget ? 0.004 : 0.012}, {u"flush_l2"_s, true}, {u"warmup"_s, 3},
        {u"reached_target"_s, reachedTarget}, {u"wall_ms"_s, 27.0}};
}

// One measure answer for `cases`, the first reaching its RSE target and the second stopped by its budget.
QJsonObject answer(const QStringList &cases, double scale, const QString &hash, bool workerSaysStopRule)
{
    QJsonObject provenance {{u"gpu_name"_s, u"NVIDIA H200"_s}, {u"toolkit_version"_s, u"NVRTC 13.0"_s},
        {u"worker_version"_s, u"0.1.0"_s}, {u"flush_l2"_s, true}, {u"timing_method"_s, u"cuda_events"_s}};
    if (workerSaysStopRule)
        provenance.insert(u"stop_rule"_s,
            QJsonObject {{u"target_rel_std_error"_s, 0.005}, {u"min_samples"_s, 10}, {u"max_samples"_s, 2000},
                {u"time_budget_ms"_s, 2000.0}, {u"warmup"_s, 3}});
    const QJsonObject clocks {{u"available"_s, true}, {u"sm_mhz"_s, 1980}, {u"mem_mhz"_s, 3201}};
    QJsonArray results;
    for (int i = 0; i < cases.size(); ++i)
        results.append(QJsonObject {{u"name"_s, cases[i]}, {u"status"_s, u"ok"_s},
            {u"timing"_s, timing(scale * (i + 1) * 100.0, i == 0, i == 0 ? 120 : 2000)}, {u"clocks_before"_s, clocks},
            {u"clocks_after"_s, clocks},
            {u"correctness"_s, QJsonObject {{u"checked"_s, true}, {u"runs"_s, 2}, {u"elements"_s, 1000}}}});
    return {{u"id"_s, 1}, {u"type"_s, u"measure"_s}, {u"status"_s, u"ok"_s}, {u"provenance"_s, provenance},
        {u"compile"_s,
            QJsonObject {
                {u"candidate"_s, QJsonObject {{u"ok"_s, true}, {u"arch"_s, u"sm_90"_s}, {u"binary_sha256"_s, hash}}}}},
        {u"cases"_s, results}};
}

const evidence::MeasurementEvidence *find(const evidence::HardwareEvidence &hw, const QString &role, int index)
{
    int seen = 0;
    for (const evidence::MeasurementEvidence &m : hw.measurements) {
        if (m.role == role && seen++ == index)
            return &m;
    }
    return nullptr;
}

QString fact(const evidence::MeasurementEvidence &m, const QString &key)
{
    for (const evidence::Fact &f : evidence::measurementFacts(m)) {
        if (f.key == key)
            return f.value;
    }
    return u"<no fact %1>"_s.arg(key);
}

} // namespace

class TestMeasureEvidence : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cudaRunShowsItsEvidence_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<bool>("workerSaysStopRule");
        QTest::addColumn<QString>("measuredBy");
        QTest::addColumn<QString>("firstStopRule");
        QTest::addColumn<QString>("secondStopRule");
        const QString reached
            = u"stopped when the RSE reached the target 0.5 % (10–2000 samples, 2000 ms budget, 3 warm-up runs)"_s;
        const QString budget = u"stopped by the sample or time budget before the RSE reached 0.5 % (10–2000 samples, "
                               u"2000 ms budget, 3 warm-up runs)"_s;
        QTest::newRow("this machine") << QString() << true << u"this machine's worker (gpuf-measure 0.1.0)"_s << reached
                                      << budget;
        QTest::newRow("cluster node") << u"gpu-node-07"_s << true << u"cluster node gpu-node-07 (gpuf-measure 0.1.0)"_s
                                      << reached << budget;
        // A worker that does not name its stop rule: the request's options are the rule it ran under.
        QTest::newRow("older worker, the request's options")
            << QString() << false << u"this machine's worker (gpuf-measure 0.1.0)"_s
            << u"stopped when the RSE reached the target 0.8 % (20–500 samples, 750 ms budget, 3 warm-up runs)"_s
            << u"stopped by the sample or time budget before the RSE reached 0.8 % (20–500 samples, 750 ms budget, "
               u"3 warm-up runs)"_s;
    }
    void cudaRunShowsItsEvidence()
    {
        QFETCH(QString, node);
        QFETCH(bool, workerSaysStopRule);
        QFETCH(QString, measuredBy);
        QFETCH(QString, firstStopRule);
        QFETCH(QString, secondStopRule);
        testing::CorpusStore corpus;
        QVERIFY(corpus.create());
        const RowId candidate = corpus.candidateOf(u"axpy"_s);
        QVERIFY(candidate != 0);
        auto plan = measure::planMeasurement(*corpus.store, candidate);
        QVERIFY2(plan, qPrintable(plan ? QString() : plan.error()));
        auto referencePlan = measure::planMeasurement(*corpus.store, plan->referenceId);
        QVERIFY(referencePlan);
        QCOMPARE(plan->cases.size(), 2);
        // What the application asked for, as the queue sends it; the worker's own stop rule wins where it names one.
        const QJsonObject options {
            {u"target_rse"_s, 0.008}, {u"min_samples"_s, 20}, {u"max_samples"_s, 500}, {u"time_budget_ms"_s, 750}};

        for (const auto &[p, scale, hash] :
            {std::tuple {&*plan, 1.0, kCandidateHash}, std::tuple {&*referencePlan, 1.5, kReferenceHash}}) {
            measure::ResponseRows rows = measure::rowsFromResponse(answer(p->cases, scale, hash, workerSaysStopRule),
                *p, device(), options, u"2026-11-29T09:00:00.000Z"_s, node);
            QVERIFY(rows.store);
            Transaction tx(*corpus.store);
            QVERIFY(tx.begin());
            QVERIFY(measure::storeMeasuredRows(*corpus.store, rows.rows, device(), u"NVRTC 13.0"_s));
            QVERIFY(tx.commit());
        }

        auto read = evidence::readCandidateEvidence(*corpus.store, candidate);
        QVERIFY2(read, qPrintable(read ? QString() : read.error()));
        QCOMPARE(read->hardware.size(), 1);
        const evidence::HardwareEvidence &hw = read->hardware.first();
        QVERIFY(hw.speedup.has_value());
        QCOMPARE(*hw.speedup, 1.5);
        for (const QString &role : {u"candidate"_s, u"baseline"_s}) {
            const evidence::MeasurementEvidence *first = find(hw, role, 0);
            const evidence::MeasurementEvidence *second = find(hw, role, 1);
            QVERIFY(first && second);
            const QString hash = role == u"candidate"_s ? kCandidateHash : kReferenceHash;
            for (const evidence::MeasurementEvidence *m : {first, second}) {
                QCOMPARE(fact(*m, u"measured_by"_s), measuredBy);
                QCOMPARE(fact(*m, u"binary_hash"_s), hash);
                QCOMPARE(m->binaryHash, hash);
                QVERIFY(m->stopRule.recorded);
            }
            QCOMPARE(fact(*first, u"stop_rule"_s), firstStopRule);
            QCOMPARE(fact(*second, u"stop_rule"_s), secondStopRule);
            QCOMPARE(first->stopRule.reachedTarget, true);
            QCOMPARE(second->stopRule.reachedTarget, false);
        }
        // The JSON of gpuf evidence carries the same facts.
        const QJsonObject json = evidence::toJson(*find(hw, u"candidate"_s, 0));
        QCOMPARE(json.value(u"binary_hash"_s).toString(), kCandidateHash);
    }

    void pythonCaseKeepsItsOwnStopReason()
    {
        // A Python case has no CUDA timing loop: no stop_rule in its provenance (its stop reason stays in the
        // counters' timings), and no binary.
        measure::CaseContext context;
        context.provenance = QJsonObject {{u"stop_rule"_s, QJsonObject {{u"target_rel_std_error"_s, 0.005}}}};
        const QJsonObject result {{u"name"_s, u"c"_s}, {u"status"_s, u"ok"_s},
            {u"timing"_s,
                QJsonObject {{u"method"_s, u"cuda_events"_s}, {u"median_us"_s, 10.0}, {u"n"_s, 50},
                    {u"stop_reason"_s, u"target_rse"_s}}}};
        const Measurement m = measure::measurementFromCase(result, context, 1, 1);
        QVERIFY(!m.provenance.contains(u"stop_rule"_s));
        QVERIFY(!m.provenance.contains(u"binary_sha256"_s));
        QVERIFY(!m.provenance.contains(u"cluster_node"_s));
    }
};

QTEST_GUILESS_MAIN(TestMeasureEvidence)
#include "tst_measure_evidence.moc"
