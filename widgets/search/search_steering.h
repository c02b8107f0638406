// SearchSteering: what the user does to one node of the search in view. Selecting a node makes its kernel the
// window's selection (so the diff shows it against its parent or the reference, the Forecast dock its forecast, the
// teaching note and the measurement follow); the node's menu holds the steering acts — pin as a parent or unpin, veto
// the node or its whole branch or lift the veto, force-measure, edit the code and inject the edit as its child — each
// sent to the search's engine, which records it as an event before acting on it.
#pragma once

#include <QObject>
#include <QPoint>

class QMenu;
class QWidget;

namespace gpuf {

namespace search {
struct Candidate;
struct SearchState;
} // namespace search

class SearchController;
class SearchFollower;
class Selection;

class SearchSteering : public QObject
{
    Q_OBJECT

public:
    SearchSteering(SearchController *controller, SearchFollower *follower, Selection *selection, QWidget *owner);

    void selectNode(const QString &nodeId);
    // The node's menu (parented to `parent`); the acts the search's state does not allow are disabled, with why.
    QMenu *menuFor(const QString &nodeId, QWidget *parent);
    void showMenu(const QString &nodeId, const QPoint &globalPos);
    // Opens the editor on the node's code (read from the store when the fold no longer holds it).
    void editAndInject(const QString &nodeId);

    // Whether steering acts make sense for the search in view now (an engine of ours runs it, or it can resume).
    bool canSteer() const;
    // Why not, in the user's words (a disabled act's tooltip).
    QString whyNotSteerable() const;
    // Why a node cannot be pinned: vetoed, in a vetoed branch, or not in the archive.
    static QString whyNotPinnable(const search::SearchState &state, const QString &nodeId);

Q_SIGNALS:
    void notice(const QString &message);

private:
    void addViewActions(QMenu *menu, const QString &nodeId, const search::Candidate &c);
    void openInjectDialog(const QString &nodeId, const QString &code, const QString &language);

    SearchController *m_controller;
    SearchFollower *m_follower;
    Selection *m_selection;
    QWidget *m_owner;
    QString m_selectedNode; // the node last shown, kept while its kernel is the window's candidate
};

} // namespace gpuf
