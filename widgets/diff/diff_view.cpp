// DiffView: builds DiffDocuments in the background (latest request wins) and keeps the two panes in lockstep.
#include "widgets/diff/diff_view.h"

#include "core/diff/unified_patch.h"
#include "widgets/diff/diff_overview_bar.h"
#include "widgets/diff/diff_pane.h"
#include "widgets/diff/syntax_highlighting.h"

#include <QAction>
#include <QClipboard>
#include <QEvent>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTextBlock>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {

namespace {

// A busy label that appears only when building takes long enough to be noticed, so quick diffs do not flicker.
constexpr int BusyLabelDelayMs = 150;

QString titleOr(const QString &title, const QString &fallback) { return title.isEmpty() ? fallback : title; }

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

DiffView::DiffView(std::shared_ptr<const SyntaxHighlighting> syntax, QWidget *parent)
    : QWidget(parent)
    , m_syntax(std::move(syntax))
    , m_colors(diffColorsFor(palette()))
    , m_leftTitle(new QLabel(this))
    , m_rightTitle(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_hunkLabel(new QLabel(this))
    , m_status(new QLabel(this))
    , m_note(new QLabel(this))
    , m_placeholder(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_body(new QWidget(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_leftPane(new DiffPane(PaneSide::Left, this))
    , m_rightPane(new DiffPane(PaneSide::Right, this))
    , m_overview(new DiffOverviewBar(this))
{
    createActions();
    createLayout();
    connectPanes();
    m_leftPane->setColors(m_colors);
    m_rightPane->setColors(m_colors);
    m_overview->setColors(m_colors);
    updateHeader();
    updateHunkState();
}

DiffView::~DiffView()
{
    // A job still running finishes on its own (it holds its inputs and the syntax repository); it only has to stop.
    m_cancel.cancel();
    // ~QWidget closes the window after this body ran, and a pane with focus then repaints and scrolls: its signals
    // must no longer reach this half-destroyed view.
    for (DiffPane *pane : {m_leftPane, m_rightPane}) {
        disconnect(pane, nullptr, this, nullptr);
        disconnect(pane->verticalScrollBar(), nullptr, this, nullptr);
        disconnect(pane->horizontalScrollBar(), nullptr, this, nullptr);
    }
    disconnect(m_overview, nullptr, this, nullptr);
}

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

void DiffView::createLayout()
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

    m_note->setObjectName(QStringLiteral("diffNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::RichText);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setContentsMargins(6, 4, 6, 4);
    m_note->setAutoFillBackground(true);
    m_note->setBackgroundRole(QPalette::AlternateBase);
    m_note->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    // A long note scrolls within a few lines instead of pushing the panes down.
    auto *noteScroll = new QScrollArea(this);
    noteScroll->setObjectName(QStringLiteral("diffNoteArea"));
    noteScroll->setWidget(m_note);
    noteScroll->setWidgetResizable(true);
    noteScroll->setFrameShape(QFrame::NoFrame);
    noteScroll->setMaximumHeight(m_note->fontMetrics().lineSpacing() * 4 + 12);
    noteScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    noteScroll->hide();
    m_noteArea = noteScroll;
    layout->addWidget(toolBar);
    layout->addWidget(noteScroll);
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

void DiffView::connectPanes()
{
    for (DiffPane *pane : {m_leftPane, m_rightPane}) {
        DiffPane *other = pane == m_leftPane ? m_rightPane : m_leftPane;
        // Both panes hold the same blocks with the same visibility, so equal scroll values mean aligned lines.
        // Horizontal ranges differ: the guard stops the shorter pane's clamped value from pulling the other back.
        for (auto bar : {&QAbstractScrollArea::verticalScrollBar, &QAbstractScrollArea::horizontalScrollBar}) {
            QScrollBar *target = (other->*bar)();
            connect((pane->*bar)(), &QScrollBar::valueChanged, this, [this, target](int value) {
                if (m_syncingScroll)
                    return;
                m_syncingScroll = true;
                target->setValue(value);
                m_syncingScroll = false;
            });
        }
        connect(pane->verticalScrollBar(), &QScrollBar::valueChanged, this, &DiffView::updateShownRows);
        connect(pane, &QPlainTextEdit::cursorPositionChanged, this, [this, pane]() { syncCursor(pane); });
        connect(pane, &DiffPane::foldActivated, this, [this](int fold) { setFoldExpanded(fold, true); });
        connect(pane, &DiffPane::focusReceived, this, [this, pane]() { m_activeSide = pane->side(); });
    }
    connect(m_rightPane, &QPlainTextEdit::updateRequest, this, &DiffView::updateShownRows);
    connect(m_overview, &DiffOverviewBar::rowRequested, this, &DiffView::goToRow);
}

void DiffView::setPair(const DiffSide &baseline, const DiffSide &candidate)
{
    m_left = baseline;
    m_right = candidate;
    updateHeader();
    startBuild();
}

void DiffView::clear()
{
    ++m_generation;
    m_cancel.cancel();
    m_busy = false;
    m_left = m_right = DiffSide();
    m_document.reset();
    m_syncing = true;
    m_leftPane->setDiffDocument(nullptr);
    m_rightPane->setDiffDocument(nullptr);
    m_syncing = false;
    m_overview->setDiffDocument(nullptr);
    m_annotations = {};
    applyAnnotations();
    m_status->hide();
    updateHeader();
    updateHunkState();
}

void DiffView::setIgnoreWhitespace(bool ignore)
{
    const QSignalBlocker blocker(m_ignoreWhitespaceAction);
    m_ignoreWhitespaceAction->setChecked(ignore);
    if (ignore == m_ignoreWhitespace)
        return;
    m_ignoreWhitespace = ignore;
    if (m_document || m_busy)
        startBuild();
}

void DiffView::setContextLines(int lines)
{
    lines = std::max(0, lines);
    if (lines == m_contextLines)
        return;
    m_contextLines = lines;
    if (m_document || m_busy)
        startBuild();
}

void DiffView::startBuild()
{
    ++m_generation;
    m_cancel.cancel();
    const CancelToken cancel = CancelToken::create();
    m_cancel = cancel;
    m_busy = true;

    const DiffBuildRequest request {
        m_left, m_right, m_ignoreWhitespace, m_contextLines, m_colors.dark ? SyntaxTheme::Dark : SyntaxTheme::Light};
    const quint64 generation = m_generation;
    auto *watcher = new QFutureWatcher<DiffDocument>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation]() {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer request replaced this one
        DiffDocument document = watcher->result();
        if (!document.cancelled())
            showDocument(std::move(document));
    });
    watcher->setFuture(QtConcurrent::run(
        [request, syntax = m_syntax, cancel]() { return buildDiffDocument(request, syntax.get(), cancel); }));

    QTimer::singleShot(BusyLabelDelayMs, this, [this, generation]() {
        if (m_busy && generation == m_generation) {
            m_status->setText(tr("Comparing…"));
            m_status->show();
        }
    });
}

void DiffView::showDocument(DiffDocument built)
{
    const std::shared_ptr<const DiffDocument> previous = m_document;
    auto document = std::make_shared<const DiffDocument>(std::move(built));
    // A rebuild of the same pair with the same options (a new highlighting theme) keeps folds, cursor and scroll.
    const bool sameLayout = previous && previous->request.left == document->request.left
        && previous->request.right == document->request.right
        && previous->request.ignoreWhitespace == document->request.ignoreWhitespace
        && previous->request.contextLines == document->request.contextLines;
    QList<int> expanded;
    for (int fold = 0; sameLayout && fold < previous->diff.folds.size(); ++fold) {
        if (m_leftPane->isFoldExpanded(fold))
            expanded.append(fold);
    }
    const int row = sameLayout ? currentRow() : -1;
    const int scroll = m_leftPane->verticalScrollBar()->value();

    m_document = document;
    m_busy = false;
    m_status->hide();
    m_syncing = true;
    m_leftPane->setDiffDocument(document);
    m_rightPane->setDiffDocument(document);
    m_syncing = false;
    m_overview->setDiffDocument(document);
    applyAnnotations();
    m_cursorPlaced = false;
    {
        const QSignalBlocker blocker(m_expandAll);
        m_expandAll->setChecked(sameLayout && m_expandAll->isChecked());
    }
    if (sameLayout) {
        for (int fold : std::as_const(expanded))
            setFoldExpanded(fold, true);
        if (row >= 0)
            goToRow(row);
        m_leftPane->verticalScrollBar()->setValue(scroll);
    }
    updateHeader();
    updateHunkState();
    updateShownRows();
    Q_EMIT documentReady();
}

void DiffView::syncCursor(DiffPane *from)
{
    if (m_syncing || !m_document)
        return;
    m_cursorPlaced = true;
    m_activeSide = from->side();
    DiffPane *other = from == m_leftPane ? m_rightPane : m_leftPane;
    const int block = from->textCursor().blockNumber();
    if (other->textCursor().blockNumber() != block) {
        m_syncing = true;
        // Moving the other cursor must not scroll: the panes' scroll bars follow the pane the user works in.
        const int scroll = from->horizontalScrollBar()->value();
        other->setTextCursor(QTextCursor(other->document()->findBlockByNumber(block)));
        from->horizontalScrollBar()->setValue(scroll);
        m_syncing = false;
    }
    updateHunkState();
}

DiffPane *DiffView::activePane() const { return m_activeSide == PaneSide::Left ? m_leftPane : m_rightPane; }

int DiffView::currentRow() const { return m_cursorPlaced ? activePane()->currentRow() : -1; }

int DiffView::hunkCount() const { return m_document ? static_cast<int>(m_document->diff.hunks.size()) : 0; }

int DiffView::currentHunk() const
{
    const int row = currentRow();
    if (!m_document || row < 0)
        return -1;
    const QList<diff::Hunk> &hunks = m_document->diff.hunks;
    for (int i = 0; i < hunks.size(); ++i) {
        if (row >= hunks.at(i).firstRow && row < hunks.at(i).firstRow + hunks.at(i).rowCount)
            return i;
    }
    return -1;
}

void DiffView::goToNextHunk()
{
    if (!m_document)
        return;
    const int hunk = diff::nextHunk(m_document->diff.hunks, currentRow());
    if (hunk >= 0)
        goToRow(m_document->diff.hunks.at(hunk).firstRow);
}

void DiffView::goToPreviousHunk()
{
    if (!m_document)
        return;
    const int row = m_cursorPlaced ? currentRow() : static_cast<int>(m_document->diff.rows.size());
    const int hunk = diff::previousHunk(m_document->diff.hunks, row);
    if (hunk >= 0)
        goToRow(m_document->diff.hunks.at(hunk).firstRow);
}

void DiffView::goToRow(int row)
{
    if (!m_document || row < 0 || row >= m_document->diff.rows.size())
        return;
    const int fold = m_document->foldOfRow(row);
    if (fold >= 0 && !m_leftPane->isFoldExpanded(fold))
        setFoldExpanded(fold, true);
    m_syncing = true;
    m_leftPane->setCurrentRow(row);
    m_rightPane->setCurrentRow(row);
    m_syncing = false;
    m_cursorPlaced = true;
    activePane()->centerCursor();
    updateHunkState();
    updateShownRows();
}

void DiffView::setFoldExpanded(int fold, bool expanded)
{
    m_leftPane->setFoldExpanded(fold, expanded);
    m_rightPane->setFoldExpanded(fold, expanded);
    updateShownRows();
}

void DiffView::expandAllFolds()
{
    for (int fold = 0; m_document && fold < m_document->diff.folds.size(); ++fold)
        setFoldExpanded(fold, true);
    const QSignalBlocker blocker(m_expandAll);
    m_expandAll->setChecked(true);
}

void DiffView::swapSides()
{
    std::swap(m_left, m_right);
    updateHeader();
    if (m_document || m_busy)
        startBuild();
    Q_EMIT sidesSwapped();
}

void DiffView::setForecastAnnotations(const ForecastAnnotations &annotations)
{
    m_annotations = annotations;
    applyAnnotations();
}

void DiffView::clearForecastAnnotations() { setForecastAnnotations({}); }

std::optional<PaneSide> DiffView::annotatedReferenceSide() const
{
    if (!m_document || m_annotations.isEmpty())
        return std::nullopt;
    const DiffBuildRequest &shown = m_document->request;
    if (shown.left.source == m_annotations.referenceSource && shown.right.source == m_annotations.candidateSource)
        return PaneSide::Left;
    if (shown.right.source == m_annotations.referenceSource && shown.left.source == m_annotations.candidateSource)
        return PaneSide::Right;
    return std::nullopt;
}

bool DiffView::forecastAnnotationsShown() const
{
    return m_showAnnotations->isChecked() && annotatedReferenceSide().has_value();
}

void DiffView::applyAnnotations()
{
    const std::optional<PaneSide> reference = annotatedReferenceSide();
    m_showAnnotations->setEnabled(reference.has_value());
    m_showAnnotations->setToolTip(reference
            ? tr("Mark the lines that carry the features behind forecast #%1: violet pushes toward a faster "
                 "candidate, orange toward a slower one")
                  .arg(m_annotations.forecastId)
            : tr("No cost-model forecast explains this pair"));
    QList<LineAnnotation> left;
    QList<LineAnnotation> right;
    if (reference && m_showAnnotations->isChecked()) {
        left = *reference == PaneSide::Left ? m_annotations.reference : m_annotations.candidate;
        right = *reference == PaneSide::Left ? m_annotations.candidate : m_annotations.reference;
    }
    m_leftPane->setLineAnnotations(left);
    m_rightPane->setLineAnnotations(right);
    QList<OverviewAnnotation> marks;
    if (m_document && (!left.isEmpty() || !right.isEmpty())) {
        QHash<int, Push> leftPush, rightPush;
        for (const LineAnnotation &a : std::as_const(left))
            leftPush.insert(a.line, a.push);
        for (const LineAnnotation &a : std::as_const(right))
            rightPush.insert(a.line, a.push);
        for (int row = 0; row < m_document->diff.rows.size(); ++row) {
            const diff::DiffRow &r = m_document->diff.rows.at(row);
            if (const auto it = leftPush.constFind(r.leftLine); r.hasLeft() && it != leftPush.cend())
                marks.append({row, PaneSide::Left, *it});
            if (const auto it = rightPush.constFind(r.rightLine); r.hasRight() && it != rightPush.cend())
                marks.append({row, PaneSide::Right, *it});
        }
    }
    m_overview->setAnnotations(marks);
}

void DiffView::copySelection() { activePane()->copy(); }

void DiffView::copyPatch() { QGuiApplication::clipboard()->setText(unifiedPatch()); }

QString DiffView::unifiedPatch() const
{
    if (!m_document)
        return {};
    const DiffBuildRequest &request = m_document->request;
    return diff::unifiedPatch(m_document->diff, titleOr(request.left.title, QStringLiteral("baseline")),
        titleOr(request.right.title, QStringLiteral("candidate")), request.contextLines);
}

Status DiffView::writeUnifiedPatch(const QString &path) const
{
    if (!m_document || m_busy)
        return Error {tr("The diff is not ready yet.")};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error {tr("Cannot write %1: %2").arg(path, file.errorString())};
    file.write(unifiedPatch().toUtf8());
    if (!file.commit())
        return Error {tr("Cannot write %1: %2").arg(path, file.errorString())};
    return {};
}

void DiffView::exportUnifiedPatch()
{
    const QString suggested = titleOr(m_right.title, QStringLiteral("candidate")) + QStringLiteral(".patch");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Unified Patch"), suggested, tr("Patches (*.patch *.diff);;All files (*)"));
    if (path.isEmpty())
        return;
    const Status written = writeUnifiedPatch(path);
    if (!written) {
        QMessageBox::warning(this, tr("Export Unified Patch"), written.error());
        return;
    }
    Q_EMIT patchExported(path);
}

void DiffView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        updateColors();
}

void DiffView::updateColors()
{
    const DiffColors colors = diffColorsFor(palette());
    if (colors == m_colors)
        return;
    const bool themeChanged = colors.dark != m_colors.dark;
    m_colors = colors;
    m_leftPane->setColors(colors);
    m_rightPane->setColors(colors);
    m_overview->setColors(colors);
    // Syntax colours come from a light or a dark theme: a flip needs the documents highlighted again.
    if (themeChanged && m_document && m_syntax && SyntaxHighlighting::isAvailable())
        startBuild();
}

void DiffView::updateShownRows()
{
    if (!m_document || m_document->diff.rows.isEmpty()) {
        m_overview->setShownRows(-1, -1);
        return;
    }
    const auto rowRange = [this](const QTextBlock &block) -> std::pair<int, int> {
        const int row = m_document->rowOfBlock(block.blockNumber());
        if (row >= 0)
            return {row, row};
        const int fold = m_document->foldOfBlock(block.blockNumber());
        if (fold < 0)
            return {-1, -1};
        const diff::Fold &f = m_document->diff.folds.at(fold);
        return {f.firstRow, f.firstRow + f.rowCount - 1};
    };
    m_overview->setShownRows(
        rowRange(m_rightPane->firstShownBlock()).first, rowRange(m_rightPane->lastShownBlock()).second);
}

void DiffView::updateHunkState()
{
    const int count = hunkCount();
    const int current = currentHunk();
    if (!m_document)
        m_hunkLabel->clear();
    else if (count == 0)
        m_hunkLabel->setText(tr("No changes"));
    else if (current >= 0)
        m_hunkLabel->setText(tr("Change %1 of %2").arg(current + 1).arg(count));
    else
        m_hunkLabel->setText(tr("%n change(s)", nullptr, count));
    m_nextHunk->setEnabled(count > 0);
    m_previousHunk->setEnabled(count > 0);
    m_copyPatch->setEnabled(count > 0);
    m_exportPatch->setEnabled(count > 0);
    // A disabled command says why (the window's menus show tool tips).
    const QString why = !m_document ? tr("No pair is shown: choose a candidate first")
                                    : tr("The two kernels are identical: there is no change");
    m_nextHunk->setToolTip(count > 0 ? tr("Go to the next change") : why);
    m_previousHunk->setToolTip(count > 0 ? tr("Go to the previous change") : why);
    m_copyPatch->setToolTip(count > 0 ? tr("Copy the changes as a unified patch") : why);
    m_exportPatch->setToolTip(count > 0 ? tr("Save the changes as a unified patch file") : why);
    if (current != m_reportedHunk) {
        m_reportedHunk = current;
        Q_EMIT currentHunkChanged(current, count);
    }
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
