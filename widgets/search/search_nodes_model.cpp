// SearchNodesModel; see search_nodes_model.h.
#include "widgets/search/search_nodes_model.h"

#include "core/domain/search_event_kind.h"
#include "widgets/search/lineage_painter.h"

#include <QGuiApplication>

namespace gpuf {

using search::Candidate;
using search::CandidateStatus;

SearchNodesModel::SearchNodesModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void SearchNodesModel::setState(const search::SearchState *state)
{
    beginResetModel();
    m_state = state;
    m_rows = state ? int(state->candidates.size()) : 0;
    m_lastBest = state ? state->bestNode : QString();
    endResetModel();
}

void SearchNodesModel::applyEvents(const QList<SearchEvent> &events)
{
    if (!m_state || events.isEmpty())
        return;
    const int now = int(m_state->candidates.size());
    const int before = m_rows;
    if (now > before) {
        beginInsertRows({}, before, now - 1);
        m_rows = now;
        endInsertRows();
    }
    // Repaint the earlier rows the batch touched (by node or by request id), and the best node's marks.
    int low = before, high = -1;
    const auto touch = [&](int position) {
        if (position >= 0 && position < before) {
            low = std::min(low, position);
            high = std::max(high, position);
        }
    };
    for (const SearchEvent &e : events) {
        touch(m_state->byNode.value(e.payload.value(QStringLiteral("node_id")).toString(), -1));
        touch(m_state->byRequest.value(e.payload.value(QStringLiteral("request_id")).toString(), -1));
        const std::optional<SearchEventKind> kind = eventKindOf(e);
        if (e.payload.value(QStringLiteral("branch")).toBool() || kind == SearchEventKind::NodeUnvetoed
            || kind == SearchEventKind::StepCompleted) {
            touch(0); // a branch (un)veto marks descendants; a step's admission marks archive nodes
            touch(before - 1);
        }
    }
    touch(m_state->byNode.value(m_state->bestNode, -1));
    if (!m_lastBest.isEmpty())
        touch(m_state->byNode.value(m_lastBest, -1));
    m_lastBest = m_state->bestNode;
    if (high >= low)
        Q_EMIT dataChanged(index(low, 0), index(high, ColumnCount - 1));
}

int SearchNodesModel::rowOfNode(const QString &nodeId) const
{
    if (!m_state)
        return -1;
    const int position = m_state->byNode.value(nodeId, -1);
    return position < m_rows ? position : -1;
}

const Candidate *SearchNodesModel::candidateAt(int row) const
{
    return m_state && row >= 0 && row < m_rows ? &m_state->candidates[size_t(row)] : nullptr;
}

int SearchNodesModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : m_rows; }

int SearchNodesModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString SearchNodesModel::shortId(const QString &nodeId)
{
    return nodeId.size() > 10 ? QChar(0x2026) + nodeId.right(8) : nodeId;
}

QString SearchNodesModel::label(const QString &nodeId, const QHash<QString, QString> *names)
{
    const QString name = names ? names->value(nodeId) : QString();
    return name.isEmpty() ? shortId(nodeId) : name;
}

QString SearchNodesModel::statusText(const Candidate &c)
{
    using Kind = search::EvaluationFeedback::Kind;
    switch (c.status) {
    case CandidateStatus::Requested:
        return tr("mutation requested");
    case CandidateStatus::Proposed:
        return c.forced ? tr("to be measured next step") : tr("proposed");
    case CandidateStatus::MutationFailed:
        return tr("mutation failed");
    case CandidateStatus::Deferred:
        return tr("not measured");
    case CandidateStatus::Queued:
        return tr("queued for the GPU");
    case CandidateStatus::Selected:
        return tr("measuring");
    case CandidateStatus::EvaluationFailed:
        return tr("measurement failed");
    case CandidateStatus::Evaluated:
        break;
    }
    switch (c.feedback.kind) {
    case Kind::Success:
        if (c.reusedFromKernel > 0) // free: the same binary's measurement on this GPU was taken, no GPU ran
            return tr("reused (same binary as kernel %1)").arg(c.reusedFromKernel);
        return c.feedback.replayed ? tr("measured (replay)") : tr("measured");
    case Kind::CompileFailed:
        return tr("did not compile");
    case Kind::RuntimeError:
        return tr("failed while running");
    case Kind::Incorrect:
        return tr("wrong results");
    case Kind::InfrastructureFailure:
        return tr("measurement failed");
    case Kind::None:
        break;
    }
    return tr("measured");
}

QString SearchNodesModel::statusWithReason(const Candidate &c)
{
    // A failure says why in the row itself (its first line; the tooltip holds the whole message).
    const bool failed = c.status == CandidateStatus::MutationFailed || c.status == CandidateStatus::EvaluationFailed
        || (c.status == CandidateStatus::Evaluated && c.feedback.kind != search::EvaluationFeedback::Kind::Success);
    const QString why = c.status == CandidateStatus::MutationFailed ? c.mutationError : c.feedback.message;
    const QString line = why.section(QLatin1Char('\n'), 0, 0).trimmed();
    if (!failed || line.isEmpty())
        return statusText(c);
    return tr("%1: %2").arg(statusText(c), line.size() > 90 ? line.left(89) + QChar(0x2026) : line);
}

