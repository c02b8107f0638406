// The measurement queue's pure parts: which candidates are low-confidence, what a worker response becomes (rows to
// store or none), specs and plans built from a real corpus store, kernel references, replay rows, request budgets.
#include "core/measure/measure_plan.h"
#include "measure_fixture.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

Forecast forecast(RowId id, RowId candidate, RowId forecaster, int peakBin, double peak, ForecastStatus status,
    std::optional<int> predicted = std::nullopt)
{
    Forecast f;
    f.id = id;
    f.candidateKernelId = candidate;
    f.forecasterId = forecaster;
    f.status = status;
    f.predictedBin = predicted;
    const double rest = (1.0 - peak) / 7.0;
    for (int b = 0; b < 8; ++b)
        f.probabilities[b] = b + 1 == peakBin ? peak : rest;
    return f;
}

QList<Forecast> forecasts()
{
    return {
        forecast(1, 10, 1, 4, 0.9, ForecastStatus::Ok), // superseded by id 5
        forecast(5, 10, 1, 4, 0.3, ForecastStatus::Ok),
        forecast(2, 11, 2, 6, 0.45, ForecastStatus::Ok),
        forecast(3, 12, 1, 5, 0.05, ForecastStatus::ParseFailed), // not ok: ignored
        // The model chose bin 2, whose probability is (1 - 0.6) / 7: its confidence is that, not the peak's 0.6.
        forecast(4, 12, 2, 5, 0.6, ForecastStatus::Ok, 2),
        forecast(6, 13, 1, 3, 0.75, ForecastStatus::Ok),
    };
}

QJsonObject json(const char *text) { return QJsonDocument::fromJson(QByteArray(text)).object(); }

measure::MeasurePlan twoCasePlan()
{
    measure::MeasurePlan plan;
    plan.kernelId = 7;
    plan.cases = {QStringLiteral("1M"), QStringLiteral("64M")};
    return plan;
}

} // namespace

class TestMeasurePlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lowConfidence_data()
    {
        QTest::addColumn<double>("threshold");
        QTest::addColumn<RowId>("forecaster");
        QTest::addColumn<QList<RowId>>("expected");
        QTest::newRow("any forecaster, 0.5") << 0.5 << RowId(0) << QList<RowId> {10, 11, 12};
        QTest::newRow("any forecaster, 0.8") << 0.8 << RowId(0) << QList<RowId> {10, 11, 12, 13};
        QTest::newRow("forecaster 1, 0.5") << 0.5 << RowId(1) << QList<RowId> {10};
        QTest::newRow("forecaster 2, 0.1") << 0.1 << RowId(2) << QList<RowId> {12};
        QTest::newRow("nothing below 0.05") << 0.05 << RowId(0) << QList<RowId> {};
    }
    void lowConfidence()
    {
        QFETCH(double, threshold);
        QFETCH(RowId, forecaster);
        QFETCH(QList<RowId>, expected);
        QCOMPARE(measure::lowConfidenceCandidates(forecasts(), threshold, forecaster), expected);
    }

    void rowsFromResponse_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<bool>("store");
        QTest::addColumn<QString>("status");
        QTest::addColumn<int>("rows");
        QTest::addColumn<QString>("firstRowStatus");
        QTest::addColumn<QString>("firstRowText");
        QTest::newRow("ok, two cases") << QByteArray(
            R"J({"id":1,"type":"measure","status":"ok","provenance":{"toolkit_version":"NVRTC 13.0"},
                "compile":{"candidate":{"arch":"sm_90","kernels":[{"entry":"k","registers":12}]}},
                "cases":[{"name":"1M","status":"ok","timing":{"median_us":9.5,"mean_us":9.6,"min_us":9.4,"std_us":0.1,
                "rel_std_error":0.001,"n":200,"method":"cuda_events","flush_l2":true}},
                {"name":"64M","status":"ok","timing":{"median_us":200.0,"n":50}}]})J")
                                       << true << QStringLiteral("ok") << 2 << QStringLiteral("ok") << QString();
        QTest::newRow("no GPU: nothing stored")
            << QByteArray(R"J({"id":1,"type":"measure","status":"infrastructure_failure",
                "message":"no NVIDIA driver found (libcuda.so.1: cannot open shared object file)"})J")
            << false << QStringLiteral("infrastructure_failure") << 0 << QString() << QString();
        QTest::newRow("bad request: nothing stored")
            << QByteArray(R"J({"id":1,"type":"measure","status":"bad_request","message":"x",
                "errors":["candidate.buffers: expected a non-empty array","candidate.tolerance: required"]})J")
            << false << QStringLiteral("bad_request") << 0 << QString() << QString();
        QTest::newRow("candidate did not compile: every case")
            << QByteArray(R"J({"id":1,"type":"measure","status":"compile_failed",
                "message":"candidate failed to compile","compile":{"candidate":{"ok":false,"log":"error: x undefined"}}})J")
            << true << QStringLiteral("compile_failed") << 2 << QStringLiteral("compile_failed")
            << QStringLiteral("candidate failed to compile");
        QTest::newRow("reference did not compile: nothing stored")
            << QByteArray(R"J({"id":1,"type":"measure","status":"compile_failed",
                "message":"reference failed to compile"})J")
            << false << QStringLiteral("infrastructure_failure") << 0 << QString() << QString();
        QTest::newRow("hung kernel: the case it reached")
            << QByteArray(R"J({"id":1,"type":"measure","status":"timeout","restart_required":true,
                "message":"case 1M: candidate: kernel run: still running after 3000 ms (watchdog)",
                "cases":[{"name":"1M","status":"timeout","message":"candidate: kernel run: still running"}]})J")
            << true << QStringLiteral("timeout") << 1 << QStringLiteral("timeout")
            << QStringLiteral("candidate: kernel run: still running");
    }
    void rowsFromResponse()
    {
        QFETCH(QByteArray, response);
        QFETCH(bool, store);
        QFETCH(QString, status);
        QFETCH(int, rows);
        QFETCH(QString, firstRowStatus);
        QFETCH(QString, firstRowText);
        const QJsonObject parsed = QJsonDocument::fromJson(response).object();
        QVERIFY(!parsed.isEmpty());
        const QJsonObject device = json(R"J({"name":"NVIDIA H200","compute_capability":"9.0","sm_count":132})J");
        const auto out
            = measure::rowsFromResponse(parsed, twoCasePlan(), device, {}, QStringLiteral("2025-01-01T00:00:00.000Z"));
        QCOMPARE(out.store, store);
        QCOMPARE(out.status, status);
        QCOMPARE(out.rows.size(), rows);
        if (rows == 0)
            return;
        const Measurement &m = out.rows.first();
        QCOMPARE(m.kernelId, RowId(7));
        QCOMPARE(m.source, MeasurementSource::Local);
        QCOMPARE(measurementStatusName(m.status), firstRowStatus);
        QCOMPARE(m.errorText, firstRowText);
        QCOMPARE(m.provenance.value(QStringLiteral("gpu")).toString(), QStringLiteral("NVIDIA H200"));
        if (m.status == MeasurementStatus::Ok) {
            QVERIFY(m.runtime.has_value());
            QCOMPARE(m.runtime->medianNs, 9500.0);
            QCOMPARE(m.runtime->samples, 200);
            QCOMPARE(m.resources.registers, 12);
        } else {
            QVERIFY(!m.runtime.has_value());
        }
    }

    // A Python answer: both figures of each kernel, the runtime from the one `speedup_time` names, and the reference's
    // timings of the same case as rows of the problem's reference kernel, marked as such.
    void pythonAnswerKeepsBothFigures()
    {
        measure::MeasurePlan plan = twoCasePlan();
        plan.pythonProblem = QStringLiteral("layer_norm_triton");
        plan.pythonReferenceId = 3;
        plan.label = QStringLiteral("layer_norm_triton / v2");
        const QJsonObject response = json(R"J({"status":"ok","speedup_time":"call","launch_bound_margin":0.1,
            "cases":[{"name":"1M","status":"ok","speedup_time":"call","launch_bound_margin":0.1,
              "timing":{"kind":"device","method":"cupti_kernel_sum","n":40,"mean_us":16.7,"median_us":14.7,
                        "min_us":14.0,"std_us":1.0,"rel_std_error":0.11,"noisy":true,"remeasured":{"first":{"n":100}},
                        "events":{"method":"cuda_events","n":40,"median_us":16.9},"span":{"median_us":14.9}},
              "call_timing":{"kind":"call","method":"do_bench_loop","n":1300,"mean_us":44.5,"median_us":44.0,
                        "min_us":41.0,"std_us":2.0,"rel_std_error":0.004,"call_rep_ms":100,
                        "after_sync":{"method":"cuda_events_after_sync","n":20,"median_us":61.5}},
              "reference_timing":{"method":"cuda_events","n":20,"mean_us":22.0,"median_us":21.9,"min_us":21.5,
                        "std_us":0.2,"rel_std_error":0.001},
              "reference_call_timing":{"method":"cuda_events_after_sync","n":20,"mean_us":26.0,"median_us":25.8,
                        "min_us":25.0,"std_us":0.3,"rel_std_error":0.001},
              "launch_bound":true,"host_overhead_us":29.3,"reference_launch_bound":true,
              "reference_host_overhead_us":3.9}]})J");
        const QJsonObject device = json(R"J({"name":"NVIDIA H200","compute_capability":"9.0","sm_count":132})J");
        const auto out = measure::rowsFromResponse(response, plan, device, {}, QString());
        QCOMPARE(out.rows.size(), 1);
        const Measurement &m = out.rows.first();
        QCOMPARE(m.runtime->medianNs, 44000.0); // call time: the speedup's figure
        QCOMPARE(m.timingMethod, QStringLiteral("do_bench_loop"));
        const QJsonObject timings = m.counters.value(QStringLiteral("timings")).toObject();
        QCOMPARE(timings.value(QStringLiteral("speedup_time")).toString(), QStringLiteral("call"));
        QCOMPARE(timings[u"device"_s][u"median_us"_s].toDouble(), 14.7);
        QCOMPARE(timings[u"device"_s][u"method"_s].toString(), QStringLiteral("cupti_kernel_sum"));
        QVERIFY(timings[u"device"_s][u"noisy"_s].toBool());
        // The figures beside each: the events' device time, the span of the kernels, single calls after a synchronise.
        QCOMPARE(timings[u"device"_s][u"events"_s][u"median_us"_s].toDouble(), 16.9);
        QCOMPARE(timings[u"device"_s][u"span"_s][u"median_us"_s].toDouble(), 14.9);
        QCOMPARE(timings[u"call"_s][u"method"_s].toString(), QStringLiteral("do_bench_loop"));
        QCOMPARE(timings[u"call"_s][u"after_sync"_s][u"median_us"_s].toDouble(), 61.5);
        QVERIFY(timings[u"launch_bound"_s].toBool());
        QCOMPARE(timings[u"host_overhead_us"_s].toDouble(), 29.3);
        QCOMPARE(timings[u"launch_bound_margin"_s].toDouble(), 0.1);
        QCOMPARE(out.referenceRows.size(), 1);
        const Measurement &r = out.referenceRows.first();
        QCOMPARE(r.kernelId, RowId(3));
        QCOMPARE(r.caseName, QStringLiteral("1M"));
        QCOMPARE(r.runtime->medianNs, 25800.0);
        QCOMPARE(r.counters.value(QStringLiteral("timed_as")).toString(), QStringLiteral("reference"));
        QCOMPARE(r.counters.value(QStringLiteral("timed_with")).toString(), QStringLiteral("layer_norm_triton / v2"));
        const QJsonObject refTimings = r.counters.value(QStringLiteral("timings")).toObject();
        QCOMPARE(refTimings[u"device"_s][u"median_us"_s].toDouble(), 21.9);
        QCOMPARE(refTimings[u"host_overhead_us"_s].toDouble(), 3.9);

        // Device time chosen, or no call time measured: the device figure is the runtime.
        QJsonObject deviceChosen = response;
        QJsonArray cases = deviceChosen[u"cases"_s].toArray();
        QJsonObject c = cases.first().toObject();
        c[u"speedup_time"_s] = u"device"_s;
        cases[0] = c;
        deviceChosen[u"cases"_s] = cases;
        const auto byDevice = measure::rowsFromResponse(deviceChosen, plan, device, {}, QString());
        QCOMPARE(byDevice.rows.first().runtime->medianNs, 14700.0);
        QCOMPARE(byDevice.referenceRows.first().runtime->medianNs, 21900.0);
        // A CUDA plan (no Python problem) keeps no reference rows.
        const auto cuda = measure::rowsFromResponse(response, twoCasePlan(), device, {}, QString());
        QVERIFY(cuda.referenceRows.isEmpty());
    }

    void plansFromTheCorpus()
    {
        testing::CorpusStore fixture;
        QVERIFY(fixture.create());
        const RowId id = fixture.candidateOf(QStringLiteral("axpy"));
        QVERIFY(id != 0);
        auto plan = measure::planMeasurement(*fixture.store, id);
        QVERIFY2(plan.ok(), qPrintable(plan.error()));
        auto kernel = KernelRepo(*fixture.store).find(id);
        QCOMPARE(plan->candidate.value(QStringLiteral("source")).toString(), (*kernel)->source);
        QCOMPARE(plan->candidate.value(QStringLiteral("format")).toString(), QStringLiteral("gpuf-kernel/1"));
        QVERIFY(plan->referenceId != 0 && plan->referenceId != id);
        QVERIFY(!plan->reference.value(QStringLiteral("source")).toString().isEmpty());
        QVERIFY(!plan->cases.isEmpty());
        QVERIFY(plan->label.startsWith(QStringLiteral("axpy / ")));
        const QJsonObject request = measure::measureRequest(*plan, 42, {{QStringLiteral("timeout_ms"), 500}});
        QCOMPARE(request.value(QStringLiteral("id")).toInt(), 42);
        QCOMPARE(request.value(QStringLiteral("reference")).toObject(), plan->reference);

        // The reference itself is measured without a reference.
        auto reference = measure::planMeasurement(*fixture.store, plan->referenceId);
        QVERIFY(reference.ok());
        QCOMPARE(reference->referenceId, RowId(0));
        QVERIFY(!measure::measureRequest(*reference, 1, {}).contains(QStringLiteral("reference")));

        // A kernel stored without a spec cannot be measured, and says why.
        Kernel manual;
        manual.problemId = (*kernel)->problemId;
        manual.name = QStringLiteral("hand edit");
        manual.language = QStringLiteral("cuda");
        manual.source = QStringLiteral("extern \"C\" __global__ void k() {}");
        manual.origin = QStringLiteral("manual");
        QVERIFY(KernelRepo(*fixture.store).insertOrGet(manual).ok());
        auto noSpec = measure::planMeasurement(*fixture.store, manual.id);
        QVERIFY(!noSpec.ok());
        QVERIFY2(noSpec.error().contains(QStringLiteral("has no kernel spec (parameters.spec)")),
            qPrintable(noSpec.error()));
        QVERIFY(noSpec.error().contains(QStringLiteral("'hand edit'")));
    }

    void kernelRefs()
    {
        testing::CorpusStore fixture;
        QVERIFY(fixture.create());
        const RowId id = fixture.candidateOf(QStringLiteral("sgemm"));
        auto kernel = KernelRepo(*fixture.store).find(id);
        QCOMPARE(*measure::resolveKernelRef(*fixture.store, QString::number(id)), id);
        QCOMPARE(*measure::resolveKernelRef(*fixture.store, (*kernel)->contentHash.left(10).toUpper()), id);
        auto shortPrefix = measure::resolveKernelRef(*fixture.store, QStringLiteral("abc"));
        QVERIFY(shortPrefix.error().contains(QStringLiteral("at least 6 hex digits")));
        auto unknown = measure::resolveKernelRef(*fixture.store, QStringLiteral("99999"));
        QVERIFY(!unknown.ok());
        // Six hex digits that no hash starts with are unknown, not ambiguous.
        QString absent = QStringLiteral("ffffff");
        auto all = KernelRepo(*fixture.store).summaries();
        for (const auto &k : *all)
            QVERIFY(!k.contentHash.startsWith(absent));
        QVERIFY(measure::resolveKernelRef(*fixture.store, absent).error().contains(QStringLiteral("no kernel")));
    }

    void replay()
    {
        testing::CorpusStore fixture;
        QVERIFY(fixture.create());
        const RowId id = fixture.candidateOf(QStringLiteral("axpy"));
        QVERIFY(measure::replayRows(*fixture.store, id, 0).error().contains(QStringLiteral("no stored runtime")));
        Hardware h;
        h.name = QStringLiteral("NVIDIA H200");
        QVERIFY(HardwareRepo(*fixture.store).ensure(h).ok());
        MeasurementRepo repo(*fixture.store);
        QList<RowId> original;
        for (const char *c : {"1M", "1M", "64M"}) {
            Measurement m;
            m.kernelId = id;
            m.hardwareId = h.id;
            m.caseName = QString::fromLatin1(c);
            m.runtime = RuntimeStats {1000.0 * double(original.size() + 1), 0, 0, 0, 0.001, 10};
            m.source = MeasurementSource::Import;
            QVERIFY(repo.insert(m).ok());
            original.append(m.id);
        }
        auto rows = measure::replayRows(*fixture.store, id, 0);
        QVERIFY2(rows.ok(), qPrintable(rows.error()));
        QCOMPARE(rows->size(), 2); // the newest row per case
        for (const Measurement &m : *rows) {
            QCOMPARE(m.source, MeasurementSource::Replay);
            QCOMPARE(m.id, RowId(0));
            QCOMPARE(m.provenance.value(QStringLiteral("replay_of_source")).toString(), QStringLiteral("import"));
        }
        QCOMPARE(rows->first().provenance.value(QStringLiteral("replay_of")).toInteger(), original[1]);
        QCOMPARE(rows->first().runtime->medianNs, 2000.0);
    }

    void budgets()
    {
        const measure::MeasurePlan plan = twoCasePlan();
        const int base = measure::requestBudgetMs(plan, {});
        QVERIFY(base > 2 * 10000); // more than the worker's own watchdog for every wait of both cases
        QVERIFY(measure::requestBudgetMs(plan, {{QStringLiteral("timeout_ms"), 60000}}) > base);
        QVERIFY(measure::requestBudgetMs(plan, {{QStringLiteral("cases"), QJsonArray {QStringLiteral("1M")}}}) < base);
    }

    // What a compile-only answer comes to: a binary's hash, the kernel's own compile failure, or a request the worker
    // could not serve; an "ok" without a SHA-256 is not taken as a binary.
    void compileAnswers_data()
    {
        QTest::addColumn<QByteArray>("response");
        QTest::addColumn<bool>("compiled");
        QTest::addColumn<bool>("refused");
        QTest::addColumn<QString>("message");
        const QByteArray hash(64, 'c');
        QTest::newRow("compiled") << QByteArray(
            R"({"status":"ok","compile":{"ok":true,"binary_sha256":")" + hash + R"("}})")
                                  << true << false << QString();
        QTest::newRow("refused") << QByteArray(
            R"({"status":"compile_failed","message":"NVRTC failed to compile )"
            R"(k: the header cstdio (line 2) cannot be found","compile":{"ok":false}})")
                                 << false << true << u"NVRTC failed to compile k: the header cstdio"_s;
        QTest::newRow("refused, the log only")
            << QByteArray(R"({"status":"compile_failed","compile":{"ok":false,"log":"error: expected a ;"}})") << false
            << true << u"error: expected a ;"_s;
        QTest::newRow("no GPU") << QByteArray(R"({"status":"infrastructure_failure","message":"no GPU to compile for )"
                                              R"((cuInit failed); give an arch"})")
                                << false << false << u"no GPU to compile for"_s;
        QTest::newRow("no hash") << QByteArray(R"({"status":"ok","compile":{"ok":true,"binary_sha256":"xyz"}})")
                                 << false << false << u"gave no binary hash (binary_sha256: 'xyz')"_s;
    }
    void compileAnswers()
    {
        QFETCH(QByteArray, response);
        QFETCH(bool, compiled);
        QFETCH(bool, refused);
        QFETCH(QString, message);
        const QJsonDocument doc = QJsonDocument::fromJson(response);
        QVERIFY(doc.isObject());
        const measure::CompileAnswer a = measure::compileAnswer(doc.object());
        QCOMPARE(a.compiled, compiled);
        QCOMPARE(a.refused, refused);
        QCOMPARE(a.binarySha256.isEmpty(), !compiled);
        if (compiled)
            QCOMPARE(a.binarySha256, QString(64, u'c'));
        QVERIFY2(a.message.contains(message), qPrintable(a.message));
    }
};

QTEST_GUILESS_MAIN(TestMeasurePlan)
#include "tst_measure_plan.moc"
