// CleanedSource; see cleaned_source.h.
#include "core/features/cleaned_source.h"

#include <QRegularExpression>

#include <algorithm>

namespace gpuf::features {

SourceKind sourceKindOf(const QString &language, const QString &source)
{
    const QString lang = language.toLower();
    if (lang == QLatin1StringView("triton") || lang == QLatin1StringView("python")
        || lang == QLatin1StringView("pytorch"))
        return SourceKind::Python;
    if (lang == QLatin1StringView("cuda") || lang == QLatin1StringView("cpp") || lang == QLatin1StringView("ptx"))
        return SourceKind::CLike;
    // Unknown: Python has "def " / "import " lines, CUDA has braces and __global__.
    const bool python = source.contains(QLatin1StringView("\ndef ")) || source.startsWith(QLatin1StringView("def "))
        || source.contains(QLatin1StringView("import "));
    return python && !source.contains(QLatin1StringView("__global__ void")) ? SourceKind::Python : SourceKind::CLike;
}

CleanedSource::CleanedSource(const QString &source, SourceKind kind)
    : m_text(source)
    , m_kind(kind)
{
    if (kind == SourceKind::CLike)
        blankCLike();
    else
        blankPython();
    m_lineStarts.push_back(0);
    for (qsizetype i = 0; i < m_text.size(); ++i) {
        if (m_text[i] == u'\n')
            m_lineStarts.push_back(i + 1);
    }
    if (m_lineStarts.size() > 1 && m_lineStarts.back() == m_text.size())
        m_lineStarts.pop_back(); // a final line break does not start a line
}

int CleanedSource::lineOf(qsizetype offset) const
{
    const auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    return int(it - m_lineStarts.begin());
}

QStringView CleanedSource::line(int number) const
{
    if (number < 1 || number > lineCount())
        return {};
    const qsizetype start = m_lineStarts[std::size_t(number - 1)];
    qsizetype end = number < lineCount() ? m_lineStarts[std::size_t(number)] - 1 : m_text.size();
    if (end > start && m_text[end - 1] == u'\r')
        --end;
    return QStringView(m_text).mid(start, end - start);
}

bool CleanedSource::insideAsm(qsizetype quote) const
{
    // The statement the literal belongs to starts after the last ';', '{' or '}' before it.
    qsizetype start = quote;
    while (start > 0 && m_text[start - 1] != u';' && m_text[start - 1] != u'{' && m_text[start - 1] != u'}')
        --start;
    static const QRegularExpression asmKeyword(QStringLiteral(R"(\b(?:asm|__asm__)\b)"));
    return asmKeyword.match(QStringView(m_text).mid(start, quote - start)).hasMatch();
}

void CleanedSource::blankCLike()
{
    QChar *s = m_text.data();
    const qsizetype n = m_text.size();
    const auto blank = [s](qsizetype i) {
        if (s[i] != u'\n')
            s[i] = u' ';
    };
    for (qsizetype i = 0; i < n; ++i) {
        if (s[i] == u'/' && i + 1 < n && s[i + 1] == u'/') {
            while (i < n && s[i] != u'\n')
                blank(i++);
        } else if (s[i] == u'/' && i + 1 < n && s[i + 1] == u'*') {
            blank(i++);
            blank(i++);
            while (i < n && !(s[i] == u'*' && i + 1 < n && s[i + 1] == u'/'))
                blank(i++);
            if (i < n) {
                blank(i++);
                blank(i);
            }
        } else if (s[i] == u'"' || s[i] == u'\'') {
            // Keep the quotes, blank the contents: a character literal like '4' must not read as a number. Inline
            // PTX (asm("mma.sync…")) is code, and stays.
            const bool keep = s[i] == u'"' && insideAsm(i);
            const QChar quote = s[i++];
            while (i < n && s[i] != quote && s[i] != u'\n') {
                if (s[i] == u'\\' && i + 1 < n && !keep)
                    blank(i++);
                if (keep)
                    ++i;
                else
                    blank(i++);
            }
        }
    }
}

void CleanedSource::blankPython()
{
    QChar *s = m_text.data();
    const qsizetype n = m_text.size();
    bool lineStart = true; // only whitespace so far on this line
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = s[i];
        if (c == u'\n') {
            lineStart = true;
            continue;
        }
        if (c == u'#') {
            while (i < n && s[i] != u'\n')
                s[i++] = u' ';
            --i;
            continue;
        }
        if (c == u'"' || c == u'\'') {
            const bool triple = i + 2 < n && s[i + 1] == c && s[i + 2] == c;
            const qsizetype len = triple ? 3 : 1;
            qsizetype j = i + len;
            while (j < n) {
                if (s[j] == u'\\') {
                    j += 2;
                    continue;
                }
                if (!triple && s[j] == u'\n')
                    break;
                if (s[j] == c && (!triple || (j + 2 < n && s[j + 1] == c && s[j + 2] == c)))
                    break;
                ++j;
            }
            const qsizetype end = std::min(n, j + (j < n ? len : 0));
            // A string that starts a statement is a docstring (or a bare string): prose, not code.
            if (triple && lineStart) {
                for (qsizetype k = i; k < end; ++k) {
                    if (s[k] != u'\n')
                        s[k] = u' ';
                }
            }
            i = end - 1;
            lineStart = false;
            continue;
        }
        if (!c.isSpace())
            lineStart = false;
    }
}

} // namespace gpuf::features
