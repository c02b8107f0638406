// selectForecastPairs; see forecast_pairs.h.
#include "core/forecasters/forecast_pairs.h"

#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

#include <map>
#include <set>
#include <tuple>

namespace gpuf {
namespace {

QString tr(const char *text, int n = -1) { return QCoreApplication::translate("gpuf::forecasters", text, nullptr, n); }

} // namespace

QString pairSourceName(PairSource source)
{
    switch (source) {
    case PairSource::Reference:
        return QStringLiteral("reference");
    case PairSource::Labelled:
        return QStringLiteral("labelled");
    case PairSource::All:
        break;
    }
    return QStringLiteral("all");
}

std::optional<PairSource> pairSourceFromName(const QString &name)
{
    for (PairSource s : {PairSource::Reference, PairSource::Labelled, PairSource::All}) {
        if (pairSourceName(s) == name)
            return s;
    }
    if (name == QLatin1StringView("labeled"))
        return PairSource::Labelled;
    return std::nullopt;
}

QList<ForecastPair> ForecastPairSelection::allPairs() const
{
    QList<ForecastPair> out;
    std::set<std::pair<RowId, RowId>> seen;
    for (const HardwarePairs &g : groups) {
        for (const ForecastPair &p : g.pairs) {
            if (seen.insert({p.referenceKernelId, p.candidateKernelId}).second)
                out.append(p);
        }
    }
    return out;
}

qsizetype ForecastPairSelection::size() const
{
    qsizetype n = 0;
    for (const HardwarePairs &g : groups)
        n += g.pairs.size();
    return n;
}

QString ForecastPairSelection::emptyReason(PairSource source) const
{
    if (size() > 0)
        return {};
    if (problems == 0)
        return tr("the store holds no problem (import or add kernels first)");
    QString why;
    switch (source) {
    case PairSource::Reference:
        why = problemsWithReference == 0 ? tr("no problem has a reference kernel to compare with")
                                         : tr("the references' problems hold no other kernel");
        if (labelledPairs > 0)
            why += tr("; the store has %n labelled pair(s): forecast them with --pairs labelled or all", labelledPairs);
        return why;
    case PairSource::Labelled:
        why = tr("no pair label names kernels of the chosen problem(s)");
        if (referencePairs > 0)
            why += tr("; the references give %n pair(s): forecast them with --pairs reference or all", referencePairs);
        return why;
    case PairSource::All:
        break;
    }
    return tr("no problem has a reference kernel and another kernel, and no pair label names its kernels");
}

Result<ForecastPairSelection> selectForecastPairs(Store &store, PairSource source, const QString &problemName)
{
    ProblemRepo problems(store);
    QList<Problem> chosen;
    if (!problemName.isEmpty()) {
        auto p = problems.findByName(problemName);
        if (!p)
            return Error {p.error()};
        if (!p->has_value())
            return Error {tr("no problem named '%1'").arg(problemName)};
        chosen.append(**p);
    } else {
        auto all = problems.list();
        if (!all)
            return Error {all.error()};
        chosen = *all;
    }
    auto kernels = KernelRepo(store).summaries();
    if (!kernels)
        return Error {kernels.error()};
    auto labels = PairLabelRepo(store).list();
    if (!labels)
        return Error {labels.error()};

    ForecastPairSelection out;
    out.problems = int(chosen.size());
    QSet<RowId> problemIds;
    for (const Problem &p : std::as_const(chosen))
        problemIds.insert(p.id);
    QHash<RowId, RowId> problemOf;
    for (const KernelSummary &k : std::as_const(*kernels))
        problemOf.insert(k.id, k.problemId);

    std::map<RowId, HardwarePairs> groups;
    std::set<std::tuple<RowId, RowId, RowId>> seen;
    const auto add = [&](RowId hardware, RowId reference, RowId candidate) {
        if (reference == 0 || candidate == 0 || reference == candidate
            || !seen.insert({hardware, reference, candidate}).second)
            return;
        HardwarePairs &g = groups[hardware];
        g.hardwareId = hardware;
        g.pairs.append(ForecastPair {reference, candidate});
    };
    for (const Problem &problem : std::as_const(chosen)) {
        if (problem.referenceKernelId == 0)
            continue;
        ++out.problemsWithReference;
        for (const KernelSummary &k : std::as_const(*kernels)) {
            if (k.problemId != problem.id || k.id == problem.referenceKernelId)
                continue;
            ++out.referencePairs;
            if (source != PairSource::Labelled)
                add(0, problem.referenceKernelId, k.id);
        }
    }
    for (const PairLabel &label : std::as_const(*labels)) {
        if (!problemIds.contains(problemOf.value(label.candidateKernelId)))
            continue;
        ++out.labelledPairs;
        if (source != PairSource::Reference)
            add(label.hardwareId, label.referenceKernelId, label.candidateKernelId);
    }
    for (auto &[hardware, group] : groups)
        out.groups.append(std::move(group));
    return out;
}

} // namespace gpuf
