// MetricsTable: the forecasters compared side by side on the calibration, accuracy and ranking metrics (with
// bootstrap intervals), the choice of forecasters, problem and hardware it evaluates, and CSV export.
#pragma once

#include "core/common/result.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QToolButton;

namespace gpuf {

class CalibrationData;
class MetricsTableModel;
class Selection;

class MetricsTable : public QWidget
{
    Q_OBJECT

public:
    // `selection` may be null; with it, activating a row drills the candidate table down to that forecaster's pairs.
    MetricsTable(CalibrationData *data, Selection *selection, QWidget *parent = nullptr);
    ~MetricsTable() override;

    MetricsTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QString statusText() const; // the line above the table: counts, pairs in common, the origin chosen
    // Writes what the table shows as CSV (metricsCsv).
    Status exportCsv(const QString &path) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void buildControls();
    void applySnapshot();
    void fillChoices();
    void updateStatus();
    void requestFromControls();
    void drillDown(const QModelIndex &proxyIndex);
    void exportWithDialog();

    CalibrationData *m_data;
    Selection *m_selection;
    MetricsTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QToolButton *m_forecasters;
    QMenu *m_forecasterMenu;
    QComboBox *m_problem;
    QComboBox *m_hardware;
    QCheckBox *m_samePairs;
    QSpinBox *m_bootstrap;
    QComboBox *m_straddling;
    QPushButton *m_export;
    QLabel *m_status;
};

} // namespace gpuf
