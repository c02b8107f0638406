// Recalibration on a search's measured pairs (docs/search.md, "Calibration in a search"): the learner's temperature,
// the isotonic map, τ by conformal risk control and the drift alarm, each on cases computed by hand.
#include "core/search/certified_trust.h"
#include "core/search/recalibration.h"
#include "core/search/search_state.h"
#include "core/search/trust_preview.h"
#include "core/store/scored_pairs.h"

#include <QTest>

#include <cmath>

using namespace gpuf::search;

namespace {

QList<ScoredPair> pairsOf(std::initializer_list<std::pair<double, bool>> list)
{
    QList<ScoredPair> out;
    for (const auto &[confidence, correct] : list)
        out.append({confidence, correct});
    return out;
}

} // namespace

class TestRecalibration : public QObject
{
    Q_OBJECT

private slots:
    void temperature_data()
    {
        QTest::addColumn<std::vector<double>>("z");
        QTest::addColumn<double>("expected");
        // No pairs: the pseudo-pair alone, T = 1.
        QTest::newRow("none") << std::vector<double> {} << 1.0;
        // z = 3, 3, 3: √((1 + 27) / 4) = √7.
        QTest::newRow("overconfident") << std::vector<double> {3.0, -3.0, 3.0} << std::sqrt(7.0);
        // z = 0 ×3: √(1/4) = 0.5 (too wide a spread is narrowed).
        QTest::newRow("underconfident") << std::vector<double> {0.0, 0.0, 0.0} << 0.5;
        // z = 0 ×99: √(1/100) = 0.1, kept at 0.25.
        QTest::newRow("floor") << std::vector<double>(99, 0.0) << kMinTemperature;
        // A non-finite z is left out: √((1 + 4) / 2).
        QTest::newRow("nan") << std::vector<double> {2.0, std::nan("")} << std::sqrt(2.5);
    }
    void temperature()
    {
        QFETCH(std::vector<double>, z);
        QFETCH(double, expected);
        QCOMPARE(temperatureOf(z), expected);
    }

    void isotonic()
    {
        // Confidences 0.2 (right), 0.4 (wrong), 0.6 (right), 0.6 (wrong), 0.8 (right): the blocks 0.2 → 1 and 0.4 → 0
        // violate the order and pool to 0.5 (upper end 0.4); the tied 0.6s are one block, 0.5, no violation; 0.8 → 1.
        const IsotonicMap map
            = fitIsotonic(pairsOf({{0.6, true}, {0.2, true}, {0.8, true}, {0.4, false}, {0.6, false}}));
        QCOMPARE(map.confidence, (std::vector<double> {0.4, 0.6, 0.8}));
        QCOMPARE(map.accuracy, (std::vector<double> {0.5, 0.5, 1.0}));
        QCOMPARE(map(0.1), 0.5);
        QCOMPARE(map(0.7), 1.0);
        QCOMPARE(map(0.95), 1.0);
        QCOMPARE(fitIsotonic({})(0.3), 0.3);
    }

