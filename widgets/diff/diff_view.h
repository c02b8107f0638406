// DiffView: the side-by-side kernel diff — two synchronised panes, an overview bar, hunk navigation and export.
#pragma once

#include "core/common/result.h"
#include "core/session/forecast_annotations.h"
#include "core/session/latest_job.h"
#include "widgets/diff/diff_colors.h"
#include "widgets/diff/diff_document.h"

#include <QWidget>

#include <memory>
#include <optional>

class QAction;
class QLabel;
class QSplitter;
class QStackedWidget;
class QToolBar;

namespace gpuf {

class DiffOverviewBar;
class DiffPane;
class SyntaxHighlighting;

class DiffView : public QWidget
{
    Q_OBJECT

public:
    // syntax may be null: the panes then show plain text.
    explicit DiffView(std::shared_ptr<const SyntaxHighlighting> syntax, QWidget *parent = nullptr);
    ~DiffView() override;

    // Left = the baseline (the problem's reference, the parent, …), right = the candidate. The documents are built
    // in the background; documentReady() says when they are shown. A newer pair replaces one still being built.
    void setPair(const DiffSide &baseline, const DiffSide &candidate);
    void clear();
    const DiffSide &baseline() const { return m_left; }
    const DiffSide &candidate() const { return m_right; }

    // What the view says while it has no pair to show (before a selection, on an empty store); the window sets it.
    void setPlaceholderText(const QString &text);
    QString placeholderText() const;
    bool placeholderShown() const;
    // The teaching note shown above the panes: the candidate's (right side's) note, else the baseline's; empty
    // when neither kernel has one.
    QString noteText() const;

    bool ignoreWhitespace() const { return m_ignoreWhitespace; }
    void setIgnoreWhitespace(bool ignore);
    int contextLines() const { return m_contextLines; }
    void setContextLines(int lines);

    // True while a document is being built for the latest request.
    bool isBusy() const { return m_busy; }
    // The document shown (null before the first one is ready).
    std::shared_ptr<const DiffDocument> document() const { return m_document; }
    int hunkCount() const;
    // The hunk holding the cursor's row, or -1.
    int currentHunk() const;
    // The diff row under the cursor of the pane last used, or -1 before the cursor was placed.
    int currentRow() const;
    const DiffColors &colors() const { return m_colors; }

    // The patch turning the baseline into the candidate (labels: the side titles); empty when identical.
    QString unifiedPatch() const;
    // Writes unifiedPatch() to a file, without any dialog (what exportUnifiedPatch() does after asking for a path).
    Status writeUnifiedPatch(const QString &path) const;

    const ForecastAnnotations &forecastAnnotations() const { return m_annotations; }
    // The pane that shows the annotations' reference: Left, or Right after a swap; nullopt when there are none or
    // they were made for another pair than the one shown.
    std::optional<PaneSide> annotatedReferenceSide() const;
    // True while annotations are on the panes ("Show Forecast Annotations" on, and they belong to the pair shown).
    bool forecastAnnotationsShown() const;

    DiffPane *leftPane() const { return m_leftPane; }
    DiffPane *rightPane() const { return m_rightPane; }
    DiffOverviewBar *overviewBar() const { return m_overview; }

    // Actions with shortcuts (active while focus is inside the view), for the window's menus and toolbars.
    QAction *nextHunkAction() const { return m_nextHunk; }
    QAction *previousHunkAction() const { return m_previousHunk; }
    QAction *ignoreWhitespaceAction() const { return m_ignoreWhitespaceAction; }
    QAction *expandAllAction() const { return m_expandAll; }
    QAction *swapSidesAction() const { return m_swap; }
    QAction *showAnnotationsAction() const { return m_showAnnotations; }
    QAction *copyAction() const { return m_copy; }
    QAction *copyPatchAction() const { return m_copyPatch; }
    QAction *exportPatchAction() const { return m_exportPatch; }
    QAction *openBaselineAction() const { return m_openBaseline; }
    QAction *openCandidateAction() const { return m_openCandidate; }

public Q_SLOTS:
    void goToNextHunk();
    void goToPreviousHunk();
    // Shows a row: expands its fold, puts both cursors on it and scrolls it into the middle of the panes.
    void goToRow(int row);
    void setFoldExpanded(int fold, bool expanded);
    void expandAllFolds();
    void swapSides();
    // The line marks of the pair's cost-model forecast; kept across rebuilds, swaps and pairs they do not match (they
    // show again once their pair is shown). Empty annotations remove them.
    void setForecastAnnotations(const gpuf::ForecastAnnotations &annotations);
    void clearForecastAnnotations();
    // Copies the selection of the pane last used (fillers and fold bands left out).
    void copySelection();
    void copyPatch();
    // Asks for a file name and writes the patch; failures are reported in a message box.
    void exportUnifiedPatch();

Q_SIGNALS:
    void documentReady();
    void currentHunkChanged(int hunk, int hunkCount);
    void sidesSwapped();
    // The user asked to read one side's whole source (the window decides where: a dock, a SourceViewer window…).
    void openSourceRequested(const gpuf::DiffSide &side);
    void patchExported(const QString &path);

protected:
    void changeEvent(QEvent *event) override;

private:
    // Building, pane sync and colours (diff_view.cpp).
    void startBuild();
    void showDocument(DiffDocument built);
    void connectPanes();
    void syncCursor(DiffPane *from);
    void updateColors();
    DiffPane *activePane() const;
    static QString titleOr(const QString &title, const QString &fallback);
    // Widgets and header (diff_view_layout.cpp).
    void createActions();
    void createLayout();
    QToolBar *createToolBar();
    QWidget *createNoteArea();
    void updateHeader();
    void updateNote();
    void updatePlaceholder();
    // Hunk navigation (diff_view_navigation.cpp).
    void updateShownRows();
    void updateHunkState();
    // Forecast annotations (diff_view_annotations.cpp).
    void applyAnnotations();

    std::shared_ptr<const SyntaxHighlighting> m_syntax;
    DiffSide m_left;
    DiffSide m_right;
    bool m_ignoreWhitespace = false;
    int m_contextLines = 3;
    bool m_busy = false;
    bool m_cursorPlaced = false;
    bool m_syncing = false;
    bool m_syncingScroll = false;
    LatestJob<DiffDocument> m_buildJob {this};
    std::shared_ptr<const DiffDocument> m_document;
    DiffColors m_colors;
    PaneSide m_activeSide = PaneSide::Right;
    int m_reportedHunk = -2;
    ForecastAnnotations m_annotations;

    QLabel *m_leftTitle;
    QLabel *m_rightTitle;
    QLabel *m_summary;
    QLabel *m_hunkLabel;
    QLabel *m_status;
    QLabel *m_note;
    QWidget *m_noteArea = nullptr;
    QLabel *m_placeholder;
    QStackedWidget *m_stack;
    QWidget *m_body;
    QSplitter *m_splitter;
    DiffPane *m_leftPane;
    DiffPane *m_rightPane;
    DiffOverviewBar *m_overview;

    QAction *m_nextHunk;
    QAction *m_previousHunk;
    QAction *m_ignoreWhitespaceAction;
    QAction *m_expandAll;
    QAction *m_swap;
    QAction *m_showAnnotations;
    QAction *m_copy;
    QAction *m_copyPatch;
    QAction *m_exportPatch;
    QAction *m_openBaseline;
    QAction *m_openCandidate;
};

} // namespace gpuf
