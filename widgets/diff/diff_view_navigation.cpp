// DiffView's hunk navigation: which hunk holds the cursor, moving between hunks and rows, folds, and what the
// toolbar and the overview bar say about it.
#include "widgets/diff/diff_view.h"

#include "widgets/diff/diff_overview_bar.h"
#include "widgets/diff/diff_pane.h"

#include <QAction>
#include <QLabel>
#include <QSignalBlocker>
#include <QTextBlock>

namespace gpuf {

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

} // namespace gpuf