    void conformal_data()
    {
        QTest::addColumn<QList<ScoredPair>>("pairs");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("tau");
        QTest::addColumn<int>("trusted");
        QTest::addColumn<int>("wrong");
        // Ten right forecasts at 0.9 … 0.45, then a wrong one at 0.4 and a right one at 0.3. α = 0.1: the bound is
        // 1/(k + 1) after k right ones, ≤ α from the ninth (0.5); 1/11 at 0.45; then 2/12 and 2/13 > α: τ = 0.45.
        QList<ScoredPair> ten;
        for (int i = 0; i < 10; ++i)
            ten.append({0.9 - 0.05 * i, true});
        QList<ScoredPair> withWrong = ten;
        withWrong.append({0.4, false});
        withWrong.append({0.3, true});
        QTest::newRow("stops at the wrong one") << withWrong << 0.1 << 0.45 << 10 << 0;
        // α = 0.2: the wrong one is allowed (2/12 ≤ 0.2), then 0.3 right: 2/13. τ = 0.3, every pair trusted.
        QTest::newRow("loose alpha") << withWrong << 0.2 << 0.3 << 12 << 1;
        // Eight right forecasts: 1/9 > 0.1 at best: nothing is certified.
        QTest::newRow("too few") << ten.mid(0, 8) << 0.1 << 1.0 + 1e-9 << 0 << 0;
        // A wrong forecast at the top, then ten right: at best 2/12 > 0.1.
        QList<ScoredPair> wrongFirst {{0.95, false}};
        wrongFirst.append(ten);
        QTest::newRow("wrong at the top") << wrongFirst << 0.1 << 1.0 + 1e-9 << 0 << 0;
        // Equal confidences form one band: 9 right at 0.7 and one wrong at 0.7 → 2/11 > 0.1, nothing trusted.
        QList<ScoredPair> band;
        for (int i = 0; i < 9; ++i)
            band.append({0.7, true});
        band.append({0.7, false});
        QTest::newRow("tied band") << band << 0.1 << 1.0 + 1e-9 << 0 << 0;
    }
    void conformal()
    {
        QFETCH(QList<ScoredPair>, pairs);
        QFETCH(double, alpha);
        QFETCH(double, tau);
        QFETCH(int, trusted);
        QFETCH(int, wrong);
        const CertifiedTau c = conformalTau(pairs, alpha);
        QCOMPARE(c.tau, tau);
        QCOMPARE(c.trusted, trusted);
        QCOMPARE(c.wrong, wrong);
        QCOMPARE(c.pairs, int(pairs.size()));
        QVERIFY(c.bound <= alpha || !c.trustsAny());
        if (c.trustsAny())
            QCOMPARE(c.bound, double(wrong + 1) / double(trusted + 1));
    }

    void drift_data()
    {
        QTest::addColumn<int>("trusted");
        QTest::addColumn<int>("wrong");
        QTest::addColumn<bool>("alarm");
        // α = 0.1, n = 25: allowed 2.5 + 2·√(25·0.09) = 2.5 + 3 = 5.5 wrong.
        QTest::newRow("within") << 25 << 5 << false;
        QTest::newRow("beyond") << 25 << 6 << true;
        // Fewer than kDriftMinTrusted trusted forecasts never alarm, even all wrong.
        QTest::newRow("too few") << 7 << 7 << false;
        // n = 100: 10 + 2·3 = 16.
        QTest::newRow("hundred within") << 100 << 16 << false;
        QTest::newRow("hundred beyond") << 100 << 17 << true;
    }
    void drift()
    {
        QFETCH(int, trusted);
        QFETCH(int, wrong);
        QFETCH(bool, alarm);
        QCOMPARE(driftExceeded(trusted, wrong, 0.1), alarm);
    }

