// Booster over the XGBoost C API; see costmodel_booster.h.
#include "core/forecasters/costmodel/costmodel_booster.h"

#include <xgboost/c_api.h>

#include <QJsonArray>
#include <QJsonDocument>

namespace gpuf::costmodel {
namespace {

Error xgbError(const char *what)
{
    return Error {QStringLiteral("XGBoost: %1: %2").arg(QLatin1StringView(what), QString::fromUtf8(XGBGetLastError()))};
}

// A DMatrix that frees itself.
class DMatrix
{
public:
    ~DMatrix()
    {
        if (m_handle)
            XGDMatrixFree(m_handle);
    }
    static Result<std::unique_ptr<DMatrix>> dense(const float *values, int rows, int columns)
    {
        auto m = std::unique_ptr<DMatrix>(new DMatrix);
        if (XGDMatrixCreateFromMat(values, bst_ulong(rows), bst_ulong(columns), std::nanf(""), &m->m_handle) != 0)
            return xgbError("creating a matrix");
        return m;
    }
    DMatrixHandle handle() const { return m_handle; }

private:
    DMatrix() = default;
    DMatrixHandle m_handle = nullptr;
};

// __array_interface__ of a dense float32 block, the form inplace prediction takes.
QByteArray arrayInterface(const float *data, int rows, int columns)
{
    return QByteArrayLiteral("{\"data\": [") + QByteArray::number(quintptr(data))
        + QByteArrayLiteral(", true], \"shape\": [") + QByteArray::number(rows) + QByteArrayLiteral(", ")
        + QByteArray::number(columns) + QByteArrayLiteral("], \"typestr\": \"<f4\", \"version\": 3}");
}

constexpr char kPredictConfig[]
    = R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": true, "missing": NaN, "cache_id": 0})";

} // namespace

QJsonObject BoosterParameters::toJson() const
{
    return {{QStringLiteral("objective"), QStringLiteral("multi:softprob")}, {QStringLiteral("num_class"), classes},
        {QStringLiteral("rounds"), rounds}, {QStringLiteral("max_depth"), maxDepth}, {QStringLiteral("eta"), eta},
        {QStringLiteral("subsample"), subsample}, {QStringLiteral("colsample_bytree"), columnSample},
        {QStringLiteral("min_child_weight"), minChildWeight}, {QStringLiteral("lambda"), lambda},
        {QStringLiteral("seed"), QString::number(seed)}, {QStringLiteral("nthread"), threads},
        {QStringLiteral("tree_method"), QStringLiteral("hist")}};
}

BoosterParameters BoosterParameters::fromJson(const QJsonObject &json)
{
    BoosterParameters p;
    p.classes = json.value(QStringLiteral("num_class")).toInt(p.classes);
    p.rounds = json.value(QStringLiteral("rounds")).toInt(p.rounds);
    p.maxDepth = json.value(QStringLiteral("max_depth")).toInt(p.maxDepth);
    p.eta = json.value(QStringLiteral("eta")).toDouble(p.eta);
    p.subsample = json.value(QStringLiteral("subsample")).toDouble(p.subsample);
    p.columnSample = json.value(QStringLiteral("colsample_bytree")).toDouble(p.columnSample);
    p.minChildWeight = json.value(QStringLiteral("min_child_weight")).toDouble(p.minChildWeight);
    p.lambda = json.value(QStringLiteral("lambda")).toDouble(p.lambda);
    p.seed = json.value(QStringLiteral("seed")).toString().toULongLong();
    p.threads = json.value(QStringLiteral("nthread")).toInt(p.threads);
    return p;
}

Booster::Booster(void *handle)
    : m_handle(handle)
{ }

Booster::~Booster()
{
    if (m_handle)
        XGBoosterFree(m_handle);
}

Booster::Booster(Booster &&other) noexcept
    : m_handle(std::exchange(other.m_handle, nullptr))
    , m_columns(other.m_columns)
    , m_classes(other.m_classes)
{ }

Booster &Booster::operator=(Booster &&other) noexcept
{
    if (this != &other) {
        if (m_handle)
            XGBoosterFree(m_handle);
        m_handle = std::exchange(other.m_handle, nullptr);
        m_columns = other.m_columns;
        m_classes = other.m_classes;
    }
    return *this;
}

Status Booster::readShape()
{
    bst_ulong features = 0;
    if (XGBoosterGetNumFeature(m_handle, &features) != 0)
        return xgbError("reading the model's feature count");
    m_columns = int(features);
    // The class count: predict one all-missing row and count the outputs.
    std::vector<float> row(std::size_t(std::max(m_columns, 1)), std::nanf(""));
    const QByteArray values = arrayInterface(row.data(), 1, m_columns);
    bst_ulong const *shape = nullptr;
    bst_ulong dim = 0;
    const float *out = nullptr;
    if (XGBoosterPredictFromDense(m_handle, values.constData(), kPredictConfig, nullptr, &shape, &dim, &out) != 0)
        return xgbError("probing the model");
    m_classes = dim == 2 ? int(shape[1]) : 1;
    return {};
}

Result<Booster> Booster::train(const Matrix &data, std::span<const float> labels, std::span<const float> weights,
    const QStringList &featureNames, const BoosterParameters &parameters, const CancelToken &cancel)
{
    if (data.rows() == 0 || std::size_t(data.rows()) != labels.size())
        return Error {QStringLiteral("no training rows, or a label count that does not match them")};
    auto matrix = DMatrix::dense(data.values.data(), data.rows(), data.columns);
    if (!matrix)
        return matrix.failure();
    DMatrixHandle dm = (*matrix)->handle();
    if (XGDMatrixSetFloatInfo(dm, "label", labels.data(), bst_ulong(labels.size())) != 0)
        return xgbError("setting labels");
    if (!weights.empty() && XGDMatrixSetFloatInfo(dm, "weight", weights.data(), bst_ulong(weights.size())) != 0)
        return xgbError("setting weights");
    std::vector<QByteArray> names;
    std::vector<const char *> namePointers;
    for (const QString &n : featureNames) {
        names.push_back(n.toUtf8());
        namePointers.push_back(names.back().constData());
    }
    if (int(namePointers.size()) == data.columns
        && XGDMatrixSetStrFeatureInfo(dm, "feature_name", namePointers.data(), bst_ulong(namePointers.size())) != 0)
        return xgbError("naming features");

    BoosterHandle handle = nullptr;
    if (XGBoosterCreate(&dm, 1, &handle) != 0)
        return xgbError("creating a booster");
    Booster booster(handle);
    const QJsonObject json = parameters.toJson();
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (it.key() == QLatin1StringView("rounds"))
            continue;
        const QByteArray key = it.key().toUtf8();
        const QByteArray value = it.value().isString() ? it.value().toString().toUtf8()
                                                       : QByteArray::number(it.value().toDouble(), 'g', 17);
        if (XGBoosterSetParam(handle, key.constData(), value.constData()) != 0)
            return xgbError("setting a parameter");
    }
    if (XGBoosterSetParam(handle, "verbosity", "0") != 0)
        return xgbError("setting verbosity");
    for (int round = 0; round < parameters.rounds; ++round) {
        if (cancel.isCancelled())
            return Error::cancelled();
        if (XGBoosterUpdateOneIter(handle, round, dm) != 0)
            return xgbError("training");
    }
    if (Status s = booster.readShape(); !s)
        return s.failure();
    return booster;
}

