// Tokeniser and token-level diff for changed lines; see token_diff.h.
#include "core/diff/token_diff.h"

#include "core/diff/sequence_match.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <string_view>

namespace gpuf::diff {

namespace {

using namespace std::string_view_literals;

// Longest first, so maximal munch only has to try each length once.
constexpr std::array kThreeCharOperators
    = {u"<<="sv, u">>="sv, u"->*"sv, u"..."sv, u"<=>"sv, u"<<<"sv, u">>>"sv, u"**="sv, u"//="sv};
constexpr std::array kTwoCharOperators = {u"::"sv, u"->"sv, u"++"sv, u"--"sv, u"<<"sv, u">>"sv, u"<="sv, u">="sv,
    u"=="sv, u"!="sv, u"&&"sv, u"||"sv, u"+="sv, u"-="sv, u"*="sv, u"/="sv, u"%="sv, u"&="sv, u"|="sv, u"^="sv, u"**"sv,
    u"//"sv, u".*"sv, u"##"sv, u":="sv, u"/*"sv, u"*/"sv};
constexpr std::u16string_view kOperatorChars = u"+-*/%=<>!&|^~?:.,;()[]{}#@\\";

bool isWordChar(QChar c) { return c.isLetterOrNumber() || c == u'_'; }

bool isOperatorChar(QChar c) { return kOperatorChars.find(c.unicode()) != std::u16string_view::npos; }

// Which characters belong to one token: used to keep the common prefix and suffix from splitting a token.
int charClass(QChar c)
{
    if (isWordChar(c))
        return 1;
    if (isOperatorChar(c))
        return 2;
    return 0;
}

int numberEnd(QStringView s, int i)
{
    const int n = static_cast<int>(s.size());
    const bool hex = s[i] == u'0' && i + 1 < n && (s[i + 1] == u'x' || s[i + 1] == u'X');
    const QChar exponent = hex ? u'p' : u'e';
    int j = hex ? i + 2 : i + 1;
    while (j < n) {
        const QChar c = s[j];
        if (c.toLower() == exponent && j + 2 < n && (s[j + 1] == u'+' || s[j + 1] == u'-') && s[j + 2].isDigit()) {
            j += 3;
        } else if (isWordChar(c) || c == u'.'
            || (c == u'\'' && s[j - 1].isDigit() && j + 1 < n && s[j + 1].isDigit())) { // a C++14 digit separator
            ++j;
        } else {
            break;
        }
    }
    return j;
}

int operatorLength(QStringView s, int i)
{
    const std::u16string_view rest(s.utf16() + i, static_cast<size_t>(s.size() - i));
    for (const auto op : kThreeCharOperators) {
        if (rest.starts_with(op))
            return 3;
    }
    for (const auto op : kTwoCharOperators) {
        if (rest.starts_with(op))
            return 2;
    }
    return 1;
}

Token nextToken(QStringView s, int i)
{
    const int n = static_cast<int>(s.size());
    const QChar c = s[i];
    int end = i + 1;
    TokenKind kind = TokenKind::Other;
    if (c.isSpace()) {
        while (end < n && s[end].isSpace())
            ++end;
        kind = TokenKind::Whitespace;
    } else if (c.isDigit() || (c == u'.' && end < n && s[end].isDigit())) {
        end = numberEnd(s, i);
        kind = TokenKind::Number;
    } else if (isWordChar(c)) {
        while (end < n && isWordChar(s[end]))
            ++end;
        kind = TokenKind::Identifier;
    } else if (isOperatorChar(c)) {
        end = i + operatorLength(s, i);
        kind = TokenKind::Operator;
    }
    return Token {i, end - i, kind};
}

struct Trim
{
    int prefix = 0;
    int suffix = 0;
};

// Common prefix and suffix by characters, pulled back to token boundaries so "count" vs "counter" diffs as tokens.
Trim commonEnds(QStringView left, QStringView right)
{
    const int leftSize = static_cast<int>(left.size());
    const int rightSize = static_cast<int>(right.size());
    const int limit = std::min(leftSize, rightSize);
    Trim trim;
    while (trim.prefix < limit && left[trim.prefix] == right[trim.prefix])
        ++trim.prefix;
    auto splitsToken = [](QStringView s, int before, int at) {
        return before >= 0 && at < s.size() && charClass(s[before]) != 0 && charClass(s[before]) == charClass(s[at]);
    };
    while (trim.prefix > 0
        && (splitsToken(left, trim.prefix - 1, trim.prefix) || splitsToken(right, trim.prefix - 1, trim.prefix)))
        --trim.prefix;

    while (trim.suffix < limit - trim.prefix && left[leftSize - 1 - trim.suffix] == right[rightSize - 1 - trim.suffix])
        ++trim.suffix;
    auto splitsFromMiddle = [&](QStringView s, int size) {
        const int first = size - trim.suffix;
        return first - 1 >= trim.prefix && splitsToken(s, first - 1, first);
    };
    while (trim.suffix > 0 && (splitsFromMiddle(left, leftSize) || splitsFromMiddle(right, rightSize)))
        --trim.suffix;
    return trim;
}

bool onlyWhitespace(QStringView s)
{
    return std::ranges::all_of(s, [](QChar c) { return c.isSpace(); });
}

// Changed tokens to ranges in line coordinates, joining neighbours separated by nothing or by whitespace only.
QList<CharRange> changedRanges(
    QStringView middle, int offset, const QList<Token> &tokens, const std::vector<bool> &changed)
{
    QList<CharRange> ranges;
    for (qsizetype t = 0; t < tokens.size(); ++t) {
        if (!changed[static_cast<size_t>(t)])
            continue;
        const Token &token = tokens[t];
        if (!ranges.isEmpty()) {
            CharRange &last = ranges.last();
            const int lastEnd = last.start + last.length - offset;
            if (onlyWhitespace(middle.sliced(lastEnd, token.start - lastEnd))) {
                last.length = token.start + token.length + offset - last.start;
                continue;
            }
        }
        ranges.append(CharRange {token.start + offset, token.length});
    }
    return ranges;
}

QList<CharRange> wholeMiddle(QStringView middle, int offset)
{
    if (middle.isEmpty())
        return {};
    return {CharRange {offset, static_cast<int>(middle.size())}};
}

} // namespace

QList<Token> tokenize(QStringView line, int maxTokens)
{
    QList<Token> tokens;
    const int n = static_cast<int>(line.size());
    for (int i = 0; i < n && (maxTokens < 0 || tokens.size() < maxTokens);) {
        tokens.append(nextToken(line, i));
        i += tokens.last().length;
    }
    return tokens;
}

TokenDiff tokenDiff(QStringView left, QStringView right, const TokenDiffOptions &options, const CancelToken &cancel)
{
    TokenDiff result;
    if (cancel.isCancelled()) {
        result.cancelled = true;
        return result;
    }
    const Trim trim = commonEnds(left, right);
    const QStringView leftMiddle = left.sliced(trim.prefix, left.size() - trim.prefix - trim.suffix);
    const QStringView rightMiddle = right.sliced(trim.prefix, right.size() - trim.prefix - trim.suffix);

    const QList<Token> leftTokens = tokenize(leftMiddle, options.maxTokens + 1);
    const QList<Token> rightTokens = tokenize(rightMiddle, options.maxTokens + 1);
    if (leftTokens.size() > options.maxTokens || rightTokens.size() > options.maxTokens) {
        result.left = wholeMiddle(leftMiddle, trim.prefix);
        result.right = wholeMiddle(rightMiddle, trim.prefix);
        result.capped = true;
        return result;
    }

    // Equal token texts get equal ids; whitespace is left out of the sequences when it is to be ignored.
    QHash<QStringView, int> ids;
    auto sequence = [&](QStringView middle, const QList<Token> &tokens, std::vector<int> &positions) {
        std::vector<int> seq;
        for (qsizetype t = 0; t < tokens.size(); ++t) {
            if (options.ignoreWhitespace && tokens[t].kind == TokenKind::Whitespace)
                continue;
            const QStringView text = middle.sliced(tokens[t].start, tokens[t].length);
            auto id = ids.constFind(text);
            if (id == ids.constEnd())
                id = ids.insert(text, static_cast<int>(ids.size()));
            seq.push_back(*id);
            positions.push_back(static_cast<int>(t));
        }
        return seq;
    };
    std::vector<int> leftPositions, rightPositions;
    const std::vector<int> leftIds = sequence(leftMiddle, leftTokens, leftPositions);
    const std::vector<int> rightIds = sequence(rightMiddle, rightTokens, rightPositions);

    const auto matches = matchSequences(leftIds, rightIds, cancel);
    if (!matches) {
        result.cancelled = true;
        return result;
    }
    std::vector<bool> leftChanged(static_cast<size_t>(leftTokens.size()), false);
    std::vector<bool> rightChanged(static_cast<size_t>(rightTokens.size()), false);
    for (const int t : leftPositions)
        leftChanged[static_cast<size_t>(t)] = true;
    for (const int t : rightPositions)
        rightChanged[static_cast<size_t>(t)] = true;
    for (const auto &[i, j] : *matches) {
        leftChanged[static_cast<size_t>(leftPositions[static_cast<size_t>(i)])] = false;
        rightChanged[static_cast<size_t>(rightPositions[static_cast<size_t>(j)])] = false;
    }
    result.left = changedRanges(leftMiddle, trim.prefix, leftTokens, leftChanged);
    result.right = changedRanges(rightMiddle, trim.prefix, rightTokens, rightChanged);
    return result;
}

} // namespace gpuf::diff
