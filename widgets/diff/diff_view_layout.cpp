// DiffView's widgets: its actions, the toolbar, the titled panes with the overview bar, the placeholder, the teaching
// note, and the header texts that describe the pair shown.
#include "widgets/diff/diff_view.h"

#include "widgets/diff/diff_overview_bar.h"
#include "widgets/diff/diff_pane.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace gpuf {

namespace {

QWidget *titledPane(QLabel *title, QWidget *pane, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    title->setTextFormat(Qt::PlainText);
    title->setContentsMargins(4, 2, 4, 0);
    layout->addWidget(title);
    layout->addWidget(pane, 1);
    return box;
}

} // namespace

void DiffView::createActions()
{
    const auto make = [this](const QString &text, const QList<QKeySequence> &shortcuts, auto slot) {
        auto *action = new QAction(text, this);
        action->setShortcuts(shortcuts);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        return action;
    };
    m_previousHunk = make(tr("Previous Change"),
        {QKeySequence(Qt::ALT | Qt::Key_Up), QKeySequence(Qt::SHIFT | Qt::Key_F7)}, &DiffView::goToPreviousHunk);
    m_nextHunk = make(
        tr("Next Change"), {QKeySequence(Qt::ALT | Qt::Key_Down), QKeySequence(Qt::Key_F7)}, &DiffView::goToNextHunk);
    m_previousHunk->setIcon(style()->standardIcon(QStyle::SP_ArrowUp));
    m_nextHunk->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    // Short toolbar texts, so the toolbar fits a 1280-pixel-wide window; menus and tooltips keep the full names.
    m_previousHunk->setIconText(tr("Previous"));
    m_nextHunk->setIconText(tr("Next"));
    m_previousHunk->setToolTip(tr("Previous Change (Alt+Up)"));
    m_nextHunk->setToolTip(tr("Next Change (Alt+Down)"));
    m_ignoreWhitespaceAction
        = make(tr("Ignore Whitespace"), {}, [this]() { setIgnoreWhitespace(m_ignoreWhitespaceAction->isChecked()); });
    m_ignoreWhitespaceAction->setCheckable(true);
    m_expandAll = make(tr("Show Unchanged Lines"), {}, [this]() {
        if (m_expandAll->isChecked())
            expandAllFolds();
        else
            for (int fold = 0; m_document && fold < m_document->diff.folds.size(); ++fold)
                setFoldExpanded(fold, false);
    });
    m_expandAll->setCheckable(true);
    m_swap = make(tr("Swap Sides"), {}, &DiffView::swapSides);
    m_showAnnotations = make(tr("Show Forecast Annotations"), {}, &DiffView::applyAnnotations);
    m_showAnnotations->setIconText(tr("Annotations")); // the toolbar is crowded; menus show the full text
    m_showAnnotations->setCheckable(true);
    m_showAnnotations->setChecked(true);
    m_showAnnotations->setEnabled(false);
    m_showAnnotations->setToolTip(tr("No cost-model forecast explains this pair"));
    m_copy = make(tr("Copy"), {}, &DiffView::copySelection);
    m_copyPatch = make(tr("Copy as Patch"), {}, &DiffView::copyPatch);
    m_exportPatch = make(tr("Export Patch…"), {}, &DiffView::exportUnifiedPatch);
    m_exportPatch->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    m_openBaseline = make(tr("Open Left Source"), {}, [this]() { Q_EMIT openSourceRequested(m_left); });
    m_openCandidate = make(tr("Open Right Source"), {}, [this]() { Q_EMIT openSourceRequested(m_right); });
}

