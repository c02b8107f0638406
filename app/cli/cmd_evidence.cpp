// gpuf evidence STORE --candidate ID: the evidence behind a candidate's measured speedups (who measured, how, how
// certain, checked or not, against the roofline, the verdict). gpuf quarantine STORE --measurement ID --note TEXT
// (--release): set a measurement aside, or take it back. Both over core/evidence.
#include "app/cli/invocation.h"
#include "app/cli/option_names.h"
#include "core/evidence/evidence_format.h"
#include "core/evidence/evidence_reads.h"
#include "core/store/verdict_repo.h"

namespace gpuf::cli {
namespace {

const QString kCandidate = QStringLiteral("candidate");
const QString kMeasurement = QStringLiteral("measurement");
const QString kNote = QStringLiteral("note");
const QString kRelease = QStringLiteral("release");

void printEvidence(QTextStream &out, const evidence::CandidateEvidence &e)
{
    out << "candidate " << e.candidateId << " (" << e.candidateName << ") of " << e.problemName;
    if (e.baselineId != 0)
        out << ", against the reference " << e.baselineId << " (" << e.baselineName << ")";
    out << '\n';
    if (e.hardware.isEmpty())
        out << "  no measurement of it is stored\n";
    for (const evidence::HardwareEvidence &hw : e.hardware) {
        out << '\n' << hw.hardwareName << ": " << evidence::speedupText(hw) << '\n';
        if (hw.interval)
            out << "  interval: " << hw.intervalMethod << '\n';
        for (const evidence::MeasurementEvidence &m : hw.measurements) {
            out << "  measurement " << m.measurementId << " · " << m.role << " · case " << m.caseName << " · "
                << m.status << '\n';
            for (const evidence::Fact &f : evidence::measurementFacts(m))
                out << "    " << f.label << ": " << f.value << '\n';
            for (const evidence::RuleHit &h : m.verdict.hits)
                out << "    rule " << h.rule << ": " << h.detail << '\n';
        }
    }
}

int runEvidence(Invocation &run)
{
    if (run.args().size() != 1)
        return run.usage(QStringLiteral("give exactly one STORE"));
    auto given = run.checkOptions();
    if (!given)
        return run.usage(given.error());
    bool ok = false;
    const RowId candidate = run.value(kCandidate).toLongLong(&ok);
    if (!ok || candidate <= 0)
        return run.usage(QStringLiteral("--candidate needs a kernel id (a positive integer)"));
    auto store = run.readStore(run.args().first());
    if (!store)
        return run.report(BadInput, store.error());
    auto e = evidence::readCandidateEvidence(**store, candidate, run.value(kHardware));
    if (!e)
        return run.bad(e.error());
    if (run.json())
        run.printJson(evidence::toJson(*e));
    else
        printEvidence(run.out(), *e);
    return int(Success);
}

int runQuarantine(Invocation &run)
{
    if (run.args().size() != 1)
        return run.usage(QStringLiteral("give exactly one STORE"));
    auto given = run.checkOptions();
    if (!given)
        return run.usage(given.error());
    bool ok = false;
    const RowId measurement = run.value(kMeasurement).toLongLong(&ok);
    if (!ok || measurement <= 0)
        return run.usage(QStringLiteral("--measurement needs a measurement id (a positive integer)"));
    const bool release = run.isSet(kRelease);
    if (release == run.isSet(kNote))
        return run.usage(QStringLiteral("give either --note TEXT (quarantine) or --release"));
    auto store = run.existingStore(run.args().first());
    if (!store)
        return run.report(BadInput, store.error());
    VerdictRepo verdicts(**store);
    QJsonObject answer {{QStringLiteral("measurement_id"), measurement}};
    if (release) {
        auto released = verdicts.release(measurement);
        if (!released)
            return run.bad(released.error());
        if (!*released)
            return run.bad(QStringLiteral("measurement %1 is not quarantined").arg(measurement));
        answer.insert(QStringLiteral("verdict"), QStringLiteral("released"));
    } else {
        if (Status s = verdicts.quarantine(measurement, run.value(kNote)); !s)
            return run.bad(s.error());
        answer.insert(QStringLiteral("verdict"), QStringLiteral("quarantined"));
        answer.insert(QStringLiteral("note"), run.value(kNote).trimmed());
    }
    if (run.json())
        run.printJson(answer);
    else
        run.out() << "measurement " << measurement << (release ? " released\n" : " quarantined\n");
    return int(Success);
}

} // namespace

Command evidenceCommand()
{
    Command c;
    c.name = QStringLiteral("evidence");
    c.summary = QStringLiteral("Show the evidence behind a candidate's measured speedups, and each measurement's "
                               "verdict.");
    c.usage = QStringLiteral("STORE");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("the gpuf store"), {}}};
    c.options = {
        Option::text(kCandidate, QStringLiteral("ID"), QStringLiteral("The candidate kernel (by id).")).mandatory(),
        Option::text(kHardware, QStringLiteral("H"), QStringLiteral("Only this GPU (by name). Default: every GPU.")),
    };
    c.invoke = runEvidence;
    return c;
}

Command quarantineCommand()
{
    Command c;
    c.name = QStringLiteral("quarantine");
    c.summary = QStringLiteral("Quarantine a measurement with a note (its pairs leave the metrics and searches' "
                               "bests), or release it.");
    c.usage = QStringLiteral("STORE");
    c.arguments = {{QStringLiteral("STORE"), QStringLiteral("the gpuf store"), {}}};
    c.options = {
        Option::text(kMeasurement, QStringLiteral("ID"), QStringLiteral("The measurement (by id).")).mandatory(),
        Option::text(kNote, QStringLiteral("TEXT"), QStringLiteral("Why it is set aside.")),
        Option::flag(kRelease, QStringLiteral("Lift the quarantine.")),
    };
    c.invoke = runQuarantine;
    return c;
}

} // namespace gpuf::cli
