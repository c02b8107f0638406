// Building the explanation of a cost-model forecast from the model's SHAP contributions (see explanation.h).
#pragma once

#include "core/features/pair_features.h"
#include "core/forecasters/costmodel/costmodel_model.h"
#include "core/forecasters/explanation.h"

namespace gpuf::costmodel {

struct ExplainOptions
{
    int maxItems = 8; // contributions kept in the JSON
    int maxSentences = 3; // of them, in the summary
    double minContribution = 0.01; // smaller ones are noise
};

// The contributions toward `predictedBin`, grouped per feature (a kernel feature's ref_, cand_ and diff_ columns
// together), strongest first, each with both kernels' values and line spans, and the summary sentence.
Result<Explanation> explainForecast(const CostModel &model, const features::KernelFeatures &reference,
    const features::KernelFeatures &candidate, const features::HardwareRow &hardware, std::span<const float> pairRow,
    const bins::Distribution &calibrated, int predictedBin, const ExplainOptions &options = {});

// "Predicted 2.00×–2.83× (significant speedup, p = 0.62): <up to maxSentences item texts>.", the items where the
// kernels differ first.
QString explanationSummary(const Explanation &explanation, int maxSentences);

} // namespace gpuf::costmodel
