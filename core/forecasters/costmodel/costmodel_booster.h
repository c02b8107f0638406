// CostModelBooster: the XGBoost C API behind the cost model, wrapped so the rest of the code never sees a handle or an
// error code — training a multi-class softprob model, predicting probabilities and SHAP contributions, and saving and
// loading the model as XGBoost's JSON.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QStringList>

#include <memory>
#include <span>
#include <vector>

namespace gpuf::costmodel {

// Row-major dense rows; NaN is a missing value.
struct Matrix
{
    int columns = 0;
    std::vector<float> values;

    int rows() const { return columns > 0 ? int(values.size() / std::size_t(columns)) : 0; }
    std::span<const float> row(int r) const
    {
        return {values.data() + std::size_t(r) * std::size_t(columns), std::size_t(columns)};
    }
};

struct BoosterParameters
{
    int classes = 8;
    int rounds = 150;
    int maxDepth = 3;
    double eta = 0.08;
    double subsample = 0.8;
    double columnSample = 0.6;
    double minChildWeight = 1.0;
    double lambda = 2.0;
    quint64 seed = 20260531;
    int threads = 1; // deterministic and as cheap as the forecasts it serves

    QJsonObject toJson() const;
    static BoosterParameters fromJson(const QJsonObject &json);
};

class Booster
{
public:
    ~Booster();
    Booster(Booster &&) noexcept;
    Booster &operator=(Booster &&) noexcept;
    Booster(const Booster &) = delete;
    Booster &operator=(const Booster &) = delete;

    // Labels are class indexes 0..classes−1; weights may be empty (all 1). Feature names are stored in the model.
    // Fails with "cancelled" (Error::cancelled()) as soon as `cancel` is cancelled (checked between boosting rounds).
    static Result<Booster> train(const Matrix &data, std::span<const float> labels, std::span<const float> weights,
        const QStringList &featureNames, const BoosterParameters &parameters, const CancelToken &cancel = {});
    // XGBoost's JSON model (or its binary form: the format is detected).
    static Result<Booster> load(const QByteArray &model);

    Result<QByteArray> saveJson() const;
    int columns() const { return m_columns; }
    int classes() const { return m_classes; }

    // Probabilities, rows × classes, row-major, from the model as trained (no calibration).
    Result<std::vector<float>> predict(const Matrix &data) const;
    // Same for one row, without building a matrix: the hot path of forecasting.
    Status predictRow(std::span<const float> row, std::span<float> probabilities) const;
    // SHAP contributions of one row: classes × (columns + 1), the last of each class being the bias; in margin
    // (log-odds) units.
    Result<std::vector<float>> contributions(std::span<const float> row) const;

private:
    explicit Booster(void *handle);
    Status readShape();

    void *m_handle = nullptr;
    int m_columns = 0;
    int m_classes = 0;
};

} // namespace gpuf::costmodel
