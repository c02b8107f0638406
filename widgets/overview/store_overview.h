// StoreOverview: what the open store holds — totals, then a sortable table of its problems.
#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace gpuf {

class ProblemCountsModel;
class StoreSession;
struct StoreSnapshot;

class StoreOverview : public QWidget
{
    Q_OBJECT

public:
    explicit StoreOverview(StoreSession *session, QWidget *parent = nullptr);

    QTableView *problemTable() const { return m_table; }

private:
    void showSnapshot(const StoreSnapshot &snapshot);
    void showMessage(const QString &message);

    QLabel *m_summary;
    QTableView *m_table;
    ProblemCountsModel *m_model;
};

} // namespace gpuf
