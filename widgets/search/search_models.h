// The Searches view's two tables: the store's searches (one row per SearchSummary) and one search's event log (one
// row per SearchEvent). Both are reset from immutable values read off the GUI thread; SortRole carries raw values.
#pragma once

#include "core/search/search_engine.h"
#include "core/search/search_summary.h"

#include <QAbstractTableModel>

namespace gpuf {

class SearchListModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        NameColumn,
        SourceColumn,
        ProblemColumn,
        ModeColumn,
        ForecasterColumn,
        StatusColumn,
        EventsColumn,
        StepsColumn,
        GpuEvaluationsColumn,
        ForecastsColumn,
        BestSpeedupColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole, SearchIdRole };

    explicit SearchListModel(QObject *parent = nullptr);

    void setSummaries(const QList<SearchSummary> &summaries);
    const QList<SearchSummary> &summaries() const { return m_rows; }
    const SearchSummary *summaryAt(int row) const;
    int rowOfSearch(RowId searchId) const; // -1 when absent
    int rowOfName(const QString &name) const; // -1 when absent
    // A running engine's figures replace the row's (no reload of the log); no live status says no engine runs it.
    void applySnapshot(const gpuf::search::SearchSnapshot &snapshot);
    // An engine runs the search but has not reported yet (it is still reading the store): the row says so by its
    // status ("running", not "interrupted") and keeps the log's figures until the first report.
    void markLive(const QString &name, search::RunStatus status);
    void clearLive(const QString &name);
    std::optional<search::RunStatus> liveStatus(const QString &name) const;
    SearchStatus statusAt(int row) const;
    QString statusTextAt(int row) const; // as the status column says it ("finished — proposals ran out")

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant toolTip(const SearchSummary &s, int column) const;

    QList<SearchSummary> m_rows;
    QHash<QString, search::RunStatus> m_live; // search name → its engine's status
};

class SearchEventsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { SequenceColumn, TimeColumn, KindColumn, StepColumn, DetailsColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole };

    explicit SearchEventsModel(QObject *parent = nullptr);

    void setEvents(RowId searchId, const QList<SearchEvent> &events);
    // Events the log gained since (a running search): appended as rows, nothing reset.
    void appendEvents(const QList<SearchEvent> &events);
    RowId searchId() const { return m_searchId; }
    const SearchEvent *eventAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    RowId m_searchId = 0;
    QList<SearchEvent> m_events;
    QStringList m_gists; // eventGist() of each event, made once at reset
};

} // namespace gpuf
