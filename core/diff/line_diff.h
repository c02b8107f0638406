// The side-by-side line diff: aligned rows, hunks for navigation, folds for unchanged regions, summary counts.
#pragma once

#include "core/common/cancel.h"
#include "core/diff/source_text.h"
#include "core/diff/token_diff.h"

#include <QList>
#include <QString>
#include <QStringView>

#include <optional>

namespace gpuf::diff {

enum class RowKind : quint8 {
    Equal, // the same line on both sides (up to whitespace when whitespace is ignored)
    Changed, // a deleted line paired with an inserted line of the same hunk
    Inserted, // right only
    Deleted, // left only
};

struct DiffRow
{
    static constexpr int NoLine = 0;

    RowKind kind = RowKind::Equal;
    int leftLine = NoLine; // 1-based line numbers; NoLine where the side has no line in this row
    int rightLine = NoLine;
    QString leftText; // the real text, without its line terminator
    QString rightText;
    QList<CharRange> leftChanges; // token-level highlights of Changed rows
    QList<CharRange> rightChanges;
    bool highlightsCapped = false; // the token limit was hit; the changes cover the differing middle

    bool hasLeft() const { return leftLine != NoLine; }
    bool hasRight() const { return rightLine != NoLine; }
};

// A run of non-Equal rows. Line ranges follow the unified-diff convention: when a side has no lines in the hunk,
// its first line is the line after which the other side's lines go (0 = before the first line).
struct Hunk
{
    int firstRow = 0;
    int rowCount = 0;
    int leftFirstLine = 0;
    int leftLineCount = 0;
    int rightFirstLine = 0;
    int rightLineCount = 0;
};

// Equal rows hidden behind a "show N lines" control.
struct Fold
{
    int firstRow = 0;
    int rowCount = 0;
};

struct DiffSummary
{
    int added = 0; // Inserted rows
    int removed = 0; // Deleted rows
    int changed = 0; // Changed rows
    int changedLines() const { return added + removed + changed; }
};

struct SideInfo
{
    int lineCount = 0;
    LineEnding lineEnding = LineEnding::None;
    bool endsWithNewline = true;
};

struct DiffOptions
{
    bool ignoreWhitespace = false; // lines differing only in whitespace are Equal (rows keep the real text)
    int contextLines = 3; // Equal rows kept visible around each hunk; the rest is folded
    bool tokenHighlights = true; // fill leftChanges/rightChanges of Changed rows
    int maxTokensPerLine = 1000; // see TokenDiffOptions::maxTokens
};

struct DiffResult
{
    QList<DiffRow> rows;
    QList<Hunk> hunks;
    QList<Fold> folds;
    DiffSummary summary;
    SideInfo left;
    SideInfo right;
    bool cancelled = false; // nothing else is filled in when true

    bool identical() const { return !cancelled && hunks.isEmpty(); }
};

// Line endings never count as differences: "\r\n", "\r" and "\n" all end a line (SideInfo reports which was used).
// Checks `cancel` in its loops and returns a result with only cancelled set once it is cancelled.
DiffResult diffTexts(
    QStringView left, QStringView right, const DiffOptions &options = {}, const CancelToken &cancel = {});

// The number of non-Equal rows diffTexts would produce (summary.changedLines()), without building any row.
std::optional<int> changedLineCount(
    QStringView left, QStringView right, bool ignoreWhitespace = false, const CancelToken &cancel = {});

QList<Hunk> computeHunks(const QList<DiffRow> &rows);

// Equal runs keep contextLines rows next to each hunk and fold the rest; runs with no hunk on a side (the start and
// the end of the file) keep context only towards the hunk. Identical texts get no folds: there is nothing to focus.
QList<Fold> computeFolds(const QList<DiffRow> &rows, const QList<Hunk> &hunks, int contextLines);

// Index of the first hunk starting after currentRow (-1: none), and of the last hunk starting before it.
int nextHunk(const QList<Hunk> &hunks, int currentRow);
int previousHunk(const QList<Hunk> &hunks, int currentRow);

} // namespace gpuf::diff
