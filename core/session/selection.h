// Selection: what the user is looking at, shared by every view. Views observe it and set it; they never call
// each other. A "pair" is the candidate kernel and the kernel it is compared with (its problem's reference by
// default, or its parent, or any kernel the user picks). It also holds the window's three shared choices — the
// forecaster, the hardware and the trust threshold τ — so the candidate table, the forecast actions, the calibration
// plots and the diff's annotations always show and use the same ones.
#pragma once

#include "core/domain/problem.h"

#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <optional>

namespace gpuf {

// One forecast row behind a plot's bar, cell or point: the pair it was made for and its bins.
struct DrillPair
{
    RowId referenceId = 0;
    RowId candidateId = 0;
    RowId hardwareId = 0; // 0: the forecast names no GPU
    QString hardwareName;
    RowId forecastId = 0;
    QString forecaster;
    int repeat = 0;
    int trueBin = 0;
    std::optional<int> predictedBin; // empty: the answer could not be parsed
};

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

    // The pairs behind a plot's drill-down, listed where the user can walk through them; the pair shown is the first.
    QList<DrillPair> drillPairs() const { return m_drillPairs; }
    QString drillDescription() const { return m_drillDescription; }
    void setDrillPairs(const QList<DrillPair> &pairs, const QString &description);

    // The window's forecaster (by name, as the CLI takes it), hardware (by name; empty: none) and trust threshold τ.
    // Not cleared by clear(): a view that finds one invalid for the open store sets a valid one.
    QString forecasterName() const { return m_forecasterName; }
    void setForecasterName(const QString &name);
    QString hardwareName() const { return m_hardwareName; }
    void setHardwareName(const QString &name);
    double trustThreshold() const { return m_trustThreshold; }
    void setTrustThreshold(double tau);

    void clear();

    // Classroom mode (a lesson's step not yet revealed): views that would give the answer away — measured speedups,
    // forecasts, the diff's forecast annotations — hide it until the step is revealed. Not cleared by clear().
    bool answersHidden() const { return m_answersHidden; }
    void setAnswersHidden(bool hidden);

    // A view asks for the evidence behind a kernel's measured speedup (a search's node, a lesson's answer): the
    // window's evidence dialog opens on it. Nothing is kept.
    void requestEvidence(RowId kernelId);

Q_SIGNALS:
    void scopeChanged(gpuf::RowId problemId, gpuf::RowId searchId);
    void pairChanged(gpuf::RowId candidateId, gpuf::RowId baselineId);
    void baselineKindChanged(gpuf::Selection::Baseline kind);
    void selectedIdsChanged(const QList<gpuf::RowId> &ids);
    void filterChanged(const QList<gpuf::RowId> &ids, const QString &description);
    void drillPairsChanged(const QList<gpuf::DrillPair> &pairs, const QString &description);
    void forecasterNameChanged(const QString &name);
    void hardwareNameChanged(const QString &name);
    void trustThresholdChanged(double tau);
    void evidenceRequested(gpuf::RowId kernelId);
    void answersHiddenChanged(bool hidden);

private:
    RowId m_problemId = 0;
    RowId m_searchId = 0;
    RowId m_candidateId = 0;
    RowId m_baselineId = 0;
    Baseline m_baselineKind = Baseline::Reference;
    QList<RowId> m_selectedIds;
    QList<RowId> m_filterIds;
    QString m_filterDescription;
    QList<DrillPair> m_drillPairs;
    QString m_drillDescription;
    QString m_forecasterName;
    QString m_hardwareName;
    double m_trustThreshold = 0.5;
    bool m_answersHidden = false;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::DrillPair)
