// Selection: what the user is looking at, shared by every view. Views observe it and set it; they never call
// each other. A "pair" is the candidate kernel and the kernel it is compared with (its problem's reference by
// default, or its parent, or any kernel the user picks).
#pragma once

#include "core/domain/problem.h"

#include <QList>
#include <QObject>

namespace gpuf {

class Selection : public QObject
{
    Q_OBJECT

public:
    enum class Baseline { Reference, Parent, Custom };
    Q_ENUM(Baseline)

    explicit Selection(QObject *parent = nullptr);

    // The scope the candidate table shows: a problem (0 = all) and optionally one search (0 = none).
    RowId problemId() const { return m_problemId; }
    RowId searchId() const { return m_searchId; }
    void setScope(RowId problemId, RowId searchId = 0);

    // The candidate in focus and what it is compared with.
    RowId candidateId() const { return m_candidateId; }
    RowId baselineId() const { return m_baselineId; }
    Baseline baselineKind() const { return m_baselineKind; }
    // Sets the candidate; `baselineId` is the kernel to compare with (resolved by the caller from baselineKind()).
    void setPair(RowId candidateId, RowId baselineId);
    void setBaselineKind(Baseline kind);

    // Every selected candidate (for batch actions); the focused one is among them.
    QList<RowId> selectedIds() const { return m_selectedIds; }
    void setSelectedIds(const QList<RowId> &ids);

    // An explicit set of kernel ids the candidate table is filtered to (a drill-down from a plot); empty = none.
    QList<RowId> filterIds() const { return m_filterIds; }
    QString filterDescription() const { return m_filterDescription; }
    void setFilter(const QList<RowId> &ids, const QString &description);
    void clearFilter();

    void clear();

Q_SIGNALS:
    void scopeChanged(gpuf::RowId problemId, gpuf::RowId searchId);
    void pairChanged(gpuf::RowId candidateId, gpuf::RowId baselineId);
    void baselineKindChanged(gpuf::Selection::Baseline kind);
    void selectedIdsChanged(const QList<gpuf::RowId> &ids);
    void filterChanged(const QList<gpuf::RowId> &ids, const QString &description);

private:
    RowId m_problemId = 0;
    RowId m_searchId = 0;
    RowId m_candidateId = 0;
    RowId m_baselineId = 0;
    Baseline m_baselineKind = Baseline::Reference;
    QList<RowId> m_selectedIds;
    QList<RowId> m_filterIds;
    QString m_filterDescription;
};

} // namespace gpuf
