// SearchWorkspace: the one search in view — the live views (lineage, progress, steps, calibration, live tail), its
// nodes and its event log with the chosen event's payload in full. It follows the search's log incrementally
// (SearchFollower: the whole log once, then what it gains) and redraws the live views at most a few times a second; a
// node chosen in any view is chosen in all of them and becomes the window's selection; a node's menu steers the search
// (SearchSteering, through the controller). It shows; the list of searches and the acts on them are the panel's.
#pragma once

#include "core/domain/search.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTimer;

namespace gpuf {

class EventTailView;
class LineageView;
class ProgressPlot;
class SearchCalibrationView;
class SearchController;
class SearchEventsModel;
class SearchFollower;
class SearchNodesModel;
class SearchSteering;
class Selection;
class StepView;
class StoreSession;

class SearchWorkspace : public QWidget
{
    Q_OBJECT

public:
    SearchWorkspace(StoreSession *session, SearchController *controller, Selection *selection, QWidget *parent);
    ~SearchWorkspace() override;

    // Reads the search's whole log (nothing of the search shown before stays on screen meanwhile); loaded() follows.
    void follow(RowId searchId, const QString &name);
    // The search followed has this many events now: what it gained is read.
    void poke(qint64 events);
    void clear();
    // The event log's title when no search is followed ("" clears it).
    void showHint(const QString &text);
    // Other searches of the same problem drawn under the live curve (`original`, a replay's, labelled so), read and
    // folded off the GUI thread.
    void loadOverlays(const QStringList &names, const QString &original);

    SearchFollower *follower() const { return m_follower; }
    QString eventsTitle() const;
    SearchEventsModel *eventModel() const { return m_events; }
    QTableView *eventView() const { return m_eventView; }
    QLineEdit *eventFilter() const { return m_filter; }
    QPlainTextEdit *payloadView() const { return m_payload; }
    SearchNodesModel *nodesModel() const { return m_nodes; }
    QTableView *nodeView() const { return m_nodeView; }
    SearchSteering *steering() const { return m_steering; }
    QTabWidget *tabs() const { return m_tabs; }
    LineageView *lineageView() const { return m_lineage; }
    ProgressPlot *progressPlot() const { return m_progress; }
    StepView *stepView() const { return m_steps; }
    SearchCalibrationView *calibrationView() const { return m_calibration; }
    EventTailView *eventTail() const { return m_tail; }

Q_SIGNALS:
    void loaded(); // the whole log is read and shown
    void appended(); // the log gained events, now shown in the tables (the live views follow shortly)
    void notice(const QString &text); // a steering act's outcome, or why the log cannot be read

private:
    QWidget *buildEventLogTab();
    QWidget *buildNodesTab();
    void buildLiveTabs();
    void followerLoaded();
    void followerAppended(const QList<gpuf::SearchEvent> &events);
    void refreshLiveViews();
    void eventChosen();
    void nodeChosen(const QString &nodeId, QObject *from);
    void resetLiveViews();

    StoreSession *m_session;
    SearchController *m_controller;
    SearchFollower *m_follower;
    SearchEventsModel *m_events;
    QSortFilterProxyModel *m_eventProxy;
    QLabel *m_eventsTitle;
    QLineEdit *m_filter;
    QTableView *m_eventView = nullptr;
    QPlainTextEdit *m_payload;
    SearchNodesModel *m_nodes;
    QSortFilterProxyModel *m_nodeProxy;
    QTableView *m_nodeView = nullptr;
    SearchSteering *m_steering;
    QTabWidget *m_tabs;
    LineageView *m_lineage = nullptr;
    ProgressPlot *m_progress = nullptr;
    StepView *m_steps = nullptr;
    SearchCalibrationView *m_calibration = nullptr;
    EventTailView *m_tail = nullptr;
    QTimer *m_liveViewsTimer;
    QList<SearchEvent> m_pendingEvents; // appended to the log, not yet shown by the live views
    quint64 m_overlayGeneration = 0;
};

} // namespace gpuf
