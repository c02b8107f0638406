// The per-step tables; see step_models.h.
#include "widgets/search/step_models.h"

#include "core/bins/bins.h"
#include "widgets/search/bin_colors.h"

#include <QGuiApplication>

#include <QLocale>

#include <cmath>

namespace gpuf {

using search::MeasureReason;
using search::Outcome;
using search::ParentScore;
using search::ProposalRow;

namespace {

QString number(double value, int decimals = 3) { return QLocale().toString(value, 'f', decimals); }

QString percent(double value) { return QLocale().toString(value * 100.0, 'f', 0) + QLatin1Char('%'); }

QVariant optionalSort(const std::optional<double> &value)
{
    return value ? QVariant(*value) : QVariant(-std::numeric_limits<double>::infinity());
}

} // namespace

QString shortNodeId(const QString &nodeId)
{
    return nodeId.size() > 12 ? QStringLiteral("…") + nodeId.right(8) : nodeId;
}

QString nodeLabel(const QString &nodeId, const QHash<QString, QString> *names)
{
    const QString name = names ? names->value(nodeId) : QString();
    return name.isEmpty() ? shortNodeId(nodeId) : name;
}

// ---- parents

StepParentsModel::StepParentsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void StepParentsModel::setDetail(const search::StepDetail &detail)
{
    beginResetModel();
    m_parents = detail.parents;
    m_scored = detail.parentScoresKnown;
    endResetModel();
}

int StepParentsModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_parents.size()); }

int StepParentsModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant StepParentsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_parents.size())
        return {};
    const ParentScore &p = m_parents[index.row()];
    const int column = index.column();
    if (role == NodeIdRole)
        return p.nodeId;
    if (role == Qt::ToolTipRole && column == NodeColumn)
        return p.pinned ? tr("%1 (pinned by the user)").arg(p.nodeId) : p.nodeId;
    if (role == Qt::TextAlignmentRole)
        return column == NodeColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (column) {
        case NodeColumn:
            return p.nodeId;
        case RewardColumn:
            return optionalSort(p.reward);
        case QColumn:
            return p.q;
        case UColumn:
            return p.u;
        case ScoreColumn:
            return p.score;
        case VisitsColumn:
            return p.visits;
        case PriorColumn:
            return p.prior;
        case RankColumn:
            return p.scoreRank;
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    if (column == NodeColumn)
        return p.pinned ? tr("%1 (pinned)").arg(nodeLabel(p.nodeId, m_names)) : nodeLabel(p.nodeId, m_names);
    if (column == RewardColumn)
        return p.reward ? bins::speedupText(*p.reward) : QStringLiteral("—");
    if (!m_scored)
        return QStringLiteral("—"); // a log the history could not fold to this step
    switch (column) {
    case QColumn:
        return number(p.q);
    case UColumn:
        return number(p.u);
    case ScoreColumn:
        return number(p.score);
    case VisitsColumn:
        return QLocale().toString(p.visits);
    case PriorColumn:
        return number(p.prior);
    case RankColumn:
        return tr("%1 of %2").arg(p.scoreRank + 1).arg(p.archiveSize);
    }
    return {};
}

QVariant StepParentsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case RewardColumn:
            return tr("r(s): the parent's measured speedup");
        case QColumn:
            return tr("Q(s): r(s) until a child improves on it, then the best child's speedup");
        case UColumn:
            return tr("U(s) = c · scale · P(s) · √(1 + T) / (1 + n(s)): the exploration bonus");
        case ScoreColumn:
            return tr("Q + U: what PUCT sorted the archive by when the step chose its parents");
        case VisitsColumn:
            return tr("n(s): how often the node or a descendant was expanded");
        case PriorColumn:
            return tr("P(s) = (N − rank) / (N(N + 1)/2): the reward-rank prior");
        case RankColumn:
            return tr("The node's place in the archive sorted by score");
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NodeColumn:
        return tr("Parent");
    case RewardColumn:
        return tr("Reward");
    case QColumn:
        return tr("Q");
    case UColumn:
        return tr("U");
    case ScoreColumn:
        return tr("Score");
    case VisitsColumn:
        return tr("Visits");
    case PriorColumn:
        return tr("Prior");
    case RankColumn:
        return tr("Rank");
    }
    return {};
}

