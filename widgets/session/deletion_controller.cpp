// DeletionController; see deletion_controller.h. Each job opens its own connection on a pool thread and hands back
// values; the undo stack only ever changes on the GUI thread.
#include "widgets/session/deletion_controller.h"

#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/store.h"

#include <QAction>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QUndoCommand>
#include <QUndoStack>

#include <functional>
#include <utility>

namespace gpuf {

namespace {

constexpr RowKind kKindsInOrder[] = {RowKind::Problem, RowKind::Kernel, RowKind::Forecaster, RowKind::Search,
    RowKind::Forecast, RowKind::Measurement, RowKind::PairLabel, RowKind::SearchEvent};

QString kindCount(RowKind kind, qint64 n)
{
    const int count = int(std::min<qint64>(n, std::numeric_limits<int>::max()));
    switch (kind) {
    case RowKind::Problem:
        return DeletionController::tr("%n problem(s)", nullptr, count);
    case RowKind::Kernel:
        return DeletionController::tr("%n kernel(s)", nullptr, count);
    case RowKind::Measurement:
        return DeletionController::tr("%n measurement(s)", nullptr, count);
    case RowKind::PairLabel:
        return DeletionController::tr("%n pair label(s)", nullptr, count);
    case RowKind::Forecaster:
        return DeletionController::tr("%n forecaster(s)", nullptr, count);
    case RowKind::Forecast:
        return DeletionController::tr("%n forecast(s)", nullptr, count);
    case RowKind::Search:
        return DeletionController::tr("%n search(es)", nullptr, count);
    case RowKind::SearchEvent:
        return DeletionController::tr("%n search event(s)", nullptr, count);
    }
    return {};
}

QStringList planParts(const DeletionPlan &plan)
{
    QStringList parts;
    QStringList known;
    for (RowKind kind : kKindsInOrder) {
        known.append(tableName(kind));
        if (const qint64 n = plan.count(kind); n > 0)
            parts.append(kindCount(kind, n));
    }
    for (auto it = plan.deleted.cbegin(); it != plan.deleted.cend(); ++it) {
        if (known.contains(it.key()) || it.value() <= 0)
            continue;
        if (it.key() == QLatin1StringView("lesson_steps")) // a lesson's steps go with their kernels
            parts.append(DeletionController::tr("%n lesson step(s)", nullptr, int(it.value())));
        else
            parts.append(DeletionController::tr("%n row(s) of %1", nullptr, int(it.value())).arg(it.key()));
    }
    return parts;
}

// A job's outcome as a default-constructible value, so it can travel through a QFuture.
struct DeletionJobResult
{
    QString error;
    DeletionPlan plan;
    DeletedRows rows;
};

// Runs `work(store, result)` as a write of the session; `done` gets the result on `context`'s thread (failing to
// open the store is the result's error).
template<typename Work>
void runOnStore(StoreSession *session, QObject *context, Work work, std::function<void(const DeletionJobResult &)> done)
{
    session->write<DeletionJobResult>(
        [work = std::move(work)](Store &store) {
            DeletionJobResult result;
            work(store, result);
            return Result<DeletionJobResult>(std::move(result));
        },
        context,
        [done = std::move(done)](Result<DeletionJobResult> result) {
            done(result ? *result : DeletionJobResult {result.error(), {}, {}});
        });
}

// The deletion itself, for the first delete and for every redo.
auto deleteWork(const DeletionRequest &request)
{
    return [request](Store &store, DeletionJobResult &result) {
        auto deleted = deleteRows(store, request);
        if (!deleted)
            result.error = deleted.error();
        else
            result.rows = std::move(*deleted);
    };
}

} // namespace

// One deletion on the undo stack. Its first redo() is the deletion already done; later ones delete the same rows again.
class DeleteCommand : public QUndoCommand
{
public:
    DeleteCommand(DeletionController *controller, DeletedRows rows, DeletionController::SelectionState before)
        : m_controller(controller)
        , rows(std::move(rows))
        , before(std::move(before))
    {
        const QStringList parts = planParts(this->rows.plan);
        const qint64 rest = this->rows.plan.total() - firstCount();
        setText(rest > 0
                ? DeletionController::tr("Delete %1 and %n dependent row(s)", nullptr, int(rest)).arg(parts.value(0))
                : DeletionController::tr("Delete %1").arg(parts.value(0)));
    }

