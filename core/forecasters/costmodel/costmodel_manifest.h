// The manifest written next to a trained cost model: which features in which order, the temperature, the
// hyper-parameters, what it was trained on (a hash of the training pairs) and how it did in leave-one-operation-out
// validation. A model is only loaded together with its manifest.
#pragma once

#include "core/common/result.h"
#include "core/forecasters/costmodel/costmodel_booster.h"

#include <QJsonObject>
#include <QStringList>

namespace gpuf::costmodel {

inline constexpr char kManifestFormat[] = "gpuf-costmodel/1";

struct Manifest
{
    QString modelFile; // the XGBoost JSON's file name, next to the manifest
    QString modelSha256; // of the model file's bytes
    QStringList features; // the model's input columns, in order (pair column names)
    int classes = 8;
    double temperature = 1.0;
    BoosterParameters parameters;
    bool compileFeatures = false; // trained with features from gpuf-measure compiles
    QString pairPolicy; // which (reference, candidate) pairs were used, and why
    QJsonObject trainingData; // hash, pairs, kernels, operations, hardware
    QJsonObject validation; // leave-one-operation-out metrics, pooled and per operation
    QString createdAt; // ISO-8601 UTC
    QString gpufVersion;

    QJsonObject toJson() const;
    static Result<Manifest> fromJson(const QJsonObject &json);
};

// "costmodel.json" → "costmodel.manifest.json" (same folder).
QString manifestPathFor(const QString &modelPath);

} // namespace gpuf::costmodel
