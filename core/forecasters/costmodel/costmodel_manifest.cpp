// Manifest JSON; see costmodel_manifest.h.
#include "core/forecasters/costmodel/costmodel_manifest.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace gpuf::costmodel {

QJsonObject Manifest::toJson() const
{
    return {{QStringLiteral("format"), QLatin1StringView(kManifestFormat)}, {QStringLiteral("model_file"), modelFile},
        {QStringLiteral("model_sha256"), modelSha256}, {QStringLiteral("classes"), classes},
        {QStringLiteral("temperature"), temperature}, {QStringLiteral("hyper_parameters"), parameters.toJson()},
        {QStringLiteral("compile_features"), compileFeatures}, {QStringLiteral("pair_policy"), pairPolicy},
        {QStringLiteral("training_data"), trainingData}, {QStringLiteral("validation"), validation},
        {QStringLiteral("created_at"), createdAt}, {QStringLiteral("gpuf_version"), gpufVersion},
        {QStringLiteral("features"), QJsonArray::fromStringList(features)}};
}

Result<Manifest> Manifest::fromJson(const QJsonObject &json)
{
    if (json.value(QStringLiteral("format")).toString() != QLatin1StringView(kManifestFormat))
        return Error {QStringLiteral("not a %1 manifest (format is '%2')")
                          .arg(QLatin1StringView(kManifestFormat), json.value(QStringLiteral("format")).toString())};
    Manifest m;
    m.modelFile = json.value(QStringLiteral("model_file")).toString();
    m.modelSha256 = json.value(QStringLiteral("model_sha256")).toString();
    m.classes = json.value(QStringLiteral("classes")).toInt(8);
    m.temperature = json.value(QStringLiteral("temperature")).toDouble(1.0);
    m.parameters = BoosterParameters::fromJson(json.value(QStringLiteral("hyper_parameters")).toObject());
    m.compileFeatures = json.value(QStringLiteral("compile_features")).toBool();
    m.pairPolicy = json.value(QStringLiteral("pair_policy")).toString();
    m.trainingData = json.value(QStringLiteral("training_data")).toObject();
    m.validation = json.value(QStringLiteral("validation")).toObject();
    m.createdAt = json.value(QStringLiteral("created_at")).toString();
    m.gpufVersion = json.value(QStringLiteral("gpuf_version")).toString();
    for (const QJsonValue f : json.value(QStringLiteral("features")).toArray())
        m.features.append(f.toString());
    if (m.features.isEmpty())
        return Error {QStringLiteral("the manifest lists no features")};
    if (m.classes != 8)
        return Error {QStringLiteral("the manifest's model has %1 classes, not 8").arg(m.classes)};
    if (!(m.temperature > 0))
        return Error {QStringLiteral("the manifest's temperature is not positive")};
    return m;
}

QString manifestPathFor(const QString &modelPath)
{
    const QFileInfo info(modelPath);
    QString base = info.fileName();
    if (base.endsWith(QLatin1StringView(".json")))
        base.chop(5);
    return info.dir().filePath(base + QStringLiteral(".manifest.json"));
}

} // namespace gpuf::costmodel