    void undo() override
    {
        if (!std::exchange(skipNext, false))
            m_controller->restore(this);
    }
    void redo() override
    {
        if (std::exchange(skipNext, false))
            return;
        m_controller->setBusy(true);
        const quint64 history = m_controller->m_history;
        runOnStore(m_controller->m_session, m_controller, deleteWork(rows.request()),
            [controller = m_controller, history, this](const DeletionJobResult &result) {
                controller->deletionDone(history,
                    result.error.isEmpty() ? Result<DeletedRows>(result.rows)
                                           : Result<DeletedRows>(Error {result.error}),
                    this);
            });
    }

    qint64 firstCount() const
    {
        for (RowKind kind : kKindsInOrder) {
            if (const qint64 n = rows.plan.count(kind); n > 0)
                return n;
        }
        return 0;
    }

    DeletionController *m_controller;
    DeletedRows rows;
    DeletionController::SelectionState before;
    bool skipNext = true; // push() calls redo(): the deletion is already done
};

DeletionController::DeletionController(StoreSession *session, Selection *selection, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_selection(selection)
    , m_stack(new QUndoStack(this))
    , m_undo(new QAction(this))
    , m_redo(new QAction(this))
{
    qRegisterMetaType<gpuf::DeletedRows>();
    m_undo->setObjectName(QStringLiteral("editUndo"));
    m_redo->setObjectName(QStringLiteral("editRedo"));
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo->setShortcut(QKeySequence::Redo);
    connect(m_undo, &QAction::triggered, this, [this] {
        if (!m_busy && m_stack->canUndo())
            m_stack->undo();
    });
    connect(m_redo, &QAction::triggered, this, [this] {
        if (!m_busy && m_stack->canRedo())
            m_stack->redo();
    });
    connect(m_stack, &QUndoStack::indexChanged, this, &DeletionController::updateActions);
    connect(m_stack, &QUndoStack::cleanChanged, this, &DeletionController::updateActions);
    // The history belongs to one store: another store, or none, starts a new one.
    connect(m_session, &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) {
        if (snapshot.path != m_path) {
            ++m_history;
            m_stack->clear();
            m_path = snapshot.path;
        }
        updateActions();
    });
    connect(m_session, &StoreSession::closed, this, [this] {
        ++m_history;
        m_stack->clear();
        m_path.clear();
        updateActions();
    });
    m_path = m_session->path();
    updateActions();
}

DeletionController::~DeletionController() = default;

QString DeletionController::unavailableReason() const
{
    if (!m_session->isOpen())
        return tr("No store is open");
    if (m_busy)
        return tr("A deletion is being written to the store; wait until it is done");
    return {};
}

QString DeletionController::planText(const DeletionPlan &plan) { return planParts(plan).join(QStringLiteral(", ")); }

QString DeletionController::unlinkedText(const DeletionPlan &plan)
{
    QStringList parts;
    if (const qint64 n = plan.unlinkedCount(RowKind::Kernel); n > 0)
        parts.append(tr("%n other kernel(s) lose their parent", nullptr, int(n)));
    if (const qint64 n = plan.unlinkedCount(RowKind::Problem); n > 0)
        parts.append(tr("%n problem(s) lose their reference kernel", nullptr, int(n)));
    if (const qint64 n = plan.unlinkedCount(RowKind::Search); n > 0)
        parts.append(tr("%n search(es) lose their problem", nullptr, int(n)));
    return parts.join(QStringLiteral("; "));
}

void DeletionController::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    if (busy)
        m_session->beginWork(tr("Writing a deletion"));
    else
        m_session->endWork();
    updateActions();
    Q_EMIT busyChanged(busy);
}

