// SearchSteering; see search_steering.h.
#include "widgets/search/search_steering.h"

#include "core/search/search_reads.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/search_follower.h"
#include "widgets/search/search_nodes_model.h"
#include "widgets/search/steering_dialogs.h"

#include <QMenu>
#include <QPointer>

namespace gpuf {

using search::Candidate;
using search::CandidateStatus;

SearchSteering::SearchSteering(
    SearchController *controller, SearchFollower *follower, Selection *selection, QWidget *owner)
    : QObject(owner)
    , m_controller(controller)
    , m_follower(follower)
    , m_selection(selection)
    , m_owner(owner)
{
    if (!m_selection)
        return;
    // The candidate table answers a change of baseline with the kernel's stored parent; a node of a search is compared
    // with its parent in the search instead. Queued, so this comes after the table's answer whatever the order.
    connect(
        m_selection, &Selection::baselineKindChanged, this,
        [this](Selection::Baseline kind) {
            if (kind == Selection::Baseline::Custom || m_selectedNode.isEmpty())
                return;
            const search::SearchState *state = m_follower->state();
            const Candidate *c = state ? state->candidate(m_selectedNode) : nullptr;
            if (c && c->kernelId != 0 && c->kernelId == m_selection->candidateId())
                selectNode(m_selectedNode);
        },
        Qt::QueuedConnection);
}

bool SearchSteering::canSteer() const
{
    const search::SearchState *state = m_follower->state();
    if (!m_controller || !state || !state->initialized)
        return false;
    if (m_controller->isRunning(m_follower->name()))
        return true;
    // Not running here: an interrupted or paused search resumes when steered; a finished or stopped one does not.
    return !state->finished && !state->stopped;
}

void SearchSteering::selectNode(const QString &nodeId)
{
    const search::SearchState *state = m_follower->state();
    const Candidate *c = state ? state->candidate(nodeId) : nullptr;
    if (!c || !m_selection)
        return;
    if (c->kernelId == 0) {
        Q_EMIT notice(tr("Node %1 has no stored kernel yet (its mutation has not answered).")
                          .arg(SearchNodesModel::label(nodeId, &m_follower->nodeNames())));
        return;
    }
    RowId baseline = m_follower->referenceKernelId();
    if (m_selection->baselineKind() == Selection::Baseline::Parent) {
        if (const Candidate *parent = state->candidate(c->parentId); parent && parent->kernelId > 0)
            baseline = parent->kernelId;
    }
    if (baseline == c->kernelId && c->parentId.isEmpty())
        baseline = m_follower->referenceKernelId();
    m_selectedNode = nodeId;
    m_selection->setSelectedIds({c->kernelId});
    m_selection->setPair(c->kernelId, baseline);
}

// What a node's menu shows of it whatever the search's state: the node in the diff and forecast views, and the
// evidence behind its measured speedup (who measured it, how, how noisy, its interval and verdict).
void SearchSteering::addViewActions(QMenu *menu, const QString &nodeId, const Candidate &c)
{
    QAction *show
        = menu->addAction(tr("Show in the Diff and Forecast Views"), this, [this, nodeId] { selectNode(nodeId); });
    show->setEnabled(c.kernelId > 0);
    const RowId kernelId = c.kernelId;
    QAction *evidence
        = menu->addAction(tr("Show &Evidence…"), this, [this, kernelId] { m_selection->requestEvidence(kernelId); });
    evidence->setObjectName(QStringLiteral("showNodeEvidence"));
    const bool measured = kernelId > 0 && c.status == CandidateStatus::Evaluated
        && c.feedback.kind == search::EvaluationFeedback::Kind::Success;
    evidence->setEnabled(measured);
    if (!measured)
        evidence->setToolTip(tr("Only a node measured without failure has evidence behind a speedup."));
}

QMenu *SearchSteering::menuFor(const QString &nodeId, QWidget *parent)
{
    auto *menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("searchNodeMenu"));
    menu->setToolTipsVisible(true); // a disabled act says why when hovered
    const search::SearchState *state = m_follower->state();
    const Candidate *c = state ? state->candidate(nodeId) : nullptr;
    if (!c)
        return menu;
    const QString name = m_follower->name();
    const bool steer = canSteer();
    const bool inArchive = state->archive.index.contains(nodeId);
    const bool pinned = state->pinned.contains(nodeId);
    const bool vetoed = state->vetoed.contains(nodeId);
    const bool reached = !vetoed && search::isVetoed(*state, nodeId);
    const bool forcible = c->status == CandidateStatus::Deferred || c->status == CandidateStatus::Queued
        || (c->status == CandidateStatus::Proposed && !c->forced);

