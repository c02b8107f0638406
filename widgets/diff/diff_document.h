// DiffDocument: everything the side-by-side view shows for one pair, built as a value off the GUI thread.
#pragma once

#include "core/common/cancel.h"
#include "core/diff/line_diff.h"
#include "widgets/diff/syntax_highlighting.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace gpuf {

// One side of the diff as a value: the caller loads kernels from the store and hands their text over.
struct DiffSide
{
    QString title; // shown above the pane and used as the patch label ("reference", "v4_reg_block_2d.cu", …)
    QString language; // a kernel language ("cuda", "triton", "python", "ptx"); picks the highlighting
    QString source;
    QString notes; // the kernel's teaching note (Kernel::notes), shown above the panes; empty when none

    friend bool operator==(const DiffSide &, const DiffSide &) = default;
};

enum class PaneSide : quint8 { Left, Right };

struct DiffBuildRequest
{
    DiffSide left;
    DiffSide right;
    bool ignoreWhitespace = false;
    int contextLines = 3;
    SyntaxTheme theme = SyntaxTheme::Light;
};

// Both panes hold the same blocks: one per diff row, plus one "show N lines" block before each fold's rows. A
// side without a line in a row gets an empty filler block, so block n of the left pane sits beside block n of the
// right pane and the two scroll in lockstep.
struct DiffDocument
{
    DiffBuildRequest request;
    // As diffTexts made it, except: no folds of a single line, and no token highlights on rewritten lines.
    diff::DiffResult diff;
    QList<int> blockRows; // per block: its row, or foldBlockTag(fold) for a fold's "show N lines" block
    QList<int> rowBlocks; // per row: its block
    QList<int> foldBlocks; // per fold: its "show N lines" block
    QString leftText; // the blocks' texts joined with '\n'
    QString rightText;
    QList<LineFormats> leftSyntax; // per row; empty lists when the row has no line on that side, or no highlighting
    QList<LineFormats> rightSyntax;
    QString leftDefinition; // the syntax definitions used; empty in the plain-text path
    QString rightDefinition;
    int lineNumberDigits = 1;

    bool cancelled() const { return diff.cancelled; }
    const DiffSide &side(PaneSide which) const { return which == PaneSide::Left ? request.left : request.right; }
    const QString &text(PaneSide which) const { return which == PaneSide::Left ? leftText : rightText; }
    const QList<LineFormats> &syntax(PaneSide which) const
    {
        return which == PaneSide::Left ? leftSyntax : rightSyntax;
    }
    int rowOfBlock(int block) const { return block >= 0 && block < blockRows.size() ? blockRows.at(block) : -1; }
    // The fold whose "show N lines" block this is, or -1.
    int foldOfBlock(int block) const;
    // The fold holding a row, or -1.
    int foldOfRow(int row) const;
    // The 1-based source line of a block on one side, or 0 for fold blocks and fillers.
    int lineOfBlock(int block, PaneSide which) const;
    // The first block at or after a line of one side (lines past the end give the last block; -1 when empty).
    int blockOfLine(int line, PaneSide which) const;

    static constexpr int foldBlockTag(int fold) { return -2 - fold; }
};

// Runs the line diff, the token diff and the highlighting of both sides. Checks `cancel` throughout and returns a
// document with cancelled() set once it becomes true. syntax may be null (plain text).
DiffDocument buildDiffDocument(
    const DiffBuildRequest &request, const SyntaxHighlighting *syntax, const CancelToken &cancel = {});

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::DiffSide)
