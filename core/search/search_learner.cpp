// LearnerFit and the search's learner data; see search_learner.h.
#include "core/search/search_learner.h"

#include "core/search/search_state.h"

#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace gpuf::search {

namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
// Length scales tried, in units of a feature's range; the one with the highest marginal likelihood is kept, then
// each feature's own scale is stretched or shrunk by these factors where that raises the likelihood (a tunable that
// barely matters gets a long scale, one that matters a lot a short one).
constexpr double kLengthScales[] = {0.25, 0.5, 1.0, 2.0};
constexpr double kFeatureFactors[] = {0.35, 2.8};
// Noise, as shares of the residual variance, tried with each length scale: replayed runtimes repeat exactly, but a
// configuration space has cliffs (a flag that halves the speed) no smooth surface follows, and a model that calls
// them noise stays honest about what it does not know.
constexpr double kNoiseShares[] = {0.05, 0.25};
constexpr int kMaxSamples = 160; // the latest measurements when there are more (bounds the engine's time per step)

// Tunables span orders of magnitude (tile sizes 16…256) or are flags (0/1): a signed log keeps both readable.
double featureValue(double v) { return v >= 0.0 ? std::log2(1.0 + v) : -std::log2(1.0 - v); }

// Σ (w_k (a_k − b_k))²: each feature's inverse length scale w_k.
double scaledDistance(const std::vector<double> &a, const std::vector<double> &b, const std::vector<double> &w)
{
    double d = 0.0;
    for (size_t i = 0; i < a.size(); ++i)
        d += (w[i] * (a[i] - b[i])) * (w[i] * (a[i] - b[i]));
    return d;
}

std::vector<double> averageRanks(const std::vector<double> &v)
{
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&v](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> out(v.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
            ++j;
        for (size_t k = i; k <= j; ++k)
            out[order[k]] = 0.5 * double(i + j);
        i = j + 1;
    }
    return out;
}

// The prior's rescaling on the measured data: least squares of y on the prior's mean, the slope kept in [0, 2] (a
// prior that ranks backwards is ignored rather than inverted); rows without a prior forecast count at the mean.
void fitMean(const LearnerData &data, double &intercept, double &slope, double &priorMean)
{
    double sp = 0.0;
    int np = 0;
    for (double p : data.prior) {
        if (std::isfinite(p)) {
            sp += p;
            ++np;
        }
    }
    priorMean = np > 0 ? sp / np : 0.0;
    const double yMean = std::accumulate(data.y.begin(), data.y.end(), 0.0) / double(data.y.size());
    double cov = 0.0, var = 0.0;
    for (size_t i = 0; i < data.y.size(); ++i) {
        const double p = std::isfinite(data.prior[i]) ? data.prior[i] - priorMean : 0.0;
        cov += p * (data.y[i] - yMean);
        var += p * p;
    }
    slope = var > 1e-12 ? std::clamp(cov / var, 0.0, 2.0) : 0.0;
    intercept = yMean;
}

} // namespace

LearnerFit LearnerFit::priorOnly(const QString &reason)
{
    LearnerFit f;
    f.m_reason = reason;
    return f;
}

std::vector<double> LearnerFit::normalised(const std::vector<double> &x) const
{
    std::vector<double> z;
    z.reserve(m_low.size());
    for (size_t i = 0; i < m_low.size(); ++i) {
        if (m_span[i] > 0.0)
            z.push_back(i < x.size() ? (featureValue(x[i]) - m_low[i]) / m_span[i] : 0.0);
    }
    return z;
}

// K = s²·exp(−½ Σ (w_k (zi_k − zj_k))²) + noise·I; its Cholesky factor, α = K⁻¹r and the log marginal likelihood. False
// when K is not positive definite.
bool LearnerFit::choleskyFit(
    const std::vector<std::vector<double>> &z, const std::vector<double> &r, const std::vector<double> &w)
{
    const size_t n = z.size();
    std::vector<double> l(n * n, 0.0);
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j <= i; ++j) {
            double k = m_signal * std::exp(-0.5 * scaledDistance(z[i], z[j], w));
            if (i == j)
                k += m_noise;
            for (size_t m = 0; m < j; ++m)
                k -= l[i * n + m] * l[j * n + m];
            if (i == j) {
                if (!(k > 0.0))
                    return false;
                l[i * n + i] = std::sqrt(k);
            } else {
                l[i * n + j] = k / l[j * n + j];
            }
        }
    }
    std::vector<double> v(r); // L v = r, then Lᵀ α = v
    for (size_t i = 0; i < n; ++i) {
        for (size_t m = 0; m < i; ++m)
            v[i] -= l[i * n + m] * v[m];
        v[i] /= l[i * n + i];
    }
    double lml = 0.0;
    for (size_t i = 0; i < n; ++i)
        lml += -0.5 * v[i] * v[i] - std::log(l[i * n + i]);
    std::vector<double> alpha(v);
    for (size_t i = n; i-- > 0;) {
        for (size_t m = i + 1; m < n; ++m)
            alpha[i] -= l[m * n + i] * alpha[m];
        alpha[i] /= l[i * n + i];
    }
    if (!std::isfinite(lml) || (!m_chol.empty() && lml <= m_logLikelihood))
        return true; // a worse length scale: keep the one we have
    m_chol = std::move(l);
    m_alpha = std::move(alpha);
    m_weights = w;
    m_logLikelihood = lml;
    return true;
}

