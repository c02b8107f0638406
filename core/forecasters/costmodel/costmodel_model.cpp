// CostModel; see costmodel_model.h.
#include "core/forecasters/costmodel/costmodel_model.h"

#include "core/features/pair_features.h"
#include "core/forecasters/costmodel/costmodel_temperature.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMutex>
#include <QSaveFile>

#include <cmath>

namespace gpuf::costmodel {
namespace {

Result<QByteArray> readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("%1: %2").arg(path, file.errorString())};
    return file.readAll();
}

Status writeFile(const QString &path, const QByteArray &bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Error {QStringLiteral("%1: %2").arg(path, file.errorString())};
    return {};
}

QString sha256(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

} // namespace

CostModel::CostModel(Booster booster, TreeEnsemble trees, Manifest manifest)
    : m_booster(std::move(booster))
    , m_trees(std::move(trees))
    , m_manifest(std::move(manifest))
{
    m_columns.reserve(std::size_t(m_manifest.features.size()));
    m_identity = m_manifest.features.size() == features::kPairColumnCount;
    for (qsizetype j = 0; j < m_manifest.features.size(); ++j) {
        const int c = features::pairColumnOf(m_manifest.features[j]);
        m_columns.push_back(c);
        m_identity = m_identity && c == int(j);
    }
}

Result<std::shared_ptr<const CostModel>> CostModel::fromParts(Booster booster, Manifest manifest)
{
    if (booster.columns() != manifest.features.size())
        return Error {QStringLiteral("the model has %1 input columns but its manifest names %2")
                          .arg(booster.columns())
                          .arg(manifest.features.size())};
    if (booster.classes() != bins::kBinCount)
        return Error {QStringLiteral("the model predicts %1 classes, not 8").arg(booster.classes())};
    auto json = booster.saveJson();
    if (!json)
        return json.failure();
    auto trees = TreeEnsemble::fromJson(*json);
    if (!trees)
        return trees.failure();
    if (trees->columns() != booster.columns() || trees->classes() != booster.classes())
        return Error {QStringLiteral("the model's trees disagree with its shape")};
    if (manifest.modelSha256.isEmpty())
        manifest.modelSha256 = sha256(*json);
    return std::shared_ptr<const CostModel>(new CostModel(std::move(booster), std::move(*trees), std::move(manifest)));
}

Result<std::shared_ptr<const CostModel>> CostModel::fromBytes(const QByteArray &model, const QByteArray &manifestBytes)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(manifestBytes, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return Error {QStringLiteral("the manifest is not a JSON object (%1)").arg(error.errorString())};
    auto manifest = Manifest::fromJson(doc.object());
    if (!manifest)
        return manifest.failure();
    const QString hash = sha256(model);
    if (!manifest->modelSha256.isEmpty() && manifest->modelSha256 != hash)
        return Error {QStringLiteral("the model file does not match its manifest (SHA-256 differs)")};
    manifest->modelSha256 = hash;
    auto booster = Booster::load(model);
    if (!booster)
        return booster.failure();
    return fromParts(std::move(*booster), std::move(*manifest));
}

Result<std::shared_ptr<const CostModel>> CostModel::load(const QString &modelPath)
{
    auto model = readFile(modelPath);
    if (!model)
        return model.failure();
    const QString manifestPath = manifestPathFor(modelPath);
    auto manifest = readFile(manifestPath);
    if (!manifest)
        return Error {QStringLiteral("no manifest next to the model: %1").arg(manifest.error())};
    auto loaded = fromBytes(*model, *manifest);
    if (!loaded)
        return Error {QStringLiteral("%1: %2").arg(modelPath, loaded.error())};
    return loaded;
}

Result<std::shared_ptr<const CostModel>> CostModel::builtIn()
{
    // Parsed once per process: the model is immutable and every backend may share it. Deliberately never destroyed:
    // at exit XGBoost's own statics may already be gone, and freeing a booster after them crashes.
    static QMutex lock;
    static auto *model = new std::shared_ptr<const CostModel>;
    QMutexLocker locker(&lock);
    if (!*model) {
        auto loaded = load(QLatin1StringView(kBuiltInModelPath));
        if (!loaded)
            return Error {QStringLiteral("the built-in model: %1").arg(loaded.error())};
        *model = *loaded;
    }
    return *model;
}

Status CostModel::save(const QString &modelPath) const
{
    auto json = m_booster.saveJson();
    if (!json)
        return json.failure();
    Manifest manifest = m_manifest;
    manifest.modelFile = QFileInfo(modelPath).fileName();
    manifest.modelSha256 = sha256(*json);
    if (Status s = writeFile(modelPath, *json); !s)
        return s;
    return writeFile(manifestPathFor(modelPath), QJsonDocument(manifest.toJson()).toJson(QJsonDocument::Indented));
}

void CostModel::modelRow(std::span<const float> pairRow, std::span<float> out) const
{
    for (std::size_t j = 0; j < m_columns.size(); ++j) {
        const int c = m_columns[j];
        out[j] = c >= 0 ? pairRow[std::size_t(c)] : std::nanf("");
    }
}

Status CostModel::predict(std::span<const float> pairRow, bins::Distribution &calibrated, bins::Distribution *raw) const
{
    if (pairRow.size() != std::size_t(features::kPairColumnCount))
        return Error {QStringLiteral("a pair row of the wrong size")};
    std::array<float, bins::kBinCount> p {};
    if (m_identity) {
        m_trees.predict(pairRow, p);
    } else {
        thread_local std::vector<float> row;
        row.resize(m_columns.size());
        modelRow(pairRow, row);
        m_trees.predict(row, p);
    }
    bins::Distribution d;
    for (int b = 0; b < bins::kBinCount; ++b)
        d[std::size_t(b)] = p[std::size_t(b)];
    if (raw)
        *raw = d;
    calibrated = applyTemperature(d, m_manifest.temperature);
    return {};
}

Result<std::vector<bins::Distribution>> CostModel::predictMany(std::span<const float> pairRows) const
{
    const std::size_t width = std::size_t(features::kPairColumnCount);
    if (pairRows.size() % width != 0)
        return Error {QStringLiteral("pair rows of the wrong size")};
    std::vector<bins::Distribution> out(pairRows.size() / width);
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (Status s = predict(pairRows.subspan(i * width, width), out[i]); !s)
            return s.failure();
    }
    return out;
}

Result<std::vector<float>> CostModel::contributions(std::span<const float> pairRow, int bin) const
{
    if (pairRow.size() != std::size_t(features::kPairColumnCount) || bin < 1 || bin > bins::kBinCount)
        return Error {QStringLiteral("a pair row of the wrong size, or a bin outside 1..8")};
    std::vector<float> row(m_columns.size());
    modelRow(pairRow, row);
    auto all = m_booster.contributions(row);
    if (!all)
        return all.failure();
    const std::size_t stride = m_columns.size() + 1;
    const float *cls = all->data() + std::size_t(bin - 1) * stride;
    std::vector<float> out(std::size_t(features::kPairColumnCount) + 1, 0.0f);
    for (std::size_t j = 0; j < m_columns.size(); ++j) {
        if (m_columns[j] >= 0)
            out[std::size_t(m_columns[j])] += cls[j];
    }
    out.back() = cls[m_columns.size()];
    return out;
}

} // namespace gpuf::costmodel
