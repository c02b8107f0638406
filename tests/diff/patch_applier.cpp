// A strict unified-patch applier for the round-trip tests; see patch_applier.h.
#include "patch_applier.h"

#include <QRegularExpression>
#include <QStringList>

namespace gpuf::test {

namespace {

struct Lines
{
    QStringList lines;
    bool endsWithNewline = true;
};

Lines splitText(const QString &text)
{
    Lines result;
    if (text.isEmpty())
        return result;
    result.lines = text.split(u'\n');
    if (result.lines.last().isEmpty())
        result.lines.removeLast();
    else
        result.endsWithNewline = false;
    return result;
}

struct HunkHeader
{
    int oldStart = 0;
    int oldCount = 0;
    int newCount = 0;
};

std::optional<HunkHeader> parseHeader(const QString &line)
{
    static const QRegularExpression header(QStringLiteral(R"(^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$)"));
    const QRegularExpressionMatch match = header.match(line);
    if (!match.hasMatch())
        return std::nullopt;
    auto number = [&](int group) { return match.captured(group).isEmpty() ? 1 : match.captured(group).toInt(); };
    return HunkHeader {match.captured(1).toInt(), number(2), number(4)};
}

} // namespace

std::optional<QString> applyUnifiedPatch(const QString &original, const QString &patch)
{
    const Lines old = splitText(original);
    QStringList patchLines = patch.split(u'\n');
    if (patchLines.size() < 3 || !patchLines.last().isEmpty() || !patchLines[0].startsWith(u"--- ")
        || !patchLines[1].startsWith(u"+++ "))
        return std::nullopt;
    patchLines.removeLast();

    QStringList out;
    qsizetype cursor = 0;
    bool newEndsWithNewline = old.endsWithNewline;
    qsizetype p = 2;
    while (p < patchLines.size()) {
        const std::optional<HunkHeader> header = parseHeader(patchLines[p++]);
        if (!header)
            return std::nullopt;
        const qsizetype start = header->oldCount == 0 ? header->oldStart : header->oldStart - 1;
        if (start < cursor || start > old.lines.size())
            return std::nullopt;
        out += old.lines.mid(cursor, start - cursor);
        cursor = start;
        int oldSeen = 0;
        int newSeen = 0;
        QChar previous;
        while (p < patchLines.size() && !patchLines[p].startsWith(u"@@")) {
            const QString &line = patchLines[p++];
            const QChar mark = line.isEmpty() ? QChar() : line[0];
            const QString text = line.mid(1);
            if (mark == u'\\') {
                // The marker belongs to the line before it: the old side's, the new side's, or both for context.
                if (previous == u'-' || previous == u' ') {
                    if (cursor != old.lines.size() || old.endsWithNewline)
                        return std::nullopt;
                }
                if (previous == u'+' || previous == u' ')
                    newEndsWithNewline = false;
                continue;
            }
            if (mark == u' ' || mark == u'-') {
                if (cursor >= old.lines.size() || old.lines[cursor] != text)
                    return std::nullopt;
                ++cursor;
                ++oldSeen;
            }
            if (mark == u' ' || mark == u'+') {
                out.append(text);
                ++newSeen;
                newEndsWithNewline = true;
            }
            if (mark != u' ' && mark != u'-' && mark != u'+')
                return std::nullopt;
            previous = mark;
        }
        if (oldSeen != header->oldCount || newSeen != header->newCount)
            return std::nullopt;
    }
    if (cursor < old.lines.size()) {
        out += old.lines.mid(cursor);
        newEndsWithNewline = old.endsWithNewline;
    }
    if (out.isEmpty())
        return QString();
    return out.join(u'\n') + (newEndsWithNewline ? QStringLiteral("\n") : QString());
}

} // namespace gpuf::test
