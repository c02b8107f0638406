// Lane-index analysis: how expressions change from one lane (threadIdx.x) to the next. Every value gets a stride in
// elements: 0 when all lanes share it (blockIdx.x, tid / 32, loaded data), 1 for neighbouring values (tid,
// blockIdx.x * blockDim.x + threadIdx.x, tid % 32), k for tid * k, and infinity when the factor is not a literal
// (row * cols with row = tid). A global access whose index steps by one element (or one vector, through a float4
// pointer) per lane is coalesced, any other lane-varying access is strided; a 2-D shared tile whose row index varies
// with the lane is read column-wise (bank conflicts unless padded). Heuristic by design: a token-level pass per
// function, no full C++ parsing.
#include "core/features/source_analysis.h"

#include <QHash>

#include <cmath>
#include <limits>

namespace gpuf::features::detail {
namespace {

struct Lane
{
    double stride = 0.0; // elements between neighbouring lanes' values; 0: the same for all lanes
    bool varies() const { return stride != 0.0; }
};
constexpr double kUnknownStride = std::numeric_limits<double>::infinity();

Lane strongest(Lane a, Lane b) { return {std::max(a.stride, b.stride)}; }

struct Token
{
    enum Kind : quint8 { Ident, Number, Punct } kind = Punct;
    QStringView text;
    qsizetype offset = 0;
};

std::vector<Token> tokenize(const QString &text)
{
    static const QStringView longOps[] = {u"<<=", u">>=", u"<<", u">>", u"<=", u">=", u"==", u"!=", u"&&", u"||", u"+=",
        u"-=", u"*=", u"/=", u"%=", u"&=", u"|=", u"^=", u"++", u"--", u"->", u"::"};
    std::vector<Token> tokens;
    const QStringView s(text);
    qsizetype i = 0;
    while (i < s.size()) {
        const QChar c = s[i];
        if (c.isSpace()) {
            ++i;
            continue;
        }
        const qsizetype start = i;
        if (c.isLetter() || c == u'_') {
            // Member chains read as one name: threadIdx.x, a.x.
            while (i < s.size()
                && (s[i].isLetterOrNumber() || s[i] == u'_'
                    || (s[i] == u'.' && i + 1 < s.size() && (s[i + 1].isLetter() || s[i + 1] == u'_'))))
                ++i;
            tokens.push_back({Token::Ident, s.mid(start, i - start), start});
            continue;
        }
        if (c.isDigit() || (c == u'.' && i + 1 < s.size() && s[i + 1].isDigit())) {
            while (i < s.size() && (s[i].isLetterOrNumber() || s[i] == u'.'))
                ++i;
            tokens.push_back({Token::Number, s.mid(start, i - start), start});
            continue;
        }
        qsizetype len = 1;
        for (QStringView op : longOps) {
            if (s.mid(i).startsWith(op)) {
                len = op.size();
                break;
            }
        }
        tokens.push_back({Token::Punct, s.mid(i, len), start});
        i += len;
    }
    return tokens;
}

bool isOpen(QStringView t) { return t == u"(" || t == u"[" || t == u"{"; }
bool isClose(QStringView t) { return t == u")" || t == u"]" || t == u"}"; }

// Index one past the token closing the bracket at `open`; tokens.size() when it never closes.
std::size_t closeOf(const std::vector<Token> &tokens, std::size_t open)
{
    int depth = 0;
    for (std::size_t i = open; i < tokens.size(); ++i) {
        if (isOpen(tokens[i].text))
            ++depth;
        else if (isClose(tokens[i].text) && --depth == 0)
            return i + 1;
    }
    return tokens.size();
}

struct Factor
{
    Lane lane;
    std::optional<double> literal;
};

bool isCastWord(QStringView t)
{
    return typeBytes(t) > 0 || t == u"const" || t == u"unsigned" || t == u"signed" || t == u"volatile"
        || t == u"__restrict__" || t == u"size_t" || t == u"ptrdiff_t";
}

class Classifier
{
public:
    Classifier(const std::vector<Token> &tokens, const Variables &constants, const QHash<QStringView, Lane> &lanes)
        : m_t(tokens)
        , m_constants(constants)
        , m_lanes(lanes)
    { }

    Lane classify(std::size_t begin, std::size_t end) { return sum(begin, end).lane; }

private:
    bool binaryContext(std::size_t i, std::size_t begin) const
    {
        if (i == begin)
            return false;
        const Token &prev = m_t[i - 1];
        return prev.kind != Token::Punct || prev.text == u")" || prev.text == u"]";
    }

