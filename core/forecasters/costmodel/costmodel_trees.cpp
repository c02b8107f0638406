// TreeEnsemble; see costmodel_trees.h. The JSON layout is XGBoost's model schema (learner → gradient_booster →
// model → trees, tree_info; learner_model_param): node arrays per tree, a leaf's value held in split_conditions.
#include "core/forecasters/costmodel/costmodel_trees.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <array>
#include <cmath>

namespace gpuf::costmodel {
namespace {

Error bad(const QString &what) { return Error {QStringLiteral("the model JSON: %1").arg(what)}; }

double numberOf(const QJsonValue &v)
{
    // XGBoost writes its parameters as strings ("5E-1", "8").
    return v.isString() ? v.toString().toDouble() : v.toDouble();
}

} // namespace

Result<TreeEnsemble> TreeEnsemble::fromJson(const QByteArray &model)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(model, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return bad(QStringLiteral("not a JSON object (%1)").arg(error.errorString()));
    const QJsonObject learner = doc.object().value(QStringLiteral("learner")).toObject();
    const QJsonObject param = learner.value(QStringLiteral("learner_model_param")).toObject();
    const QJsonObject booster = learner.value(QStringLiteral("gradient_booster")).toObject();
    if (booster.value(QStringLiteral("name")).toString() != QLatin1StringView("gbtree"))
        return bad(QStringLiteral("only gbtree models are supported"));
    const QString objective
        = learner.value(QStringLiteral("objective")).toObject().value(QStringLiteral("name")).toString();
    if (objective != QLatin1StringView("multi:softprob") && objective != QLatin1StringView("multi:softmax"))
        return bad(QStringLiteral("objective '%1' is not multi-class").arg(objective));

    TreeEnsemble e;
    e.m_baseScore = float(numberOf(param.value(QStringLiteral("base_score"))));
    e.m_columns = int(numberOf(param.value(QStringLiteral("num_feature"))));
    e.m_classes = int(numberOf(param.value(QStringLiteral("num_class"))));
    if (e.m_columns <= 0 || e.m_classes < 2 || e.m_classes > kMaxClasses)
        return bad(QStringLiteral("no feature count, or a class count outside 2..%1").arg(kMaxClasses));
    const QJsonObject gbtree = booster.value(QStringLiteral("model")).toObject();
    const QJsonArray trees = gbtree.value(QStringLiteral("trees")).toArray();
    const QJsonArray info = gbtree.value(QStringLiteral("tree_info")).toArray();
    if (trees.size() != info.size())
        return bad(QStringLiteral("tree_info does not match the trees"));
    for (qsizetype t = 0; t < trees.size(); ++t) {
        const QJsonObject tree = trees.at(t).toObject();
        const QJsonArray left = tree.value(QStringLiteral("left_children")).toArray();
        const QJsonArray right = tree.value(QStringLiteral("right_children")).toArray();
        const QJsonArray feature = tree.value(QStringLiteral("split_indices")).toArray();
        const QJsonArray value = tree.value(QStringLiteral("split_conditions")).toArray();
        const QJsonArray defaults = tree.value(QStringLiteral("default_left")).toArray();
        const qsizetype n = left.size();
        if (n == 0 || right.size() != n || feature.size() != n || value.size() != n || defaults.size() != n)
            return bad(QStringLiteral("tree %1 has inconsistent node arrays").arg(t));
        const int base = int(e.m_nodes.size());
        e.m_roots.push_back(base);
        const int treeClass = info.at(t).toInt();
        if (treeClass < 0 || treeClass >= e.m_classes)
            return bad(QStringLiteral("tree %1 belongs to no class").arg(t));
        e.m_treeClass.push_back(treeClass);
        for (qsizetype i = 0; i < n; ++i) {
            Node node;
            const int l = left.at(i).toInt(), r = right.at(i).toInt();
            node.left = l < 0 ? -1 : base + l;
            node.right = r < 0 ? -1 : base + r;
            node.feature = feature.at(i).toInt();
            node.value = float(value.at(i).toDouble());
            node.defaultLeft = defaults.at(i).toInt() != 0 || defaults.at(i).toBool();
            if ((l >= 0 && (l >= n || r < 0 || r >= n)) || node.feature < 0 || node.feature >= e.m_columns)
                return bad(QStringLiteral("tree %1 has a node out of range").arg(t));
            e.m_nodes.push_back(node);
        }
    }
    return e;
}

void TreeEnsemble::predict(std::span<const float> row, std::span<float> probabilities) const
{
    // Margins accumulate in float in tree order, as XGBoost's CPU predictor does.
    std::array<float, kMaxClasses> storage {};
    const std::span<float> margin(storage.data(), std::size_t(m_classes));
    std::fill(margin.begin(), margin.end(), m_baseScore);
    for (std::size_t t = 0; t < m_roots.size(); ++t) {
        int i = m_roots[t];
        while (m_nodes[std::size_t(i)].left >= 0) {
            const Node &node = m_nodes[std::size_t(i)];
            const float v = row[std::size_t(node.feature)];
            i = std::isnan(v) ? (node.defaultLeft ? node.left : node.right) : (v < node.value ? node.left : node.right);
        }
        margin[std::size_t(m_treeClass[t])] += m_nodes[std::size_t(i)].value;
    }
    float largest = margin[0];
    for (float m : margin)
        largest = std::max(largest, m);
    double sum = 0.0;
    for (std::size_t c = 0; c < margin.size(); ++c) {
        probabilities[c] = std::exp(margin[c] - largest);
        sum += probabilities[c];
    }
    for (std::size_t c = 0; c < margin.size(); ++c)
        probabilities[c] = float(probabilities[c] / sum);
}

} // namespace gpuf::costmodel
