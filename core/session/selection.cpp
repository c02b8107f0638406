// Selection; see selection.h. Setters emit only on real changes, so observers can set freely without loops.
#include "core/session/selection.h"

#include <algorithm>

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
    // Not QList's ==: Qt 6.4 compares two empty lists with memcmp on a null pointer when only one has storage, which
    // the sanitizer build stops at (an empty selection is compared on every click).
    if (std::equal(ids.cbegin(), ids.cend(), m_selectedIds.cbegin(), m_selectedIds.cend()))
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

void Selection::setDrillPairs(const QList<DrillPair> &pairs, const QString &description)
{
    m_drillPairs = pairs;
    m_drillDescription = description;
    Q_EMIT drillPairsChanged(pairs, description); // always: the same cell clicked again brings the list up again
}

void Selection::setForecasterName(const QString &name)
{
    if (name == m_forecasterName)
        return;
    m_forecasterName = name;
    Q_EMIT forecasterNameChanged(name);
}

void Selection::setHardwareName(const QString &name)
{
    if (name == m_hardwareName)
        return;
    m_hardwareName = name;
    Q_EMIT hardwareNameChanged(name);
}

void Selection::setTrustThreshold(double tau)
{
    tau = std::clamp(tau, 0.0, 1.0);
    if (qFuzzyCompare(1.0 + tau, 1.0 + m_trustThreshold))
        return;
    m_trustThreshold = tau;
    Q_EMIT trustThresholdChanged(tau);
}

void Selection::setAnswersHidden(bool hidden)
{
    if (hidden == m_answersHidden)
        return;
    m_answersHidden = hidden;
    Q_EMIT answersHiddenChanged(hidden);
}

void Selection::requestEvidence(RowId kernelId)
{
    if (kernelId > 0)
        Q_EMIT evidenceRequested(kernelId);
}

void Selection::clear()
{
    setFilter({}, {});
    if (!m_drillPairs.isEmpty())
        setDrillPairs({}, {});
    setSelectedIds({});
    setPair(0, 0);
    setScope(0, 0);
}

} // namespace gpuf