    // Terms split by top-level + and -, and by comparison, logic and ternary operators (their operands decide).
    Factor sum(std::size_t begin, std::size_t end)
    {
        Factor result;
        std::size_t termStart = begin;
        int depth = 0;
        bool first = true;
        bool additive = true; // the operator before the current term is + or -
        for (std::size_t i = begin; i <= end; ++i) {
            bool split = i == end;
            if (!split) {
                const QStringView t = m_t[i].text;
                if (t == u"<" && i > begin && m_t[i - 1].text.endsWith(u"_cast")) {
                    while (i + 1 < end && m_t[i].text != u">")
                        ++i; // the template argument of a cast, not a comparison
                    continue;
                }
                if (isOpen(t)) {
                    ++depth;
                } else if (isClose(t)) {
                    --depth;
                } else if (depth == 0 && m_t[i].kind == Token::Punct && binaryContext(i, termStart)
                    && (t == u"+" || t == u"-" || t == u"<" || t == u">" || t == u"<=" || t == u">=" || t == u"=="
                        || t == u"!=" || t == u"&&" || t == u"||" || t == u"?" || t == u":")) {
                    split = true;
                }
            }
            if (!split)
                continue;
            const Factor term = product(termStart, i);
            // tid + 4 * tid steps by 5; across a comparison or ternary the stronger operand decides.
            result.lane
                = additive ? Lane {result.lane.stride + std::abs(term.lane.stride)} : strongest(result.lane, term.lane);
            result.literal = first ? term.literal : std::nullopt;
            first = false;
            additive = i < end && (m_t[i].text == u"+" || m_t[i].text == u"-");
            termStart = i + 1;
        }
        return result;
    }

    Factor product(std::size_t begin, std::size_t end)
    {
        std::size_t i = begin;
        Factor acc = factor(i, end);
        while (i < end) {
            const QStringView op = m_t[i].text;
            ++i;
            const Factor f = factor(i, end);
            acc = combine(acc, op, f);
        }
        return acc;
    }

    Factor combine(const Factor &a, QStringView op, const Factor &b) const
    {
        Factor r;
        if (a.literal && b.literal) {
            if (op == u"*")
                r.literal = *a.literal * *b.literal;
            else if (op == u"/" && *b.literal != 0)
                r.literal = *a.literal / *b.literal;
        }
        if (op == u"*") {
            if (a.lane.varies() && b.lane.varies()) {
                r.lane.stride = kUnknownStride;
            } else if (a.lane.varies() || b.lane.varies()) {
                const Factor &lane = a.lane.varies() ? a : b;
                const Factor &other = a.lane.varies() ? b : a;
                r.lane.stride = other.literal ? lane.lane.stride * std::abs(*other.literal) : kUnknownStride;
            }
        } else if (op == u"/" || op == u">>") {
            // tid / 32: groups of lanes share a value (a warp index); a divisor that is not a literal likewise.
            const std::optional<double> divisor
                = b.literal ? std::optional<double>(op == u"/" ? *b.literal : std::exp2(*b.literal)) : std::nullopt;
            const double stride = divisor && *divisor > 0 ? a.lane.stride / *divisor : 0.0;
            r.lane.stride = stride >= 1.0 ? stride : 0.0;
        } else if (op == u"<<") {
            r.lane.stride = !a.lane.varies() ? 0.0 : b.literal ? a.lane.stride * std::exp2(*b.literal) : kUnknownStride;
        } else if (op == u"%" || op == u"&") {
            r.lane = a.lane.varies() ? a.lane : strongest(a.lane, b.lane); // tid % 32: neighbours stay neighbours
        } else {
            r.lane = strongest(a.lane, b.lane);
        }
        return r;
    }