// ---- proposals

StepProposalsModel::StepProposalsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void StepProposalsModel::setDetail(const search::StepDetail &detail, double tau, bool selective)
{
    beginResetModel();
    m_rows = detail.proposals;
    m_step = detail.step;
    m_tau = tau;
    m_selective = selective;
    endResetModel();
}

int StepProposalsModel::rowOfNode(const QString &nodeId) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].nodeId == nodeId)
            return i;
    }
    return -1;
}

int StepProposalsModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int StepProposalsModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString StepProposalsModel::outcomeText(Outcome outcome)
{
    switch (outcome) {
    case Outcome::AwaitingCode:
        return tr("awaiting code");
    case Outcome::NoCode:
        return tr("no code");
    case Outcome::Undecided:
        return tr("awaiting decision");
    case Outcome::NotMeasured:
        return tr("not measured");
    case Outcome::Measuring:
        return tr("measuring");
    case Outcome::Ok:
        return tr("ok");
    case Outcome::CompileFailed:
        return tr("compile failed");
    case Outcome::RuntimeError:
        return tr("runtime error");
    case Outcome::Incorrect:
        return tr("incorrect");
    case Outcome::MeasurementFailed:
        return tr("measurement failed");
    }
    return {};
}

QString StepProposalsModel::decisionText(const ProposalRow &row) const
{
    const bool waiting = row.measuredInStep < -1; // forced or injected, not sent yet
    QString text;
    switch (row.reason) {
    case MeasureReason::Selected:
        text = tr("measured: selected");
        break;
    case MeasureReason::LowConfidence:
        text = row.forecast ? tr("measured: confidence below τ") : tr("measured: no forecast to trust");
        break;
    case MeasureReason::FromQueue:
        text = tr("measured: from the queue (confidence below τ)");
        break;
    case MeasureReason::Forced:
        text = waiting ? tr("to be measured: forced by the user") : tr("measured: forced by the user");
        break;
    case MeasureReason::Injected:
        text = waiting ? tr("to be measured: injected by the user") : tr("measured: injected by the user");
        break;
    case MeasureReason::Deferred:
        text = m_selective || row.forecast ? tr("deferred: ranked below the GPU budget") : tr("deferred: over budget");
        break;
    case MeasureReason::Queued:
        text = row.forecast ? tr("queued: confidence below τ") : tr("queued: no forecast to trust");
        break;
    case MeasureReason::Duplicate:
        text = tr("deferred: duplicate of measured code");
        break;
    case MeasureReason::Vetoed:
        text = tr("deferred: vetoed");
        break;
    case MeasureReason::MutationFailed:
        text = tr("no code");
        break;
    case MeasureReason::Pending:
        text = tr("pending");
        break;
    }
    if (row.proposedInStep >= 0 && row.proposedInStep != m_step)
        text += tr(" (proposed in step %1)").arg(row.proposedInStep);
    else if (row.measuredInStep > m_step)
        text += tr(" (measured in step %1)").arg(row.measuredInStep);
    return text;
}

