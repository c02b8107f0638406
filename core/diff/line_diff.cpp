// Line alignment and row building for the side-by-side diff; see line_diff.h.
#include "core/diff/line_diff.h"

#include "core/diff/sequence_match.h"

#include <QHash>

#include <algorithm>
#include <utility>
#include <vector>

namespace gpuf::diff {

namespace {

constexpr int kCancelCheckInterval = 256;

bool cancelledAt(int i, const CancelToken &cancel) { return i % kCancelCheckInterval == 0 && cancel.isCancelled(); }

QString withoutWhitespace(QStringView line)
{
    QString key;
    key.reserve(line.size());
    for (const QChar c : line) {
        if (!c.isSpace())
            key.append(c);
    }
    return key;
}

// Both texts split into lines, and the matched line pairs (0-based) of a longest common subsequence.
struct Alignment
{
    SplitText left;
    SplitText right;
    std::vector<std::pair<int, int>> matches;
};

std::optional<Alignment> alignLines(
    QStringView leftText, QStringView rightText, bool ignoreWhitespace, const CancelToken &cancel)
{
    Alignment alignment {splitLines(leftText), splitLines(rightText), {}};
    const auto &leftLines = alignment.left.lines;
    const auto &rightLines = alignment.right.lines;

    // With whitespace ignored, lines are compared by their text with all whitespace removed (like git diff -w).
    std::vector<QString> normalised;
    if (ignoreWhitespace) {
        normalised.reserve(leftLines.size() + rightLines.size());
        for (const QStringView line : leftLines)
            normalised.push_back(withoutWhitespace(line));
        for (const QStringView line : rightLines)
            normalised.push_back(withoutWhitespace(line));
    }
    QHash<QStringView, int> ids;
    ids.reserve(static_cast<qsizetype>(leftLines.size()) + static_cast<qsizetype>(rightLines.size()));
    auto toIds = [&](const std::vector<QStringView> &lines, size_t keyOffset, std::vector<int> &out) {
        out.reserve(lines.size());
        for (size_t i = 0; i < lines.size(); ++i) {
            if (cancelledAt(static_cast<int>(i), cancel))
                return false;
            const QStringView key = ignoreWhitespace ? QStringView(normalised[keyOffset + i]) : lines[i];
            auto id = ids.constFind(key);
            if (id == ids.constEnd())
                id = ids.insert(key, static_cast<int>(ids.size()));
            out.push_back(*id);
        }
        return true;
    };
    std::vector<int> leftIds, rightIds;
    if (!toIds(leftLines, 0, leftIds) || !toIds(rightLines, leftLines.size(), rightIds))
        return std::nullopt;

    auto matches = matchSequences(leftIds, rightIds, cancel);
    if (!matches)
        return std::nullopt;
    alignment.matches = std::move(*matches);
    return alignment;
}

// Calls gap(leftStart, leftCount, rightStart, rightCount) for the unmatched lines before each match and after the
// last one, and equal(leftIndex, rightIndex) for each match; stops early when a callback returns false.
template<typename Gap, typename Equal>
bool walkAlignment(const Alignment &alignment, Gap gap, Equal equal)
{
    int i = 0;
    int j = 0;
    for (const auto &[mi, mj] : alignment.matches) {
        if ((mi > i || mj > j) && !gap(i, mi - i, j, mj - j))
            return false;
        if (!equal(mi, mj))
            return false;
        i = mi + 1;
        j = mj + 1;
    }
    const int leftCount = static_cast<int>(alignment.left.lines.size());
    const int rightCount = static_cast<int>(alignment.right.lines.size());
    if (leftCount > i || rightCount > j)
        return gap(i, leftCount - i, j, rightCount - j);
    return true;
}

SideInfo sideInfo(const SplitText &split)
{
    return SideInfo {static_cast<int>(split.lines.size()), split.lineEnding, split.endsWithNewline};
}

DiffRow makeRow(RowKind kind, const Alignment &alignment, int leftIndex, int rightIndex)
{
    DiffRow row;
    row.kind = kind;
    if (leftIndex >= 0) {
        row.leftLine = leftIndex + 1;
        row.leftText = alignment.left.lines[static_cast<size_t>(leftIndex)].toString();
    }
    if (rightIndex >= 0) {
        row.rightLine = rightIndex + 1;
        row.rightText = alignment.right.lines[static_cast<size_t>(rightIndex)].toString();
    }
    return row;
}

// Rows and summary counts; token highlights are added to Changed rows when asked for.
bool buildRows(const Alignment &alignment, const DiffOptions &options, const CancelToken &cancel, DiffResult &result)
{
    const TokenDiffOptions tokenOptions {options.ignoreWhitespace, options.maxTokensPerLine};
    auto gap = [&](int leftStart, int leftCount, int rightStart, int rightCount) {
        const int paired = std::min(leftCount, rightCount);
        for (int k = 0; k < std::max(leftCount, rightCount); ++k) {
            if (cancelledAt(static_cast<int>(result.rows.size()), cancel))
                return false;
            if (k < paired) {
                DiffRow row = makeRow(RowKind::Changed, alignment, leftStart + k, rightStart + k);
                if (options.tokenHighlights) {
                    TokenDiff tokens = tokenDiff(row.leftText, row.rightText, tokenOptions, cancel);
                    if (tokens.cancelled)
                        return false;
                    row.leftChanges = std::move(tokens.left);
                    row.rightChanges = std::move(tokens.right);
                    row.highlightsCapped = tokens.capped;
                }
                result.rows.append(std::move(row));
            } else if (leftCount > rightCount) {
                result.rows.append(makeRow(RowKind::Deleted, alignment, leftStart + k, -1));
            } else {
                result.rows.append(makeRow(RowKind::Inserted, alignment, -1, rightStart + k));
            }
        }
        result.summary.changed += paired;
        result.summary.removed += std::max(0, leftCount - rightCount);
        result.summary.added += std::max(0, rightCount - leftCount);
        return true;
    };
    auto equal = [&](int leftIndex, int rightIndex) {
        if (cancelledAt(static_cast<int>(result.rows.size()), cancel))
            return false;
        result.rows.append(makeRow(RowKind::Equal, alignment, leftIndex, rightIndex));
        return true;
    };
    result.rows.reserve(static_cast<qsizetype>(std::max(alignment.left.lines.size(), alignment.right.lines.size())));
    return walkAlignment(alignment, gap, equal);
}

DiffResult cancelledResult()
{
    DiffResult result;
    result.cancelled = true;
    return result;
}

} // namespace

DiffResult diffTexts(QStringView left, QStringView right, const DiffOptions &options, const CancelToken &cancel)
{
    const std::optional<Alignment> alignment = alignLines(left, right, options.ignoreWhitespace, cancel);
    if (!alignment)
        return cancelledResult();
    DiffResult result;
    result.left = sideInfo(alignment->left);
    result.right = sideInfo(alignment->right);
    if (!buildRows(*alignment, options, cancel, result) || cancel.isCancelled())
        return cancelledResult();
    result.hunks = computeHunks(result.rows);
    result.folds = computeFolds(result.rows, result.hunks, options.contextLines);
    return result;
}

std::optional<int> changedLineCount(
    QStringView left, QStringView right, bool ignoreWhitespace, const CancelToken &cancel)
{
    const std::optional<Alignment> alignment = alignLines(left, right, ignoreWhitespace, cancel);
    if (!alignment)
        return std::nullopt;
    int count = 0;
    walkAlignment(
        *alignment,
        [&count](int, int leftCount, int, int rightCount) {
            count += std::max(leftCount, rightCount);
            return true;
        },
        [](int, int) { return true; });
    return count;
}

QList<Hunk> computeHunks(const QList<DiffRow> &rows)
{
    QList<Hunk> hunks;
    int lastLeft = 0; // the last left and right line numbers seen, for hunks where a side has no lines
    int lastRight = 0;
    for (int r = 0; r < rows.size(); ++r) {
        const DiffRow &row = rows[r];
        if (row.kind != RowKind::Equal) {
            if (hunks.isEmpty() || hunks.last().firstRow + hunks.last().rowCount != r)
                hunks.append(Hunk {r, 0, lastLeft, 0, lastRight, 0});
            Hunk &hunk = hunks.last();
            ++hunk.rowCount;
            if (row.hasLeft() && hunk.leftLineCount++ == 0)
                hunk.leftFirstLine = row.leftLine;
            if (row.hasRight() && hunk.rightLineCount++ == 0)
                hunk.rightFirstLine = row.rightLine;
        }
        if (row.hasLeft())
            lastLeft = row.leftLine;
        if (row.hasRight())
            lastRight = row.rightLine;
    }
    return hunks;
}

QList<Fold> computeFolds(const QList<DiffRow> &rows, const QList<Hunk> &hunks, int contextLines)
{
    QList<Fold> folds;
    if (hunks.isEmpty())
        return folds;
    const int context = std::max(0, contextLines);
    auto foldRun = [&](int begin, int end, bool hunkBefore, bool hunkAfter) {
        const int first = begin + (hunkBefore ? context : 0);
        const int last = end - (hunkAfter ? context : 0);
        if (last > first)
            folds.append(Fold {first, last - first});
    };
    int runBegin = 0;
    for (const Hunk &hunk : hunks) {
        foldRun(runBegin, hunk.firstRow, runBegin > 0, true);
        runBegin = hunk.firstRow + hunk.rowCount;
    }
    foldRun(runBegin, static_cast<int>(rows.size()), true, false);
    return folds;
}

int nextHunk(const QList<Hunk> &hunks, int currentRow)
{
    const auto it = std::ranges::upper_bound(hunks, currentRow, {}, &Hunk::firstRow);
    return it == hunks.end() ? -1 : static_cast<int>(it - hunks.begin());
}

int previousHunk(const QList<Hunk> &hunks, int currentRow)
{
    const auto it = std::ranges::lower_bound(hunks, currentRow, {}, &Hunk::firstRow);
    return it == hunks.begin() ? -1 : static_cast<int>(it - hunks.begin()) - 1;
}

} // namespace gpuf::diff
