// evaluate(); see expression.h. A recursive-descent parser over the text, no allocation beyond names.
#include "core/features/expression.h"

#include <cmath>

namespace gpuf::features {
namespace {

// A value and whether C would treat it as an integer (so 7 / 2 is 3 there).
struct Value
{
    double v = 0.0;
    bool integer = true;
};

bool isIdentStart(QChar c) { return c.isLetter() || c == u'_'; }
bool isIdentChar(QChar c) { return c.isLetterOrNumber() || c == u'_'; }

bool isTypeName(QStringView name)
{
    static const QStringList types {QStringLiteral("int"), QStringLiteral("unsigned"), QStringLiteral("size_t"),
        QStringLiteral("long"), QStringLiteral("float"), QStringLiteral("double"), QStringLiteral("int64_t"),
        QStringLiteral("uint32_t"), QStringLiteral("int32_t"), QStringLiteral("uint64_t"), QStringLiteral("short")};
    for (const QString &t : types) {
        if (name == t)
            return true;
    }
    return false;
}

class Parser
{
public:
    Parser(QStringView text, const Variables &vars, Arithmetic arithmetic)
        : m_s(text)
        , m_vars(vars)
        , m_arith(arithmetic)
    { }

    std::optional<double> run()
    {
        auto v = bitOr();
        skipSpace();
        if (!v || m_pos != m_s.size() || !std::isfinite(v->v))
            return std::nullopt;
        return v->v;
    }

private:
    void skipSpace()
    {
        while (m_pos < m_s.size() && m_s[m_pos].isSpace())
            ++m_pos;
    }
    bool eat(QStringView op)
    {
        skipSpace();
        if (m_s.mid(m_pos).startsWith(op)) {
            // "<" must not eat the first half of "<<", nor "&" of "&&".
            const qsizetype next = m_pos + op.size();
            if (op.size() == 1 && next < m_s.size() && m_s[next] == op[0] && (op[0] == u'&' || op[0] == u'|'))
                return false;
            m_pos = next;
            return true;
        }
        return false;
    }

