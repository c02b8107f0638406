// Tests of loadCandidateTable and computeChangedLines on a small real store with known measurements: measured
// speedup = geometric mean over the cases both kernels measured ok, any failed case ⇒ failure, imported pair labels
// where nothing was measured, newest forecasts per forecaster, search membership and changed-line counts.
#include "core/bins/bins.h"
#include "core/diff/line_diff.h"
#include "core/store/candidate_rows.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gpuf;

namespace {

const QString kReferenceSource = QStringLiteral("__global__ void k(float* y, const float* x, int n) {\n"
                                                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                                "    if (i < n)\n"
                                                "        y[i] = 2.0f * x[i];\n"
                                                "}\n");

} // namespace

class TestCandidateRows : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    RowId m_h1 = 0, m_h2 = 0;
    RowId m_problem = 0, m_reference = 0;
    RowId m_a = 0, m_b = 0, m_c = 0, m_d = 0, m_e = 0, m_f = 0, m_g = 0;
    RowId m_anchor = 0, m_eval = 0; // problem without a reference: its baseline comes from the label
    RowId m_fc1 = 0, m_fc2 = 0;
    RowId m_search = 0;
    CandidateTable m_table;

    RowId kernel(
        RowId problem, const QString &source, RowId parent = 0, const QString &origin = QStringLiteral("manual"))
    {
        Kernel k;
        k.problemId = problem;
        k.parentId = parent;
        k.source = source;
        k.language = QStringLiteral("cuda");
        k.origin = origin;
        auto id = KernelRepo(*m_store).insertOrGet(k);
        if (!id)
            qFatal("kernel: %s", qPrintable(id.error()));
        return *id;
    }

    void measure(RowId kernel, RowId hardware, const QString &caseName, double medianNs,
        MeasurementStatus status = MeasurementStatus::Ok)
    {
        Measurement m;
        m.kernelId = kernel;
        m.hardwareId = hardware;
        m.caseName = caseName;
        m.status = status;
        if (status == MeasurementStatus::Ok)
            m.runtime = RuntimeStats {medianNs, medianNs, medianNs, 0.0, 0.001, 10};
        auto id = MeasurementRepo(*m_store).insert(m);
        if (!id)
            qFatal("measurement: %s", qPrintable(id.error()));
    }

    void label(RowId reference, RowId candidate, RowId hardware, std::optional<double> speedup, std::optional<int> bin,
        const QString &search = {})
    {
        PairLabel l;
        l.referenceKernelId = reference;
        l.candidateKernelId = candidate;
        l.hardwareId = hardware;
        l.speedup = speedup;
        l.trueBin = bin;
        l.kind = QStringLiteral("eval");
        l.externalId = QString::number(candidate) + QLatin1Char('-') + QString::number(hardware);
        l.source = QStringLiteral("import:eval_set");
        if (!search.isEmpty())
            l.extra.insert(QStringLiteral("source_search"), search);
        auto id = PairLabelRepo(*m_store).insert(l);
        if (!id)
            qFatal("label: %s", qPrintable(id.error()));
    }

    void forecast(RowId forecaster, RowId reference, RowId candidate, const bins::Distribution &p,
        std::optional<int> predicted = std::nullopt, ForecastStatus status = ForecastStatus::Ok)
    {
        Forecast f;
        f.forecasterId = forecaster;
        f.referenceKernelId = reference;
        f.candidateKernelId = candidate;
        f.hardwareId = m_h1;
        f.probabilities = p;
        f.predictedBin = predicted;
        f.status = status;
        auto id = ForecastRepo(*m_store).insert(f);
        if (!id)
            qFatal("forecast: %s", qPrintable(id.error()));
    }

    RowId forecaster(const QString &name)
    {
        Forecaster f;
        f.name = name;
        f.kind = ForecasterKind::Import;
        auto id = ForecasterRepo(*m_store).ensure(f);
        if (!id)
            qFatal("forecaster: %s", qPrintable(id.error()));
        return *id;
    }

    void buildStore();

    const MeasuredCell &cell(RowId kernel, RowId hardware) const
    {
        int h = 0;
        while (m_table.hardware[h].id != hardware)
            ++h;
        return m_table.measuredCell(m_table.rowOf(kernel), h);
    }

