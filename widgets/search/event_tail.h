// The live tail of a search's event log: the newest events (kind, step, node, a one-line summary) in a bounded table
// that drops the oldest rows past its capacity, and a view that stays at the end while the user has not scrolled up.
//
// Interface for the search dock: setSearch(state, events) shows the end of a whole log, applyEvents(state, newEvents)
// appends a batch (the state resolves the node of events that name only a request). Fed values only.
#pragma once

#include "core/domain/search.h"
#include "core/search/search_state.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <deque>

class QLabel;
class QTableView;

namespace gpuf {

class EventTailModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { SequenceColumn, TimeColumn, KindColumn, StepColumn, NodeColumn, SummaryColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole, NodeIdRole };
    static constexpr int kDefaultCapacity = 1000;

    explicit EventTailModel(QObject *parent = nullptr);

    void setCapacity(int capacity); // at least 1; drops the oldest rows beyond it
    int capacity() const { return m_capacity; }
    void setEvents(const search::SearchState &state, const QList<SearchEvent> &events);
    void appendEvents(const search::SearchState &state, const QList<SearchEvent> &events);
    qint64 totalEvents() const { return m_total; } // every event seen, including the dropped ones

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The short account of an event the Summary column shows ("2.50× (replay)", "bin 6 at 70%", the decision's reason).
    static QString summaryOf(const SearchEvent &event);

private:
    struct Row
    {
        qint64 sequence = 0;
        QDateTime time;
        QString kind;
        int step = -1;
        QString nodeId;
        QString summary;
    };
    Row rowOf(const search::SearchState &state, const SearchEvent &event); // also follows the step in progress
    void noteStep(const SearchEvent &event);

    std::deque<Row> m_rows;
    int m_capacity = kDefaultCapacity;
    qint64 m_total = 0;
    int m_step = -1; // the step in progress after the events seen so far (−1 between steps)
};

class EventTailView : public QWidget
{
    Q_OBJECT

public:
    explicit EventTailView(QWidget *parent = nullptr);

    void setSearch(const search::SearchState &state, const QList<SearchEvent> &events);
    void applyEvents(const search::SearchState &state, const QList<SearchEvent> &newEvents);

    EventTailModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    // Whether the view keeps the newest row in sight (true until the user scrolls away from the end).
    bool followsEnd() const;
    QString statusText() const;

Q_SIGNALS:
    void nodeActivated(const QString &nodeId);

private:
    void updateStatus();

    EventTailModel *m_model;
    QTableView *m_view;
    QLabel *m_status;
};

} // namespace gpuf
