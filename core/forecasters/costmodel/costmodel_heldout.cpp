// storeHeldOutForecasts; see costmodel_heldout.h.
#include "core/forecasters/costmodel/costmodel_heldout.h"

#include "core/store/forecast_repo.h"
#include "core/store/store.h"

#include <QDateTime>
#include <QJsonDocument>

namespace gpuf::costmodel {

Result<int> storeHeldOutForecasts(Store &store, const TrainingOutcome &outcome, const QString &forecasterName)
{
    if (!outcome.model)
        return Error {QStringLiteral("no trained model")};
    Forecaster forecaster;
    forecaster.name = forecasterName;
    forecaster.kind = ForecasterKind::CostModel;
    forecaster.displayName = QStringLiteral("Cost model (held-out operations)");
    forecaster.config = {{QStringLiteral("validation"), QStringLiteral("leave-one-operation-out")},
        {QStringLiteral("training_data"), outcome.dataHash},
        {QStringLiteral("hyper_parameters"), outcome.model->manifest().parameters.toJson()}};
    Transaction tx(store);
    if (Status s = tx.begin(); !s)
        return s.failure();
    auto id = ForecasterRepo(store).ensure(forecaster);
    if (!id)
        return id.failure();
    ForecastRepo forecasts(store);
    QHash<RowId, const FoldSummary *> folds;
    for (const FoldSummary &f : outcome.folds)
        folds.insert(f.problemId, &f);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    int written = 0;
    for (const HeldOutPrediction &h : outcome.heldOut) {
        const FoldSummary *fold = folds.value(h.pair.problemId);
        Forecast f;
        f.referenceKernelId = h.pair.referenceId;
        f.candidateKernelId = h.pair.candidateId;
        f.hardwareId = h.pair.hardwareId;
        f.forecasterId = *id;
        f.probabilities = h.calibrated;
        f.predictedBin = bins::argmaxBin(h.calibrated);
        f.rawProbabilitySum = 1.0;
        f.reasoning = QStringLiteral("Held-out prediction: the model never saw the operation '%1' in training.")
                          .arg(fold ? fold->operation : QString());
        f.response = QString::fromUtf8(QJsonDocument(
            QJsonObject {{QStringLiteral("operation"), fold ? fold->operation : QString()},
                {QStringLiteral("fold_temperature"), fold ? fold->temperature : 1.0},
                {QStringLiteral("training_data"),
                    outcome.dataHash}}).toJson(QJsonDocument::Compact));
        f.cacheKey = QStringLiteral("costmodel-heldout:%1:%2:%3:%4")
                         .arg(outcome.dataHash.left(16))
                         .arg(h.pair.referenceId)
                         .arg(h.pair.candidateId)
                         .arg(h.pair.hardwareId);
        f.status = ForecastStatus::Ok;
        f.createdAt = now;
        if (auto inserted = forecasts.insert(f); !inserted)
            return inserted.failure();
        ++written;
    }
    if (Status s = tx.commit(); !s)
        return s.failure();
    return written;
}

} // namespace gpuf::costmodel
