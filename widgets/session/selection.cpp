// Selection; see selection.h. Setters emit only on real changes, so observers can set freely without loops.
#include "widgets/session/selection.h"

namespace gpuf {

Selection::Selection(QObject *parent)
    : QObject(parent)
{ }

void Selection::setScope(RowId problemId, RowId searchId)
{
    if (problemId == m_problemId && searchId == m_searchId)
        return;
    m_problemId = problemId;
    m_searchId = searchId;
    Q_EMIT scopeChanged(problemId, searchId);
}

void Selection::setPair(RowId candidateId, RowId baselineId)
{
    if (candidateId == m_candidateId && baselineId == m_baselineId)
        return;
    m_candidateId = candidateId;
    m_baselineId = baselineId;
    Q_EMIT pairChanged(candidateId, baselineId);
}

void Selection::setBaselineKind(Baseline kind)
{
    if (kind == m_baselineKind)
        return;
    m_baselineKind = kind;
    Q_EMIT baselineKindChanged(kind);
}

void Selection::setSelectedIds(const QList<RowId> &ids)
{
    if (ids == m_selectedIds)
        return;
    m_selectedIds = ids;
    Q_EMIT selectedIdsChanged(ids);
}

void Selection::setFilter(const QList<RowId> &ids, const QString &description)
{
    m_filterIds = ids;
    m_filterDescription = description;
    Q_EMIT filterChanged(ids, description);
}

void Selection::clearFilter()
{
    if (m_filterIds.isEmpty() && m_filterDescription.isEmpty())
        return;
    setFilter({}, {});
}

void Selection::clear()
{
    setFilter({}, {});
    setSelectedIds({});
    setPair(0, 0);
    setScope(0, 0);
}

} // namespace gpuf