// The isotropic length scale with the highest marginal likelihood, then one pass over the features, each one's scale
// moved by kFeatureFactors where that is better still. False when no K was positive definite.
bool LearnerFit::chooseScales(const std::vector<double> &r)
{
    const size_t d = m_z.empty() ? 0 : m_z.front().size();
    bool any = false;
    const double variance = m_signal;
    double bestNoise = m_noise;
    for (double share : kNoiseShares) {
        m_noise = share * variance + 1e-9;
        for (double ell : kLengthScales) {
            const double before = m_logLikelihood;
            const bool hadFit = !m_chol.empty();
            any = choleskyFit(m_z, r, std::vector<double>(d, 1.0 / ell)) || any;
            if (!m_chol.empty() && (!hadFit || m_logLikelihood > before))
                bestNoise = m_noise;
        }
    }
    m_noise = bestNoise;
    if (!any || m_chol.empty())
        return any;
    for (size_t k = 0; k < d; ++k) {
        const std::vector<double> base = m_weights;
        for (double factor : kFeatureFactors) {
            std::vector<double> w = base;
            w[k] /= factor;
            choleskyFit(m_z, r, w);
        }
    }
    return true;
}

LearnerFit LearnerFit::fit(const LearnerData &dataIn)
{
    LearnerData data = dataIn;
    const int n = int(data.y.size());
    if (data.features.isEmpty())
        return priorOnly(QStringLiteral("the configurations carry no tunables: nothing to learn from"));
    if (n < kMinSamples)
        return priorOnly(QStringLiteral("%1 measurement(s) so far; the learner starts at %2").arg(n).arg(kMinSamples));
    if (n > kMaxSamples) {
        const auto cut = ptrdiff_t(n - kMaxSamples);
        data.x.erase(data.x.begin(), data.x.begin() + cut);
        data.prior.erase(data.prior.begin(), data.prior.begin() + cut);
        data.y.erase(data.y.begin(), data.y.begin() + cut);
    }
    for (size_t i = 0; i < data.y.size(); ++i) {
        if (!std::isfinite(data.y[i]) || data.x[i].size() != size_t(data.features.size()))
            return priorOnly(QStringLiteral("measurement %1 is not a finite speedup with every tunable").arg(i));
    }
    LearnerFit f;
    f.m_version = n;
    f.m_reason.clear();
    const size_t d = size_t(data.features.size());
    f.m_low.assign(d, std::numeric_limits<double>::infinity());
    f.m_span.assign(d, 0.0);
    std::vector<double> high(d, -std::numeric_limits<double>::infinity());
    for (const std::vector<double> &row : data.x) {
        for (size_t k = 0; k < d; ++k) {
            f.m_low[k] = std::min(f.m_low[k], featureValue(row[k]));
            high[k] = std::max(high[k], featureValue(row[k]));
        }
    }
    for (size_t k = 0; k < d; ++k)
        f.m_span[k] = high[k] - f.m_low[k] > 1e-12 ? high[k] - f.m_low[k] : 0.0;
    double slope = 0.0;
    fitMean(data, f.m_intercept, slope, f.m_priorMean);
    for (const std::vector<double> &row : data.x)
        f.m_z.push_back(f.normalised(row));
    // With the prior's slope fitted and without the prior: the data's likelihood decides whether the prior helps.
    LearnerFit withPrior = f, without = f;
    const QString whyWith = withPrior.fitResidual(data, slope);
    const QString whyWithout = slope > 0.0 ? without.fitResidual(data, 0.0) : whyWith;
    if (!whyWith.isEmpty() && !whyWithout.isEmpty())
        return priorOnly(whyWith);
    if (whyWith.isEmpty()
        && (slope == 0.0 || !whyWithout.isEmpty() || withPrior.m_logLikelihood >= without.m_logLikelihood))
        return withPrior;
    return without;
}

