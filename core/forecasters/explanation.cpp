// Explanation JSON and sentences; see explanation.h.
#include "core/forecasters/explanation.h"

#include "core/bins/bins.h"
#include "core/features/feature_catalog.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace gpuf {
namespace {

QString tr(const char *text) { return QCoreApplication::translate("gpuf::costmodel", text); }

QJsonValue number(double v) { return std::isfinite(v) ? QJsonValue(v) : QJsonValue(); }
double numberOf(const QJsonValue &v) { return v.isDouble() ? v.toDouble() : std::nan(""); }

QJsonArray spansJson(const QList<features::LineSpan> &spans)
{
    QJsonArray out;
    for (const features::LineSpan &s : spans)
        out.append(QJsonArray {s.first, s.last});
    return out;
}

Result<QList<features::LineSpan>> spansOf(const QJsonValue &value, const QString &where)
{
    QList<features::LineSpan> out;
    for (const QJsonValue v : value.toArray()) {
        const QJsonArray pair = v.toArray();
        const int first = pair.at(0).toInt(-1), last = pair.at(1).toInt(-1);
        if (pair.size() != 2 || first < 1 || last < first)
            return Error {QStringLiteral("%1: a line span must be [first, last] with 1 <= first <= last").arg(where)};
        out.append({first, last});
    }
    return out;
}

const features::FeatureInfo *infoOf(const ExplanationItem &item)
{
    if (item.kind == ExplanationItem::Kind::Hardware) {
        for (int h = 0; h < features::kHardwareFeatureCount; ++h) {
            if (features::hardwareFeatureKey(features::HardwareFeature(h)) == item.feature)
                return &features::hardwareFeatureInfo(features::HardwareFeature(h));
        }
        return nullptr;
    }
    for (int f = 0; f < features::kKernelFeatureCount; ++f) {
        if (features::kernelFeatureKey(features::KernelFeature(f)) == item.feature)
            return &features::kernelFeatureInfo(features::KernelFeature(f));
    }
    return nullptr;
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

} // namespace

QJsonObject Explanation::toJson() const
{
    QJsonArray list;
    for (const ExplanationItem &item : items) {
        list.append(QJsonObject {{QStringLiteral("feature"), item.feature},
            {QStringLiteral("kind"),
                item.kind == ExplanationItem::Kind::Hardware ? QStringLiteral("hardware") : QStringLiteral("kernel")},
            {QStringLiteral("reference"), number(item.referenceValue)},
            {QStringLiteral("candidate"), number(item.candidateValue)},
            {QStringLiteral("contribution"), number(item.contribution)},
            {QStringLiteral("reference_lines"), spansJson(item.referenceLines)},
            {QStringLiteral("candidate_lines"), spansJson(item.candidateLines)}, {QStringLiteral("text"), item.text}});
    }
    return {{QStringLiteral("format"), QLatin1StringView(kExplanationFormat)}, {QStringLiteral("model"), model},
        {QStringLiteral("predicted_bin"), predictedBin}, {QStringLiteral("probability"), number(probability)},
        {QStringLiteral("temperature"), number(temperature)}, {QStringLiteral("bias"), number(bias)},
        {QStringLiteral("summary"), summary}, {QStringLiteral("contributions"), list}};
}

Result<Explanation> parseExplanation(const QString &forecastResponse)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(forecastResponse.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return Error {QStringLiteral("not a cost-model explanation (not a JSON object)")};
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("format")).toString() != QLatin1StringView(kExplanationFormat))
        return Error {QStringLiteral("not a cost-model explanation (format '%1')")
                          .arg(o.value(QStringLiteral("format")).toString())};
    Explanation e;
    e.model = o.value(QStringLiteral("model")).toString();
    e.predictedBin = o.value(QStringLiteral("predicted_bin")).toInt();
    if (e.predictedBin < 1 || e.predictedBin > bins::kBinCount)
        return Error {QStringLiteral("explanation: predicted_bin must be 1..8")};
    e.probability = numberOf(o.value(QStringLiteral("probability")));
    e.temperature = numberOf(o.value(QStringLiteral("temperature")));
    e.bias = numberOf(o.value(QStringLiteral("bias")));
    e.summary = o.value(QStringLiteral("summary")).toString();
    const QJsonArray list = o.value(QStringLiteral("contributions")).toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonObject c = list.at(i).toObject();
        const QString where = QStringLiteral("explanation: contributions[%1]").arg(i);
        ExplanationItem item;
        item.feature = c.value(QStringLiteral("feature")).toString();
        if (item.feature.isEmpty())
            return Error {where + QStringLiteral(": no feature name")};
        item.kind = c.value(QStringLiteral("kind")).toString() == QLatin1StringView("hardware")
            ? ExplanationItem::Kind::Hardware
            : ExplanationItem::Kind::Kernel;
        item.referenceValue = numberOf(c.value(QStringLiteral("reference")));
        item.candidateValue = numberOf(c.value(QStringLiteral("candidate")));
        item.contribution = numberOf(c.value(QStringLiteral("contribution")));
        auto ref = spansOf(c.value(QStringLiteral("reference_lines")), where);
        auto cand = spansOf(c.value(QStringLiteral("candidate_lines")), where);
        if (!ref || !cand)
            return Error {ref ? cand.error() : ref.error()};
        item.referenceLines = *ref;
        item.candidateLines = *cand;
        item.text = c.value(QStringLiteral("text")).toString();
        e.items.append(item);
    }
    return e;
}

QString explanationItemText(const ExplanationItem &item, int predictedBin)
{
    const features::FeatureInfo *info = infoOf(item);
    QString what;
    if (!info) {
        what = item.feature;
    } else if (item.kind == ExplanationItem::Kind::Hardware) {
        what = tr("the GPU ") + features::describeValue(*info, item.candidateValue);
    } else if (same(item.referenceValue, item.candidateValue)) {
        what = tr("each kernel ") + features::describeValue(*info, item.candidateValue);
    } else if (info->style == features::ValueStyle::Flag) {
        what = tr("candidate %1, the reference %2")
                   .arg(features::describeValue(*info, item.candidateValue),
                       features::describeValue(*info, item.referenceValue));
    } else {
        what = tr("candidate %1 instead of %2")
                   .arg(features::describeValue(*info, item.candidateValue),
                       features::formatValue(*info, item.referenceValue));
    }
    const double c = item.contribution;
    const QString amount = (c < 0 ? QStringLiteral("−") : QStringLiteral("+")) + QString::number(std::abs(c), 'f', 2);
    const QString toward = c < 0 ? tr("against") : tr("toward");
    return QStringLiteral("%1: %2 %3 %4").arg(what, amount, toward, bins::label(predictedBin));
}

} // namespace gpuf
