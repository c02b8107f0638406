// The evidence in words and numbers for people (the CLI's text and the explorer's Evidence dialog show the same
// lines) and as JSON (gpuf evidence --json, case files). Whatever the store does not hold reads "not recorded".
#pragma once

#include "core/evidence/evidence.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace gpuf::evidence {

QString notRecorded();

struct Fact
{
    QString key; // stable, for JSON and tests: "median", "rse", …
    QString label; // for people
    QString value; // formatted, or notRecorded()
};

// One measurement's facts, in display order.
QList<Fact> measurementFacts(const MeasurementEvidence &m);
// The pair's speedup on one GPU: "1.234× [1.201×, 1.268×] 95 %, 2 cases" and whether it straddles an edge.
QString speedupText(const HardwareEvidence &hw);
// "clean", "suspicious: rse-over-bound, below-floor", "quarantined: NOTE".
QString verdictText(const Verdict &v);

QJsonObject toJson(const CandidateEvidence &evidence);
QJsonObject toJson(const MeasurementEvidence &m);

} // namespace gpuf::evidence