    std::optional<Value> bitOr()
    {
        auto left = bitAnd();
        while (left && eat(u"|")) {
            auto right = bitAnd();
            if (!right || !left->integer || !right->integer)
                return std::nullopt;
            left = Value {double(qint64(left->v) | qint64(right->v)), true};
        }
        return left;
    }
    std::optional<Value> bitAnd()
    {
        auto left = shift();
        while (left && eat(u"&")) {
            auto right = shift();
            if (!right || !left->integer || !right->integer)
                return std::nullopt;
            left = Value {double(qint64(left->v) & qint64(right->v)), true};
        }
        return left;
    }
    std::optional<Value> shift()
    {
        auto left = sum();
        while (left) {
            const bool l = eat(u"<<");
            if (!l && !eat(u">>"))
                break;
            auto right = sum();
            if (!right || !left->integer || !right->integer || right->v < 0 || right->v > 62)
                return std::nullopt;
            const qint64 a = qint64(left->v);
            left = Value {double(l ? a << qint64(right->v) : a >> qint64(right->v)), true};
        }
        return left;
    }
    std::optional<Value> sum()
    {
        auto left = product();
        while (left) {
            skipSpace();
            if (m_pos >= m_s.size() || (m_s[m_pos] != u'+' && m_s[m_pos] != u'-'))
                break;
            const bool plus = m_s[m_pos++] == u'+';
            auto right = product();
            if (!right)
                return std::nullopt;
            left = Value {plus ? left->v + right->v : left->v - right->v, left->integer && right->integer};
        }
        return left;
    }
    std::optional<Value> product()
    {
        auto left = unary();
        while (left) {
            skipSpace();
            if (m_pos >= m_s.size())
                break;
            const QChar op = m_s[m_pos];
            if (op != u'*' && op != u'/' && op != u'%')
                break;
            ++m_pos;
            auto right = unary();
            if (!right)
                return std::nullopt;
            const bool integers = m_arith == Arithmetic::C && left->integer && right->integer;
            if (op == u'*') {
                left = Value {left->v * right->v, left->integer && right->integer};
            } else if (right->v == 0.0) {
                return std::nullopt;
            } else if (op == u'/') {
                left = Value {integers ? std::trunc(left->v / right->v) : left->v / right->v, integers};
            } else {
                left = Value {std::fmod(left->v, right->v), left->integer && right->integer};
            }
        }
        return left;
    }
    std::optional<Value> unary()
    {
        if (eat(u"-")) {
            auto v = unary();
            if (v)
                v->v = -v->v;
            return v;
        }
        if (eat(u"+"))
            return unary();
        return primary();
    }
    std::optional<Value> primary()
    {
        skipSpace();
        if (m_pos >= m_s.size())
            return std::nullopt;
        const QChar c = m_s[m_pos];
        if (c == u'(')
            return parenthesised();
        if (c.isDigit() || c == u'.')
            return number();
        if (isIdentStart(c))
            return name();
        return std::nullopt;
    }
    std::optional<Value> parenthesised()
    {
        ++m_pos;
        // A cast such as (int) or (size_t): skip it and evaluate what follows.
        const qsizetype save = m_pos;
        skipSpace();
        const qsizetype start = m_pos;
        while (m_pos < m_s.size() && (isIdentChar(m_s[m_pos]) || m_s[m_pos] == u' '))
            ++m_pos;
        if (m_pos < m_s.size() && m_s[m_pos] == u')') {
            const QStringView word = m_s.mid(start, m_pos - start).trimmed();
            if (!word.isEmpty() && isTypeName(word.split(u' ').first())) {
                ++m_pos;
                auto v = unary();
                if (v && !word.startsWith(u"float") && !word.startsWith(u"double"))
                    v = Value {std::trunc(v->v), true};
                return v;
            }
        }
        m_pos = save;
        auto v = bitOr();
        if (!v || !eat(u")"))
            return std::nullopt;
        return v;
    }
    std::optional<Value> number()
    {
        const qsizetype start = m_pos;
        bool integer = true;
        if (m_s.mid(m_pos).startsWith(u"0x") || m_s.mid(m_pos).startsWith(u"0X")) {
            m_pos += 2;
            while (m_pos < m_s.size() && isIdentChar(m_s[m_pos]))
                ++m_pos;
            QStringView digits = m_s.mid(start + 2, m_pos - start - 2);
            while (!digits.isEmpty()
                && (digits.back() == u'u' || digits.back() == u'U' || digits.back() == u'l' || digits.back() == u'L'))
                digits.chop(1);
            bool ok = false;
            const qulonglong v = digits.toULongLong(&ok, 16);
            return ok ? std::optional<Value>(Value {double(v), true}) : std::nullopt;
        }
        while (m_pos < m_s.size()
            && (m_s[m_pos].isDigit() || m_s[m_pos] == u'.' || m_s[m_pos] == u'e' || m_s[m_pos] == u'E'
                || ((m_s[m_pos] == u'-' || m_s[m_pos] == u'+')
                    && (m_s[m_pos - 1] == u'e' || m_s[m_pos - 1] == u'E')))) {
            if (!m_s[m_pos].isDigit())
                integer = false;
            ++m_pos;
        }
        const QStringView digits = m_s.mid(start, m_pos - start);
        while (m_pos < m_s.size()
            && (m_s[m_pos] == u'f' || m_s[m_pos] == u'F' || m_s[m_pos] == u'u' || m_s[m_pos] == u'U'
                || m_s[m_pos] == u'l' || m_s[m_pos] == u'L')) {
            if (m_s[m_pos] == u'f' || m_s[m_pos] == u'F')
                integer = false;
            ++m_pos;
        }
        bool ok = false;
        const double v = digits.toDouble(&ok);
        if (!ok)
            return std::nullopt;
        return Value {v, integer && m_arith == Arithmetic::C};
    }
    std::optional<Value> name()
    {
        const qsizetype start = m_pos;
        while (m_pos < m_s.size() && isIdentChar(m_s[m_pos]))
            ++m_pos;
        const QString id = m_s.mid(start, m_pos - start).toString();
        skipSpace();
        if (m_pos < m_s.size() && m_s[m_pos] == u'(')
            return call(id);
        const auto it = m_vars.constFind(id);
        if (it == m_vars.cend())
            return std::nullopt;
        return Value {*it, m_arith == Arithmetic::C && *it == std::trunc(*it)};
    }
    std::optional<Value> call(const QString &function)
    {
        ++m_pos; // '('
        auto a = bitOr();
        if (!a || !eat(u","))
            return std::nullopt;
        auto b = bitOr();
        if (!b || !eat(u")"))
            return std::nullopt;
        const bool integers = a->integer && b->integer;
        if (function == QLatin1StringView("ceil_div")) {
            if (b->v == 0.0)
                return std::nullopt;
            return Value {std::ceil(a->v / b->v), true};
        }
        if (function == QLatin1StringView("min"))
            return Value {std::min(a->v, b->v), integers};
        if (function == QLatin1StringView("max"))
            return Value {std::max(a->v, b->v), integers};
        return std::nullopt;
    }

    QStringView m_s;
    qsizetype m_pos = 0;
    const Variables &m_vars;
    Arithmetic m_arith;
};

} // namespace

std::optional<double> evaluate(QStringView expression, const Variables &variables, Arithmetic arithmetic)
{
    return Parser(expression, variables, arithmetic).run();
}

} // namespace gpuf::features
