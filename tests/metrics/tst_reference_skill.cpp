// Skill against a reference forecaster (core/metrics/reference_skill.h): a forecaster against itself has skill 0, the
// base-rate forecaster has skill 0 against the base rate, and a case computed by hand against a roofline-like prior.
#include "core/metrics/calibration.h"
#include "core/metrics/reference_skill.h"
#include "core/metrics/report.h"

#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace gpuf::metrics;

namespace {

ScoredRow row(qint64 candidate, int trueBin, const bins::Distribution &p, int repeat = 0, qint64 forecaster = 1)
{
    ScoredRow r;
    r.pairId = candidate;
    r.forecastId = candidate * 10 + repeat + forecaster * 1000;
    r.poolKey = 1;
    r.forecasterId = forecaster;
    r.hardwareId = 1;
    r.repeat = repeat;
    r.p = p;
    r.predictedBin = bins::argmaxBin(p);
    r.parsed = true;
    r.trueBin = trueBin;
    return r;
}

bins::Distribution oneHot(int bin)
{
    bins::Distribution p {};
    p[std::size_t(bin - 1)] = 1.0;
    return p;
}

const double kWrongNll = -std::log(kNllFloor);

} // namespace

class TestReferenceSkill : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void againstItselfIsZero()
    {
        const bins::Distribution spread {0.05, 0.1, 0.2, 0.3, 0.2, 0.1, 0.05, 0.0};
        const std::vector<ScoredRow> rows {row(1, 4, spread), row(2, 6, spread), row(3, 2, oneHot(3))};
        const ReferenceSkill s = skillAgainst(rows, rows);
        QCOMPARE(s.n, 3);
        QCOMPARE(s.rpsSkill, 0.0);
        QCOMPARE(s.brierSkill, 0.0);
        QCOMPARE(s.logSkill, 0.0);
    }

    // The forecaster that always says the base rate of the evaluated rows: its skill against the base rate is 0.
    void baseRateForecasterAgainstTheBaseRateIsZero()
    {
        // True bins 2, 4, 4, 7: base rate 1/4, 1/2, 1/4 on bins 2, 4, 7.
        const bins::Distribution base {0.0, 0.25, 0.0, 0.5, 0.0, 0.0, 0.25, 0.0};
        const std::vector<ScoredRow> rows {row(1, 2, base), row(2, 4, base), row(3, 4, base), row(4, 7, base)};
        const MetricsReport report = computeReport(rows);
        QVERIFY(std::abs(report.scalar(Scalar::RpsSkillBaseRate)) < 1e-12);
        QVERIFY(std::abs(report.scalar(Scalar::BrierSkillBaseRate)) < 1e-12);
        QVERIFY(std::abs(report.scalar(Scalar::LogSkillBaseRate)) < 1e-12);
    }

    // By hand, one-hot forecasts: RPS = |forecast − truth| / 7, Brier Σ = 2 per miss, NLL = −ln 1e-12 per miss.
    // Pair 1 (truth 4): forecaster 4, prior 3. Pair 2 (truth 5): forecaster 3 (in two repeats), prior 5. Pair 3 has no
    // prior forecast: not counted.
    void handComputedAgainstThePrior()
    {
        const std::vector<ScoredRow> rows {
            row(1, 4, oneHot(4)), row(2, 5, oneHot(3), 0), row(2, 5, oneHot(3), 1), row(3, 6, oneHot(6))};
        const std::vector<ScoredRow> prior {row(1, 4, oneHot(3), 0, 9), row(2, 5, oneHot(5), 0, 9)};
        const ReferenceSkill s = skillAgainst(rows, prior);
        QCOMPARE(s.n, 3);
        // Forecaster: RPS (0 + 2/7 + 2/7) / 3 = 4/21; prior: (1/7 + 0 + 0) / 3 = 1/21; skill 1 − 4 = −3.
        QVERIFY(std::abs(s.rps - 4.0 / 21.0) < 1e-12);
        QVERIFY(std::abs(s.referenceRps - 1.0 / 21.0) < 1e-12);
        QVERIFY(std::abs(s.rpsSkill - -3.0) < 1e-9);
        // Brier Σ: forecaster (0 + 2 + 2) / 3, prior 2 / 3: skill −1. Log: the same shape, −1.
        QVERIFY(std::abs(s.brierSum - 4.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(s.referenceBrierSum - 2.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(s.brierSkill - -1.0) < 1e-9);
        QVERIFY(std::abs(s.nll - 2.0 * kWrongNll / 3.0) < 1e-9);
        QVERIFY(std::abs(s.logSkill - -1.0) < 1e-9);
        // The prior against the forecaster's first forecast of each pair: (1/7 + 0) / 2 against (0 + 2/7) / 2, skill ½.
        QVERIFY(std::abs(skillAgainst(prior, rows).rpsSkill - 0.5) < 1e-9);
    }

    void noSharedPairs()
    {
        const std::vector<ScoredRow> rows {row(1, 4, oneHot(4))};
        const ReferenceSkill s = skillAgainst(rows, {});
        QCOMPARE(s.n, 0);
        QVERIFY(std::isnan(s.rpsSkill));
        QVERIFY(toJson(s).value(QStringLiteral("rps_skill")).isNull());
    }
};

QTEST_GUILESS_MAIN(TestReferenceSkill)
#include "tst_reference_skill.moc"