// The residual GP around intercept + slope · (prior − its mean); an empty string, or why it could not be fitted.
QString LearnerFit::fitResidual(const LearnerData &data, double slope)
{
    m_slope = slope;
    std::vector<double> r(data.y.size());
    double var = 0.0;
    for (size_t i = 0; i < r.size(); ++i) {
        const double p = std::isfinite(data.prior[i]) ? data.prior[i] - m_priorMean : 0.0;
        r[i] = data.y[i] - m_intercept - m_slope * p;
        var += r[i] * r[i];
    }
    var /= double(r.size());
    if (!(var > 1e-10))
        return QStringLiteral("every measured speedup is explained alike (no spread left): nothing to learn");
    m_signal = var;
    m_noise = kNoiseShares[0] * var + 1e-9;
    if (!chooseScales(r))
        return QStringLiteral("the learner's kernel matrix is not positive definite");
    if (m_chol.empty())
        return QStringLiteral("the learner's fit is not finite");
    return {};
}

SpeedupBelief LearnerFit::predict(const std::vector<double> &x, double prior) const
{
    if (!learned() || x.size() != m_low.size())
        return {};
    const std::vector<double> z = normalised(x);
    const size_t n = m_z.size();
    std::vector<double> k(n);
    for (size_t i = 0; i < n; ++i)
        k[i] = m_signal * std::exp(-0.5 * scaledDistance(z, m_z[i], m_weights));
    double mean = m_intercept + m_slope * (std::isfinite(prior) ? prior - m_priorMean : 0.0);
    for (size_t i = 0; i < n; ++i)
        mean += k[i] * m_alpha[i];
    for (size_t i = 0; i < n; ++i) { // v = L⁻¹k, variance = s² − vᵀv
        for (size_t m = 0; m < i; ++m)
            k[i] -= m_chol[i * n + m] * k[m];
        k[i] /= m_chol[i * n + i];
    }
    const double explained = std::inner_product(k.begin(), k.end(), k.begin(), 0.0);
    return SpeedupBelief::gaussian(mean, std::sqrt(std::max(m_signal - explained, 0.0) + m_noise));
}

double priorMeanLog2(const SearchState &state, int position)
{
    const Candidate &c = state.candidates[size_t(position)];
    if (!c.forecastDone || c.forecastFailed)
        return kNoValue;
    const SpeedupBelief b = SpeedupBelief::fromBins(c.probabilities);
    return b.known() ? b.meanLog2() : (c.expectedBin - 3.5) / 2.0; // a log without probabilities: the bins' centre
}

std::vector<double> learnerRow(const LearnerData &data, const SearchState &state, int position)
{
    const QJsonObject tunables
        = state.candidates[size_t(position)].parameters.value(QStringLiteral("tunables")).toObject();
    if (tunables.isEmpty())
        return {};
    std::vector<double> row;
    for (const QString &name : data.features) {
        const QJsonValue v = tunables.value(name);
        if (!v.isDouble())
            return {};
        row.push_back(v.toDouble());
    }
    return row;
}

LearnerData learnerTraining(const SearchState &state)
{
    LearnerData data;
    const int before = state.active() ? state.active()->step : int(state.steps.size());
    std::vector<int> rows;
    for (size_t i = 0; i < state.candidates.size(); ++i) {
        const Candidate &c = state.candidates[i];
        if (c.status != CandidateStatus::Evaluated || !c.reward || !(*c.reward > 0.0) || c.measuredInStep >= before)
            continue;
        const QJsonObject tunables = c.parameters.value(QStringLiteral("tunables")).toObject();
        if (tunables.isEmpty())
            continue;
        if (data.features.isEmpty())
            data.features = tunables.keys(); // sorted: the same order on every machine
        rows.push_back(int(i));
    }
    for (int position : rows) {
        std::vector<double> row = learnerRow(data, state, position);
        if (row.empty())
            continue;
        data.x.push_back(std::move(row));
        data.prior.push_back(priorMeanLog2(state, position));
        data.y.push_back(std::log2(*state.candidates[size_t(position)].reward));
    }
    return data;
}

double spearman(const std::vector<double> &a, const std::vector<double> &b)
{
    if (a.size() != b.size() || a.size() < 2)
        return kNoValue;
    const std::vector<double> ra = averageRanks(a), rb = averageRanks(b);
    const double m = 0.5 * double(a.size() - 1);
    double cov = 0.0, va = 0.0, vb = 0.0;
    for (size_t i = 0; i < a.size(); ++i) {
        cov += (ra[i] - m) * (rb[i] - m);
        va += (ra[i] - m) * (ra[i] - m);
        vb += (rb[i] - m) * (rb[i] - m);
    }
    return va > 0.0 && vb > 0.0 ? cov / std::sqrt(va * vb) : kNoValue;
}

} // namespace gpuf::search
