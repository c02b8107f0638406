// Building a DiffDocument: block layout of both panes, their texts and their per-row syntax formats.
#include "widgets/diff/diff_document.h"

#include "core/diff/sequence_match.h"
#include "core/diff/source_text.h"

#include <algorithm>

namespace gpuf {

int DiffDocument::foldOfBlock(int block) const
{
    const int row = rowOfBlock(block);
    return row <= -2 ? -2 - row : -1;
}

int DiffDocument::foldOfRow(int row) const
{
    const auto it = std::upper_bound(diff.folds.cbegin(), diff.folds.cend(), row,
        [](int value, const diff::Fold &fold) { return value < fold.firstRow; });
    if (it == diff.folds.cbegin())
        return -1;
    const diff::Fold &fold = *std::prev(it);
    return row < fold.firstRow + fold.rowCount ? static_cast<int>(std::distance(diff.folds.cbegin(), it)) - 1 : -1;
}

int DiffDocument::lineOfBlock(int block, PaneSide which) const
{
    const int row = rowOfBlock(block);
    if (row < 0)
        return 0;
    const diff::DiffRow &r = diff.rows.at(row);
    return which == PaneSide::Left ? r.leftLine : r.rightLine;
}

int DiffDocument::blockOfLine(int line, PaneSide which) const
{
    if (diff.rows.isEmpty())
        return -1;
    // Line numbers grow with the row index on each side, so the first row whose line reaches `line` is found by a
    // scan that stops early; rows without a line on this side are skipped.
    for (int row = 0; row < diff.rows.size(); ++row) {
        const diff::DiffRow &r = diff.rows.at(row);
        const int here = which == PaneSide::Left ? r.leftLine : r.rightLine;
        if (here != diff::DiffRow::NoLine && here >= line)
            return rowBlocks.at(row);
    }
    return rowBlocks.constLast();
}

namespace {

void layOutBlocks(DiffDocument &document)
{
    const QList<diff::DiffRow> &rows = document.diff.rows;
    const QList<diff::Fold> &folds = document.diff.folds;
    document.rowBlocks.reserve(rows.size());
    document.blockRows.reserve(rows.size() + folds.size());
    qsizetype leftLength = 0;
    qsizetype rightLength = 0;
    int nextFold = 0;
    for (int row = 0; row < rows.size(); ++row) {
        if (nextFold < folds.size() && folds.at(nextFold).firstRow == row) {
            document.foldBlocks.append(static_cast<int>(document.blockRows.size()));
            document.blockRows.append(DiffDocument::foldBlockTag(nextFold));
            ++nextFold;
        }
        document.rowBlocks.append(static_cast<int>(document.blockRows.size()));
        document.blockRows.append(row);
        leftLength += rows.at(row).leftText.size() + 1;
        rightLength += rows.at(row).rightText.size() + 1;
    }

    document.leftText.reserve(leftLength + folds.size());
    document.rightText.reserve(rightLength + folds.size());
    for (int block = 0; block < document.blockRows.size(); ++block) {
        if (block > 0) {
            document.leftText.append(QLatin1Char('\n'));
            document.rightText.append(QLatin1Char('\n'));
        }
        const int row = document.blockRows.at(block);
        if (row >= 0) {
            document.leftText.append(rows.at(row).leftText);
            document.rightText.append(rows.at(row).rightText);
        }
    }
}

// Highlights one side as the whole source it is (the panes hold every line of both files, so the state carried
// from line to line is the file's own) and hands each row the formats of its line.
bool highlightSide(DiffDocument &document, PaneSide which, const SyntaxHighlighting &syntax, const CancelToken &cancel)
{
    const DiffSide &side = document.side(which);
    const diff::SplitText split = diff::splitLines(side.source);
    const std::optional<QList<LineFormats>> lines
        = syntax.highlightLines(side.language, split.lines, document.request.theme, cancel);
    if (!lines)
        return false;
    QList<LineFormats> &perRow = which == PaneSide::Left ? document.leftSyntax : document.rightSyntax;
    perRow.resize(document.diff.rows.size());
    if (lines->isEmpty())
        return true;
    for (int row = 0; row < document.diff.rows.size(); ++row) {
        const diff::DiffRow &r = document.diff.rows.at(row);
        const int line = which == PaneSide::Left ? r.leftLine : r.rightLine;
        if (line != diff::DiffRow::NoLine && line <= lines->size())
            perRow[row] = lines->at(line - 1);
    }
    (which == PaneSide::Left ? document.leftDefinition : document.rightDefinition)
        = syntax.definitionName(side.language);
    return true;
}

// The share of a line's visible characters outside its changed ranges.
double unchangedShare(const QString &text, const QList<diff::CharRange> &changes)
{
    qsizetype visible = 0;
    for (const QChar c : text)
        visible += c.isSpace() ? 0 : 1;
    if (visible == 0)
        return 1.0;
    qsizetype changed = 0;
    for (const diff::CharRange &range : changes) {
        for (qsizetype i = range.start; i < range.start + range.length && i < text.size(); ++i)
            changed += text.at(i).isSpace() ? 0 : 1;
    }
    return 1.0 - static_cast<double>(changed) / static_cast<double>(visible);
}

// Token highlights help to spot an edit inside a line that otherwise stayed; on a line rewritten almost entirely
// they only speckle it, and the line tint already says it changed.
void dropSpeckledHighlights(QList<diff::DiffRow> &rows)
{
    constexpr double MinUnchangedShare = 0.3;
    for (diff::DiffRow &row : rows) {
        if (row.kind != diff::RowKind::Changed)
            continue;
        if (unchangedShare(row.leftText, row.leftChanges) < MinUnchangedShare
            || unchangedShare(row.rightText, row.rightChanges) < MinUnchangedShare) {
            row.leftChanges.clear();
            row.rightChanges.clear();
        }
    }
}

int digits(int value)
{
    int count = 1;
    while (value >= 10) {
        value /= 10;
        ++count;
    }
    return count;
}

} // namespace

DiffDocument buildDiffDocument(
    const DiffBuildRequest &request, const SyntaxHighlighting *syntax, const CancelToken &cancel)
{
    DiffDocument document;
    document.request = request;
    diff::DiffOptions options;
    options.ignoreWhitespace = request.ignoreWhitespace;
    options.contextLines = request.contextLines;
    document.diff = diff::diffTexts(request.left.source, request.right.source, options, cancel);
    if (document.diff.cancelled)
        return document;

    // A band hiding one line takes the line's own place: show the line instead.
    document.diff.folds.removeIf([](const diff::Fold &fold) { return fold.rowCount < 2; });
    dropSpeckledHighlights(document.diff.rows);
    layOutBlocks(document);
    document.lineNumberDigits = digits(std::max(document.diff.left.lineCount, document.diff.right.lineCount));

    document.leftSyntax.resize(document.diff.rows.size());
    document.rightSyntax.resize(document.diff.rows.size());
    if (syntax
        && (!highlightSide(document, PaneSide::Left, *syntax, cancel)
            || !highlightSide(document, PaneSide::Right, *syntax, cancel))) {
        document.diff = diff::DiffResult();
        document.diff.cancelled = true;
    }
    if (cancel.isCancelled()) {
        document.diff = diff::DiffResult();
        document.diff.cancelled = true;
    }
    return document;
}

} // namespace gpuf
