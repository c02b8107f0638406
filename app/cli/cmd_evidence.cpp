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

// A required row id: a positive integer (a store's ids stay far below 10^18, so every one given fits a RowId).
Option rowIdOption(const QString &name, const QString &help, const QString &what)
{
    return Option::uint64(name, QStringLiteral("ID"), help)
        .atLeast(1)
        .atMost(1e18)
        .refusedAs(QStringLiteral("needs %1 (a positive integer)").arg(what))
        .mandatory();
}

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
    const auto candidate = RowId(given->uint64(kCandidate));
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
    const auto measurement = RowId(given->uint64(kMeasurement));
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
        rowIdOption(kCandidate, QStringLiteral("The candidate kernel (by id)."), QStringLiteral("a kernel id")),
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
        rowIdOption(kMeasurement, QStringLiteral("The measurement (by id)."), QStringLiteral("a measurement id")),
        Option::text(kNote, QStringLiteral("TEXT"), QStringLiteral("Why it is set aside.")),
        Option::flag(kRelease, QStringLiteral("Lift the quarantine.")),
    };
    c.invoke = runQuarantine;
    return c;
}

} // namespace gpuf::cli
