// The forecaster that learns during a search (docs/search.md, "The learner"): a Gaussian process on the search's own
// measurements — log2 speedup over the configuration's tunables (a family's or an imported space's named values),
// around a mean that is the prior forecaster's expected log2 speedup, rescaled on the measured data. Warm-started
// from the shipped model through that mean; works from the tunables alone when there is no prior forecast (a space
// without source). A fit is a pure function of its samples, so the version (the number of measurements it learned
// from) names it exactly and a replay refits the same model. Too little or degenerate data leaves the prior alone,
// with the reason.
#pragma once

#include "core/search/speedup_belief.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace gpuf::search {

struct SearchState;

// Training and query data: one row of raw feature values per configuration (the tunables' values, in `features`
// order), the prior's expected log2 speedup (NaN: no prior forecast) and, for training rows, the measured log2
// speedup.
struct LearnerData
{
    QStringList features;
    std::vector<std::vector<double>> x;
    std::vector<double> prior;
    std::vector<double> y;
};

class LearnerFit
{
public:
    static constexpr int kMinSamples = 5; // fewer measurements leave the prior alone

    int version() const { return m_version; }
    bool learned() const { return m_reason.isEmpty(); }
    QString reason() const { return m_reason; } // why the prior alone forecasts; empty once learned
    // The belief about a configuration with raw features `x` and prior mean `prior` (NaN: none); Kind::None when
    // not learned.
    SpeedupBelief predict(const std::vector<double> &x, double prior) const;

    static LearnerFit fit(const LearnerData &data);
    static LearnerFit priorOnly(const QString &reason);

private:
    std::vector<double> normalised(const std::vector<double> &x) const;
    bool choleskyFit(
        const std::vector<std::vector<double>> &z, const std::vector<double> &r, const std::vector<double> &w);
    bool chooseScales(const std::vector<double> &r);
    QString fitResidual(const LearnerData &data, double slope);

    int m_version = 0;
    QString m_reason = QStringLiteral("no measurements yet");
    std::vector<double> m_low, m_span; // per feature: min and range over the training rows (0: dropped)
    std::vector<std::vector<double>> m_z; // normalised training rows
    std::vector<double> m_alpha; // K⁻¹ r
    std::vector<double> m_chol; // K's lower Cholesky factor, row-major n × n
    std::vector<double> m_weights; // per normalised feature: the inverse length scale
    double m_signal = 1.0, m_noise = 0.0;
    double m_intercept = 0.0, m_slope = 0.0, m_priorMean = 0.0; // mean: intercept + slope · (prior − priorMean)
    double m_logLikelihood = 0.0;
};

// A search's learner data: its measured configurations (candidates with a reward and tunables, measured before the
// active step, in candidate order) as training rows.
LearnerData learnerTraining(const SearchState &state);
// One candidate's query row in the training data's feature order; empty when it has no tunables.
std::vector<double> learnerRow(const LearnerData &data, const SearchState &state, int position);
// The prior's expected log2 speedup for a candidate (NaN without a parsed forecast).
double priorMeanLog2(const SearchState &state, int position);

// Spearman's rank correlation (ties get their mean rank); NaN when either side is constant or sizes differ.
double spearman(const std::vector<double> &a, const std::vector<double> &b);

} // namespace gpuf::search
