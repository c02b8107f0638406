// Unknown launch features; see feature_gaps.h.
#include "core/features/feature_gaps.h"

#include <QCoreApplication>

#include <cmath>

namespace gpuf::features {
namespace {

// The features a spec's launches and cases fill in (applyLaunchSpec), with the words for them.
struct LaunchFeature
{
    KernelFeature feature;
    const char *words;
};

constexpr LaunchFeature kLaunchFeatures[] = {
    {KernelFeature::ThreadsPerBlock, QT_TRANSLATE_NOOP("gpuf::features", "threads per block")},
    {KernelFeature::TotalThreadsLog2, QT_TRANSLATE_NOOP("gpuf::features", "threads launched")},
    {KernelFeature::TotalBlocksLog2, QT_TRANSLATE_NOOP("gpuf::features", "blocks launched")},
    {KernelFeature::DynamicSharedBytes, QT_TRANSLATE_NOOP("gpuf::features", "dynamic shared memory")},
};

QString gapText(const char *text) { return QCoreApplication::translate("gpuf::features", text); }

} // namespace

QList<KernelFeature> unknownLaunchFeatures(const KernelFeatures &features, const QString &language)
{
    QList<KernelFeature> out;
    if (language != QLatin1StringView("cuda"))
        return out;
    for (const LaunchFeature &f : kLaunchFeatures) {
        if (std::isnan(features.value(f.feature)))
            out.append(f.feature);
    }
    return out;
}

KernelGaps kernelGaps(const Kernel &kernel, const QString &name)
{
    KernelGaps gaps;
    gaps.kernelId = kernel.id;
    gaps.kernelName = name;
    const QJsonObject spec = kernel.parameters.value(QStringLiteral("spec")).toObject();
    gaps.hasSpec = !spec.value(QStringLiteral("launches")).toArray().isEmpty();
    gaps.unknown = unknownLaunchFeatures(extractKernelFeatures(kernel.source, kernel.language, kernel.parameters),
        kernel.language.isEmpty() ? guessLanguage(kernel.source) : kernel.language);
    return gaps;
}

PairGaps pairGaps(
    const Kernel &reference, const QString &referenceName, const Kernel &candidate, const QString &candidateName)
{
    PairGaps out;
    for (const auto &[kernel, name] : {std::pair {&reference, referenceName}, std::pair {&candidate, candidateName}}) {
        KernelGaps gaps = kernelGaps(*kernel, name);
        if (!gaps.unknown.isEmpty())
            out.kernels.append(std::move(gaps));
    }
    return out;
}

QString unknownFeatureNames(const QList<KernelFeature> &unknown)
{
    QStringList names;
    for (const LaunchFeature &f : kLaunchFeatures) {
        if (unknown.contains(f.feature))
            names.append(gapText(f.words));
    }
    return names.join(QStringLiteral(", "));
}

QString pairGapsWarning(const PairGaps &gaps)
{
    if (gaps.isEmpty())
        return {};
    QStringList parts;
    for (const KernelGaps &k : gaps.kernels) {
        parts.append(k.hasSpec
                ? QCoreApplication::translate(
                    "gpuf::features", "kernel '%1' has launch fields that do not evaluate, so its %2 are unknown")
                      .arg(k.kernelName, unknownFeatureNames(k.unknown))
                : QCoreApplication::translate("gpuf::features", "kernel '%1' has no launch spec, so its %2 are unknown")
                      .arg(k.kernelName, unknownFeatureNames(k.unknown)));
    }
    return QCoreApplication::translate("gpuf::features",
        "Forecast from unknown features: %1. The cost model fills them in as for any missing value, so this forecast "
        "guesses the launch geometry. To forecast from what the kernel launches, add its source again with File → Add "
        "Kernel and give it launch fields, or create its problem with File → New Problem….")
        .arg(parts.join(QStringLiteral("; ")));
}

} // namespace gpuf::features
