// A source text with its comments (and, for C-like code, string literals) blanked out, same length and same line
// breaks as the original, so pattern searches never count a word in a comment and every offset maps to its line.
#pragma once

#include <QString>

#include <vector>

namespace gpuf::features {

enum class SourceKind {
    CLike, // CUDA C++: // and /* */ comments, "…" and '…' literals blanked (except inline PTX in asm statements)
    Python, // # comments and docstrings blanked; other strings kept (load_inline CUDA lives in them)
};

// The kind extraction uses for a kernel's language ("cuda", "triton", "python", "pytorch"; unknown → from the text).
SourceKind sourceKindOf(const QString &language, const QString &source);

class CleanedSource
{
public:
    CleanedSource(const QString &source, SourceKind kind);

    const QString &text() const { return m_text; }
    SourceKind kind() const { return m_kind; }
    // 1-based line of an offset into text(); offsets past the end give the last line.
    int lineOf(qsizetype offset) const;
    int lineCount() const { return int(m_lineStarts.size()); }
    // Text of a 1-based line, without its line break.
    QStringView line(int number) const;

private:
    void blankCLike();
    bool insideAsm(qsizetype quote) const; // a string literal of an asm statement (inline PTX)
    void blankPython();

    QString m_text;
    SourceKind m_kind;
    std::vector<qsizetype> m_lineStarts;
};

} // namespace gpuf::features