QToolBar *DiffView::createToolBar()
{
    auto *toolBar = new QToolBar(this);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addAction(m_previousHunk);
    toolBar->addAction(m_nextHunk);
    toolBar->addWidget(m_hunkLabel);
    toolBar->addSeparator();
    toolBar->addAction(m_ignoreWhitespaceAction);
    toolBar->addAction(m_expandAll);
    toolBar->addAction(m_swap);
    toolBar->addAction(m_showAnnotations);
    toolBar->addSeparator();
    // The patch and source actions share one menu button: side by side they ran past a 1280-pixel-wide window.
    auto *more = new QToolButton(toolBar);
    more->setText(tr("Patch"));
    more->setToolTip(tr("Copy or export the diff as a patch, or open either side's source on its own"));
    more->setPopupMode(QToolButton::InstantPopup);
    auto *moreMenu = new QMenu(more);
    moreMenu->addAction(m_copyPatch);
    moreMenu->addAction(m_exportPatch);
    moreMenu->addSeparator();
    moreMenu->addAction(m_openBaseline);
    moreMenu->addAction(m_openCandidate);
    more->setMenu(moreMenu);
    toolBar->addWidget(more);
    auto *spacer = new QWidget(toolBar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    toolBar->addWidget(spacer);
    toolBar->addWidget(m_summary);
    m_hunkLabel->setContentsMargins(6, 0, 6, 0);
    m_summary->setContentsMargins(6, 0, 6, 0);
    return toolBar;
}

// The candidate's teaching note above the panes; a long note scrolls within a few lines instead of pushing the panes
// down.
QWidget *DiffView::createNoteArea()
{
    m_note->setObjectName(QStringLiteral("diffNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::RichText);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setContentsMargins(6, 4, 6, 4);
    m_note->setAutoFillBackground(true);
    m_note->setBackgroundRole(QPalette::AlternateBase);
    m_note->hide();
    auto *noteScroll = new QScrollArea(this);
    noteScroll->setObjectName(QStringLiteral("diffNoteArea"));
    noteScroll->setWidget(m_note);
    noteScroll->setWidgetResizable(true);
    noteScroll->setFrameShape(QFrame::NoFrame);
    noteScroll->setMaximumHeight(m_note->fontMetrics().lineSpacing() * 4 + 12);
    noteScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    noteScroll->hide();
    m_noteArea = noteScroll;
    return noteScroll;
}

void DiffView::createLayout()
{
    QToolBar *toolBar = createToolBar();

    m_splitter->addWidget(titledPane(m_leftTitle, m_leftPane, m_splitter));
    m_splitter->addWidget(titledPane(m_rightTitle, m_rightPane, m_splitter));
    m_splitter->setChildrenCollapsible(false);

    auto *body = new QHBoxLayout(m_body);
    body->setContentsMargins(0, 0, 0, 0);
    body->setSpacing(2);
    body->addWidget(m_splitter, 1);
    body->addWidget(m_overview);

    // Before a pair is chosen the panes would be two empty boxes: a sentence saying what to do stands in for them.
    m_placeholder->setObjectName(QStringLiteral("diffPlaceholder"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setMargin(24);
    m_placeholder->setTextFormat(Qt::PlainText);
    m_placeholder->setText(tr("Choose a candidate in the Candidates table to compare it with its reference here."));
    m_stack->addWidget(m_body);
    m_stack->addWidget(m_placeholder);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    QWidget *noteArea = createNoteArea();
    layout->addWidget(toolBar);
    layout->addWidget(noteArea);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_status);
    m_status->hide();
    updatePlaceholder();
}

void DiffView::setPlaceholderText(const QString &text) { m_placeholder->setText(text); }

QString DiffView::placeholderText() const { return m_placeholder->text(); }

bool DiffView::placeholderShown() const { return m_stack->currentWidget() == m_placeholder; }

QString DiffView::noteText() const { return m_note->isHidden() ? QString() : m_note->text(); }

void DiffView::updatePlaceholder()
{
    const bool empty = !m_document && !m_busy && m_left.source.isEmpty() && m_right.source.isEmpty();
    m_stack->setCurrentWidget(empty ? static_cast<QWidget *>(m_placeholder) : m_body);
}

void DiffView::updateNote()
{
    const DiffSide &side = !m_right.notes.isEmpty() ? m_right : m_left;
    if (side.notes.isEmpty()) {
        m_note->clear();
        m_note->hide();
        m_noteArea->hide();
        return;
    }
    m_note->setText(
        tr("<b>%1</b> — %2").arg(titleOr(side.title, tr("Candidate")).toHtmlEscaped(), side.notes.toHtmlEscaped()));
    m_note->show();
    m_noteArea->show();
}

void DiffView::updateHeader()
{
    const auto describe = [](const DiffSide &side, const QString &definition, const QString &fallback) {
        const QString title = titleOr(side.title, fallback);
        const QString language = definition.isEmpty() ? side.language : definition;
        return language.isEmpty() ? title : tr("%1 — %2").arg(title, language);
    };
    updateNote();
    updatePlaceholder();
    const bool current = m_document && m_document->request.left == m_left && m_document->request.right == m_right;
    m_leftTitle->setText(describe(m_left, current ? m_document->leftDefinition : QString(), tr("Baseline")));
    m_rightTitle->setText(describe(m_right, current ? m_document->rightDefinition : QString(), tr("Candidate")));
    m_openBaseline->setEnabled(!m_left.source.isEmpty());
    m_openCandidate->setEnabled(!m_right.source.isEmpty());
    const QString noPair = tr("No pair is shown: choose a candidate first");
    m_openBaseline->setToolTip(m_left.source.isEmpty() ? noPair : tr("Read the left kernel's whole source"));
    m_openCandidate->setToolTip(m_right.source.isEmpty() ? noPair : tr("Read the right kernel's whole source"));
    if (!m_document) {
        m_summary->clear();
        return;
    }
    const diff::DiffSummary &summary = m_document->diff.summary;
    m_summary->setText(m_document->diff.identical()
            ? tr("Identical")
            : tr("+%1 −%2 ~%3 lines").arg(summary.added).arg(summary.removed).arg(summary.changed));
    m_summary->setToolTip(
        tr("%1 added, %2 removed, %3 changed lines").arg(summary.added).arg(summary.removed).arg(summary.changed));
}

} // namespace gpuf
