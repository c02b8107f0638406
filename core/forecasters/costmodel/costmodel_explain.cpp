// explainForecast; see costmodel_explain.h.
#include "core/forecasters/costmodel/costmodel_explain.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace gpuf::costmodel {

Result<Explanation> explainForecast(const CostModel &model, const features::KernelFeatures &reference,
    const features::KernelFeatures &candidate, const features::HardwareRow &hardware, std::span<const float> pairRow,
    const bins::Distribution &calibrated, int predictedBin, const ExplainOptions &options)
{
    auto phi = model.contributions(pairRow, predictedBin);
    if (!phi)
        return phi.failure();
    // Sum a feature's columns: the model may split one fact (16 vs 4 bytes) over the candidate's value and the
    // difference, and a reader wants it once.
    std::vector<double> kernel(std::size_t(features::kKernelFeatureCount), 0.0);
    std::vector<double> gpu(std::size_t(features::kHardwareFeatureCount), 0.0);
    for (int c = 0; c < features::kPairColumnCount; ++c) {
        const features::PairColumn column = features::pairColumn(c);
        if (column.role == features::PairRole::Hardware)
            gpu[std::size_t(column.feature)] += (*phi)[std::size_t(c)];
        else
            kernel[std::size_t(column.feature)] += (*phi)[std::size_t(c)];
    }
    QList<ExplanationItem> items;
    for (int f = 0; f < features::kKernelFeatureCount; ++f) {
        if (std::abs(kernel[std::size_t(f)]) < options.minContribution)
            continue;
        const auto feature = features::KernelFeature(f);
        ExplanationItem item;
        item.feature = features::kernelFeatureKey(feature);
        item.referenceValue = reference.value(feature);
        item.candidateValue = candidate.value(feature);
        item.contribution = kernel[std::size_t(f)];
        item.referenceLines = reference.spansOf(feature);
        item.candidateLines = candidate.spansOf(feature);
        items.append(item);
    }
    for (int h = 0; h < features::kHardwareFeatureCount; ++h) {
        if (std::abs(gpu[std::size_t(h)]) < options.minContribution)
            continue;
        ExplanationItem item;
        item.kind = ExplanationItem::Kind::Hardware;
        item.feature = features::hardwareFeatureKey(features::HardwareFeature(h));
        item.referenceValue = item.candidateValue = hardware[std::size_t(h)];
        item.contribution = gpu[std::size_t(h)];
        items.append(item);
    }
    // Strongest first; equal strengths by feature key so the order never depends on anything else.
    std::sort(items.begin(), items.end(), [](const ExplanationItem &a, const ExplanationItem &b) {
        const double x = std::abs(a.contribution), y = std::abs(b.contribution);
        return x != y ? x > y : a.feature < b.feature;
    });
    if (items.size() > options.maxItems)
        items.resize(options.maxItems);
    Explanation e;
    e.model = model.identity();
    e.predictedBin = predictedBin;
    e.probability = calibrated[std::size_t(predictedBin - 1)];
    e.temperature = model.manifest().temperature;
    e.bias = phi->back();
    for (ExplanationItem &item : items)
        item.text = explanationItemText(item, predictedBin);
    e.items = items;
    e.summary = explanationSummary(e, options.maxSentences);
    return e;
}

QString explanationSummary(const Explanation &explanation, int maxSentences)
{
    QString text = QCoreApplication::translate("gpuf::costmodel", "Predicted %1 (%2, p = %3)")
                       .arg(bins::rangeText(explanation.predictedBin), bins::label(explanation.predictedBin),
                           QString::number(explanation.probability, 'f', 2));
    // What differs between the kernels explains a forecast better than what they share (which is context: "each
    // kernel has one loop"), so differences come first, each group by strength.
    QStringList reasons;
    for (bool differing : {true, false}) {
        for (const ExplanationItem &item : explanation.items) {
            const bool differs = item.kind == ExplanationItem::Kind::Kernel
                && !(item.referenceValue == item.candidateValue
                    || (std::isnan(item.referenceValue) && std::isnan(item.candidateValue)));
            if (differs == differing && reasons.size() < maxSentences)
                reasons.append(item.text);
        }
    }
    if (reasons.isEmpty())
        return text + QCoreApplication::translate("gpuf::costmodel", " from the model's prior: no feature stood out.");
    return text + QStringLiteral(": ") + reasons.join(QStringLiteral("; ")) + u'.';
}

} // namespace gpuf::costmodel