QVariant StepProposalsModel::display(const ProposalRow &row, int column) const
{
    const QString none = QStringLiteral("—");
    switch (column) {
    case NodeColumn:
        return nodeLabel(row.nodeId, m_names);
    case ParentColumn:
        return row.parentId.isEmpty() ? none : nodeLabel(row.parentId, m_names);
    case KernelColumn:
        return row.kernel.isEmpty() ? none : row.kernel;
    case ForecastBinColumn:
        return row.forecast ? QString::number(row.predictedBin) : row.forecastFailed ? tr("failed") : none;
    case ConfidenceColumn:
        if (!row.forecast)
            return none;
        return m_selective && !row.trusted ? tr("%1 (< τ)").arg(percent(row.confidence)) : percent(row.confidence);
    case ExpectedSpeedupColumn:
        return row.expectedSpeedup ? bins::speedupText(*row.expectedSpeedup) : none;
    case DecisionColumn:
        return decisionText(row);
    case SpeedupColumn:
        return row.speedup ? bins::speedupText(*row.speedup) : none;
    case MeasuredBinColumn:
        return row.bin ? QString::number(*row.bin) : none;
    case OutcomeColumn:
        return row.admitted ? tr("%1, joined the archive").arg(outcomeText(row.outcome)) : outcomeText(row.outcome);
    }
    return {};
}

QVariant StepProposalsModel::sortValue(const ProposalRow &row, int column) const
{
    switch (column) {
    case NodeColumn:
        return int(
            &row - m_rows.constData()); // the step's own order: request order, then nodes measured from elsewhere
    case ParentColumn:
        return row.parentId;
    case KernelColumn:
        return row.kernel;
    case ForecastBinColumn:
        return row.forecast ? row.predictedBin : 0;
    case ConfidenceColumn:
        return row.forecast ? row.confidence : -1.0;
    case ExpectedSpeedupColumn:
        return optionalSort(row.expectedSpeedup);
    case DecisionColumn:
        return int(row.reason);
    case SpeedupColumn:
        return optionalSort(row.speedup);
    case MeasuredBinColumn:
        return row.bin.value_or(0);
    case OutcomeColumn:
        return int(row.outcome);
    }
    return {};
}

QVariant StepProposalsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const ProposalRow &row = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case NodeIdRole:
        return row.nodeId;
    case Qt::DecorationRole:
        // The tree's bin colours beside the bins, read from the application palette at paint time (so they follow a
        // change of colour scheme).
        if (index.column() == MeasuredBinColumn && row.bin)
            return binColor(*row.bin, QGuiApplication::palette());
        if (index.column() == ForecastBinColumn && row.forecast)
            return binColor(row.predictedBin, QGuiApplication::palette());
        return {};
    case Qt::ToolTipRole:
        if (index.column() == NodeColumn)
            return row.nodeId;
        if (index.column() == ParentColumn)
            return row.parentId;
        if (index.column() == DecisionColumn && !row.decision.isEmpty())
            return tr("The log says: %1").arg(row.decision);
        if (index.column() == ConfidenceColumn && row.forecast)
            return tr("p of the predicted bin; expected bin %1; τ = %2")
                .arg(number(row.expectedBin, 2), number(m_tau, 2));
        return {};
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case ForecastBinColumn:
        case ConfidenceColumn:
        case ExpectedSpeedupColumn:
        case SpeedupColumn:
        case MeasuredBinColumn:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    }
    return {};
}

QVariant StepProposalsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ForecastBinColumn:
            return tr("The forecaster's predicted speedup bin (1–8)");
        case ConfidenceColumn:
            return tr("The forecast's confidence: p of its predicted bin");
        case ExpectedSpeedupColumn:
            return tr("Σ p_b · m_b over the bins' geometric midpoints");
        case DecisionColumn:
            return tr("Whether it went to the GPU, and why");
        case MeasuredBinColumn:
            return tr("The measured speedup's bin");
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NodeColumn:
        return tr("Proposal");
    case ParentColumn:
        return tr("Parent");
    case KernelColumn:
        return tr("Kernel");
    case ForecastBinColumn:
        return tr("Forecast bin");
    case ConfidenceColumn:
        return tr("Confidence");
    case ExpectedSpeedupColumn:
        return tr("Expected");
    case DecisionColumn:
        return tr("Measured?");
    case SpeedupColumn:
        return tr("Speedup");
    case MeasuredBinColumn:
        return tr("Bin");
    case OutcomeColumn:
        return tr("Result");
    }
    return {};
}

} // namespace gpuf
