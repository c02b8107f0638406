// Compile features from worker answers and stored resource usage; see compile_features.h.
#include "core/features/compile_features.h"

#include <QJsonArray>

#include <cmath>

namespace gpuf::features {

bool applyCompileResult(KernelFeatures &features, const QJsonObject &compile)
{
    const QJsonArray kernels = compile.value(QStringLiteral("kernels")).toArray();
    QJsonObject heaviest;
    for (const QJsonValue k : kernels) {
        const QJsonObject kernel = k.toObject();
        if (heaviest.isEmpty()
            || kernel.value(QStringLiteral("registers")).toInt(-1)
                > heaviest.value(QStringLiteral("registers")).toInt(-1))
            heaviest = kernel;
    }
    if (heaviest.isEmpty())
        return false;
    const auto known = [&heaviest](const char *key) -> std::optional<double> {
        const int v = heaviest.value(QLatin1StringView(key)).toInt(-1);
        return v >= 0 ? std::optional<double>(v) : std::nullopt;
    };
    if (const auto v = known("registers"))
        features.set(KernelFeature::Registers, *v);
    const auto store = known("spill_store_bytes");
    const auto load = known("spill_load_bytes");
    if (store || load)
        features.set(KernelFeature::SpillBytes, store.value_or(0) + load.value_or(0));
    if (const auto v = known("static_shared_bytes"))
        features.set(KernelFeature::CompiledSharedBytes, *v);
    if (const auto v = known("local_bytes"))
        features.set(KernelFeature::LocalBytes, *v);

    const QJsonObject mix = compile.value(QStringLiteral("ptx_mix")).toObject();
    const std::pair<const char *, KernelFeature> counts[]
        = {{"ld_global_v4", KernelFeature::PtxGlobalLoadsV4}, {"ld_global_v2", KernelFeature::PtxGlobalLoadsV2},
            {"ld_global", KernelFeature::PtxGlobalLoads}, {"st_global", KernelFeature::PtxGlobalStores},
            {"mma", KernelFeature::PtxMma}, {"cp_async", KernelFeature::PtxCpAsync},
            {"bar_sync", KernelFeature::PtxBarSync}, {"atomics", KernelFeature::PtxAtomics},
            {"shfl", KernelFeature::PtxShuffles}, {"instructions", KernelFeature::PtxInstructions}};
    for (const auto &[key, feature] : counts) {
        const QJsonValue v = mix.value(QLatin1StringView(key));
        if (v.isDouble() && v.toDouble() >= 0)
            features.set(feature, v.toDouble());
    }
    return true;
}

void applyResourceUsage(KernelFeatures &features, int registers, int sharedMemoryBytes, int localMemoryBytes)
{
    if (registers >= 0)
        features.set(KernelFeature::Registers, registers);
    if (sharedMemoryBytes >= 0)
        features.set(KernelFeature::CompiledSharedBytes, sharedMemoryBytes);
    if (localMemoryBytes >= 0)
        features.set(KernelFeature::LocalBytes, localMemoryBytes);
}

bool hasCompileFeatures(const KernelFeatures &features)
{
    for (int i = 0; i < kKernelFeatureCount; ++i) {
        if (isCompileFeature(KernelFeature(i)) && !std::isnan(features.values[std::size_t(i)]))
            return true;
    }
    return false;
}

void clearCompileFeatures(KernelFeatures &features)
{
    for (int i = 0; i < kKernelFeatureCount; ++i) {
        if (isCompileFeature(KernelFeature(i)))
            features.values[std::size_t(i)] = kMissing;
    }
}

} // namespace gpuf::features
