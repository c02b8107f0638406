// What the live views keep of a search's history; see search_history.h.
#include "core/search/search_history.h"

#include <QJsonArray>

namespace gpuf::search {

std::optional<bins::Distribution> forecastDistribution(const SearchEvent &event)
{
    if (eventKindOf(event) != SearchEventKind::ForecastCompleted)
        return std::nullopt;
    const QJsonArray values = event.payload.value(QStringLiteral("probabilities")).toArray();
    if (values.size() != bins::kBinCount)
        return std::nullopt;
    bins::Distribution p {};
    for (int b = 0; b < bins::kBinCount; ++b) {
        if (!values[b].isDouble() || values[b].toDouble() < 0.0)
            return std::nullopt;
        p[size_t(b)] = values[b].toDouble();
    }
    return bins::renormalised(p);
}

QList<ParentScore> scoreParents(const Archive &archive, const QStringList &parents, double c, const QStringList &pinned)
{
    QList<ParentScore> out;
    const std::vector<ScoredNode> scored = scoreNodes(archive, PuctParams {c});
    QHash<int, int> placeOf; // archive position → place in the sorted list
    for (size_t i = 0; i < scored.size(); ++i)
        placeOf.insert(scored[i].position, int(i));
    for (const QString &id : parents) {
        const auto it = archive.index.constFind(id);
        if (it == archive.index.cend())
            continue;
        const ArchiveNode &node = archive.nodes[size_t(*it)];
        const ScoredNode &s = scored[size_t(placeOf.value(*it))];
        ParentScore p;
        p.nodeId = id;
        p.reward = node.reward;
        p.q = node.q;
        p.score = s.score;
        p.u = s.score - node.q;
        p.prior = s.prior;
        p.visits = node.visits;
        p.rewardRank = s.rank;
        p.scoreRank = placeOf.value(*it);
        p.archiveSize = int(archive.nodes.size());
        p.expansions = archive.expansions;
        p.pinned = pinned.contains(id);
        out.append(p);
    }
    return out;
}

void SearchHistory::append(const QList<SearchEvent> &events)
{
    for (const SearchEvent &e : events)
        append(e);
}

void SearchHistory::append(const SearchEvent &event)
{
    ++m_events;
    if (auto p = forecastDistribution(event)) {
        const QString node = event.payload.value(QStringLiteral("node_id")).toString();
        if (!node.isEmpty())
            m_forecasts.insert(node, *p);
    }
    if (!m_scoreParents || !m_error.isEmpty())
        return;
    // The step's parents were chosen on the archive as it stands before step_started is folded (and the fold does
    // not change the archive there), with the pins of that moment.
    if (eventKindOf(event) == SearchEventKind::StepStarted)
        recordScores(event);
    if (Status s = applyEvent(m_fold, event); !s)
        m_error = s.error();
}

void SearchHistory::recordScores(const SearchEvent &event)
{
    const int step = int(event.payload.value(QStringLiteral("step")).toInteger(-1));
    if (step != int(m_steps.size()))
        return; // the fold reports the misplaced step
    QStringList parents;
    for (const auto &v : event.payload.value(QStringLiteral("parents")).toArray())
        parents.append(v.toString());
    m_steps.append(StepScores {step, scoreParents(m_fold.archive, parents, m_fold.config.c, m_fold.pinned)});
}

void SearchHistory::clear() { *this = SearchHistory(m_scoreParents); }

const StepScores *SearchHistory::scores(int step) const
{
    return step >= 0 && step < m_steps.size() ? &m_steps[step] : nullptr;
}

const bins::Distribution *SearchHistory::forecast(const QString &nodeId) const
{
    const auto it = m_forecasts.constFind(nodeId);
    return it == m_forecasts.cend() ? nullptr : &*it;
}

} // namespace gpuf::search
