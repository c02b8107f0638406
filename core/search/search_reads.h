// The reads and writes the Searches views make of a store, as named functions over a connection (and a cancel token
// for reads), so the views run them through StoreSession::read and write and the CLI can call the same ones.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/search/search_setup.h"
#include "core/search/search_state.h"
#include "core/search/search_summary.h"
#include "core/search/trust_preview.h"

#include <QList>
#include <QStringList>

#include <memory>

namespace gpuf {
class Store;
}

namespace gpuf::search {

// Every search of the store, summarised from its log, in id order.
Result<QList<SearchSummary>> readSearchSummaries(Store &store, const CancelToken &cancel);

// One search's whole log, folded, with what the views need to show its nodes against the reference.
struct FollowedSearch
{
    QList<SearchEvent> events;
    std::shared_ptr<SearchState> state; // null when the log does not fold (foldError says why)
    QString foldError;
    RowId referenceKernelId = 0;
    RowId problemId = 0;
};
Result<FollowedSearch> readFollowedSearch(Store &store, RowId searchId, const CancelToken &cancel);

// A search's events from position `from` on (what its log gained since it was read), at most `limit` when it is not
// negative.
Result<QList<SearchEvent>> readSearchEventsFrom(
    Store &store, RowId searchId, qint64 from, const CancelToken &cancel, qint64 limit = -1);

// A kernel's source (the fold drops the code of nodes that left their step).
Result<QString> readKernelSource(Store &store, RowId kernelId, const CancelToken &cancel);

// Searches folded from their logs, by name (names that do not fold are left out), in the order given.
struct FoldedSearch
{
    QString name;
    SearchState state;
};
Result<QList<FoldedSearch>> readFoldedSearches(Store &store, const QStringList &names, const CancelToken &cancel);

// What the Compare view offers: the spaces with known outcomes `compareStrategies` can run on (a kernel family or an
// imported tuning space, or a problem's recorded pool, on each GPU where they and the reference have recorded outcomes)
// and the forecasters.
struct CompareSpace
{
    QString space; // the family or imported space (`gpuf search compare --family`); a pool: the problem's name
    QString problem;
    QString hardware;
    int configurations = 0; // with a recorded outcome on that GPU (failures included); a pool: its kernels
    bool pool = false; // the problem's recorded kernels, without tunables (`gpuf search compare --problem`)
};

// What New Search… offers: targets, forecasters, hardware and the searches whose log can propose.
struct NewSearchChoices
{
    struct Target
    {
        QString problem;
        QString family; // empty: the problem itself (recorded pool or LLM)
        QString title;
    };
    QList<Target> targets; // problems with a reference kernel, then the shipped families
    QStringList forecasters; // costmodel, roofline (the physics prior), then the LLM forecasters
    QStringList llmForecasters; // of them, those that call an endpoint (and can generate)
    QStringList hardware;
    QStringList searches; // searches whose log can be a recorded pool
    QList<CompareSpace> recorded; // the families and imported spaces with recorded runtimes, per GPU (a replay's world)
    QList<CompareSpace> pools; // each problem's recorded pool per GPU (pool = true): what a pool search can propose
    QList<StoredConfidences> confidences; // each forecaster's scored forecasts per problem: what τ would trust
    const StoredConfidences *confidencesOf(const QString &forecaster, const QString &problem) const;
};
Result<NewSearchChoices> readNewSearchChoices(Store &store, const CancelToken &cancel);

struct CompareChoices
{
    QList<CompareSpace> spaces; // families and spaces, then pools; each by name, then the GPU with most configurations
    QStringList forecasters; // costmodel, roofline (the physics prior), then the LLM forecasters
};
Result<CompareChoices> readCompareChoices(Store &store, const CancelToken &cancel);

} // namespace gpuf::search
