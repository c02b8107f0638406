// The certified setting; see certified_trust.h.
#include "core/search/certified_trust.h"

#include "core/bins/bins.h"
#include "core/search/search_state.h"

#include <cmath>

namespace gpuf::search {

namespace {

// The parent's measured log2 speedup; an unmeasured seed (the reference) stands at 1×.
double parentLog2(const SearchState &state, const Candidate &c)
{
    const Candidate *p = state.candidate(c.parentId);
    if (p && p->reward && *p->reward > 0.0)
        return std::log2(*p->reward);
    if (const ArchiveNode *node = state.archive.find(c.parentId); node && node->reward && *node->reward > 0.0)
        return std::log2(*node->reward);
    return 0.0;
}

bool probabilityPolicy(const SearchState &state) { return state.config.policy == Policy::Probability; }

// The pair of a measured candidate; nullopt when it answers no trust question.
std::optional<ScoredPair> pairOf(const SearchState &state, const Candidate &c)
{
    if (c.status != CandidateStatus::Evaluated || !c.reward || !(*c.reward > 0.0) || c.seedNode)
        return std::nullopt;
    if (probabilityPolicy(state)) {
        if (!std::isfinite(c.pBeatParent))
            return std::nullopt;
        return ScoredPair {1.0 - c.pBeatParent, !(std::log2(*c.reward) > parentLog2(state, c))};
    }
    if (!c.forecastDone || c.forecastFailed)
        return std::nullopt;
    const std::optional<int> bin = bins::binOf(*c.reward);
    return ScoredPair {c.confidence, bin && *bin == c.predictedBin};
}

} // namespace

QList<ScoredPair> measuredPairs(const SearchState &state)
{
    QList<ScoredPair> out;
    for (const Candidate &c : state.candidates) {
        if (const auto pair = pairOf(state, c))
            out.append(*pair);
    }
    return out;
}

TrustReport trustReport(const SearchState &state)
{
    TrustReport r;
    r.alpha = state.config.alpha;
    r.active = r.alpha > 0.0;
    if (!r.active)
        return r;
    r.certified = conformalTau(measuredPairs(state), r.alpha);
    for (const Candidate &c : state.candidates) {
        if (c.trustedAtDecision != 1)
            continue;
        if (const auto pair = pairOf(state, c)) {
            ++r.trustedMeasured;
            r.trustedWrong += pair->correct ? 0 : 1;
        }
    }
    r.drift = driftExceeded(r.trustedMeasured, r.trustedWrong, r.alpha);
    return r;
}

double effectiveTau(const SearchState &state, const TrustReport &report)
{
    return report.active ? report.certified.tau : state.config.tau;
}

bool trustedUnder(const SearchState &state, const Candidate &c, double pBeatParent, double tau)
{
    if (probabilityPolicy(state))
        return std::isfinite(pBeatParent) && 1.0 - pBeatParent >= tau;
    return c.forecastDone && !c.forecastFailed && c.confidence >= tau;
}

QJsonObject certifiedJson(const TrustReport &report)
{
    const CertifiedTau &c = report.certified;
    return {{QStringLiteral("alpha"), report.alpha},
        {QStringLiteral("tau"), c.trustsAny() ? QJsonValue(c.tau) : QJsonValue()}, {QStringLiteral("pairs"), c.pairs},
        {QStringLiteral("trusted"), c.trusted}, {QStringLiteral("wrong"), c.wrong}, {QStringLiteral("bound"), c.bound},
        {QStringLiteral("achieved"), c.achieved()}, {QStringLiteral("trusted_measured"), report.trustedMeasured},
        {QStringLiteral("trusted_wrong"), report.trustedWrong}};
}

QJsonObject driftJson(const TrustReport &report, int step)
{
    const double n = report.trustedMeasured;
    return {{QStringLiteral("step"), step}, {QStringLiteral("alpha"), report.alpha},
        {QStringLiteral("trusted"), report.trustedMeasured}, {QStringLiteral("wrong"), report.trustedWrong},
        {QStringLiteral("rate"), n > 0 ? report.trustedWrong / n : 0.0},
        {QStringLiteral("allowed"), report.alpha * n + 2.0 * std::sqrt(n * report.alpha * (1.0 - report.alpha))}};
}

QStringList trustStatusLines(const SearchState &state)
{
    QStringList out;
    if (!(state.config.alpha > 0.0))
        return out;
    const QJsonObject &c = state.certified;
    const auto percent = [](double v) -> QString { return QString::number(100.0 * v, 'f', 1) + QLatin1Char('%'); };
    const QString alpha = QString::number(state.config.alpha, 'g', 3);
    if (c.isEmpty()) {
        out << QStringLiteral("certified τ (α = %1): no selection yet").arg(alpha);
    } else if (!c.value(QStringLiteral("tau")).isDouble()) {
        out << QStringLiteral("certified τ (α = %1): nothing trusted yet — %2 measured pair(s) do not certify any τ")
                   .arg(alpha)
                   .arg(c.value(QStringLiteral("pairs")).toInt());
    } else {
        out << QStringLiteral("certified τ = %1 (α = %2): %3 of %4 measured pair(s) trusted, %5 wrong (bound %6); "
                              "trusted when decided: %7, %8 wrong")
                   .arg(QString::number(c.value(QStringLiteral("tau")).toDouble(), 'f', 3), alpha)
                   .arg(c.value(QStringLiteral("trusted")).toInt())
                   .arg(c.value(QStringLiteral("pairs")).toInt())
                   .arg(percent(c.value(QStringLiteral("achieved")).toDouble()))
                   .arg(percent(c.value(QStringLiteral("bound")).toDouble()))
                   .arg(c.value(QStringLiteral("trusted_measured")).toInt())
                   .arg(c.value(QStringLiteral("trusted_wrong")).toInt());
    }
    if (!state.driftAlarm.isEmpty()) {
        const QJsonObject &d = state.driftAlarm;
        out << QStringLiteral("drift alarm at step %1: %2 of %3 trusted forecasts wrong (%4), more than α = %5 allows "
                              "(%6)")
                   .arg(d.value(QStringLiteral("step")).toInt())
                   .arg(d.value(QStringLiteral("wrong")).toInt())
                   .arg(d.value(QStringLiteral("trusted")).toInt())
                   .arg(percent(d.value(QStringLiteral("rate")).toDouble()), alpha,
                       QString::number(d.value(QStringLiteral("allowed")).toDouble(), 'f', 1));
    }
    return out;
}

} // namespace gpuf::search