    // One operand starting at i; i is left at the operator after it (or end).
    Factor factor(std::size_t &i, std::size_t end)
    {
        // Prefix operators and casts.
        while (i < end && m_t[i].kind == Token::Punct
            && (m_t[i].text == u"-" || m_t[i].text == u"+" || m_t[i].text == u"!" || m_t[i].text == u"~"
                || m_t[i].text == u"*" || m_t[i].text == u"&" || m_t[i].text == u"++" || m_t[i].text == u"--"))
            ++i;
        if (i >= end)
            return {};
        const Token &t = m_t[i];
        Factor f;
        if (t.text == u"(") {
            const std::size_t close = std::min(closeOf(m_t, i), end);
            bool cast = close > i + 2;
            for (std::size_t k = i + 1; k + 1 < close && cast; ++k)
                cast = (m_t[k].kind == Token::Ident && isCastWord(m_t[k].text)) || m_t[k].text == u"*";
            if (cast) {
                i = close;
                return factor(i, end);
            }
            f = sum(i + 1, close > i + 1 ? close - 1 : i + 1);
            i = close;
        } else if (t.kind == Token::Number) {
            QStringView digits = t.text;
            while (!digits.isEmpty() && digits.back().isLetter() && !digits.startsWith(u"0x"))
                digits.chop(1);
            bool ok = false;
            const double v
                = digits.startsWith(u"0x") ? double(digits.mid(2).toLongLong(&ok, 16)) : digits.toDouble(&ok);
            if (ok)
                f.literal = v;
            ++i;
        } else if (t.kind == Token::Ident) {
            ++i;
            if (t.text.endsWith(u"_cast") && i < end && m_t[i].text == u"<") {
                while (i < end && m_t[i].text != u">")
                    ++i;
                ++i;
            }
            if (i < end && m_t[i].text == u"(") {
                const std::size_t close = std::min(closeOf(m_t, i), end);
                // min/max/abs and casts keep their arguments' lane pattern; any other call yields data.
                if (t.text == u"min" || t.text == u"max" || t.text == u"abs" || t.text.endsWith(u"_cast"))
                    f = sum(i + 1, close > i + 1 ? close - 1 : i + 1);
                i = close;
            } else if (i < end && m_t[i].text == u"[") {
                while (i < end && m_t[i].text == u"[")
                    i = std::min(closeOf(m_t, i), end); // an element's value: data, not an index
            } else if (t.text == u"threadIdx.x") {
                f.lane.stride = 1.0;
            } else if (const auto c = m_constants.constFind(t.text.toString()); c != m_constants.cend()) {
                f.literal = *c;
            } else {
                f.lane = m_lanes.value(t.text);
            }
        } else {
            ++i;
        }
        // Postfix ++/-- and member access leave the pattern as it is.
        while (i < end && (m_t[i].text == u"++" || m_t[i].text == u"--"))
            ++i;
        return f;
    }

    const std::vector<Token> &m_t;
    const Variables &m_constants;
    const QHash<QStringView, Lane> &m_lanes;
};

// End of an assignment's right-hand side starting at `from`: ';' or ',' at depth 0, or a bracket closing an
// enclosing one (a for header).
std::size_t expressionEnd(const std::vector<Token> &tokens, std::size_t from)
{
    int depth = 0;
    for (std::size_t i = from; i < tokens.size(); ++i) {
        const QStringView t = tokens[i].text;
        if (isOpen(t)) {
            ++depth;
        } else if (isClose(t)) {
            if (--depth < 0)
                return i;
        } else if (depth == 0 && (t == u";" || t == u",")) {
            return i;
        }
    }
    return tokens.size();
}

const ArrayDeclaration *arrayNamed(const std::vector<ArrayDeclaration> &arrays, QStringView name)
{
    for (const ArrayDeclaration &a : arrays) {
        if (name == a.name)
            return &a;
    }
    return nullptr;
}

bool insideDeclaration(const std::vector<ArrayDeclaration> &arrays, qsizetype offset)
{
    for (const ArrayDeclaration &a : arrays) {
        if (offset >= a.start && offset < a.end)
            return true;
    }
    return false;
}

// Components of the vector type named in reinterpret_cast<const float4*> (4), 1 for scalars.
double vectorElementsOf(const std::vector<Token> &tokens, std::size_t from, std::size_t to)
{
    for (std::size_t k = from; k < to; ++k) {
        const QStringView t = tokens[k].text;
        if (tokens[k].kind == Token::Ident && typeBytes(t) > 0 && t.back().isDigit())
            return double(t.back().digitValue());
    }
    return 1.0;
}

class AccessPass
{
public:
    AccessPass(const CleanedSource &source, const Variables &constants, const std::vector<ArrayDeclaration> &arrays,
        KernelFeatures &out)
        : m_source(source)
        , m_tokens(tokenize(source.text()))
        , m_arrays(arrays)
        , m_out(out)
        , m_classifier(m_tokens, constants, m_lanes)
    { }

    void run()
    {
        for (std::size_t i = 0; i < m_tokens.size(); ++i) {
            const Token &t = m_tokens[i];
            if (t.kind == Token::Ident && (t.text == u"__global__" || t.text == u"__device__")) {
                m_lanes.clear(); // a new function: its names are its own
            } else if (t.kind == Token::Punct && t.text == u"=" && i > 0) {
                assignment(i);
            } else if (t.kind == Token::Punct && t.text == u"[" && i > 0) {
                subscript(i);
            } else if (t.kind == Token::Ident && t.text == u"reinterpret_cast") {
                vectorCast(i);
            } else if (t.kind == Token::Ident && t.text == u"if" && i + 1 < m_tokens.size()
                && m_tokens[i + 1].text == u"(") {
                branch(i + 1);
            }
        }
    }

private:
    int lineOf(std::size_t token) const { return m_source.lineOf(m_tokens[token].offset); }