private Q_SLOTS:
    void initTestCase();
    void rowsAndBaselines();
    void measuredSpeedup_data();
    void measuredSpeedup();
    void labelsStandInForMissingMeasurements();
    void newestForecastPerForecaster();
    void defaultsAndSearches();
    void changedLines();
    void cancelledLoadFails();
};

void TestCandidateRows::buildStore()
{
    Hardware h1;
    h1.name = QStringLiteral("GPU one");
    m_h1 = *HardwareRepo(*m_store).ensure(h1);
    Hardware h2;
    h2.name = QStringLiteral("GPU two");
    m_h2 = *HardwareRepo(*m_store).ensure(h2);

    Problem p;
    p.name = QStringLiteral("scale");
    m_problem = *ProblemRepo(*m_store).insert(p);
    m_reference = kernel(m_problem, kReferenceSource, 0, QStringLiteral("seed"));
    QVERIFY(ProblemRepo(*m_store).setReferenceKernel(m_problem, m_reference).ok());
    const QString v1 = QString(kReferenceSource).replace(QStringLiteral("2.0f"), QStringLiteral("2.0f /*a*/"));
    m_a = kernel(m_problem, v1, m_reference);
    m_b = kernel(m_problem, kReferenceSource + QStringLiteral("// b\n"), m_a);
    m_c = kernel(m_problem, kReferenceSource + QStringLiteral("// c\n"), m_a);
    m_d = kernel(m_problem, kReferenceSource + QStringLiteral("// d\n"));
    m_e = kernel(m_problem, kReferenceSource + QStringLiteral("// e\n"));
    m_f = kernel(m_problem, kReferenceSource + QStringLiteral("// f\n"));
    m_g = kernel(m_problem, kReferenceSource + QStringLiteral("// g\n"));

    // Reference: 100 ns and 200 ns on H1; nothing on H2.
    measure(m_reference, m_h1, QStringLiteral("small"), 100.0);
    measure(m_reference, m_h1, QStringLiteral("large"), 200.0);
    // A: an older slow run of "small" is replaced by the newer one: speedups 2 and 2.5 → √5.
    measure(m_a, m_h1, QStringLiteral("small"), 400.0);
    measure(m_a, m_h1, QStringLiteral("small"), 50.0);
    measure(m_a, m_h1, QStringLiteral("large"), 80.0);
    measure(m_a, m_h2, QStringLiteral("small"), 10.0); // the reference has no H2 runs
    // B: one case failed ⇒ a failure, whatever the other case says.
    measure(m_b, m_h1, QStringLiteral("small"), 10.0);
    measure(m_b, m_h1, QStringLiteral("large"), 0.0, MeasurementStatus::CompileFailed);
    // C: "huge" has no reference run: only "small" counts (speedup 0.5).
    measure(m_c, m_h1, QStringLiteral("small"), 200.0);
    measure(m_c, m_h1, QStringLiteral("huge"), 1.0);
    // D: only a case the reference never ran.
    measure(m_d, m_h1, QStringLiteral("huge"), 1.0);
    // E: a label and no measurement; F: a failed label; G: a label that a measurement overrides (speedup 1).
    label(m_reference, m_e, m_h1, 1.5, 5);
    label(m_reference, m_f, m_h1, std::nullopt, std::nullopt);
    label(m_reference, m_g, m_h1, 3.0, 7);
    measure(m_g, m_h1, QStringLiteral("small"), 100.0);

    Problem eval;
    eval.name = QStringLiteral("published");
    m_eval = *ProblemRepo(*m_store).insert(eval);
    m_anchor = kernel(eval.id, QStringLiteral("def anchor(): pass\n"), 0, QStringLiteral("import:eval_set"));
    const RowId evalCandidate
        = kernel(eval.id, QStringLiteral("def candidate(): pass\n"), 0, QStringLiteral("import:eval_set"));
    label(m_anchor, evalCandidate, m_h1, 0.6, 2, QStringLiteral("run-7"));

    m_fc1 = forecaster(QStringLiteral("model-a"));
    m_fc2 = forecaster(QStringLiteral("model-b"));
    forecast(m_fc1, m_reference, m_a, {0, 0, 0, 0, 1.0, 0, 0, 0});
    forecast(m_fc1, m_reference, m_a, {0, 0, 0, 0.1, 0.2, 0.6, 0.1, 0}); // newer: wins
    forecast(m_fc1, m_b, m_a, {1.0, 0, 0, 0, 0, 0, 0, 0}); // newest, but not against A's baseline
    forecast(m_fc1, m_reference, m_b, {0, 0, 0, 0.3, 0.3, 0.4, 0, 0}, 4); // the model chose bin 4
    forecast(m_fc1, m_reference, m_c, {0, 0, 0, 0, 0, 0, 0, 1.0}, std::nullopt, ForecastStatus::ParseFailed);
    forecast(m_fc2, m_reference, m_a, {0, 0, 0, 0, 0, 0, 0, 1.0});
    forecast(m_fc1, m_a, m_reference, {0, 0, 1.0, 0, 0, 0, 0, 0}); // the reference as the candidate of another pair

    Search search;
    search.name = QStringLiteral("run-7");
    search.mode = QStringLiteral("imported");
    m_search = *SearchRepo(*m_store).ensure(search);
    SearchEvent event;
    event.searchId = m_search;
    event.kind = QStringLiteral("evaluation_completed");
    event.payload.insert(QStringLiteral("kernel_id"), m_d);
    event.time = QDateTime::currentDateTimeUtc();
    QVERIFY(SearchRepo(*m_store).append(event).ok());
}

