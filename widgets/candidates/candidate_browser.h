// CandidateBrowser: the filter bar above the candidate table. It follows the Selection's scope and drill-down
// filter, and writes the focused candidate with its baseline, and the selected ids, back into the Selection. The
// table's forecaster, hardware and τ are the Selection's (the window's); when a store opens that lacks the chosen
// forecaster or hardware, the browser sets the store's default in the Selection, so every view moves with it.
#pragma once

#include "core/session/candidate_query.h"

#include <QWidget>

class QItemSelection;
class QLabel;
class QModelIndex;
class QTableView;
class QToolButton;

namespace gpuf {

class CandidateFilterBar;
class CandidateSource;
class CandidateTableModel;

class CandidateBrowser : public QWidget
{
    Q_OBJECT

public:
    CandidateBrowser(CandidateSource *source, Selection *selection, QWidget *parent = nullptr);

    QTableView *tableView() const { return m_view; }
    CandidateTableModel *model() const { return m_model; }
    CandidateFilterBar *filterBar() const { return m_filterBar; }
    // The line above the table: how many kernels are shown, and why some columns or rows are hidden.
    QString summaryText() const;

private:
    void buildLayout();
    void connectSource();
    void connectChoices();
    void connectModel();
    void showTable(const CandidateTablePtr &table);
    void applyFilter();
    void followPair(RowId candidateId);
    void restoreSelection();
    void onCurrentChanged(const QModelIndex &current);
    void onSelectionChanged();
    void writePair(int viewRow);
    void updateSummary();
    void showAnswers();
    void showChoices(bool newStore);
    void chooseForecaster(int index);
    void chooseHardware(int index);

    CandidateSource *m_source;
    Selection *m_selection;
    CandidateFilterBar *m_filterBar;
    QLabel *m_summary;
    QToolButton *m_clearDrillDown;
    QTableView *m_view;
    CandidateTableModel *m_model;
    QString m_message; // a load error, shown until the next table
    QString m_storePath; // of the table shown: a table of another store resets choices that store lacks
    bool m_settingChoices = false; // showChoices() is writing the Selection's choices
    bool m_restoring = false; // the view is being re-selected from the Selection: do not write back
    bool m_restorePending = false; // the model was reset; re-select once its rows are in place
};

} // namespace gpuf
