// The probability policy and the learner (docs/search.md, "The probability policy" and "The learner"): beliefs read
// from bins and from a Gaussian on hand-computed cases, the measure/skip rule on hand-computed outlooks, the learner
// on a synthetic family with a known response surface (it must rank it better than a weak prior does), and a learner
// that cannot learn (too few, degenerate or featureless data) leaving the prior alone with its reason.
#include "core/search/compare_learner.h"
#include "core/search/probability_policy.h"
#include "core/search/search_learner.h"
#include "core/search/search_state.h"
#include "core/search/selection.h"
#include "core/search/tuning_space.h"

#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <random>

using namespace gpuf;
using namespace gpuf::search;

namespace {

bins::Distribution binsOf(std::initializer_list<std::pair<int, double>> mass)
{
    bins::Distribution p {};
    for (const auto &[bin, v] : mass)
        p[size_t(bin - 1)] = v;
    return p;
}

// The synthetic family: four tunables over 8 × 2 × 6 × 3 = 288 configurations and a response surface with an
// interior optimum in A and C, a flag worth +0.8 and a mild slope in D (log2 speedup).
struct Synthetic
{
    QStringList names {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("D")};
    std::vector<std::vector<double>> configs;
    std::vector<double> truth;

    Synthetic()
    {
        for (int a = 0; a < 8; ++a)
            for (int b = 0; b < 2; ++b)
                for (int c = 0; c < 6; ++c)
                    for (int d = 0; d < 3; ++d) {
                        configs.push_back({std::exp2(a), double(b), 16.0 * std::exp2(c), double(1 + d)});
                        truth.push_back(
                            1.5 - (a - 3.5) * (a - 3.5) / 5.0 + 0.8 * b - 0.4 * std::abs(c - 2.2) + 0.15 * d);
                    }
    }
    // A weak prior: a fifth of the surface plus a large deterministic wobble.
    double prior(size_t i) const { return 0.2 * truth[i] + 0.9 * std::sin(7.3 * double(i)); }
};

LearnerData trainingOn(const Synthetic &s, const std::vector<size_t> &rows, bool withPrior)
{
    LearnerData data;
    data.features = s.names;
    for (size_t i : rows) {
        data.x.push_back(s.configs[i]);
        data.prior.push_back(withPrior ? s.prior(i) : std::nan(""));
        data.y.push_back(s.truth[i]);
    }
    return data;
}

std::vector<size_t> sampleRows(size_t n, size_t count, quint64 seed)
{
    std::mt19937_64 rng(seed);
    std::vector<size_t> all(n);
    for (size_t i = 0; i < n; ++i)
        all[i] = i;
    for (size_t i = 0; i < count; ++i) // a partial Fisher–Yates shuffle, plain modulo: the same on every machine
        std::swap(all[i], all[i + size_t(rng() % (n - i))]);
    all.resize(count);
    return all;
}

ProposalOutlook outlook(int position, double pParent, double gainBest, double gainParent)
{
    ProposalOutlook o;
    o.position = position;
    o.belief = SpeedupBelief::gaussian(0.0, 1.0); // known; the rule reads only the figures below
    o.pBeatParent = pParent;
    o.gainOverBest = gainBest;
    o.gainOverParent = gainParent;
    return o;
}

} // namespace

