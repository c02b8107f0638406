// The Searches views' reads; see search_reads.h.
#include "core/search/search_reads.h"

#include "core/forecasters/roofline_prior.h"
#include "core/mutators/shipped_families.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/recorded_spaces.h"
#include "core/store/scored_pairs.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"
#include "core/store/verdict_repo.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

#include <algorithm>

namespace gpuf::search {

Result<QList<SearchSummary>> readSearchSummaries(Store &store, const CancelToken &cancel)
{
    SearchRepo repo(store);
    auto searches = repo.list();
    if (!searches)
        return searches.failure();
    auto problems = ProblemRepo(store).list();
    if (!problems)
        return problems.failure();
    QHash<RowId, QString> problemNames;
    for (const Problem &p : std::as_const(*problems))
        problemNames.insert(p.id, p.name);
    auto verdicts = VerdictRepo(store).all();
    if (!verdicts)
        return verdicts.failure();
    QSet<RowId> quarantined;
    for (auto it = verdicts->cbegin(); it != verdicts->cend(); ++it)
        quarantined.insert(it.key());
    QList<SearchSummary> out;
    out.reserve(searches->size());
    for (const Search &search : std::as_const(*searches)) {
        if (cancel.isCancelled())
            return Error::cancelled();
        auto events = repo.events(search.id);
        if (!events)
            return events.failure();
        SearchSummary summary = summarizeSearch(search, *events, quarantined);
        summary.problemName = problemNames.value(search.problemId);
        out.append(std::move(summary));
    }
    return out;
}

Result<FollowedSearch> readFollowedSearch(Store &store, RowId searchId, const CancelToken &cancel)
{
    SearchRepo searches(store);
    auto search = searches.find(searchId);
    if (!search)
        return search.failure();
    if (!*search)
        return Error {QCoreApplication::translate("gpuf::SearchesPanel", "the search is no longer in the store")};
    auto events = searches.events(searchId);
    if (!events)
        return events.failure();
    if (cancel.isCancelled())
        return Error::cancelled();
    FollowedSearch out;
    out.events = std::move(*events);
    out.problemId = (*search)->problemId;
    if (out.problemId > 0) {
        if (auto problem = ProblemRepo(store).find(out.problemId); problem && *problem)
            out.referenceKernelId = (*problem)->referenceKernelId;
    }
    auto state = foldEvents(out.events);
    if (state)
        out.state = std::make_shared<SearchState>(std::move(*state));
    else
        out.foldError = state.error();
    return out;
}

Result<QList<SearchEvent>> readSearchEventsFrom(
    Store &store, RowId searchId, qint64 from, const CancelToken &cancel, qint64 limit)
{
    if (cancel.isCancelled())
        return Error::cancelled();
    return SearchRepo(store).eventsFrom(searchId, from, limit);
}

Result<QString> readKernelSource(Store &store, RowId kernelId, const CancelToken &cancel)
{
    if (cancel.isCancelled())
        return Error::cancelled();
    auto kernel = KernelRepo(store).find(kernelId);
    if (!kernel)
        return kernel.failure();
    if (!*kernel)
        return Error {QCoreApplication::translate("gpuf::SearchesPanel", "the kernel is no longer in the store")};
    return (*kernel)->source;
}

Result<QList<FoldedSearch>> readFoldedSearches(Store &store, const QStringList &names, const CancelToken &cancel)
{
    QList<FoldedSearch> out;
    for (const QString &name : names) {
        if (cancel.isCancelled())
            return Error::cancelled();
        auto folded = foldStoredSearch(store, name);
        if (folded)
            out.append({name, std::move(*folded)});
    }
    return out;
}

Result<NewSearchChoices> readNewSearchChoices(Store &store, const CancelToken &cancel)
{
    NewSearchChoices out;
    auto problems = ProblemRepo(store).list();
    if (!problems)
        return problems.failure();
    for (const Problem &p : std::as_const(*problems)) {
        if (p.referenceKernelId > 0)
            out.targets.append({p.name, {}, p.name});
    }
    // Families need no stored problem: a family search imports its corpus problem first.
    if (auto families = families::shippedFamilies()) {
        for (const auto &f : std::as_const(*families))
            out.targets.append({f.problem, f.name, f.title.isEmpty() ? f.name : f.title});
    }
    if (cancel.isCancelled())
        return Error::cancelled();
    out.forecasters.append(QStringLiteral("costmodel"));
    out.forecasters.append(QLatin1StringView(kRooflineForecasterName)); // the physics prior, the baseline
    auto forecasters = ForecasterRepo(store).list();
    if (!forecasters)
        return forecasters.failure();
    for (const Forecaster &f : std::as_const(*forecasters)) {
        if (f.kind == ForecasterKind::Llm) {
            out.forecasters.append(f.name);
            out.llmForecasters.append(f.name);
        }
    }
    auto hardware = HardwareRepo(store).list();
    if (!hardware)
        return hardware.failure();
    for (const Hardware &h : std::as_const(*hardware))
        out.hardware.append(h.name);
    auto searches = SearchRepo(store).list();
    if (!searches)
        return searches.failure();
    for (const Search &s : std::as_const(*searches))
        out.searches.append(s.name);
    // What a replay can answer from: the recorded sweeps and imported spaces, so the dialog says before a start
    // whether a family replays on the chosen GPU (one query: loading each space's world takes seconds).
    auto recorded = recordedSpaces(store);
    if (!recorded)
        return recorded.failure();
    for (const RecordedSpace &r : std::as_const(*recorded))
        out.recorded.append({r.family, r.problem, r.hardware, r.configurations});
    // What a pool search can propose before it runs out (the dialog caps its budget there).
    auto pools = recordedPools(store);
    if (!pools)
        return pools.failure();
    for (const RecordedPool &r : std::as_const(*pools))
        out.pools.append({r.problem, r.problem, r.hardware, r.kernels, true});
    // What τ would trust: every forecaster's forecasts with a measured truth, per problem.
    auto scored = loadScoredPairs(store, {}, cancel);
    if (!scored)
        return scored.failure();
    out.confidences = storedConfidences(*scored);
    return out;
}

const StoredConfidences *NewSearchChoices::confidencesOf(const QString &forecaster, const QString &problem) const
{
    for (const StoredConfidences &c : confidences) {
        if (c.forecaster == forecaster && c.problem == problem)
            return &c;
    }
    return nullptr;
}

Result<CompareChoices> readCompareChoices(Store &store, const CancelToken &cancel)
{
    // One query each, not a replay world per problem and GPU (seconds on the sample store): the counts are what the
    // world would hold, kernels without any outcome there being left out of both.
    auto spaces = recordedSpaces(store);
    if (!spaces)
        return spaces.failure();
    CompareChoices out;
    for (const RecordedSpace &r : std::as_const(*spaces))
        out.spaces.append({r.family, r.problem, r.hardware, r.configurations});
    if (cancel.isCancelled())
        return Error::cancelled();
    auto pools = recordedPools(store);
    if (!pools)
        return pools.failure();
    for (const RecordedPool &r : std::as_const(*pools))
        out.spaces.append({r.problem, r.problem, r.hardware, r.kernels, true});
    std::stable_sort(out.spaces.begin(), out.spaces.end(), [](const CompareSpace &a, const CompareSpace &b) {
        if (a.pool != b.pool)
            return !a.pool; // the families and imported spaces first, then the problems' pools
        if (a.space != b.space)
            return a.space < b.space;
        return a.configurations > b.configurations;
    });
    out.forecasters.append(QStringLiteral("costmodel"));
    out.forecasters.append(QLatin1StringView(kRooflineForecasterName)); // the physics prior, the baseline
    auto forecasters = ForecasterRepo(store).list();
    if (!forecasters)
        return forecasters.failure();
    for (const Forecaster &f : std::as_const(*forecasters)) {
        if (f.kind == ForecasterKind::Llm)
            out.forecasters.append(f.name);
    }
    return out;
}

} // namespace gpuf::search
