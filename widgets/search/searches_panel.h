// SearchesPanel: the store's searches — one row per search (source, problem, mode, forecaster, status, events, steps,
// GPU evaluations, forecasts, best speedup), the live line of the one chosen, and its workspace (SearchWorkspace: the
// live views, nodes and event log). With a SearchController it also runs them: New Search…, start, resume, pause,
// single step, stop, settings changes and Replay with…. A running search's figures come from its engine's snapshots
// and its log is followed incrementally; nothing is reloaded per event. Everything is read off the GUI thread.
#pragma once

#include "core/search/search_engine.h"
#include "core/search/search_summary.h"

#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QToolBar;

namespace gpuf {

class EventTailView;
class LineageView;
class NewSearchDialog;
class ProgressPlot;
class SearchCalibrationView;
class StepView;
class SearchController;
class SearchEventsModel;
class SearchFollower;
class SearchListModel;
class SearchNodesModel;
class SearchPaceBox;
class SearchSteering;
class SearchWorkspace;
class Selection;
class Settings;
class StoreSession;
namespace search {
struct NewSearchChoices;
}
using NewSearchChoices = search::NewSearchChoices;

class SearchesPanel : public QWidget
{
    Q_OBJECT

public:
    explicit SearchesPanel(StoreSession *session, QWidget *parent = nullptr); // read-only
    SearchesPanel(StoreSession *session, SearchController *controller, Selection *selection, QWidget *parent = nullptr);
    ~SearchesPanel() override;

    SearchListModel *searchModel() const { return m_searches; }
    SearchEventsModel *eventModel() const;
    QTableView *searchView() const { return m_searchView; }
    QTableView *eventView() const;
    QLineEdit *eventFilter() const;
    QPlainTextEdit *payloadView() const;
    QString statusText() const;
    QString eventsTitle() const;
    bool isLoading() const;

    SearchWorkspace *workspace() const { return m_workspace; }
    SearchFollower *follower() const;
    SearchNodesModel *nodesModel() const;
    QTableView *nodeView() const;
    SearchSteering *steering() const;
    QTabWidget *workspaceTabs() const;
    LineageView *lineageView() const;
    ProgressPlot *progressPlot() const;
    StepView *stepView() const;
    SearchCalibrationView *calibrationView() const;
    EventTailView *eventTail() const;
    QLabel *liveLabel() const { return m_live; }
    QAction *newSearchAction() const { return m_newAction; }
    QAction *resumeAction() const { return m_resumeAction; }
    QAction *pauseAction() const { return m_pauseAction; }
    QAction *stepAction() const { return m_stepAction; }
    QAction *stopAction() const { return m_stopAction; }
    QAction *settingsAction() const { return m_settingsAction; }
    QAction *replayAction() const { return m_replayAction; }
    // The pace of the search shown, in steps a second: a change reaches its engine at once.
    SearchPaceBox *paceBox() const { return m_pace; }
    // Where New Search… remembers its last choices (none: it starts from the defaults each time).
    void setSettings(Settings *settings) { m_settings = settings; }
    // The name of the search in view ("" when none).
    QString shownName() const;
    // Shows the search named `name` (after a reload when it is new); false when the store has none by that name yet.
    bool showSearchNamed(const QString &name);
    // The New Search dialog with `choices` (what New Search… opens once they are read); for Replay with…, the search
    // whose log proposes.
    NewSearchDialog *openNewSearchDialog(const NewSearchChoices &choices, const QString &replayOf = {});

    // Shows this search's events, as if the user chose its row; false when the store has no such search.
    bool showSearch(RowId searchId);

Q_SIGNALS:
    // Another search of the same problem to overlay on the one in view (a replay and its original).
    void comparisonChanged(const QString &searchName, const QString &overlayName);

private:
    void buildLayout();
    void buildToolbar();
    void connectController();
    void reload();
    void clear();
    void applySummaries(quint64 generation, const Result<QList<SearchSummary>> &result);
    // Whether every one of these searches is run by this window's engines (whose snapshots the view follows).
    bool followsEngines(const QList<RowId> &searchIds) const;
    void searchChosen();
    void loadEvents(RowId searchId);
    void workspaceLoaded();
    void loadOverlays();
    void onSnapshot(const gpuf::search::SearchSnapshot &snapshot);
    void updateActions();
    void updateLiveLabel();
    void updateStatusLine();
    void requestNewSearch(const QString &replayOf);
    void changeSettings();
    void confirmStop(const QString &name);
    void addPaceBox();

    StoreSession *m_session;
    SearchController *m_controller;
    SearchListModel *m_searches;
    QSortFilterProxyModel *m_searchProxy;
    QLabel *m_status;
    QTableView *m_searchView;
    SearchWorkspace *m_workspace;
    QLabel *m_live;
    QToolBar *m_toolbar = nullptr;
    QAction *m_newAction = nullptr;
    QAction *m_resumeAction = nullptr;
    QAction *m_pauseAction = nullptr;
    QAction *m_stepAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_settingsAction = nullptr;
    QAction *m_replayAction = nullptr;
    SearchPaceBox *m_pace = nullptr;
    Settings *m_settings = nullptr;
    quint64 m_summaryGeneration = 0;
    bool m_loadingSearches = false;
    RowId m_shownSearch = 0;
    QString m_wantedName; // a search created here, selected once the list has it
};

} // namespace gpuf
