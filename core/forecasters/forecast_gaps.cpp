// Unknown launch features of a batch; see forecast_gaps.h.
#include "core/forecasters/forecast_gaps.h"

#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QJsonArray>

#include <map>

namespace gpuf::forecasters {

Result<GapReport> forecastGaps(Store &store, const QList<ForecastPair> &pairs)
{
    KernelRepo kernels(store);
    std::map<RowId, features::KernelGaps> byId; // each kernel's features are extracted once
    const auto gapsOf = [&](RowId id) -> Result<const features::KernelGaps *> {
        if (auto it = byId.find(id); it != byId.end())
            return &it->second;
        auto kernel = kernels.find(id);
        if (!kernel)
            return Error {kernel.error()};
        features::KernelGaps gaps;
        if (kernel->has_value()) {
            const Kernel &k = **kernel;
            gaps = features::kernelGaps(k, k.name.isEmpty() ? k.contentHash.left(12) : k.name);
        }
        return &byId.emplace(id, gaps).first->second;
    };
    GapReport report;
    for (const ForecastPair &pair : pairs) {
        bool missing = false;
        for (const RowId id : {pair.referenceKernelId, pair.candidateKernelId}) {
            auto gaps = gapsOf(id);
            if (!gaps)
                return Error {gaps.error()};
            missing = missing || !(*gaps)->unknown.isEmpty();
        }
        if (missing)
            ++report.pairs;
    }
    for (const auto &[id, gaps] : byId) {
        if (!gaps.unknown.isEmpty())
            report.kernels.append(gaps);
    }
    return report;
}

QStringList GapReport::lines(int limit) const
{
    if (isEmpty())
        return {};
    QStringList out {QStringLiteral("warning: %1 pair(s) rest on unknown launch features: the cost model cannot know "
                                    "what these kernels launch and fills the features in as it learned to for "
                                    "missing values")
                         .arg(pairs)};
    for (qsizetype i = 0; i < kernels.size() && i < limit; ++i) {
        const features::KernelGaps &k = kernels[i];
        out.append(QStringLiteral("warning:   kernel %1 '%2': %3 unknown (%4)")
                       .arg(k.kernelId)
                       .arg(k.kernelName, features::unknownFeatureNames(k.unknown),
                           k.hasSpec ? QStringLiteral("its launch spec does not evaluate")
                                     : QStringLiteral("no launch spec")));
    }
    if (kernels.size() > limit)
        out.append(QStringLiteral("warning:   … and %1 more kernel(s)").arg(kernels.size() - limit));
    out.append(QStringLiteral("warning: give them launch fields (gpuf-explorer: File → Add Kernel, or a problem made "
                              "with File → New Problem…) to forecast from what they launch"));
    return out;
}

QJsonObject GapReport::toJson() const
{
    QJsonArray list;
    for (const features::KernelGaps &k : kernels) {
        QJsonArray unknown;
        for (const features::KernelFeature f : k.unknown)
            unknown.append(features::kernelFeatureKey(f));
        list.append(QJsonObject {{QStringLiteral("kernel"), k.kernelId}, {QStringLiteral("name"), k.kernelName},
            {QStringLiteral("has_spec"), k.hasSpec}, {QStringLiteral("unknown"), unknown}});
    }
    return QJsonObject {{QStringLiteral("pairs"), pairs}, {QStringLiteral("kernels"), list}};
}

} // namespace gpuf::forecasters