    addViewActions(menu, nodeId, *c);
    menu->addSeparator();
    auto add = [&](const QString &text, bool enabled, const QString &why, std::function<void()> act) {
        QAction *a = menu->addAction(text, this, std::move(act));
        a->setEnabled(steer && enabled);
        if (!steer)
            a->setToolTip(whyNotSteerable());
        else if (!enabled)
            a->setToolTip(why);
        a->setStatusTip(a->toolTip());
        return a;
    };
    SearchController *ctl = m_controller;
    if (pinned)
        add(tr("Unpin"), true, {}, [ctl, name, nodeId] { ctl->unpin(name, nodeId); });
    else
        add(tr("Pin as a Parent for the Next Step"), inArchive && !vetoed && !reached, whyNotPinnable(*state, nodeId),
            [ctl, name, nodeId] { ctl->pin(name, nodeId); });
    if (vetoed) {
        add(state->vetoedBranches.contains(nodeId) ? tr("Lift the Branch Veto") : tr("Lift the Veto"), true, {},
            [ctl, name, nodeId] { ctl->unveto(name, nodeId); });
    } else {
        add(tr("Veto this Node"), !reached, tr("A veto on an ancestor's branch covers it already."),
            [ctl, name, nodeId] { ctl->veto(name, nodeId, false); });
        add(tr("Veto this Node and its Whole Branch"), !reached,
            tr("A veto on an ancestor's branch covers it already."),
            [ctl, name, nodeId] { ctl->veto(name, nodeId, true); });
    }
    add(tr("Force a Measurement"), forcible && !vetoed && !reached,
        tr("Only proposals that were not measured (deferred, queued or waiting) can be forced."),
        [ctl, name, nodeId] { ctl->forceMeasure(name, nodeId); });
    add(tr("Edit the Code and Inject as a Child…"), c->kernelId > 0 || !c->code.isEmpty(),
        tr("The node has no code yet."), [this, nodeId] { editAndInject(nodeId); });
    return menu;
}

QString SearchSteering::whyNotSteerable() const
{
    const search::SearchState *state = m_follower->state();
    if (!m_controller)
        return tr("This view only reads the store: steer the search where it runs.");
    if (state && state->finished)
        return tr("The search has finished, so it takes no more steering (Replay with… runs its proposals again as a "
                  "new search).");
    if (state && state->stopped)
        return tr("The search was stopped, so it takes no more steering (a stopped search cannot be resumed).");
    return tr("The search's log cannot be followed as a search of this application, so it cannot be steered.");
}

QString SearchSteering::whyNotPinnable(const search::SearchState &state, const QString &nodeId)
{
    if (state.vetoed.contains(nodeId))
        return tr("A vetoed node is never a parent: lift its veto first.");
    if (search::isVetoed(state, nodeId))
        return tr("The node lies in a vetoed branch, and a vetoed node is never a parent: lift the branch's veto "
                  "first.");
    return tr("Only nodes of the archive can be parents, and this one is not in it: it was not measured, or it was not "
              "among the best children its parent kept (--keep).");
}

void SearchSteering::showMenu(const QString &nodeId, const QPoint &globalPos)
{
    QMenu *menu = menuFor(nodeId, m_owner);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(globalPos);
}

void SearchSteering::editAndInject(const QString &nodeId)
{
    const search::SearchState *state = m_follower->state();
    const Candidate *c = state ? state->candidate(nodeId) : nullptr;
    if (!c)
        return;
    if (!c->code.isEmpty()) {
        openInjectDialog(nodeId, c->code, c->language);
        return;
    }
    // The fold drops the code of nodes that left the step; the store has it.
    const RowId kernelId = c->kernelId;
    const QString language = c->language;
    m_follower->session()->read<QString>(
        QStringLiteral("code"),
        [kernelId](
            Store &store, const CancelToken &cancel) { return search::readKernelSource(store, kernelId, cancel); },
        this,
        [this, nodeId, language](Result<QString> code) {
            if (!code) {
                Q_EMIT notice(tr("Cannot read the node's code: %1").arg(code.error()));
                return;
            }
            openInjectDialog(nodeId, *code, language);
        });
}

void SearchSteering::openInjectDialog(const QString &nodeId, const QString &code, const QString &language)
{
    auto *dialog = new InjectDialog(
        tr("node %1").arg(SearchNodesModel::label(nodeId, &m_follower->nodeNames())), code, language, m_owner);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Replay answers from recorded runtimes only: an edit has none, and the user learns it before injecting.
    const search::SearchState *state = m_follower->state();
    if (state && state->config.gpu.isReplay())
        dialog->setWarning(tr("This search replays recorded runtimes: an edited kernel has none, so it cannot be "
                              "measured here and its node will read \"measurement failed\". To measure edits, start "
                              "a search of this problem on this machine's GPU (New Search…, GPU: local)."));
    const QString name = m_follower->name();
    SearchController *ctl = m_controller;
    connect(dialog, &InjectDialog::injectRequested, this,
        [ctl, name, nodeId](const search::Proposal &proposal) { ctl->inject(name, proposal, nodeId); });
    dialog->open();
}

} // namespace gpuf
