// Tests of the store side of the calibration metrics: the shared measured-speedup rule, loadScoredPairs on a small
// real store (measured truths, labels kept as published, failures, forecasts without truth, filters) and the
// per-forecaster reports built from it (equal to core/metrics computed directly on the same rows).
#include "core/metrics/from_store.h"
#include "core/store/measured_speedup.h"
#include "core/store/scored_pairs.h"
#include "tst_metrics_store_fixture.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(gpuf::ScoredPairFilter)

class TestMetricsStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    MetricsStore m_s;
    ScoredPairs m_pairs;

    const ScoredPair *pairOf(RowId forecaster, RowId candidate, int repeat = 0) const
    {
        for (const ScoredPair &p : m_pairs.pairs) {
            if (p.forecasterId == forecaster && p.candidateId == candidate && p.repeat == repeat)
                return &p;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase();
    void measuredSpeedupRule_data();
    void measuredSpeedupRule();
    void measuredSpeedupMarksReplays_data();
    void measuredSpeedupMarksReplays();
    void truths_data();
    void truths();
    void counts_data();
    void counts();
    void groupKeys();
    void filters_data();
    void filters();
    void unknownNamesAreErrors_data();
    void unknownNamesAreErrors();
    void reportsEqualDirectComputation();
    void samePairsComparison();
    void jsonCarriesCounts();
    void formatting();
    void cancelledLoadFails();
};

void TestMetricsStore::initTestCase()
{
    auto store = Store::open(m_dir.filePath(QStringLiteral("metrics.gpuf")));
    QVERIFY2(store.ok(), qPrintable(store.error()));
    m_store = std::move(*store);
    m_s = buildMetricsStore(*m_store);
    auto pairs = loadScoredPairs(*m_store);
    QVERIFY2(pairs.ok(), qPrintable(pairs.error()));
    m_pairs = std::move(*pairs);
}

using Timings = std::vector<CaseTiming>;
Q_DECLARE_METATYPE(Timings)
Q_DECLARE_METATYPE(MeasuredSpeedup::State)

void TestMetricsStore::measuredSpeedupRule_data()
{
    QTest::addColumn<Timings>("candidate");
    QTest::addColumn<Timings>("baseline");
    QTest::addColumn<MeasuredSpeedup::State>("state");
    QTest::addColumn<double>("speedup");
    QTest::addColumn<int>("cases");
    using S = MeasurementStatus;
    using St = MeasuredSpeedup::State;
    QTest::newRow("geometric mean") << Timings {{0, S::Ok, 50}, {1, S::Ok, 80}}
                                    << Timings {{0, S::Ok, 100}, {1, S::Ok, 200}} << St::Speedup << std::sqrt(5.0) << 2;
    QTest::newRow("any failed case") << Timings {{0, S::Ok, 50}, {1, S::Timeout, 0}}
                                     << Timings {{0, S::Ok, 100}, {1, S::Ok, 200}} << St::Failed << 0.0 << 0;
    QTest::newRow("only shared ok cases") << Timings {{0, S::Ok, 200}, {2, S::Ok, 1}}
                                          << Timings {{0, S::Ok, 100}, {1, S::Ok, 5}} << St::Speedup << 0.5 << 1;
    QTest::newRow("baseline case failed")
        << Timings {{0, S::Ok, 50}, {1, S::Ok, 50}} << Timings {{0, S::RuntimeError, 0}, {1, S::Ok, 200}} << St::Speedup
        << 4.0 << 1;
    QTest::newRow("no shared case") << Timings {{3, S::Ok, 50}} << Timings {{0, S::Ok, 100}} << St::NoBaseline << 0.0
                                    << 0;
    QTest::newRow("no baseline") << Timings {{0, S::Ok, 50}} << Timings {} << St::NoBaseline << 0.0 << 0;
    QTest::newRow("not measured") << Timings {} << Timings {{0, S::Ok, 100}} << St::None << 0.0 << 0;
}

void TestMetricsStore::measuredSpeedupRule()
{
    QFETCH(Timings, candidate);
    QFETCH(Timings, baseline);
    QFETCH(MeasuredSpeedup::State, state);
    QFETCH(double, speedup);
    QFETCH(int, cases);
    const MeasuredSpeedup m = measuredSpeedup(candidate, baseline);
    QCOMPARE(m.state, state);
    QCOMPARE(m.cases, cases);
    if (state == MeasuredSpeedup::State::Speedup)
        QVERIFY2(std::abs(m.speedup - speedup) < 1e-12, qPrintable(QString::number(m.speedup)));
    if (state == MeasuredSpeedup::State::Failed)
        QCOMPARE(m.failure, MeasurementStatus::Timeout);
}

void TestMetricsStore::measuredSpeedupMarksReplays_data()
{
    QTest::addColumn<Timings>("candidate");
    QTest::addColumn<Timings>("baseline");
    QTest::addColumn<MeasuredSpeedup::State>("state");
    QTest::addColumn<bool>("replayed");
    using S = MeasurementStatus;
    using St = MeasuredSpeedup::State;
    const CaseTiming local0 {0, S::Ok, 50}, local1 {1, S::Ok, 80};
    const CaseTiming replay0 {0, S::Ok, 50, true}, replay1 {1, S::Ok, 80, true};
    const CaseTiming base0 {0, S::Ok, 100}, base1 {1, S::Ok, 200}, baseReplay1 {1, S::Ok, 200, true};
    QTest::newRow("all run here") << Timings {local0, local1} << Timings {base0, base1} << St::Speedup << false;
    QTest::newRow("a candidate case replayed")
        << Timings {local0, replay1} << Timings {base0, base1} << St::Speedup << true;
    QTest::newRow("a baseline case replayed")
        << Timings {local0, local1} << Timings {base0, baseReplay1} << St::Speedup << true;
    // Only the cases in the mean count: a replayed baseline case the candidate lacks does not.
    QTest::newRow("replay outside the mean")
        << Timings {local0} << Timings {base0, baseReplay1} << St::Speedup << false;
    QTest::newRow("failed case replayed")
        << Timings {local0, CaseTiming {1, S::Timeout, 0, true}} << Timings {base0, base1} << St::Failed << true;
    QTest::newRow("failed here, other case replayed")
        << Timings {replay0, CaseTiming {1, S::Timeout, 0}} << Timings {base0, base1} << St::Failed << false;
    QTest::newRow("no baseline, replayed") << Timings {replay0} << Timings {} << St::NoBaseline << true;
    QTest::newRow("no baseline, run here") << Timings {local0} << Timings {} << St::NoBaseline << false;
    QTest::newRow("not measured") << Timings {} << Timings {CaseTiming {0, S::Ok, 100, true}} << St::None << false;
}

void TestMetricsStore::measuredSpeedupMarksReplays()
{
    QFETCH(Timings, candidate);
    QFETCH(Timings, baseline);
    QFETCH(MeasuredSpeedup::State, state);
    QFETCH(bool, replayed);
    const MeasuredSpeedup m = measuredSpeedup(candidate, baseline);
    QCOMPARE(m.state, state);
    QCOMPARE(m.replayed, replayed);
}

void TestMetricsStore::truths_data()
{
    QTest::addColumn<QString>("candidate");
    QTest::addColumn<int>("repeat");
    QTest::addColumn<int>("trueBin");
    QTest::addColumn<double>("trueSpeedup"); // 0: none
    QTest::addColumn<bool>("fromLabel");
    QTest::addColumn<bool>("parsed");
    QTest::addColumn<int>("predicted");
    QTest::newRow("A measured √5") << u"a"_s << 0 << 6 << std::sqrt(5.0) << false << true << 6;
    QTest::newRow("B measured 4") << u"b"_s << 0 << 8 << 4.0 << false << true << 7;
    QTest::newRow("C measured 0.5") << u"c"_s << 0 << 2 << 0.5 << false << true << 2;
    QTest::newRow("C parse failure") << u"c"_s << 1 << 2 << 0.5 << false << false << 0;
    QTest::newRow("E label") << u"e"_s << 0 << 4 << 1.2 << true << true << 4;
    QTest::newRow("G label as published") << u"g"_s << 0 << 3 << 0.6 << true << true << 2;
    QTest::newRow("X other problem") << u"x"_s << 0 << 6 << 2.0 << false << true << 6;
}

void TestMetricsStore::truths()
{
    QFETCH(QString, candidate);
    QFETCH(int, repeat);
    QFETCH(int, trueBin);
    QFETCH(double, trueSpeedup);
    QFETCH(bool, fromLabel);
    QFETCH(bool, parsed);
    QFETCH(int, predicted);
    const QHash<QString, RowId> ids {
        {u"a"_s, m_s.a}, {u"b"_s, m_s.b}, {u"c"_s, m_s.c}, {u"e"_s, m_s.e}, {u"g"_s, m_s.g}, {u"x"_s, m_s.x}};
    const ScoredPair *pair = pairOf(m_s.alpha, ids.value(candidate), repeat);
    QVERIFY(pair);
    QCOMPARE(pair->trueBin, trueBin);
    QVERIFY(pair->trueSpeedup);
    QVERIFY(std::abs(*pair->trueSpeedup - trueSpeedup) < 1e-12);
    QCOMPARE(pair->truth == TruthSource::Label, fromLabel);
    // B's runs on GPU one are replays (fixture): the same truth, marked.
    QCOMPARE(pair->truth == TruthSource::Replayed, candidate == u"b"_s);
    QCOMPARE(pair->parsed, parsed);
    QCOMPARE(pair->predictedBin.value_or(0), predicted);
}

void TestMetricsStore::counts_data()
{
    QTest::addColumn<QString>("forecaster");
    QTest::addColumn<qint64>("forecasts");
    QTest::addColumn<qint64>("scored");
    QTest::addColumn<qint64>("withoutTruth");
    QTest::addColumn<qint64>("failed");
    QTest::addColumn<qint64>("errors");
    QTest::addColumn<qint64>("replayed");
    // alpha: A's first forecast is replaced; D failed a case; F has no truth; B's truth rests on replays.
    QTest::newRow("alpha") << u"alpha"_s << 9ll << 7ll << 1ll << 1ll << 0ll << 1ll;
    // beta: E's newest row is an error, which does not replace the answer before it.
    QTest::newRow("beta") << u"beta"_s << 3ll << 3ll << 0ll << 0ll << 1ll << 1ll;
    QTest::newRow("gamma") << u"gamma"_s << 0ll << 0ll << 0ll << 0ll << 1ll << 0ll;
}

void TestMetricsStore::counts()
{
    QFETCH(QString, forecaster);
    QFETCH(qint64, forecasts);
    QFETCH(qint64, scored);
    QFETCH(qint64, withoutTruth);
    QFETCH(qint64, failed);
    QFETCH(qint64, errors);
    QFETCH(qint64, replayed);
    QCOMPARE(m_pairs.forecasters.size(), 3);
    const auto it = std::find_if(m_pairs.forecasters.cbegin(), m_pairs.forecasters.cend(),
        [&](const ScoredPairsForecaster &f) { return f.name == forecaster; });
    QVERIFY(it != m_pairs.forecasters.cend());
    QCOMPARE(it->forecasts, forecasts);
    QCOMPARE(it->scored, scored);
    QCOMPARE(it->withoutTruth, withoutTruth);
    QCOMPARE(it->failedCandidates, failed);
    QCOMPARE(it->errors, errors);
    QCOMPARE(it->replayed, replayed);
    QCOMPARE(m_pairs.replayedTruths(), 2);
    QCOMPARE(m_pairs.withoutTruth(), 1);
    QCOMPARE(m_pairs.failedCandidates(), 1);
    QCOMPARE(m_pairs.pairs.size(), 10);
}

void TestMetricsStore::groupKeys()
{
    const ScoredPair *g = pairOf(m_s.alpha, m_s.g);
    QVERIFY(g);
    QCOMPARE(g->searchId, m_s.search); // from the label's source_search
    QCOMPARE(g->problemId, m_s.scale);
    QCOMPARE(g->hardwareId, m_s.h1);
    QCOMPARE(g->referenceId, m_s.reference);
    const ScoredPair *x = pairOf(m_s.alpha, m_s.x);
    QVERIFY(x);
    QCOMPARE(x->problemId, m_s.other);
    QCOMPARE(x->referenceId, m_s.otherReference);
    QCOMPARE(x->searchId, 0);
    const ScoredPair *e = pairOf(m_s.beta, m_s.e);
    QVERIFY(e);
    QCOMPARE(e->predictedBin.value_or(0), 3); // no choice stored: the most probable bin
    QCOMPARE(m_pairs.forecasters.first().label(), u"Alpha model"_s);
    QCOMPARE(m_pairs.forecasters.at(1).label(), u"beta"_s);
}

void TestMetricsStore::filters_data()
{
    QTest::addColumn<QStringList>("forecasters");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<QString>("hardware");
    QTest::addColumn<int>("chosen");
    QTest::addColumn<int>("pairs");
    QTest::newRow("all") << QStringList {} << QString() << QString() << 3 << 10;
    QTest::newRow("beta") << QStringList {u"beta"_s} << QString() << QString() << 1 << 3;
    QTest::newRow("alpha and beta") << QStringList {u"beta"_s, u"alpha"_s} << QString() << QString() << 2 << 10;
    QTest::newRow("problem other") << QStringList {} << u"other"_s << QString() << 3 << 1;
    QTest::newRow("problem scale, alpha") << QStringList {u"alpha"_s} << u"scale"_s << QString() << 1 << 6;
    QTest::newRow("GPU two: nothing forecast") << QStringList {} << QString() << u"GPU two"_s << 3 << 0;
    QTest::newRow("GPU one") << QStringList {} << QString() << u"GPU one"_s << 3 << 10;
}

void TestMetricsStore::filters()
{
    QFETCH(QStringList, forecasters);
    QFETCH(QString, problem);
    QFETCH(QString, hardware);
    QFETCH(int, chosen);
    QFETCH(int, pairs);
    auto loaded = loadScoredPairs(*m_store, {forecasters, problem, hardware});
    QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
    QCOMPARE(loaded->forecasters.size(), chosen);
    QCOMPARE(loaded->pairs.size(), pairs);
    QCOMPARE(loaded->allForecasters.size(), 3);
    QCOMPARE(loaded->problems.size(), 2);
    for (int i = 1; i < loaded->forecasters.size(); ++i)
        QVERIFY(loaded->forecasters[i - 1].id < loaded->forecasters[i].id);
}

void TestMetricsStore::unknownNamesAreErrors_data()
{
    QTest::addColumn<ScoredPairFilter>("filter");
    QTest::addColumn<QString>("message");
    QTest::newRow("forecaster") << ScoredPairFilter {{u"alpha"_s, u"delta"_s}, {}, {}}
                                << u"unknown forecaster 'delta' (the store has: alpha, beta, gamma)"_s;
    QTest::newRow("problem") << ScoredPairFilter {{}, u"nope"_s, {}}
                             << u"unknown problem 'nope' (the store has: scale, other)"_s;
    QTest::newRow("hardware") << ScoredPairFilter {{}, {}, u"GPU three"_s}
                              << u"unknown hardware 'GPU three' (the store has: GPU one, GPU two)"_s;
}

void TestMetricsStore::unknownNamesAreErrors()
{
    QFETCH(ScoredPairFilter, filter);
    QFETCH(QString, message);
    auto loaded = loadScoredPairs(*m_store, filter);
    QVERIFY(!loaded.ok());
    QCOMPARE(loaded.error(), message);
}

void TestMetricsStore::reportsEqualDirectComputation()
{
    metrics::MetricsOptions options;
    options.bootstrapResamples = 50;
    const metrics::StoreMetrics m = metrics::computeStoreMetrics(m_pairs, options);
    QCOMPARE(m.rows.size(), std::size_t(10));
    QCOMPARE(m.reports.size(), std::size_t(3));
    for (const metrics::ScoredRow &row : m.rows) {
        const ScoredPair *pair = pairOf(row.forecasterId, row.pairId, row.repeat);
        QVERIFY(pair); // pairId is the candidate kernel
        QCOMPARE(row.forecastId, pair->forecastId);
        QCOMPARE(row.poolKey, pair->referenceId);
    }
    // Each forecaster's report equals computeReport over its own rows.
    for (const metrics::ForecasterReport &r : m.reports) {
        std::vector<metrics::ScoredRow> own;
        for (const metrics::ScoredRow &row : m.rows) {
            if (row.forecasterId == r.forecaster.id)
                own.push_back(row);
        }
        const metrics::MetricsReport direct = metrics::computeReport(own, options);
        QCOMPARE(r.report.nTotal, direct.nTotal);
        QCOMPARE(r.report.nParsed, direct.nParsed);
        for (int s = 0; s < metrics::kScalarCount; ++s) {
            const double a = r.report.scalars[s], b = direct.scalars[s];
            QVERIFY2((std::isnan(a) && std::isnan(b)) || a == b, qPrintable(metrics::scalarName(metrics::Scalar(s))));
            QVERIFY((std::isnan(r.report.intervals[s].low) && std::isnan(direct.intervals[s].low))
                || r.report.intervals[s].low == direct.intervals[s].low);
        }
    }
    // By hand: alpha 4 of 6 parsed right, all within one; beta 1 of 3; gamma nothing.
    QCOMPARE(m.reports[0].report.nTotal, 7);
    QCOMPARE(m.reports[0].report.nParsed, 6);
    QCOMPARE(m.reports[0].report.scalar(metrics::Scalar::Accuracy), 4.0 / 6.0);
    QCOMPARE(m.reports[0].report.scalar(metrics::Scalar::WithinOne), 1.0);
    QCOMPARE(m.reports[1].report.scalar(metrics::Scalar::Accuracy), 1.0 / 3.0);
    QCOMPARE(m.reports[2].report.nTotal, 0);
    QVERIFY(std::isnan(m.reports[2].report.scalar(metrics::Scalar::Accuracy)));
}

void TestMetricsStore::samePairsComparison()
{
    const metrics::StoreMetrics m = metrics::computeStoreMetrics(m_pairs);
    // gamma has no scored row, so the pairs alpha and beta share decide: A, B and E.
    QCOMPARE(m.samePairRows.size(), std::size_t(6));
    for (const metrics::ScoredRow &row : m.samePairRows)
        QVERIFY(row.pairId == m_s.a || row.pairId == m_s.b || row.pairId == m_s.e);
    const auto &same = m.reportsFor(metrics::Comparison::SamePairs);
    QCOMPARE(same[0].report.nTotal, 3);
    QCOMPARE(same[0].report.scalar(metrics::Scalar::Accuracy), 2.0 / 3.0);
    QCOMPARE(same[1].report.nTotal, 3);
    QCOMPARE(same[1].report.scalar(metrics::Scalar::Accuracy), 1.0 / 3.0);
    QCOMPARE(&m.reportsFor(metrics::Comparison::AllPairs), &m.reports);
}

void TestMetricsStore::jsonCarriesCounts()
{
    const metrics::StoreMetrics m = metrics::computeStoreMetrics(m_pairs);
    const QJsonObject json = metrics::storeMetricsJson(m.reports);
    QCOMPARE(json.keys(), (QStringList {u"alpha"_s, u"beta"_s, u"gamma"_s}));
    const QJsonObject alpha = json.value(u"alpha"_s).toObject();
    QCOMPARE(alpha.value(u"n_forecasts"_s).toInteger(), 9);
    QCOMPARE(alpha.value(u"n_no_truth"_s).toInteger(), 1);
    QCOMPARE(alpha.value(u"n_failed"_s).toInteger(), 1);
    QCOMPARE(alpha.value(u"n_replayed_truth"_s).toInteger(), 1);
    QCOMPARE(alpha.value(u"n_total"_s).toInteger(), 7);
    QCOMPARE(alpha.value(u"display_name"_s).toString(), u"Alpha model"_s);
    QCOMPARE(alpha.value(u"accuracy"_s).toDouble(), 4.0 / 6.0);
    QCOMPARE(json.value(u"gamma"_s).toObject().value(u"n_errors"_s).toInteger(), 1);
    QVERIFY(json.value(u"gamma"_s).toObject().value(u"accuracy"_s).isNull());
}

void TestMetricsStore::formatting()
{
    metrics::MetricsReport report;
    report.nTotal = 12;
    report.nParsed = 10;
    report.scalars[std::size_t(metrics::Scalar::Accuracy)] = 0.4123;
    report.scalars[std::size_t(metrics::Scalar::Ece)] = std::nan("");
    const auto figure = [](const QString &key) {
        for (const metrics::Figure &f : metrics::tableFigures()) {
            if (f.key == key)
                return f;
        }
        return metrics::Figure {};
    };
    QCOMPARE(metrics::formatFigure(figure(u"n_total"_s), report), u"12"_s);
    QCOMPARE(metrics::formatFigure(figure(u"n_parsed"_s), report), u"10"_s);
    QCOMPARE(metrics::formatFigure(figure(u"accuracy"_s), report), u"0.412"_s);
    QCOMPARE(metrics::formatFigure(figure(u"ece"_s), report), u"—"_s);
    report.hasIntervals = true;
    report.intervals[std::size_t(metrics::Scalar::Accuracy)] = {0.3881, 0.4372};
    QCOMPARE(metrics::formatFigure(figure(u"accuracy"_s), report), u"0.412 [0.388, 0.437]"_s);
    // Every scalar appears once in the table, after the two counts.
    QCOMPARE(int(metrics::tableFigures().size()), metrics::kScalarCount + 2);
}

void TestMetricsStore::cancelledLoadFails()
{
    const CancelToken cancel = CancelToken::create();
    cancel.cancel();
    auto loaded = loadScoredPairs(*m_store, {}, cancel);
    QVERIFY(!loaded.ok());
    QVERIFY(loaded.isCancelled());
    QCOMPARE(loaded.error(), u"cancelled"_s);
}

QTEST_GUILESS_MAIN(TestMetricsStore)
#include "tst_metrics_store.moc"