Result<Booster> Booster::load(const QByteArray &model)
{
    if (model.isEmpty())
        return Error {QStringLiteral("the model is empty")};
    BoosterHandle handle = nullptr;
    if (XGBoosterCreate(nullptr, 0, &handle) != 0)
        return xgbError("creating a booster");
    Booster booster(handle);
    if (XGBoosterLoadModelFromBuffer(handle, model.constData(), bst_ulong(model.size())) != 0)
        return xgbError("reading the model");
    if (XGBoosterSetParam(handle, "nthread", "1") != 0)
        return xgbError("setting threads");
    if (Status s = booster.readShape(); !s)
        return s.failure();
    return booster;
}

Result<QByteArray> Booster::saveJson() const
{
    bst_ulong length = 0;
    const char *bytes = nullptr;
    if (XGBoosterSaveModelToBuffer(m_handle, R"({"format": "json"})", &length, &bytes) != 0)
        return xgbError("saving the model");
    return QByteArray(bytes, qsizetype(length));
}

Result<std::vector<float>> Booster::predict(const Matrix &data) const
{
    if (data.columns != m_columns)
        return Error {QStringLiteral("the rows have %1 columns, the model %2").arg(data.columns).arg(m_columns)};
    if (data.rows() == 0)
        return std::vector<float> {};
    const QByteArray values = arrayInterface(data.values.data(), data.rows(), data.columns);
    bst_ulong const *shape = nullptr;
    bst_ulong dim = 0;
    const float *out = nullptr;
    if (XGBoosterPredictFromDense(m_handle, values.constData(), kPredictConfig, nullptr, &shape, &dim, &out) != 0)
        return xgbError("predicting");
    return std::vector<float>(out, out + std::size_t(data.rows()) * std::size_t(m_classes));
}

Status Booster::predictRow(std::span<const float> row, std::span<float> probabilities) const
{
    if (int(row.size()) != m_columns || int(probabilities.size()) != m_classes)
        return Error {QStringLiteral("a row or output of the wrong size")};
    const QByteArray values = arrayInterface(row.data(), 1, m_columns);
    bst_ulong const *shape = nullptr;
    bst_ulong dim = 0;
    const float *out = nullptr;
    if (XGBoosterPredictFromDense(m_handle, values.constData(), kPredictConfig, nullptr, &shape, &dim, &out) != 0)
        return xgbError("predicting");
    std::copy(out, out + m_classes, probabilities.begin());
    return {};
}

Result<std::vector<float>> Booster::contributions(std::span<const float> row) const
{
    if (int(row.size()) != m_columns)
        return Error {QStringLiteral("a row of the wrong size")};
    auto matrix = DMatrix::dense(row.data(), 1, m_columns);
    if (!matrix)
        return matrix.failure();
    constexpr char config[]
        = R"({"type": 2, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": true})";
    bst_ulong const *shape = nullptr;
    bst_ulong dim = 0;
    const float *out = nullptr;
    if (XGBoosterPredictFromDMatrix(m_handle, (*matrix)->handle(), config, &shape, &dim, &out) != 0)
        return xgbError("computing contributions");
    const std::size_t n = std::size_t(m_classes) * std::size_t(m_columns + 1);
    if (dim != 3 || shape[1] != bst_ulong(m_classes) || shape[2] != bst_ulong(m_columns) + 1)
        return Error {QStringLiteral("XGBoost: unexpected shape of the contributions")};
    return std::vector<float>(out, out + n);
}

} // namespace gpuf::costmodel