void TestCandidateRows::initTestCase()
{
    auto store = Store::open(m_dir.filePath(QStringLiteral("rows.gpuf")));
    QVERIFY2(store.ok(), qPrintable(store.error()));
    m_store = std::move(*store);
    buildStore();
    if (QTest::currentTestFailed())
        return;
    auto table = loadCandidateTable(*m_store);
    QVERIFY2(table.ok(), qPrintable(table.error()));
    m_table = std::move(*table);
}

void TestCandidateRows::rowsAndBaselines()
{
    QCOMPARE(m_table.rows.size(), 10);
    QVERIFY(std::is_sorted(m_table.rows.cbegin(), m_table.rows.cend(),
        [](const CandidateRow &a, const CandidateRow &b) { return a.id < b.id; }));
    const CandidateRow &reference = m_table.rows[m_table.rowOf(m_reference)];
    QVERIFY(reference.isReference);
    QCOMPARE(reference.baselineId, m_reference);
    const CandidateRow &b = m_table.rows[m_table.rowOf(m_b)];
    QVERIFY(!b.isReference);
    QCOMPARE(b.baselineId, m_reference);
    QCOMPARE(b.parentId, m_a);
    QCOMPARE(m_table.problems[b.problemIndex].name, QStringLiteral("scale"));
    QCOMPARE(b.displayName(), b.contentHash.left(12));
    // A problem without a reference: the label's reference is the baseline.
    const int evalRow = m_table.rowOf(m_anchor) + 1;
    QCOMPARE(m_table.rows[evalRow].baselineId, m_anchor);
    QCOMPARE(m_table.rows[m_table.rowOf(m_anchor)].baselineId, RowId(0));
    QCOMPARE(m_table.rowOf(999999), -1);
    QCOMPARE(m_table.origins,
        QStringList({QStringLiteral("import:eval_set"), QStringLiteral("manual"), QStringLiteral("seed")}));
    // Ranks follow the texts: "published" sorts before "scale".
    QVERIFY(m_table.rows[evalRow].problemRank < b.problemRank);
}