    // A search's state by hand, paper policy, α = 0.1: ten right forecasts at confidence 0.9 … 0.45 (predicted bin 5,
    // measured 1.5×: bin 5), one wrong at 0.4 (measured 3×: bin 7), four wrong at 0.2, a seed and an unmeasured one
    // that count for nothing. τ = 0.45 as in conformal's first row; all fifteen were trusted when decided: 5 wrong of
    // 15 > 1.5 + 2·√1.35 = 3.82 allowed: drift.
    void trustReportOfAState()
    {
        SearchState state;
        state.config.mode = Mode::Selective;
        state.config.policy = Policy::Paper;
        state.config.alpha = 0.1;
        auto measured = [&state](double confidence, double speedup) {
            Candidate c;
            c.status = CandidateStatus::Evaluated;
            c.reward = speedup;
            c.forecastDone = true;
            c.confidence = confidence;
            c.predictedBin = 5;
            c.trustedAtDecision = 1;
            state.candidates.push_back(c);
        };
        for (int i = 0; i < 10; ++i)
            measured(0.9 - 0.05 * i, 1.5);
        measured(0.4, 3.0);
        for (int i = 0; i < 4; ++i)
            measured(0.2, 3.0);
        Candidate seed;
        seed.status = CandidateStatus::Evaluated;
        seed.reward = 1.0;
        seed.seedNode = true;
        state.candidates.push_back(seed);
        Candidate open;
        open.status = CandidateStatus::Deferred;
        open.forecastDone = true;
        open.confidence = 0.99;
        state.candidates.push_back(open);

        QCOMPARE(measuredPairs(state).size(), 15);
        const TrustReport r = trustReport(state);
        QVERIFY(r.active);
        QCOMPARE(r.certified.tau, 0.45);
        QCOMPARE(r.certified.trusted, 10);
        QCOMPARE(r.trustedMeasured, 15);
        QCOMPARE(r.trustedWrong, 5);
        QVERIFY(r.drift);
        QCOMPARE(effectiveTau(state, r), 0.45);
        QVERIFY(trustedUnder(state, state.candidates.at(0), std::nan(""), 0.45));
        QVERIFY(!trustedUnder(state, state.candidates.at(10), std::nan(""), 0.45));

        // What status says, from the logged objects.
        state.certified = certifiedJson(r);
        state.driftAlarm = driftJson(r, 7);
        const QStringList lines = trustStatusLines(state);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines.at(0),
            QStringLiteral("certified τ = 0.450 (α = 0.1): 10 of 15 measured pair(s) trusted, 0.0% wrong (bound "
                           "9.1%); trusted when decided: 15, 5 wrong"));
        QCOMPARE(lines.at(1),
            QStringLiteral("drift alarm at step 7: 5 of 15 trusted forecasts wrong (33.3%), more than α = 0.1 allows "
                           "(3.8)"));

