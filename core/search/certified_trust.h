// The certified setting of a search (docs/search.md, "Calibration in a search"): the user gives α, the acceptable
// error among trusted forecasts, and before each selection τ is set by conformal risk control over the pairs the
// search has measured so far; the error among the measured forecasts that were trusted when decided is watched, and a
// drift alarm fires when it leaves its bound. Pure functions of the state, so a replay logs the same τ and alarm.
#pragma once

#include "core/search/recalibration.h"

#include <QJsonObject>
#include <QStringList>

namespace gpuf::search {

struct SearchState;
struct Candidate;

// A measured pair as the trust rule sees it. Paper policy: confidence = p of the forecast's top bin, right when the
// measured speedup falls in that bin. Probability policy: the trusted claim is "worse than its parent", confidence =
// 1 − P(beat parent), right when the measured child did not beat its parent.
// Only candidates measured with a speedup (a failed configuration answers neither question) count.
QList<ScoredPair> measuredPairs(const SearchState &state);

struct TrustReport
{
    bool active = false; // the search was given α (config.alpha > 0)
    double alpha = 0.0;
    CertifiedTau certified; // τ over measuredPairs
    int trustedMeasured = 0; // measured candidates that were trusted when decided (the decision's `trusted`)
    int trustedWrong = 0; // of those, the wrong ones
    bool drift = false; // driftExceeded(trustedMeasured, trustedWrong, alpha)
};
// The report before the active step's selection; inactive (τ as configured) without α.
TrustReport trustReport(const SearchState &state);

// The τ the selective paper rule trusts by: the certified one with α, else config.tau.
double effectiveTau(const SearchState &state, const TrustReport &report);
// Is a forecast trusted at τ (its confidence as measuredPairs defines it, ≥ τ)? `pBeatParent`: the selection's, under
// the probability policy (NaN: none, not trusted).
bool trustedUnder(const SearchState &state, const Candidate &candidate, double pBeatParent, double tau);

// The `certified` object of forecasts_drained and the drift_alarm payload.
QJsonObject certifiedJson(const TrustReport &report);
QJsonObject driftJson(const TrustReport &report, int step);

// What `gpuf search status` and the search view's status line say of the certified setting, from the folded log (the
// latest `certified` object, the drift alarm): one line each; empty without α.
QStringList trustStatusLines(const SearchState &state);

} // namespace gpuf::search
