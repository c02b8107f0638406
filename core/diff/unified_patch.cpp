// Unified patch writer; see unified_patch.h.
#include "core/diff/unified_patch.h"

#include <algorithm>
#include <vector>

namespace gpuf::diff {

namespace {

const QLatin1StringView kNoNewline("\\ No newline at end of file\n");

bool missingNewline(int line, const SideInfo &side)
{
    return line != DiffRow::NoLine && line == side.lineCount && !side.endsWithNewline;
}

// A row the patch has to change: the diff may call it Equal while its bytes differ (ignored whitespace, or a
// final newline present on one side only).
bool patchChanges(const DiffRow &row, const DiffResult &diff)
{
    return row.kind != RowKind::Equal || row.leftText != row.rightText
        || missingNewline(row.leftLine, diff.left) != missingNewline(row.rightLine, diff.right);
}

QString rangeText(int first, int count)
{
    return count == 1 ? QString::number(first) : QString::number(first) + u',' + QString::number(count);
}

// One side's "first,count" for rows [begin, end); lastBefore is that side's last line number before begin.
QString sideRange(const QList<DiffRow> &rows, int begin, int end, int lastBefore, int DiffRow::*line)
{
    int first = lastBefore;
    int count = 0;
    for (int r = begin; r < end; ++r) {
        if (rows[r].*line != DiffRow::NoLine && count++ == 0)
            first = rows[r].*line;
    }
    return rangeText(first, count);
}

void writeLine(QString &out, QChar mark, const QString &text, bool noNewline)
{
    out += mark + text + u'\n';
    if (noNewline)
        out += kNoNewline;
}

void writeHunk(QString &out, const DiffResult &diff, const std::vector<bool> &changes, int begin, int end)
{
    const QList<DiffRow> &rows = diff.rows;
    int lastLeft = 0;
    int lastRight = 0;
    for (int r = begin - 1; r >= 0 && (lastLeft == 0 || lastRight == 0); --r) {
        if (lastLeft == 0)
            lastLeft = rows[r].leftLine;
        if (lastRight == 0)
            lastRight = rows[r].rightLine;
    }
    out += u"@@ -" + sideRange(rows, begin, end, lastLeft, &DiffRow::leftLine) + u" +"
        + sideRange(rows, begin, end, lastRight, &DiffRow::rightLine) + u" @@\n";

    for (int r = begin; r < end;) {
        if (!changes[static_cast<size_t>(r)]) {
            writeLine(out, u' ', rows[r].leftText, missingNewline(rows[r].leftLine, diff.left));
            ++r;
            continue;
        }
        // A run of changed rows: all its left lines, then all its right lines.
        int runEnd = r;
        while (runEnd < end && changes[static_cast<size_t>(runEnd)])
            ++runEnd;
        for (int k = r; k < runEnd; ++k) {
            if (rows[k].hasLeft())
                writeLine(out, u'-', rows[k].leftText, missingNewline(rows[k].leftLine, diff.left));
        }
        for (int k = r; k < runEnd; ++k) {
            if (rows[k].hasRight())
                writeLine(out, u'+', rows[k].rightText, missingNewline(rows[k].rightLine, diff.right));
        }
        r = runEnd;
    }
}

} // namespace

QString unifiedPatch(const DiffResult &diff, QStringView leftLabel, QStringView rightLabel, int contextLines)
{
    if (diff.cancelled)
        return {};
    const int rowCount = static_cast<int>(diff.rows.size());
    std::vector<bool> changes(static_cast<size_t>(rowCount));
    std::vector<int> changed;
    for (int r = 0; r < rowCount; ++r) {
        changes[static_cast<size_t>(r)] = patchChanges(diff.rows[r], diff);
        if (changes[static_cast<size_t>(r)])
            changed.push_back(r);
    }
    if (changed.empty())
        return {};

    const int context = std::max(0, contextLines);
    QString out = u"--- " + leftLabel + u"\n+++ " + rightLabel + u'\n';
    // Changes closer than two contexts apart share a hunk, as in diff -u.
    size_t c = 0;
    while (c < changed.size()) {
        size_t last = c;
        while (last + 1 < changed.size() && changed[last + 1] - changed[last] - 1 <= 2 * context)
            ++last;
        writeHunk(
            out, diff, changes, std::max(0, changed[c] - context), std::min(rowCount, changed[last] + context + 1));
        c = last + 1;
    }
    return out;
}

} // namespace gpuf::diff