void DeletionController::updateActions()
{
    const auto describe
        = [this](QAction *action, bool can, const QString &what, const QString &text, const QString &nothing) {
              const QString reason = !can ? nothing : unavailableReason();
              action->setEnabled(reason.isEmpty());
              action->setText(can ? what.arg(text) : what.arg(QString()).trimmed());
              const QString tip = reason.isEmpty() ? action->text().remove(QLatin1Char('&')) : reason;
              action->setToolTip(tip);
              action->setStatusTip(tip);
          };
    describe(m_undo, m_stack->canUndo(), tr("&Undo %1"), m_stack->undoText(),
        tr("Nothing to undo: deletions can be undone until the store is closed"));
    describe(m_redo, m_stack->canRedo(), tr("&Redo %1"), m_stack->redoText(), tr("Nothing to redo"));
}

bool DeletionController::requestDeletion(const DeletionRequest &request, QWidget *dialogParent)
{
    if (const QString reason = unavailableReason(); !reason.isEmpty()) {
        Q_EMIT notice(reason);
        return false;
    }
    if (request.isEmpty()) {
        Q_EMIT notice(tr("Nothing is selected to delete"));
        return false;
    }
    m_dialogParent = dialogParent;
    setBusy(true);
    const quint64 history = m_history;
    runOnStore(
        m_session, this,
        [request](Store &store, DeletionJobResult &result) {
            auto plan = planDeletion(store, request);
            if (!plan)
                result.error = plan.error();
            else
                result.plan = *plan;
        },
        [this, history, request, dialogParent = QPointer<QWidget>(dialogParent)](const DeletionJobResult &result) {
            setBusy(false);
            if (history != m_history)
                return; // another store was opened meanwhile
            if (!result.error.isEmpty()) {
                warn(tr("Delete"), tr("Cannot delete: %1").arg(result.error));
                return;
            }
            if (result.plan.total() == 0) {
                Q_EMIT notice(tr("Nothing to delete: the rows are no longer in the store"));
                return;
            }
            if (result.plan.total() == 1)
                startDeletion(request); // one row, and undo puts it back: no question
            else
                confirm(request, result.plan, dialogParent);
        });
    return true;
}

void DeletionController::confirm(const DeletionRequest &request, const DeletionPlan &plan, QWidget *dialogParent)
{
    auto *box = new QMessageBox(
        QMessageBox::Question, tr("Delete"), tr("Delete %1?").arg(planText(plan)), QMessageBox::Cancel, dialogParent);
    box->setObjectName(QStringLiteral("confirmDeletion"));
    QPushButton *remove = box->addButton(tr("Delete"), QMessageBox::DestructiveRole);
    remove->setObjectName(QStringLiteral("confirmDeletionButton"));
    box->setDefaultButton(QMessageBox::Cancel);
    QStringList notes;
    if (const QString unlinked = unlinkedText(plan); !unlinked.isEmpty())
        notes.append(unlinked + QLatin1Char('.'));
    notes.append(
        tr("Edit → Undo (%1) puts everything back.").arg(m_undo->shortcut().toString(QKeySequence::NativeText)));
    box->setInformativeText(notes.join(QLatin1Char('\n')));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, remove, request] {
        if (box->clickedButton() == remove)
            startDeletion(request);
    });
    box->open(); // not exec(): nothing waits on the user
    Q_EMIT confirmationShown(box);
}

void DeletionController::startDeletion(const DeletionRequest &request)
{
    if (const QString reason = unavailableReason(); !reason.isEmpty()) {
        Q_EMIT notice(reason);
        return;
    }
    setBusy(true);
    const quint64 history = m_history;
    runOnStore(m_session, this, deleteWork(request), [this, history](const DeletionJobResult &result) {
        deletionDone(history,
            result.error.isEmpty() ? Result<DeletedRows>(result.rows) : Result<DeletedRows>(Error {result.error}),
            nullptr);
    });
}

