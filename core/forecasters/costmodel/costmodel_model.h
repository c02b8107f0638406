// CostModel: a trained booster with its manifest, ready to forecast — pair rows in, calibrated 8-bin distributions
// and per-feature SHAP contributions out. Immutable once loaded, so one instance serves every thread.
#pragma once

#include "core/bins/bins.h"
#include "core/common/result.h"
#include "core/forecasters/costmodel/costmodel_booster.h"
#include "core/forecasters/costmodel/costmodel_manifest.h"
#include "core/forecasters/costmodel/costmodel_trees.h"

#include <memory>
#include <span>
#include <vector>

namespace gpuf::costmodel {

// Where the pretrained model lives inside the program (a Qt resource compiled into libgpuf-core).
inline constexpr char kBuiltInModelPath[] = ":/gpuf/models/costmodel.json";

class CostModel
{
public:
    // A model file and the manifest next to it (manifestPathFor).
    static Result<std::shared_ptr<const CostModel>> load(const QString &modelPath);
    // The pretrained model shipped with the program.
    static Result<std::shared_ptr<const CostModel>> builtIn();
    static Result<std::shared_ptr<const CostModel>> fromParts(Booster booster, Manifest manifest);
    static Result<std::shared_ptr<const CostModel>> fromBytes(const QByteArray &model, const QByteArray &manifest);

    // Writes the model (XGBoost JSON) and its manifest; the manifest's model file name and hash are set here.
    Status save(const QString &modelPath) const;

    const Manifest &manifest() const { return m_manifest; }
    const Booster &booster() const { return m_booster; }
    // A short identity of this model (the model's SHA-256, 16 hex digits), part of every forecast's cache key.
    QString identity() const { return m_manifest.modelSha256.left(16); }

    // `pairRow` holds features::kPairColumnCount values in the program's column order.
    Status predict(
        std::span<const float> pairRow, bins::Distribution &calibrated, bins::Distribution *raw = nullptr) const;
    // Many rows (row-major, kPairColumnCount each); calibrated distributions in row order.
    Result<std::vector<bins::Distribution>> predictMany(std::span<const float> pairRows) const;
    // SHAP contributions toward class `bin` (1..8) per program pair column (columns the model does not use are 0),
    // and the bias as the last element. Margin units, before temperature.
    Result<std::vector<float>> contributions(std::span<const float> pairRow, int bin) const;

private:
    CostModel(Booster booster, TreeEnsemble trees, Manifest manifest);
    void modelRow(std::span<const float> pairRow, std::span<float> out) const;

    Booster m_booster; // training form: saving, SHAP contributions
    TreeEnsemble m_trees; // the same trees, walked directly for fast probabilities
    Manifest m_manifest;
    std::vector<int> m_columns; // model column → program pair column, −1 when this program lacks it
    bool m_identity = false; // the model's columns are exactly the program's
};

} // namespace gpuf::costmodel
