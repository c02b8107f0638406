// A small arithmetic evaluator for the constant expressions feature extraction meets: #define values and array
// sizes in CUDA sources (C integer rules) and launch-geometry expressions of kernel specs (muparser's real rules).
#pragma once

#include <QHash>
#include <QString>
#include <QStringView>

#include <optional>

namespace gpuf::features {

enum class Arithmetic {
    C, // integer literals divide as integers (BM / TM), << >> & | are available
    Real, // every value is a double (kernel-spec expressions)
};

using Variables = QHash<QString, double>;

// Numbers (123, 0x20, 1.5f, 4096u), variables, + - * / % << >> & |, unary minus, parentheses, casts like (int) that
// are skipped, and the functions ceil_div(a, b), min(a, b), max(a, b). nullopt for anything else (an unknown name, a
// division by zero, trailing text), so a feature stays missing rather than wrong.
std::optional<double> evaluate(QStringView expression, const Variables &variables, Arithmetic arithmetic);

} // namespace gpuf::features
