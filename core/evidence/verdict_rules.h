// The rules that call a measurement suspicious (issue 28, docs/manual.md "Evidence and verdicts"). Each rule looks at
// one measurement's evidence and, when it fires, names itself and the figures that made it fire. Pure functions.
#pragma once

#include "core/evidence/evidence.h"

namespace gpuf::evidence {

// Bounds of the rules.
inline constexpr double kRseBound = 0.02; // a relative standard error over 2 %
inline constexpr double kClockDriftBound = 0.05; // SM or memory clock after the timing off by over 5 % from before

// The rules that fire for `m` (its verdict field is not read). `interval` is the pair's, for the straddle rule, which
// is applied to the candidate's measurements only.
QList<RuleHit> firedRules(const MeasurementEvidence &m, const std::optional<SpeedupInterval> &interval);

// Clean without a hit, suspicious with one; a stored quarantine overrides both (the hits are kept).
Verdict verdictOf(const QList<RuleHit> &hits, bool quarantined, const QString &note, const QDateTime &at);

} // namespace gpuf::evidence