void TestCandidateRows::measuredSpeedup_data()
{
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<bool>("secondHardware");
    QTest::addColumn<int>("state");
    QTest::addColumn<double>("speedup");
    QTest::addColumn<int>("cases");
    QTest::addColumn<int>("failure");

    using S = MeasuredCell::State;
    QTest::newRow("geomean of the newest runs") << "a" << false << int(S::Speedup) << std::sqrt(5.0) << 2 << 0;
    QTest::newRow("reference against itself") << "ref" << false << int(S::Speedup) << 1.0 << 2 << 0;
    QTest::newRow("a failed case") << "b" << false << int(S::Failed) << 0.0 << 0
                                   << int(MeasurementStatus::CompileFailed);
    QTest::newRow("only shared cases count") << "c" << false << int(S::Speedup) << 0.5 << 1 << 0;
    QTest::newRow("no shared case") << "d" << false << int(S::NoBaseline) << 0.0 << 0 << 0;
    QTest::newRow("reference not measured there") << "a" << true << int(S::NoBaseline) << 0.0 << 0 << 0;
    QTest::newRow("not measured") << "e" << false << int(S::None) << 0.0 << 0 << 0;
}

void TestCandidateRows::measuredSpeedup()
{
    QFETCH(QString, kernel);
    QFETCH(bool, secondHardware);
    QFETCH(int, state);
    QFETCH(double, speedup);
    QFETCH(int, cases);
    QFETCH(int, failure);
    const QHash<QString, RowId> ids {{QStringLiteral("a"), m_a}, {QStringLiteral("b"), m_b}, {QStringLiteral("c"), m_c},
        {QStringLiteral("d"), m_d}, {QStringLiteral("e"), m_e}, {QStringLiteral("ref"), m_reference}};
    const MeasuredCell &c = cell(ids.value(kernel), secondHardware ? m_h2 : m_h1);
    QCOMPARE(int(c.state), state);
    QCOMPARE(c.cases, cases);
    if (c.state == MeasuredCell::State::Speedup) {
        QVERIFY(qAbs(c.speedup - speedup) < 1e-12);
        QCOMPARE(c.truthBin(), bins::binOf(speedup));
    }
    if (c.state == MeasuredCell::State::Failed) {
        QCOMPARE(int(c.failure), failure);
        QVERIFY(c.failed());
        QVERIFY(!c.truthBin());
    }
}

void TestCandidateRows::labelsStandInForMissingMeasurements()
{
    const MeasuredCell &e = cell(m_e, m_h1);
    QVERIFY(e.usesLabel());
    QVERIFY(e.isKnown());
    QCOMPARE(e.truthSpeedup(), std::optional<double>(1.5));
    QCOMPARE(e.truthBin(), std::optional<int>(5));
    QCOMPARE(e.labelReferenceId, m_reference);
    const MeasuredCell &f = cell(m_f, m_h1);
    QVERIFY(f.usesLabel());
    QVERIFY(f.failed());
    QVERIFY(!f.truthBin());
    const MeasuredCell &g = cell(m_g, m_h1); // measured: the label stays, but the measurement is the truth
    QVERIFY(g.labelId != 0);
    QVERIFY(!g.usesLabel());
    QCOMPARE(g.truthSpeedup(), std::optional<double>(1.0));
    QCOMPARE(g.truthBin(), std::optional<int>(4));
    QVERIFY(!cell(m_e, m_h2).isKnown()); // the label names H1 only
    QCOMPARE(m_table.hardware[0].labels, 4); // E, F, G and the published pair
}

