// SearchesPanel: the store's searches, read-only — one row per search (source, problem, mode, events, steps, GPU
// evaluations, forecasts, best speedup) and the event log of the one chosen, with the chosen event's payload in
// full. Everything is read off the GUI thread through the store session (latest request wins); a refresh of the
// store (after an import) reloads it and keeps the search in view.
#pragma once

#include "widgets/search/search_summary.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTableView;

namespace gpuf {

class SearchEventsModel;
class SearchListModel;
class StoreSession;

class SearchesPanel : public QWidget
{
    Q_OBJECT

public:
    explicit SearchesPanel(StoreSession *session, QWidget *parent = nullptr);
    ~SearchesPanel() override;

    SearchListModel *searchModel() const { return m_searches; }
    SearchEventsModel *eventModel() const { return m_events; }
    QTableView *searchView() const { return m_searchView; }
    QTableView *eventView() const { return m_eventView; }
    QLineEdit *eventFilter() const { return m_filter; }
    QPlainTextEdit *payloadView() const { return m_payload; }
    QString statusText() const;
    QString eventsTitle() const;
    bool isLoading() const { return m_loadingSearches || m_loadingEvents; }

    // Shows this search's events, as if the user chose its row; false when the store has no such search.
    bool showSearch(RowId searchId);

private:
    void reload();
    void clear();
    void applySummaries(const Result<QList<SearchSummary>> &result);
    void searchChosen();
    void loadEvents(RowId searchId);
    void applyEvents(RowId searchId, const Result<QList<SearchEvent>> &result);
    void eventChosen();

    StoreSession *m_session;
    SearchListModel *m_searches;
    SearchEventsModel *m_events;
    QSortFilterProxyModel *m_searchProxy;
    QSortFilterProxyModel *m_eventProxy;
    QLabel *m_status;
    QTableView *m_searchView;
    QLabel *m_eventsTitle;
    QLineEdit *m_filter;
    QTableView *m_eventView;
    QPlainTextEdit *m_payload;
    bool m_loadingSearches = false;
    bool m_loadingEvents = false;
    RowId m_shownSearch = 0;
};

} // namespace gpuf