class TestSearchLearner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Bin b covers [(b − 4)/2, (b − 3)/2) in log2 speedup, uniform within; the numbers are worked by hand.
    void beliefFromBins_data()
    {
        QTest::addColumn<bins::Distribution>("p");
        QTest::addColumn<double>("t");
        QTest::addColumn<double>("above");
        QTest::addColumn<double>("gain");
        QTest::addColumn<double>("mean");
        const bins::Distribution five = binsOf({{5, 1.0}}); // [0.5, 1)
        QTest::newRow("bin 5, t in the middle") << five << 0.75 << 0.5 << 0.0625 << 0.75;
        QTest::newRow("bin 5, t below") << five << 0.25 << 1.0 << 0.5 << 0.75;
        QTest::newRow("bin 5, t above") << five << 1.25 << 0.0 << 0.0 << 0.75;
        const bins::Distribution split = binsOf({{4, 0.5}, {6, 0.5}}); // [0, 0.5) and [1, 1.5)
        QTest::newRow("bins 4 and 6, t between") << split << 0.5 << 0.5 << 0.375 << 0.75;
        QTest::newRow("bins 4 and 6, t in bin 4") << split << 0.25 << 0.75 << 0.5 * 0.0625 + 0.5 * 1.0 << 0.75;
        const bins::Distribution raw = binsOf({{1, 2.0}, {8, 2.0}}); // renormalised; bin 1 [−2, −1), bin 8 [2, 3)
        QTest::newRow("open-ended bins, unnormalised") << raw << 0.0 << 0.5 << 0.5 * 2.5 << 0.5 * (-1.5 + 2.5);
    }
    void beliefFromBins()
    {
        QFETCH(bins::Distribution, p);
        QFETCH(double, t);
        QFETCH(double, above);
        QFETCH(double, gain);
        QFETCH(double, mean);
        const SpeedupBelief b = SpeedupBelief::fromBins(p);
        QVERIFY(b.known());
        QVERIFY(qAbs(b.probabilityAbove(t) - above) < 1e-12);
        QVERIFY(qAbs(b.expectedGain(t) - gain) < 1e-12);
        QVERIFY(qAbs(b.meanLog2() - mean) < 1e-12);
    }

    void beliefGaussianAndNone()
    {
        const SpeedupBelief g = SpeedupBelief::gaussian(1.0, 1.0);
        QVERIFY(qAbs(g.probabilityAbove(1.0) - 0.5) < 1e-12);
        QVERIFY(qAbs(g.expectedGain(1.0) - 0.3989422804014327) < 1e-12); // φ(0)
        QVERIFY(qAbs(g.probabilityAbove(0.0) - 0.8413447460685429) < 1e-12); // Φ(1)
        QVERIFY(!SpeedupBelief::fromBins({}).known()); // a distribution summing to 0 says nothing
        // A parent measured at 2× (log2 1) and a proposal forecast all in bin 6 ([2×, 2.83×)): sure to beat it.
        const ProposalOutlook o = outlookOf(3, SpeedupBelief::fromBins(binsOf({{6, 1.0}})), 0, 1.0, 1.25);
        QCOMPARE(o.pBeatParent, 1.0);
        QCOMPARE(o.pBeatBest, 0.5);
        QCOMPARE(o.gainOverBest, 0.0625);
    }

    // One parent, budget 2, P(beat best) alike: ranked by expected gain over the best (ties: over the parent, then
    // request order);
    // selective skips what is confidently worse than its parent even with slots free.
    void measureOrSkip_data()
    {
        QTest::addColumn<bool>("skipWorse");
        QTest::addColumn<QList<int>>("measured");
        QTest::addColumn<QList<int>>("skipped");
        QTest::newRow("surrogate: top two by gain") << false << QList<int> {2, 3} << QList<int> {};
        QTest::newRow("selective: the confidently worse one skipped") << true << QList<int> {2, 3} << QList<int> {4};
    }
    void measureOrSkip()
    {
        QFETCH(bool, skipWorse);
        QFETCH(QList<int>, measured);
        QFETCH(QList<int>, skipped);
        const QList<ProposalOutlook> group {outlook(0, 0.40, 0.01, 0.20), outlook(1, 0.50, 0.01, 0.10),
            outlook(2, 0.90, 0.30, 0.50), outlook(3, 0.60, 0.05, 0.30), outlook(4, 0.01, 0.00, 0.00)};
        QList<Decision> out;
        decideByProbability(group, 2, skipWorse, out);
        QCOMPARE(out.size(), group.size());
        QList<int> gotMeasured, gotSkipped;
        for (const Decision &d : std::as_const(out)) {
            if (d.measure)
                gotMeasured << d.position;
            else if (d.reason.startsWith(QLatin1StringView("confidently worse")))
                gotSkipped << d.position;
        }
        std::sort(gotMeasured.begin(), gotMeasured.end());
        QCOMPARE(gotMeasured, measured);
        QCOMPARE(gotSkipped, skipped);
        // Ranks follow the gain: c2, c3, then c0 before c1 (equal gain over the best, more over the parent).
        QCOMPARE(out.at(0).position, 2);
        QCOMPARE(out.at(2).position, 0);
        QCOMPARE(out.at(3).position, 1);
    }

    // docs/search.md's worked example: parent at 2× (log2 1), best at 2.83× (log2 1.5), five proposals on the prior.
    void workedExample_data()
    {
        QTest::addColumn<int>("budget");
        QTest::addColumn<bool>("selective");
        QTest::addColumn<QList<int>>("measured");
        QTest::newRow("b = 2, surrogate") << 2 << false << QList<int> {1, 2};
        QTest::newRow("b = 2, selective") << 2 << true << QList<int> {1, 2};
        QTest::newRow("b = 4, surrogate") << 4 << false << QList<int> {0, 1, 2, 3};
        QTest::newRow("b = 4, selective") << 4 << true << QList<int> {0, 1, 2, 4};
    }
    void workedExample()
    {
        QFETCH(int, budget);
        QFETCH(bool, selective);
        QFETCH(QList<int>, measured);
        const QList<bins::Distribution> forecasts {binsOf({{6, 1.0}}), binsOf({{5, 0.5}, {7, 0.5}}), binsOf({{7, 1.0}}),
            binsOf({{3, 1.0}}), bins::Distribution {}};
        QList<ProposalOutlook> group;
        for (int i = 0; i < forecasts.size(); ++i)
            group << outlookOf(i, SpeedupBelief::fromBins(forecasts.at(i)), 0, 1.0, 1.5);
        QCOMPARE(group.at(1).pBeatParent, 0.5);
        QCOMPARE(group.at(1).gainOverBest, 0.125);
        QCOMPARE(group.at(1).gainOverParent, 0.375);
        QCOMPARE(group.at(0).gainOverParent, 0.25);
        QCOMPARE(group.at(2).gainOverBest, 0.25);
        QCOMPARE(group.at(3).pBeatParent, 0.0);
        QList<Decision> out;
        decideByProbability(group, budget, selective, out);
        QList<int> got;
        for (const Decision &d : std::as_const(out)) {
            if (d.measure)
                got << d.position;
        }
        std::sort(got.begin(), got.end());
        QCOMPARE(got, measured);
        QList<int> order;
        for (const Decision &d : std::as_const(out))
            order << d.position;
        QCOMPARE(order, (QList<int> {2, 1, 0, 3, 4}));
    }

    // (improvements + 1)/(measurements + 2) after the seed's evaluation: bests 1, 1.2, 1.2, 1.5, 1.5 are two
    // improvements in four measurements, 3/6; the seed alone is 1/2.
    void improvementRateByHand()
    {
        const auto point = [](int e, double best) { return TrajectoryPoint {e, best}; };
        QCOMPARE(improvementRate({point(1, 1.0)}), 0.5);
        QCOMPARE(improvementRate({point(1, 1.0), point(2, 1.2), point(3, 1.2), point(4, 1.5), point(5, 1.5)}), 0.5);
        QCOMPARE(improvementRate({point(1, 1.0), point(2, 1.0), point(3, 1.0), point(4, 1.0)}), 1.0 / 5.0);
    }

    // Once the learner forecasts, a parent's proposals after its first are measured only while their P(beat best)
    // is at least the search's improvement rate; on the prior alone the budget is filled.
    void stopsBelowTheImprovementRate_data()
    {
        QTest::addColumn<int>("version");
        QTest::addColumn<double>("rate");
        QTest::addColumn<QList<int>>("measured");
        QTest::newRow("learned, rate 0.2: the two above it") << 12 << 0.2 << QList<int> {1, 3};
        QTest::newRow("learned, rate 0.7: the first alone") << 12 << 0.7 << QList<int> {3};
        QTest::newRow("learned, rate 0: the budget") << 12 << 0.0 << QList<int> {0, 1, 3};
        QTest::newRow("prior alone, rate 0.7: the budget") << 0 << 0.7 << QList<int> {0, 1, 3};
    }
    void stopsBelowTheImprovementRate()
    {
        QFETCH(int, version);
        QFETCH(double, rate);
        QFETCH(QList<int>, measured);
        const double pBest[] = {0.10, 0.30, 0.05, 0.60};
        QList<ProposalOutlook> group;
        for (int i = 0; i < 4; ++i) {
            ProposalOutlook o = outlook(i, 0.5, 0.01 * i, 0.0);
            o.pBeatBest = pBest[i];
            o.learnerVersion = version;
            group << o;
        }
        QList<Decision> out;
        decideByProbability(group, ProbabilityRule {3, true, kConfidentlyWorse, rate}, out);
        QList<int> got;
        for (const Decision &d : std::as_const(out)) {
            if (d.measure)
                got << d.position;
            else if (version > 0 && rate > 0.0 && d.position != 2 && !measured.contains(d.position))
                QVERIFY2(d.reason.contains(QLatin1StringView("improvement rate")), qPrintable(d.reason));
        }
        std::sort(got.begin(), got.end());
        QCOMPARE(got, measured);
        QCOMPARE(out.first().position, 3); // ranked by P(beat best)
    }

    // compare's check of the forecaster against a space with known outcomes: a learner fitted on the odd values of a
    // one-tunable space whose log2 speedup rises with it ranks the even ones it never saw in order; of two trusted
    // "worse than its parent" forecasts, the space proves the one whose child beats its parent wrong.
    void learnerQualityAgainstTheSpace()
    {
        TuningSpace space;
        space.name = QStringLiteral("line");
        space.tunables = {QStringLiteral("A")};
        const auto truth = [](int a) { return 0.02 * a + 0.3 * std::sin(a / 6.0); };
        for (int a = 1; a <= 60; ++a) {
            space.points.append(SpacePoint {{qint64(a)}, std::exp2(truth(a)), 1.0, QStringLiteral("h%1").arg(a)});
        }
        QList<qint64> all;
        for (int a = 1; a <= 60; ++a)
            all << a;
        space.values = {all};
        QVERIFY(space.index());
        SearchState state;
        state.config.policy = Policy::Probability;
        const auto add = [&state, &truth](int a, int step, bool measured) {
            Candidate c;
            c.nodeId = QStringLiteral("n%1").arg(a);
            c.contentHash = QStringLiteral("h%1").arg(a);
            c.parameters = {{QStringLiteral("tunables"), QJsonObject {{QStringLiteral("A"), a}}}};
            c.status = measured ? CandidateStatus::Evaluated : CandidateStatus::Deferred;
            c.measuredInStep = measured ? step : -2;
            if (measured)
                c.reward = std::exp2(truth(a));
            state.byNode.insert(c.nodeId, int(state.candidates.size()));
            state.candidates.push_back(c);
        };
        for (int i = 0; i < 29; ++i)
            add(2 * i + 1, i, true);
        QVERIFY(std::isnan(learnerQuality(state, space).spearmanSpace)); // 29 measurements: not yet
        add(59, 29, true);
        const LearnerQuality q = learnerQuality(state, space);
        QVERIFY2(q.spearmanSpace > 0.95, qPrintable(QString::number(q.spearmanSpace)));
        QCOMPARE(q.trusted, 0);
        add(10, 30, false); // parent n9: A = 10 beats A = 9 (the truth rises there)
        add(12, 30, false);
        state.candidates[state.candidates.size() - 2].parentId = QStringLiteral("n9");
        state.candidates[state.candidates.size() - 2].trustedAtDecision = 1;
        state.candidates.back().parentId = QStringLiteral("n59"); // A = 12 is far below A = 59
        state.candidates.back().trustedAtDecision = 1;
        const LearnerQuality t = learnerQuality(state, space);
        QCOMPARE(t.trusted, 2);
        QCOMPARE(t.trustedWrong, 1);
    }

    // Everything free and nothing confidently worse: selective measures no more than the budget.
    void selectiveSkipsEvenWithSlotsFree()
    {
        QList<Decision> out;
        decideByProbability({outlook(0, 0.02, 0.0, 0.0), outlook(1, 0.03, 0.0, 0.001)}, 4, true, out);
        QVERIFY(std::none_of(out.cbegin(), out.cend(), [](const Decision &d) { return d.measure; }));
        out.clear();
        decideByProbability({outlook(0, 0.02, 0.0, 0.0), outlook(1, 0.03, 0.0, 0.001)}, 4, false, out);
        QVERIFY(std::all_of(out.cbegin(), out.cend(), [](const Decision &d) { return d.measure; }));
    }

    // After 30 measurements the learner ranks the whole family (288 configurations) with Spearman ≥ 0.8, and better
    // than its weak prior does; also from the tunables alone (no prior: a space without source).
    void learnerImprovesSpearman_data()
    {
        QTest::addColumn<bool>("withPrior");
        QTest::newRow("warm-started from a weak prior") << true;
        QTest::newRow("tunables alone") << false;
    }
    void learnerImprovesSpearman()
    {
        QFETCH(bool, withPrior);
        const Synthetic s;
        std::vector<double> prior;
        for (size_t i = 0; i < s.truth.size(); ++i)
            prior.push_back(s.prior(i));
        const double priorRho = spearman(prior, s.truth);
        QVERIFY2(priorRho < 0.6, qPrintable(QString::number(priorRho))); // the prior alone ranks poorly
        for (quint64 seed : {1ULL, 2ULL, 3ULL}) {
            const LearnerFit fit = LearnerFit::fit(trainingOn(s, sampleRows(s.truth.size(), 30, seed), withPrior));
            QVERIFY2(fit.learned(), qPrintable(fit.reason()));
            QCOMPARE(fit.version(), 30);
            std::vector<double> predicted;
            for (size_t i = 0; i < s.configs.size(); ++i) {
                const SpeedupBelief b = fit.predict(s.configs[i], withPrior ? s.prior(i) : std::nan(""));
                QVERIFY(b.known() && b.sd > 0.0);
                predicted.push_back(b.meanLog2());
            }
            const double rho = spearman(predicted, s.truth);
            QVERIFY2(rho >= 0.8 && rho > priorRho, qPrintable(QStringLiteral("seed %1: %2").arg(seed).arg(rho)));
        }
    }

    // The same samples give the same model, so a version number names one model.
    void learnerIsAFunctionOfItsSamples()
    {
        const Synthetic s;
        const LearnerData data = trainingOn(s, sampleRows(s.truth.size(), 20, 9), true);
        const LearnerFit a = LearnerFit::fit(data), b = LearnerFit::fit(data);
        for (size_t i = 0; i < s.configs.size(); i += 17) {
            QCOMPARE(a.predict(s.configs[i], s.prior(i)).mean, b.predict(s.configs[i], s.prior(i)).mean);
            QCOMPARE(a.predict(s.configs[i], s.prior(i)).sd, b.predict(s.configs[i], s.prior(i)).sd);
        }
    }

    void learnerFailsToPrior_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("reason");
        QTest::newRow("too few") << 0 << QStringLiteral("4 measurement(s) so far");
        QTest::newRow("every speedup equal") << 1 << QStringLiteral("no spread left");
        QTest::newRow("no tunables") << 2 << QStringLiteral("no tunables");
        QTest::newRow("not finite") << 3 << QStringLiteral("not a finite speedup");
    }
    void learnerFailsToPrior()
    {
        QFETCH(int, kind);
        QFETCH(QString, reason);
        const Synthetic s;
        LearnerData data = trainingOn(s, sampleRows(s.truth.size(), kind == 0 ? 4 : 12, 5), true);
        if (kind == 1)
            std::fill(data.y.begin(), data.y.end(), 0.7);
        if (kind == 2)
            data.features.clear();
        if (kind == 3)
            data.y[3] = std::nan("");
        const LearnerFit fit = LearnerFit::fit(data);
        QVERIFY(!fit.learned());
        QCOMPARE(fit.version(), 0);
        QVERIFY2(fit.reason().contains(reason), qPrintable(fit.reason()));
        QVERIFY(!fit.predict(s.configs[0], 0.0).known());
    }

    // A step whose learner cannot learn yet (one measurement): each proposal's outlook comes from its own forecast's
    // bins against its parent's measured speedup, version 0, and the step says why.
    void stepOnThePrior()
    {
        SearchState state;
        state.initialized = true;
        state.config.mode = Mode::Selective;
        state.config.measurementsPerParent = 1;
        Candidate parent;
        parent.nodeId = QStringLiteral("p");
        parent.status = CandidateStatus::Evaluated;
        parent.reward = std::exp2(1.25); // half way through bin 6
        parent.measuredInStep = -1;
        parent.parameters = {{QStringLiteral("tunables"), QJsonObject {{QStringLiteral("A"), 4}}}};
        state.candidates.push_back(parent);
        state.byNode.insert(parent.nodeId, 0);
        state.bestReward = parent.reward;
        StepRecord step;
        step.parents = {parent.nodeId};
        for (int i = 0; i < 2; ++i) {
            Candidate c;
            c.nodeId = QStringLiteral("c%1").arg(i);
            c.parentId = parent.nodeId;
            c.status = CandidateStatus::Proposed;
            c.contentHash = c.nodeId;
            c.forecastDone = true;
            c.probabilities = i == 0 ? binsOf({{6, 1.0}}) : binsOf({{2, 1.0}}); // above / far below the parent
            c.parameters = {{QStringLiteral("tunables"), QJsonObject {{QStringLiteral("A"), 8 * (i + 1)}}}};
            state.byNode.insert(c.nodeId, int(state.candidates.size()));
            step.candidates.append(int(state.candidates.size()));
            state.candidates.push_back(c);
        }
        state.steps.push_back(step);
        state.activeStep = 0;
        const Selection selection = selectStep(state);
        QCOMPARE(selection.outlook.learnerVersion, 0);
        QVERIFY(selection.outlook.learnerReason.contains(QLatin1StringView("1 measurement(s) so far")));
        // bin 6 is [1, 1.5) in log2: half of it lies above the parent's 1.25; bin 2 ([−1, −0.5)) none of it
        QCOMPARE(selection.outlook.proposals.value(1).pBeatParent, 0.5);
        QCOMPARE(selection.outlook.proposals.value(2).pBeatParent, 0.0);
        QCOMPARE(selection.decisions.size(), 2);
        QVERIFY(selection.decisions.at(0).measure);
        QVERIFY(!selection.decisions.at(1).measure);
        QVERIFY(selection.decisions.at(1).reason.startsWith(QLatin1StringView("confidently worse")));
    }

    // A configuration without a policy (a log written before there were policies) follows the paper's rules.
    void policyOfOldLogs()
    {
        SearchConfig c;
        c.mode = Mode::Surrogate;
        c.forecaster = QStringLiteral("costmodel");
        QCOMPARE(c.policy, Policy::Probability);
        QJsonObject json = c.toJson();
        QCOMPARE(json.value(QStringLiteral("policy")).toString(), QStringLiteral("probability"));
        json.remove(QStringLiteral("policy"));
        QCOMPARE(SearchConfig::fromJson(json)->policy, Policy::Paper);
        json.insert(QStringLiteral("policy"), QStringLiteral("oracle"));
        QVERIFY(!SearchConfig::fromJson(json));
    }
};

QTEST_GUILESS_MAIN(TestSearchLearner)
#include "tst_search_learner.moc"