void TestCandidateRows::newestForecastPerForecaster()
{
    QCOMPARE(m_table.forecasters.size(), 2);
    const int a = m_table.rowOf(m_a);
    const ForecastCell &newest = m_table.forecastCell(a, 0);
    QVERIFY(newest.isValid());
    QCOMPARE(newest.referenceKernelId, m_reference); // not the newer forecast against kernel B
    QCOMPARE(newest.predictedBin, 6);
    QCOMPARE(newest.confidence, 0.6);
    const bins::Distribution p {0, 0, 0, 0.1, 0.2, 0.6, 0.1, 0};
    QCOMPARE(newest.expectedSpeedup, bins::expectedSpeedup(p));
    QCOMPARE(newest.expectedBin, bins::expectedBin(p));
    const ForecastCell &chosen = m_table.forecastCell(m_table.rowOf(m_b), 0);
    QCOMPARE(chosen.predictedBin, 4); // the model's own choice, not the argmax
    QCOMPARE(chosen.confidence, 0.3);
    QVERIFY(!m_table.forecastCell(m_table.rowOf(m_c), 0).isValid()); // parse failures are not forecasts
    QCOMPARE(m_table.forecastCell(a, 1).predictedBin, 8);
    // The reference's row is the baseline itself: a forecast of it against another kernel is not shown there.
    QVERIFY(!m_table.forecastCell(m_table.rowOf(m_reference), 0).isValid());
    QCOMPARE(m_table.forecasters[0].forecasts, 2); // candidates with a forecast
}

void TestCandidateRows::defaultsAndSearches()
{
    QCOMPARE(m_table.hardware[m_table.defaultHardware].id, m_h1);
    QCOMPARE(m_table.forecasters[m_table.defaultForecaster].id, m_fc1);
    QCOMPARE(m_table.searches.size(), 1);
    const CandidateSearch &search = m_table.searches[m_table.searchIndexOf(m_search)];
    const RowId evalCandidate = m_table.rows[m_table.rowOf(m_anchor) + 1].id;
    QList<RowId> expected {m_d, m_anchor, evalCandidate};
    std::sort(expected.begin(), expected.end());
    QCOMPARE(search.kernelIds, expected);
}

void TestCandidateRows::changedLines()
{
    auto lines = computeChangedLines(*m_store, m_table);
    QVERIFY2(lines.ok(), qPrintable(lines.error()));
    QCOMPARE(lines->perRow.size(), m_table.rows.size());
    QCOMPARE(lines->perRow[m_table.rowOf(m_reference)], 0);
    const int a = m_table.rowOf(m_a);
    const QString v1 = QString(kReferenceSource).replace(QStringLiteral("2.0f"), QStringLiteral("2.0f /*a*/"));
    QCOMPARE(lines->perRow[a], diff::changedLineCount(kReferenceSource, v1).value());
    QCOMPARE(lines->perRow[a], 1);
    QCOMPARE(lines->perRow[m_table.rowOf(m_b)], 1); // one added line
    QCOMPARE(lines->perRow[m_table.rowOf(m_anchor)], -1); // no baseline
    QVERIFY(!lines->computed.isEmpty());

    // Pairs already known are taken from the cache, not diffed again.
    ChangedLineCache known = lines->computed;
    const QString key
        = m_table.rows[m_table.rowOf(m_reference)].contentHash + QLatin1Char(':') + m_table.rows[a].contentHash;
    QVERIFY(known.contains(key));
    known[key] = 42;
    auto cached = computeChangedLines(*m_store, m_table, known);
    QVERIFY(cached.ok());
    QCOMPARE(cached->perRow[a], 42);
    QVERIFY(cached->computed.isEmpty());
}

void TestCandidateRows::cancelledLoadFails()
{
    const CancelToken cancel = CancelToken::create();
    cancel.cancel();
    auto table = loadCandidateTable(*m_store, cancel);
    QVERIFY(!table.ok());
    QVERIFY(table.isCancelled());
    auto lines = computeChangedLines(*m_store, m_table, {}, cancel);
    QVERIFY(!lines.ok());
}

QTEST_GUILESS_MAIN(TestCandidateRows)
#include "tst_candidate_rows.moc"
