// Token-level highlights inside a changed line: which character spans differ between the two versions.
#pragma once

#include "core/common/cancel.h"

#include <QList>
#include <QStringView>

namespace gpuf::diff {

enum class TokenKind : quint8 { Identifier, Number, Operator, Whitespace, Other };

struct Token
{
    int start = 0;
    int length = 0;
    TokenKind kind = TokenKind::Other;
};

// Splits a line into identifiers, numeric literals (1.5e-3f, 0x1Fu, 1'000), operators (maximal munch over the
// C++/CUDA/Python operator set, including "<<<" and ">>>"), whitespace runs and single other characters.
// Stops after maxTokens tokens when maxTokens >= 0.
QList<Token> tokenize(QStringView line, int maxTokens = -1);

// A character range [start, start + length) in one line.
struct CharRange
{
    int start = 0;
    int length = 0;
    friend bool operator==(const CharRange &, const CharRange &) = default;
};

struct TokenDiffOptions
{
    bool ignoreWhitespace = false;
    // Above this many tokens on a side (after the common prefix and suffix are set aside), the whole differing
    // middle is highlighted instead: dtl's work grows with tokens × differences, and 1 000 tokens of scattered
    // edits already cost a few milliseconds, so a 20 000-character line must not reach it.
    int maxTokens = 1000;
};

struct TokenDiff
{
    QList<CharRange> left;
    QList<CharRange> right;
    bool capped = false; // the token limit was hit: the ranges cover the whole differing middle
    bool cancelled = false;
};

// Changed spans on each side; adjacent changed tokens, and changed tokens separated only by whitespace, are merged.
TokenDiff tokenDiff(
    QStringView left, QStringView right, const TokenDiffOptions &options = {}, const CancelToken &cancel = {});

} // namespace gpuf::diff
