// The cost model's explanation of one forecast: the features that pushed it toward its predicted bin (SHAP
// contributions, summed over a feature's reference/candidate/difference columns), each with both kernels' values and
// the source lines it was read from. Stored as JSON in Forecast.response; parseExplanation() reads it back so the
// diff view can annotate those lines.
#pragma once

#include "core/common/result.h"
#include "core/features/kernel_features.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace gpuf {

inline constexpr char kExplanationFormat[] = "gpuf-costmodel-explanation/1";

struct ExplanationItem
{
    enum class Kind : quint8 { Kernel, Hardware };
    Kind kind = Kind::Kernel;
    QString feature; // the catalogue key ("access_bytes", "hw_sm_count")
    double referenceValue = 0.0; // NaN: missing (for hardware: the GPU's value)
    double candidateValue = 0.0; // NaN: missing (hardware: same as referenceValue)
    double contribution = 0.0; // toward the predicted bin, in log-odds (margin) units
    QList<features::LineSpan> referenceLines;
    QList<features::LineSpan> candidateLines;
    QString text; // "candidate loads 16 bytes per thread access instead of 4: +0.80 toward …"
};

struct Explanation
{
    QString model; // the model's identity
    int predictedBin = 0;
    double probability = 0.0; // calibrated probability of the predicted bin
    double temperature = 1.0;
    double bias = 0.0; // the model's base margin for the predicted bin
    QList<ExplanationItem> items; // by decreasing |contribution|
    QString summary; // the short rationale, also the forecast's reasoning

    QJsonObject toJson() const;
};

// Reads the explanation a cost-model forecast carries in its response; an error for anything else (an LLM's
// response, a truncated or foreign JSON).
Result<Explanation> parseExplanation(const QString &forecastResponse);

// One item's sentence: what differs (or is shared) and how much it pushed, e.g.
// "candidate loads 16 bytes per thread access instead of 4: +0.80 toward moderate speedup".
QString explanationItemText(const ExplanationItem &item, int predictedBin);

} // namespace gpuf