void DeletionController::deletionDone(quint64 history, const Result<DeletedRows> &result, DeleteCommand *redoOf)
{
    setBusy(false);
    if (history != m_history)
        return; // the store was closed or another opened: the command is gone with its history
    if (!result) {
        warn(redoOf ? tr("Redo") : tr("Delete"), tr("Nothing was deleted: %1").arg(result.error()));
        if (redoOf) {
            redoOf->skipNext = true; // the stack moved forward; step back without touching the store
            m_stack->undo();
        }
        return;
    }
    if (result->plan.total() == 0 && !redoOf) {
        Q_EMIT notice(tr("Nothing to delete: the rows are no longer in the store"));
        return;
    }
    if (redoOf) {
        redoOf->rows = *result;
    } else {
        SelectionState before {m_selection->problemId(), m_selection->searchId(), m_selection->candidateId(),
            m_selection->baselineId(), m_selection->selectedIds()};
        m_stack->push(new DeleteCommand(this, *result, std::move(before)));
    }
    forgetDeleted(*result);
    announce(*result, false);
}

void DeletionController::restore(DeleteCommand *command)
{
    setBusy(true);
    const quint64 history = m_history;
    runOnStore(
        m_session, this,
        [rows = command->rows](Store &store, DeletionJobResult &result) {
            if (Status s = restoreRows(store, rows); !s)
                result.error = s.error();
        },
        [this, history, command](const DeletionJobResult &result) {
            setBusy(false);
            if (history != m_history)
                return;
            if (!result.error.isEmpty()) {
                warn(tr("Undo"), tr("Cannot undo the deletion: %1. The store was not changed.").arg(result.error));
                command->skipNext = true; // the stack moved back; step forward again without touching the store
                m_stack->redo();
                return;
            }
            announce(command->rows, true);
            // Back to what the user was looking at when they deleted.
            const SelectionState &s = command->before;
            m_selection->setScope(s.problemId, s.searchId);
            m_selection->setSelectedIds(s.selectedIds);
            m_selection->setPair(s.candidateId, s.baselineId);
        });
}

void DeletionController::forgetDeleted(const DeletedRows &rows)
{
    const QList<RowId> kernelList = rows.ids(RowKind::Kernel);
    const QSet<RowId> kernels(kernelList.cbegin(), kernelList.cend());
    if (kernels.contains(m_selection->candidateId()) || kernels.contains(m_selection->baselineId()))
        m_selection->setPair(0, 0);
    QList<RowId> selected = m_selection->selectedIds();
    selected.removeIf([&kernels](RowId id) { return kernels.contains(id); });
    m_selection->setSelectedIds(selected);
    QList<RowId> filter = m_selection->filterIds();
    if (!filter.isEmpty() && filter.removeIf([&kernels](RowId id) { return kernels.contains(id); }) > 0) {
        if (filter.isEmpty())
            m_selection->clearFilter();
        else
            m_selection->setFilter(filter, m_selection->filterDescription());
    }
    if (rows.ids(RowKind::Problem).contains(m_selection->problemId()) && m_selection->problemId() != 0)
        m_selection->setScope(0, 0);
    else if (rows.ids(RowKind::Search).contains(m_selection->searchId()) && m_selection->searchId() != 0)
        m_selection->setScope(m_selection->problemId(), 0);
}

void DeletionController::announce(const DeletedRows &rows, bool restored)
{
    StoreChange change;
    change.kind = restored ? StoreChange::Kind::Restored : StoreChange::Kind::Removed;
    for (RowKind kind : kKindsInOrder) {
        const QList<RowId> ids = rows.ids(kind);
        if (!ids.isEmpty())
            change.rows.insert(kind, ids);
    }
    const QString what = planText(rows.plan);
    Q_EMIT notice(restored ? tr("Restored %1.").arg(what)
                           : tr("Deleted %1. Edit → Undo (%2) puts them back.")
                                 .arg(what, m_undo->shortcut().toString(QKeySequence::NativeText)));
    m_session->announce(change);
}

void DeletionController::warn(const QString &title, const QString &text)
{
    Q_EMIT notice(text);
    if (!m_dialogParent)
        return;
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, m_dialogParent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace gpuf
