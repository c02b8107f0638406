// muparser-backed evaluator: case variables become parser variables, plus ceil_div for launch geometry.
#include "core/gpu/expressions.h"

#include <muParser.h>

#include <cmath>
#include <set>

namespace gpuf::gpu {

namespace {

double ceilDiv(double a, double b)
{
    if (b == 0.0)
        throw mu::Parser::exception_type(std::string("ceil_div: division by zero"));
    return std::ceil(a / b);
}

const std::set<std::string> &reservedNames()
{
    static const std::set<std::string> names = {"ceil_div", "min", "max", "sin", "cos", "tan", "asin", "acos", "atan",
        "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "log2", "log10", "log", "ln", "exp", "sqrt", "sign", "rint",
        "abs", "sum", "avg", "_pi", "_e"};
    return names;
}

std::string describe(const mu::Parser::exception_type &e, const std::string &expression)
{
    if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN)
        return "unknown variable '" + e.GetToken() + "' in '" + expression + "'";
    return e.GetMsg() + " in '" + expression + "'";
}

} // namespace

struct ExpressionEvaluator::Impl
{
    CaseVars vars; // muparser binds variables by address, so they live here
    mu::Parser parser;
};

ExpressionEvaluator::ExpressionEvaluator(const CaseVars &vars)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->vars = vars;
    m_impl->parser.DefineFun("ceil_div", ceilDiv);
    for (auto &[name, value] : m_impl->vars) {
        try {
            m_impl->parser.DefineVar(name, &value);
        } catch (const mu::Parser::exception_type &) {
            // An invalid name simply stays undefined; the spec validator reports it with its field.
        }
    }
}

ExpressionEvaluator::~ExpressionEvaluator() = default;

Expected<double> ExpressionEvaluator::evaluate(const std::string &expression) const
{
    if (expression.find_first_not_of(" \t") == std::string::npos)
        return Failure {"empty expression"};
    try {
        m_impl->parser.SetExpr(expression);
        const double value = m_impl->parser.Eval();
        if (!std::isfinite(value))
            return Failure {"'" + expression + "' is not finite"};
        return value;
    } catch (const mu::Parser::exception_type &e) {
        return Failure {describe(e, expression)};
    }
}

Expected<std::int64_t> ExpressionEvaluator::evaluateCount(const std::string &expression) const
{
    auto value = evaluate(expression);
    if (!value)
        return Failure {value.error()};
    const double v = *value;
    if (v < 0)
        return Failure {"'" + expression + "' is negative (" + std::to_string(v) + ")"};
    if (v != std::floor(v))
        return Failure {"'" + expression + "' is not an integer (" + std::to_string(v) + ")"};
    if (v > 9.0e15)
        return Failure {"'" + expression + "' is too large"};
    return static_cast<std::int64_t>(v);
}

bool isValidVariableName(const std::string &name)
{
    if (name.empty() || reservedNames().count(name))
        return false;
    const auto isAlpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    if (!isAlpha(name.front()))
        return false;
    for (char c : name) {
        if (!isAlpha(c) && !(c >= '0' && c <= '9'))
            return false;
    }
    return true;
}

} // namespace gpuf::gpu
