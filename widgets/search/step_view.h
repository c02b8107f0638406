// StepView: one step of a search in two tables — its parents with their PUCT scores, and its proposals with their
// forecasts, whether each was measured and why, and the results. It follows the step in progress until the user picks
// another step (and again when they tick "Latest").
//
// Interface for the search dock: setSearch(state, events) with the whole log, applyEvents(state, newEvents) after each
// batch (the PUCT scores of a step are taken from the log as it stood when the step chose its parents, so the view
// keeps its own record of the events it was given); selectNode() selects a proposal's row when the step shows it;
// nodeActivated() reports a row the user chose. Fed values only.
#pragma once

#include "core/domain/search.h"
#include "core/search/search_history.h"
#include "core/search/search_state.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QCheckBox;
class QLabel;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace gpuf {

class StepParentsModel;
class StepProposalsModel;

class StepView : public QWidget
{
    Q_OBJECT

public:
    explicit StepView(QWidget *parent = nullptr);
    ~StepView() override;

    void setSearch(const search::SearchState &state, const QList<SearchEvent> &events);
    void applyEvents(const search::SearchState &state, const QList<SearchEvent> &newEvents);

    // Shows `step` (clamped to the steps there are) and stops following the latest.
    void showStep(int step);
    int shownStep() const { return m_step; }
    bool followsLatest() const;
    void setFollowLatest(bool follow);
    void selectNode(const QString &nodeId);
    // The nodes' readable names for both tables (the follower's); null shows short ids.
    void setNodeNames(const QHash<QString, QString> *names);

    StepParentsModel *parentsModel() const { return m_parents; }
    StepProposalsModel *proposalsModel() const { return m_proposals; }
    QTableView *parentsView() const { return m_parentsView; }
    QTableView *proposalsView() const { return m_proposalsView; }
    QString summaryText() const;

Q_SIGNALS:
    void nodeActivated(const QString &nodeId);

private:
    void refresh();
    int latestStep() const;

    std::optional<search::SearchState> m_state;
    search::SearchHistory m_history;
    int m_step = -1;
    StepParentsModel *m_parents;
    StepProposalsModel *m_proposals;
    QSortFilterProxyModel *m_proposalsProxy;
    QSpinBox *m_stepBox;
    QCheckBox *m_latest;
    QLabel *m_summary;
    QTableView *m_parentsView;
    QTableView *m_proposalsView;
};

} // namespace gpuf