    void assignment(std::size_t at)
    {
        const Token &lhs = m_tokens[at - 1];
        if (lhs.kind != Token::Ident)
            return; // an element store (a[i] = …) or a dereference
        const std::size_t end = expressionEnd(m_tokens, at + 1);
        m_lanes.insert(lhs.text, m_classifier.classify(at + 1, end));
    }

    // `stride` in elements of the accessed type: one per lane is coalesced.
    void count(double stride, std::size_t token)
    {
        if (stride == 1.0)
            m_out.add(KernelFeature::CoalescedAccesses, 1.0, lineOf(token));
        else if (stride != 0.0)
            m_out.add(KernelFeature::StridedAccesses, 1.0, lineOf(token));
    }

    void subscript(std::size_t open)
    {
        const Token &before = m_tokens[open - 1];
        if (before.text == u"]")
            return; // a further dimension: handled with the first
        const std::size_t close = closeOf(m_tokens, open);
        if (close <= open + 1)
            return;
        if (before.text == u")") {
            // reinterpret_cast<const float4*>(x)[v]: the cast's pointer and the index together.
            std::size_t k = open - 1;
            int depth = 0;
            for (;; --k) {
                if (isClose(m_tokens[k].text))
                    ++depth;
                else if (isOpen(m_tokens[k].text) && --depth == 0)
                    break;
                if (k == 0)
                    return;
            }
            std::size_t head = k;
            while (head > 0 && m_tokens[head - 1].text != u";" && m_tokens[head - 1].text != u"{"
                && m_tokens[head - 1].text != u"=" && m_tokens[head - 1].text != u"(")
                --head;
            // The pointer's offset counts in elements of the original type, the subscript in vectors.
            const double elements = vectorElementsOf(m_tokens, head, k);
            const Lane base = m_classifier.classify(k + 1, open - 1);
            count(base.stride / elements + m_classifier.classify(open + 1, close - 1).stride, open);
            return;
        }
        if (before.kind != Token::Ident || insideDeclaration(m_arrays, before.offset))
            return;
        if (const ArrayDeclaration *array = arrayNamed(m_arrays, before.text)) {
            if (!array->shared)
                return; // a register array
            const Lane first = m_classifier.classify(open + 1, close - 1);
            const bool column = array->dimensions > 1
                ? first.varies() && close < m_tokens.size() && m_tokens[close].text == u"["
                : first.stride >= 2.0;
            if (column && !array->padded)
                m_out.add(KernelFeature::SharedColumnAccesses, 1.0, lineOf(open));
            return;
        }
        const Lane base = m_lanes.value(before.text);
        count(base.stride + m_classifier.classify(open + 1, close - 1).stride, open);
    }

    // *reinterpret_cast<const float4*>(A + offset): an access through a cast pointer without a subscript.
    void vectorCast(std::size_t at)
    {
        std::size_t i = at + 1;
        if (i >= m_tokens.size() || m_tokens[i].text != u"<")
            return;
        const std::size_t typeStart = i;
        while (i < m_tokens.size() && m_tokens[i].text != u">")
            ++i;
        const double elements = vectorElementsOf(m_tokens, typeStart, i);
        ++i;
        if (i >= m_tokens.size() || m_tokens[i].text != u"(")
            return;
        const std::size_t close = closeOf(m_tokens, i);
        if (close < m_tokens.size() && m_tokens[close].text == u"[")
            return; // counted as a subscript
        if (i + 1 < m_tokens.size() && m_tokens[i + 1].text == u"&") {
            // &tile[…]: an access to the array itself, counted by its subscript.
            return;
        }
        count(m_classifier.classify(i + 1, close - 1).stride / elements, at);
    }

    void branch(std::size_t open)
    {
        const std::size_t close = closeOf(m_tokens, open);
        // tid % (2 * s) == 0, (threadIdx.x & 31) == 0: a lane-varying value taken modulo splits every warp.
        for (std::size_t k = open + 2; k + 1 < close; ++k) {
            const Token &t = m_tokens[k];
            const Token &before = m_tokens[k - 1];
            if (t.kind == Token::Punct && (t.text == u"%" || t.text == u"&") && before.kind == Token::Ident
                && (before.text == u"threadIdx.x" || m_lanes.value(before.text).varies())) {
                m_out.add(KernelFeature::DivergentBranches, 1.0, lineOf(open));
                return;
            }
        }
    }

    const CleanedSource &m_source;
    std::vector<Token> m_tokens;
    const std::vector<ArrayDeclaration> &m_arrays;
    KernelFeatures &m_out;
    QHash<QStringView, Lane> m_lanes;
    Classifier m_classifier;
};

} // namespace

void analyseAccessPatterns(const CleanedSource &source, const Variables &constants,
    const std::vector<ArrayDeclaration> &arrays, KernelFeatures &out)
{
    AccessPass(source, constants, arrays, out).run();
}

} // namespace gpuf::features::detail
