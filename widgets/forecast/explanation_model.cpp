// ExplanationModel; see explanation_model.h.
#include "widgets/forecast/explanation_model.h"

#include <algorithm>
#include <cmath>

namespace gpuf {

ExplanationModel::ExplanationModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

bool ExplanationModel::isBaseline(const ExplanationItem &item)
{
    return item.kind == ExplanationItem::Kind::Kernel
        && (item.referenceValue == item.candidateValue
            || (std::isnan(item.referenceValue) && std::isnan(item.candidateValue)));
}

void ExplanationModel::setExplanation(const Explanation &explanation)
{
    beginResetModel();
    m_explanation = explanation;
    // What differs between the kernels first; a feature equal in both is the baseline the difference stands on, and
    // goes last (each group keeps its order by strength).
    std::stable_partition(m_explanation.items.begin(), m_explanation.items.end(),
        [](const ExplanationItem &item) { return !isBaseline(item); });
    m_rows = int(std::min<qsizetype>(explanation.items.size(), kMaxItems));
    endResetModel();
}

void ExplanationModel::clear() { setExplanation({}); }

int ExplanationModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : m_rows; }

int ExplanationModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString ExplanationModel::valueText(double value)
{
    if (std::isnan(value))
        return QStringLiteral("—");
    if (value == std::round(value) && std::abs(value) < 1e9)
        return QString::number(qint64(value));
    return QString::number(value, 'g', 4);
}

QVariant ExplanationModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows)
        return {};
    const ExplanationItem &item = m_explanation.items[index.row()];
    const bool hardware = item.kind == ExplanationItem::Kind::Hardware;
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case FeatureColumn:
            if (hardware)
                return tr("%1 (GPU)").arg(item.feature);
            return isBaseline(item) ? tr("%1 (same in both: baseline)").arg(item.feature) : item.feature;
        case ReferenceColumn:
            return valueText(item.referenceValue);
        case CandidateColumn:
            return hardware ? QString() : valueText(item.candidateValue);
        case ContributionColumn:
            return QString::asprintf("%+.2f", item.contribution);
        case ColumnCount:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        return item.text.isEmpty() ? explanationItemText(item, m_explanation.predictedBin) : item.text;
    case Qt::TextAlignmentRole:
        return index.column() == FeatureColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case SortRole:
        switch (Column(index.column())) {
        case FeatureColumn:
            return item.feature;
        case ReferenceColumn:
            return item.referenceValue;
        case CandidateColumn:
            return item.candidateValue;
        case ContributionColumn:
            return item.contribution;
        case ColumnCount:
            break;
        }
        return {};
    default:
        return {};
    }
}

QVariant ExplanationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == ContributionColumn)
        return tr("Log-odds the feature adds toward the predicted bin: the bar grows right toward it, left away from "
                  "it, scaled to the largest contribution shown");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case FeatureColumn:
        return tr("Feature");
    case ReferenceColumn:
        return tr("Reference");
    case CandidateColumn:
        return tr("Candidate");
    case ContributionColumn:
        return tr("Contribution");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace gpuf
