// Evaluation of the muparser expressions in kernel specs (grid, block, sizes, scalars) over a case's variables.
#pragma once

#include "core/gpu/expected.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace gpuf::gpu {

using CaseVars = std::map<std::string, double>;

// Holds one parser per variable set, so evaluating many expressions of one case binds the variables once.
class ExpressionEvaluator
{
public:
    explicit ExpressionEvaluator(const CaseVars &vars);
    ~ExpressionEvaluator();
    ExpressionEvaluator(const ExpressionEvaluator &) = delete;
    ExpressionEvaluator &operator=(const ExpressionEvaluator &) = delete;

    // Any real value; the message names the expression and what is wrong with it.
    Expected<double> evaluate(const std::string &expression) const;
    // A non-negative integer (grid, block, byte and element counts).
    Expected<std::int64_t> evaluateCount(const std::string &expression) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// True when name can be a case variable (muparser's identifier rules, minus the built-in function names).
bool isValidVariableName(const std::string &name);

} // namespace gpuf::gpu
