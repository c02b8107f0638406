// DrillPairsView: the (reference, candidate, hardware) pairs behind a plot's drill-down — one row per forecast the
// plot counted, with its true and predicted bins — whatever the candidate table's scope. A drill-down brings it to the
// front with the first pair's diff shown; choosing a row shows that pair's diff.
#pragma once

#include "core/session/selection.h"

#include <QAbstractTableModel>
#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace gpuf {

class CandidateSource;

class DrillPairsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        CandidateColumn,
        ReferenceColumn,
        HardwareColumn,
        TrueBinColumn,
        PredictedBinColumn,
        ForecasterColumn,
        SampleColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole };

    // `source` (may be null) names the kernels; without it they show as ids.
    explicit DrillPairsModel(const CandidateSource *source, QObject *parent = nullptr);

    void setPairs(const QList<DrillPair> &pairs);
    const QList<DrillPair> &pairs() const { return m_pairs; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString kernelName(RowId id) const;

    const CandidateSource *m_source;
    QList<DrillPair> m_pairs;
};

class DrillPairsView : public QWidget
{
    Q_OBJECT

public:
    DrillPairsView(const CandidateSource *source, Selection *selection, QWidget *parent = nullptr);

    QTableView *tableView() const { return m_view; }
    DrillPairsModel *model() const { return m_model; }
    QString summaryText() const;

private:
    void showPairs(const QList<DrillPair> &pairs, const QString &description);
    void bringToFront();

    Selection *m_selection;
    QLabel *m_summary;
    QTableView *m_view;
    DrillPairsModel *m_model;
    QSortFilterProxyModel *m_proxy = nullptr;
};

} // namespace gpuf
