// Serialising metrics reports; see report_json.h.
#include "core/metrics/report_json.h"

#include "core/metrics/ordinal_json.h"

#include <QJsonArray>

#include <cmath>

namespace gpuf::metrics {
namespace {

QJsonValue number(double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null); }

QJsonArray interval(const Interval &i) { return QJsonArray {number(i.low), number(i.high)}; }

} // namespace

QJsonObject toJson(const MetricsReport &report)
{
    QJsonObject out;
    out.insert(QStringLiteral("n_total"), report.nTotal);
    out.insert(QStringLiteral("n_parsed"), report.nParsed);
    for (int s = 0; s < kScalarCount; ++s)
        out.insert(scalarName(Scalar(s)), number(report.scalars[s]));

    QJsonArray reliability;
    for (const ReliabilityBucket &b : report.reliability) {
        reliability.append(QJsonObject {{QStringLiteral("low"), b.low}, {QStringLiteral("high"), b.high},
            {QStringLiteral("mean_confidence"), number(b.meanConfidence)},
            {QStringLiteral("accuracy"), number(b.accuracy)}, {QStringLiteral("count"), b.count}});
    }
    out.insert(QStringLiteral("reliability"), reliability);

    QJsonArray confusion;
    for (const auto &row : report.confusion.counts) {
        QJsonArray cells;
        for (qint64 c : row)
            cells.append(c);
        confusion.append(cells);
    }
    out.insert(QStringLiteral("confusion"), confusion);
    out.insert(QStringLiteral("ordinal"), ordinalJson(report));
    out.insert(QStringLiteral("cumulative_reliability"), cumulativeReliabilityJson(report.cumulativeReliability));
    out.insert(QStringLiteral("prediction_sets"), predictionSetsJson(report.predictionSets));

    if (report.hasIntervals) {
        QJsonObject ci;
        for (int s = 0; s < kScalarCount; ++s)
            ci.insert(scalarName(Scalar(s)), interval(report.intervals[s]));
        QJsonArray buckets;
        for (const Interval &i : report.reliabilityAccuracyIntervals)
            buckets.append(interval(i));
        ci.insert(QStringLiteral("reliability_accuracy"), buckets);
        out.insert(QStringLiteral("ci"), ci);
    }
    return out;
}

QJsonObject toJson(const std::vector<GroupReport> &groups, const std::function<QString(const GroupKey &)> &nameOf)
{
    QJsonObject out;
    for (const GroupReport &group : groups)
        out.insert(nameOf(group.key), toJson(group.report));
    return out;
}

} // namespace gpuf::metrics