QString SearchNodesModel::marksText(const search::SearchState &state, const Candidate &c)
{
    QStringList marks;
    if (c.seedNode)
        marks << tr("seed");
    if (state.bestNode == c.nodeId)
        marks << tr("best");
    if (state.archive.index.contains(c.nodeId))
        marks << tr("archive");
    if (state.pinned.contains(c.nodeId))
        marks << tr("pinned");
    if (state.vetoedBranches.contains(c.nodeId))
        marks << tr("branch vetoed");
    else if (state.vetoed.contains(c.nodeId))
        marks << tr("vetoed");
    else if (search::isVetoed(state, c.nodeId))
        marks << tr("in a vetoed branch");
    if (c.injected)
        marks << tr("injected");
    else if (c.forced)
        marks << tr("forced");
    return marks.join(QStringLiteral(", "));
}

// The Forecast column: expected bin and confidence, "failed", or nothing before the forecast is done.
QVariant SearchNodesModel::forecastCell(const search::Candidate &c, int role)
{
    const bool sort = role == SortRole;
    if (!c.forecastDone)
        return sort ? QVariant(-1.0) : QVariant(QString());
    if (c.forecastFailed)
        return sort ? QVariant(-0.5) : QVariant(tr("failed"));
    if (sort)
        return c.expectedBin;
    if (role == Qt::ToolTipRole)
        return tr("Expected bin %1; the predicted bin %2 has probability %3 (the confidence)")
            .arg(c.expectedBin, 0, 'f', 2)
            .arg(c.predictedBin)
            .arg(c.confidence, 0, 'f', 2);
    return tr("%1 · %2 %").arg(c.expectedBin, 0, 'f', 1).arg(c.confidence * 100.0, 0, 'f', 0);
}

QVariant SearchNodesModel::data(const QModelIndex &index, int role) const
{
    const Candidate *c = index.isValid() ? candidateAt(index.row()) : nullptr;
    if (!c)
        return {};
    if (role == NodeIdRole)
        return c->nodeId;
    if (role == KernelIdRole)
        return c->kernelId;
    const bool sort = role == SortRole;
    if (role == Qt::TextAlignmentRole) {
        const int column = index.column();
        return column == StepColumn || column == SpeedupColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                               : QVariant();
    }
    if (role == Qt::DecorationRole)
        return index.column() == NodeColumn && m_state->pinned.contains(c->nodeId) ? QVariant(pinIcon()) : QVariant();
    if (role != Qt::DisplayRole && !sort && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case NodeColumn:
        if (role == Qt::ToolTipRole)
            return nodeToolTip(*c);
        if (c->seedNode && !(m_names && m_names->contains(c->nodeId)))
            return sort ? QVariant(index.row()) : QVariant(tr("reference (seed)"));
        return sort ? QVariant(index.row()) : QVariant(label(c->nodeId, m_names));
    case StepColumn:
        if (sort)
            return c->step;
        return c->step < 0 ? tr("seed") : QString::number(c->step);
    case ParentColumn:
        if (role == Qt::ToolTipRole)
            return c->parentId;
        if (c->parentId.isEmpty())
            return sort ? QString() : tr("—");
        if (const Candidate *parent = m_state->candidate(c->parentId);
            parent && parent->seedNode && !(m_names && m_names->contains(c->parentId)))
            return tr("reference (seed)"); // as the seed's own row says
        return label(c->parentId, m_names);
    case StatusColumn:
        if (role == Qt::ToolTipRole && !c->mutationError.isEmpty())
            return c->mutationError;
        if (role == Qt::ToolTipRole && !c->feedback.message.isEmpty())
            return c->feedback.message.left(2000);
        return sort ? QVariant(statusText(*c)) : QVariant(statusWithReason(*c));
    case ForecastColumn:
        return forecastCell(*c, role);
    case DecisionColumn:
        return c->decision;
    case SpeedupColumn:
        if (sort)
            return c->reward.value_or(-1.0);
        return c->reward ? QStringLiteral("%1×").arg(*c->reward, 0, 'f', 3) : QString();
    case MarksColumn:
        return marksText(*m_state, *c);
    default:
        return {};
    }
}

QString SearchNodesModel::nodeToolTip(const Candidate &c) const
{
    QString text
        = m_names && m_names->contains(c.nodeId) ? tr("%1\nnode %2").arg(m_names->value(c.nodeId), c.nodeId) : c.nodeId;
    if (m_state->pinned.contains(c.nodeId))
        text += QLatin1Char('\n')
            + tr("Pinned (the flag, as in the lineage): taken first as a parent at every step until unpinned.");
    return text;
}

QIcon SearchNodesModel::pinIcon() const
{
    // The lineage's pin mark in the palette's colours (made again when the colour scheme changes).
    const LineageColors colors = LineageColors::fromPalette(QGuiApplication::palette());
    if (m_pinIcon.isNull() || colors.foreground != m_pinIconColor) {
        m_pinIcon = pinMarkIcon(colors);
        m_pinIconColor = colors.foreground;
    }
    return m_pinIcon;
}

QVariant SearchNodesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NodeColumn:
        return tr("Node");
    case StepColumn:
        return tr("Step");
    case ParentColumn:
        return tr("Parent");
    case StatusColumn:
        return tr("Status");
    case ForecastColumn:
        return tr("Expected bin · confidence");
    case DecisionColumn:
        return tr("Why");
    case SpeedupColumn:
        return tr("Speedup");
    case MarksColumn:
        return tr("Marks");
    default:
        return {};
    }
}

} // namespace gpuf
