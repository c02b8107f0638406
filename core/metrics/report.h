// The metrics report: every calibration, selective and ranking metric of a set of scored rows, pooled or
// per group, with optional bootstrap intervals. The one entry point callers use (CLI, GUI, tests).
#pragma once

#include "core/metrics/bootstrap.h"
#include "core/metrics/calibration.h"
#include "core/metrics/cumulative_reliability.h"
#include "core/metrics/ordinal_scores.h"
#include "core/metrics/prediction_sets.h"
#include "core/metrics/ranking.h"
#include "core/metrics/scored_row.h"
#include "core/metrics/selective.h"

#include <QString>

#include <array>
#include <optional>
#include <span>
#include <vector>

namespace gpuf::metrics {

// Which score ranks a pool; parse failures are ranked as the uniform distribution would be.
enum class RankingScore { ExpectedBin, ExpectedSpeedup, PredictedBin };

struct MetricsOptions
{
    int bootstrapResamples = 0; // 0: no intervals
    quint64 bootstrapSeed = 20260531;
    double ciLevel = 0.95; // percentile interval [(1−level)/2, (1+level)/2]
    RankingScore rankingScore = RankingScore::ExpectedBin;
    // Pools (for ranking utility and regret) smaller than this are left out: a single candidate says
    // nothing about ranking and would only pull the average towards 1.
    int minPoolSize = 2;
    bool regretCurves = true; // the regret risk–coverage curves (binary_mismatch curves are always built)
    bool isotonicReliability = false; // add the bin-free (PAV) fit to each cumulative reliability curve
};

// The scalar metrics; scalarName() gives each one's JSON key.
enum class Scalar {
    Accuracy,
    WithinOne,
    Ece,
    BrierHalf,
    BrierSum,
    Crps,
    Nll,
    MeanEntropy,
    AurcMaxProb,
    AurcNegEntropy,
    AurcTop2Margin,
    UtilityAt10Pct,
    BrierHalfParsed,
    BrierSumParsed,
    CrpsParsed,
    NllParsed,
    // Skill against the base rate of the true bins on the same rows (ordinal_scores.h): 1 − score / base-rate score.
    RpsSkillBaseRate,
    BrierSkillBaseRate,
    LogSkillBaseRate,
    Count
};
inline constexpr int kScalarCount = int(Scalar::Count);
QString scalarName(Scalar scalar);
inline constexpr double kUtilityFraction = 0.10;

// One ranking pool: items sorted by score (highest first) so the GUI can ask for any budget.
struct RankingPool
{
    qint64 poolKey = 0;
    qint64 forecasterId = 0;
    qint64 hardwareId = 0;
    int repeat = 0;
    std::vector<RankedItem> items;
    double bestSpeedup = 0.0;
    double utilityAt10Pct = 0.0;
};

struct MetricsReport
{
    qint64 nTotal = 0; // rows with a valid true bin
    qint64 nParsed = 0;
    std::array<double, kScalarCount> scalars {};
    Reliability reliability {};
    ConfusionMatrix confusion;
    // Indexed like bins::kConfidenceScores (max_prob, neg_entropy, top2_margin).
    std::array<RiskCoverageCurve, 3> mismatchCurves;
    std::array<RiskCoverageCurve, 3> regretCurves; // empty unless options.regretCurves
    std::vector<RankingPool> pools;

    // Ordinal calibration (issue 28). The base rate of the true bins on these rows is the reference of the
    // *_skill_base_rate scalars (all rows, parse failures scored as uniform, as the scores they compare). The
    // cumulative reliability curves and the prediction sets read the parsed forecasts only, as reliability does.
    BaseRateScores baseRate;
    CumulativeReliability cumulativeReliability {};
    std::vector<CoverageRow> predictionSets; // one row per kSetAlphas

    bool hasIntervals = false;
    int bootstrapResamples = 0;
    std::array<Interval, kScalarCount> intervals {};
    std::array<Interval, kReliabilityBuckets> reliabilityAccuracyIntervals {};

    double scalar(Scalar s) const { return scalars[std::size_t(s)]; }
    Interval interval(Scalar s) const { return intervals[std::size_t(s)]; }
};

MetricsReport computeReport(std::span<const ScoredRow> rows, const MetricsOptions &options = {});

// utility(X) averaged over the report's pools (NaN without pools).
double meanUtility(const MetricsReport &report, double fraction);

// Grouping: the whole report per distinct combination of the chosen keys.
enum class GroupField : unsigned { Forecaster = 1, Problem = 2, Hardware = 4, Search = 8, Repeat = 16 };
struct GroupKey
{
    std::optional<qint64> forecasterId;
    std::optional<qint64> problemId;
    std::optional<qint64> hardwareId;
    std::optional<qint64> searchId;
    std::optional<int> repeat;
    bool operator==(const GroupKey &) const = default;
};
struct GroupReport
{
    GroupKey key;
    MetricsReport report;
};
// fields: an OR of GroupField values; 0 yields one pooled group. Groups come ordered by their keys.
std::vector<GroupReport> computeGroupedReports(
    std::span<const ScoredRow> rows, unsigned fields, const MetricsOptions &options = {});

// Keeps only the rows whose pair — (poolKey, pairId, hardwareId, repeat): the same reference, candidate, hardware and
// sample — every forecaster present in `rows` has a row for (parse failures count: a failure is a result), one row
// per forecaster and pair, so forecasters are compared on the same pairs and each reports the same n. Input order is
// kept.
std::vector<ScoredRow> samePairs(std::span<const ScoredRow> rows);

} // namespace gpuf::metrics