        // Without α: τ as configured, nothing said.
        state.config.alpha = 0.0;
        state.config.tau = 0.6;
        QVERIFY(!trustReport(state).active);
        QCOMPARE(effectiveTau(state, trustReport(state)), 0.6);
        QVERIFY(trustStatusLines(state).isEmpty());
    }

    // Probability policy: the trusted claim is "worse than its parent" at 1 − P(beat parent); a child measured below
    // its parent (1.5× under 2×) makes it right, one above (3×) wrong.
    void probabilityPairs()
    {
        SearchState state;
        state.config.mode = Mode::Selective;
        state.config.policy = Policy::Probability;
        Candidate parent;
        parent.nodeId = QStringLiteral("p");
        parent.status = CandidateStatus::Evaluated;
        parent.reward = 2.0;
        parent.seedNode = true;
        state.candidates.push_back(parent);
        state.byNode.insert(QStringLiteral("p"), 0);
        for (const auto &[p, speedup] : {std::pair {0.1, 1.5}, std::pair {0.3, 3.0}}) {
            Candidate c;
            c.parentId = QStringLiteral("p");
            c.status = CandidateStatus::Evaluated;
            c.reward = speedup;
            c.pBeatParent = p;
            state.candidates.push_back(c);
        }
        const QList<ScoredPair> pairs = measuredPairs(state);
        QCOMPARE(pairs.size(), 2);
        QCOMPARE(pairs.at(0).confidence, 0.9);
        QVERIFY(pairs.at(0).correct);
        QCOMPARE(pairs.at(1).confidence, 0.7);
        QVERIFY(!pairs.at(1).correct);
        QVERIFY(trustedUnder(state, state.candidates.at(1), 0.1, 0.9));
        QVERIFY(!trustedUnder(state, state.candidates.at(1), 0.2, 0.9));
    }

    // What τ would trust before a search (New Search…): ten stored forecasts by hand, nearest-rank percentiles.
    void trustPreviewByHand()
    {
        StoredConfidences c {QStringLiteral("costmodel"), QStringLiteral("sgemm"), {}};
        for (const auto &[confidence, right] : {std::pair {0.2, false}, std::pair {0.3, true}, std::pair {0.4, false},
                 std::pair {0.5, true}, std::pair {0.6, true}, std::pair {0.7, false}, std::pair {0.8, true},
                 std::pair {0.9, true}, std::pair {0.95, true}, std::pair {0.99, true}})
            c.forecasts.append({confidence, right});
        const TrustPreview t = trustPreview(c, 0.5);
        QCOMPARE(t.forecasts, 10);
        QCOMPARE(t.p10, 0.2); // rank ⌈0.1 · 10⌉ = 1
        QCOMPARE(t.median, 0.6); // rank 5
        QCOMPARE(t.p90, 0.95); // rank 9
        QCOMPARE(t.trusted, 7); // 0.5 … 0.99
        QCOMPARE(t.trustedRight, 6); // all but 0.7
        QCOMPARE(trustPreviewText(&c, c.forecaster, c.problem, 0.5),
            QStringLiteral("costmodel on sgemm: 10 forecast(s) with a measured truth, confidence 0.20 · 0.60 · 0.95 "
                           "(10th, 50th, 90th percentile). τ = 0.50 would trust 7 of them (70%); 6 of those were "
                           "right (86%)."));
        QCOMPARE(trustPreviewText(&c, c.forecaster, c.problem, std::nullopt),
            QStringLiteral("costmodel on sgemm: 10 forecast(s) with a measured truth, confidence 0.20 · 0.60 · 0.95 "
                           "(10th, 50th, 90th percentile)."));
        QCOMPARE(trustPreview(c, 1.0).trusted, 0);
        QVERIFY(trustPreviewText(&c, c.forecaster, c.problem, 1.0).endsWith(QStringLiteral("trust 0 of them (0%).")));
        QCOMPARE(trustPreviewText(nullptr, QStringLiteral("roofline"), QStringLiteral("sgemm"), 0.5),
            QStringLiteral("roofline has no forecast with a measured truth on sgemm yet: nothing shows what τ would "
                           "trust."));
    }

    // Grouped by forecaster and problem from a store's scored pairs, parse failures left out, ascending confidence.
    void storedConfidencesGroups()
    {
        gpuf::ScoredPairs pairs;
        pairs.allForecasters = {{1, QStringLiteral("costmodel")}, {2, QStringLiteral("llm")}};
        pairs.problems = {{7, QStringLiteral("sgemm")}};
        const auto pair = [](gpuf::RowId forecaster, double top, int predicted, int truth, bool parsed) {
            gpuf::ScoredPair p;
            p.forecasterId = forecaster;
            p.problemId = 7;
            p.p.fill((1.0 - top) / 7.0);
            p.p.at(size_t(predicted - 1)) = top;
            p.predictedBin = parsed ? std::optional<int>(predicted) : std::nullopt;
            p.parsed = parsed;
            p.trueBin = truth;
            return p;
        };
        pairs.pairs
            = {pair(1, 0.8, 5, 5, true), pair(2, 0.4, 3, 4, true), pair(1, 0.3, 6, 5, true), pair(1, 0.9, 2, 2, false)};
        const QList<StoredConfidences> grouped = storedConfidences(pairs);
        QCOMPARE(grouped.size(), 2);
        QCOMPARE(grouped.at(0).forecaster, QStringLiteral("costmodel"));
        QCOMPARE(grouped.at(0).forecasts.size(), 2);
        QCOMPARE(grouped.at(0).forecasts.at(0).first, 0.3);
        QVERIFY(!grouped.at(0).forecasts.at(0).second);
        QCOMPARE(grouped.at(0).forecasts.at(1).first, 0.8);
        QVERIFY(grouped.at(0).forecasts.at(1).second);
        QCOMPARE(grouped.at(1).forecaster, QStringLiteral("llm"));
        QCOMPARE(grouped.at(1).problem, QStringLiteral("sgemm"));
    }
};

QTEST_GUILESS_MAIN(TestRecalibration)
#include "tst_recalibration.moc"
