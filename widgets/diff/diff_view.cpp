// DiffView: builds DiffDocuments in the background (latest request wins), keeps the two panes in lockstep, follows the
// palette and copies or exports the patch. The layout and header, the hunk navigation and the forecast annotations are
// in diff_view_layout.cpp, diff_view_navigation.cpp and diff_view_annotations.cpp.
#include "widgets/diff/diff_view.h"

#include "core/diff/unified_patch.h"
#include "widgets/diff/diff_overview_bar.h"
#include "widgets/diff/diff_pane.h"
#include "widgets/diff/syntax_highlighting.h"

#include <QAction>
#include <QClipboard>
#include <QEvent>
#include <QFileDialog>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QSaveFile>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBlock>
#include <QTimer>

namespace gpuf {

namespace {

// A busy label that appears only when building takes long enough to be noticed, so quick diffs do not flicker.
constexpr int BusyLabelDelayMs = 150;

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
    // A build still running is cancelled and waited for when m_buildJob goes (it holds only its inputs).
    m_buildJob.cancel();
    // ~QWidget closes the window after this body ran, and a pane with focus then repaints and scrolls: its signals
    // must no longer reach this half-destroyed view.
    for (DiffPane *pane : {m_leftPane, m_rightPane}) {
        disconnect(pane, nullptr, this, nullptr);
        disconnect(pane->verticalScrollBar(), nullptr, this, nullptr);
        disconnect(pane->horizontalScrollBar(), nullptr, this, nullptr);
    }
    disconnect(m_overview, nullptr, this, nullptr);
}

QString DiffView::titleOr(const QString &title, const QString &fallback) { return title.isEmpty() ? fallback : title; }

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
    m_buildJob.cancel();
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
    m_busy = true;
    const DiffBuildRequest request {
        m_left, m_right, m_ignoreWhitespace, m_contextLines, m_colors.dark ? SyntaxTheme::Dark : SyntaxTheme::Light};
    const quint64 generation
        = m_buildJob.start([request, syntax = m_syntax](
                               const CancelToken &cancel) { return buildDiffDocument(request, syntax.get(), cancel); },
            [this](Result<DiffDocument> document) {
                if (!document->cancelled())
                    showDocument(std::move(*document));
            });

    QTimer::singleShot(BusyLabelDelayMs, this, [this, generation]() {
        if (m_busy && generation == m_buildJob.generation()) {
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

void DiffView::swapSides()
{
    std::swap(m_left, m_right);
    updateHeader();
    if (m_document || m_busy)
        startBuild();
    Q_EMIT sidesSwapped();
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

} // namespace gpuf
