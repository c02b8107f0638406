// The per-step tables of a search: the step's parents with their PUCT scores (Q, U, visits, prior, score as paper-facts
// §6 defines them) and its proposals with their forecasts, why each was or was not measured, and the result. Both are
// reset from a search::StepDetail value; SortRole carries raw numbers, NodeIdRole the node's id.
#pragma once

#include "core/search/step_detail.h"

#include <QAbstractTableModel>
#include <QHash>

namespace gpuf {

class StepParentsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        NodeColumn,
        RewardColumn,
        QColumn,
        UColumn,
        ScoreColumn,
        VisitsColumn,
        PriorColumn,
        RankColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole, NodeIdRole };

    explicit StepParentsModel(QObject *parent = nullptr);

    void setDetail(const search::StepDetail &detail);
    const QList<search::ParentScore> &parents() const { return m_parents; }
    // The nodes' readable names (configurations, kernel names); null shows short ids.
    void setNodeNames(const QHash<QString, QString> *names) { m_names = names; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<search::ParentScore> m_parents;
    bool m_scored = false;
    const QHash<QString, QString> *m_names = nullptr;
};

class StepProposalsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        NodeColumn,
        ParentColumn,
        KernelColumn,
        ForecastBinColumn,
        ConfidenceColumn,
        ExpectedSpeedupColumn,
        DecisionColumn,
        SpeedupColumn,
        MeasuredBinColumn,
        OutcomeColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole, NodeIdRole };

    explicit StepProposalsModel(QObject *parent = nullptr);

    void setDetail(const search::StepDetail &detail, double tau, bool selective);
    const QList<search::ProposalRow> &rows() const { return m_rows; }
    int rowOfNode(const QString &nodeId) const; // −1 when absent
    void setNodeNames(const QHash<QString, QString> *names) { m_names = names; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The words the Decision column shows for a row (why it was or was not measured).
    QString decisionText(const search::ProposalRow &row) const;
    static QString outcomeText(search::Outcome outcome);

private:
    QVariant display(const search::ProposalRow &row, int column) const;
    QVariant sortValue(const search::ProposalRow &row, int column) const;

    QList<search::ProposalRow> m_rows;
    const QHash<QString, QString> *m_names = nullptr;
    int m_step = -1;
    double m_tau = 0.5;
    bool m_selective = false;
};

// A node id as the tables show it: ULIDs cut to their last 8 characters ("…7QK2M1ZD"); short ids whole.
QString shortNodeId(const QString &nodeId);
// A node as the tables name it: its readable name in `names` (configuration, kernel name), else its short id.
QString nodeLabel(const QString &nodeId, const QHash<QString, QString> *names);

} // namespace gpuf
