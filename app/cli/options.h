// A command's options described once, with their types and ranges: added to the parser from the description, and
// checked by one function that says in one sentence what is wrong with a value ("--rounds needs a positive integer").
#pragma once

#include "core/common/result.h"

#include <QCommandLineParser>
#include <QHash>
#include <QList>
#include <QString>

#include <limits>
#include <variant>

namespace gpuf::cli {

// One option of a command: its name, value name and help as `--help` shows them, the type of its value, the range
// a number must lie in, and whether it must be given.
struct Option
{
    enum class Kind { Flag, Text, Int, UInt64, Double };

    QString name;
    QString help;
    QString valueName; // empty for a flag
    Kind kind = Kind::Flag;
    QString defaultValue; // the value when the option is not given
    double minimum = -std::numeric_limits<double>::infinity();
    double maximum = std::numeric_limits<double>::infinity();
    QString refusal; // what follows "--NAME " when a value is refused; %1 is the value given. Empty: from the range.
    bool required = false;

    static Option flag(const QString &name, const QString &help);
    static Option text(const QString &name, const QString &valueName, const QString &help);
    static Option integer(const QString &name, const QString &valueName, const QString &help); // an int
    static Option uint64(const QString &name, const QString &valueName, const QString &help); // seeds
    static Option real(const QString &name, const QString &valueName, const QString &help);

    Option atLeast(double min) const;
    Option atMost(double max) const;
    Option byDefault(const QString &value) const;
    Option refusedAs(const QString &text) const;
    Option mandatory() const; // "--NAME VALUE is required" when it is not given (or given empty)

    bool isNumber() const { return kind == Kind::Int || kind == Kind::UInt64 || kind == Kind::Double; }
    // The sentence refusing `given`: "--NAME " and the refusal, or one made from the kind and range.
    QString refusalFor(const QString &given) const;
};

void addOptions(QCommandLineParser &parser, const QList<Option> &options);

// The number options of a command line, each parsed and inside its range.
class OptionValues
{
public:
    using Value = std::variant<int, quint64, double>;

    // The value given (or the option's default), else `fallback`.
    int integer(const QString &name, int fallback = 0) const;
    quint64 uint64(const QString &name, quint64 fallback = 0) const;
    double real(const QString &name, double fallback = 0.0) const;

    void insert(const QString &name, Value value) { m_values.insert(name, value); }

private:
    QHash<QString, Value> m_values;
};

// Checks the options named, in that order (all of `options`, in theirs, when `names` is empty): a required one must
// be given, and a number must parse and lie in its range. The first refusal is the error, as one sentence without
// the command's name.
Result<OptionValues> checkOptions(
    const QList<Option> &options, const QCommandLineParser &parser, const QStringList &names = {});

} // namespace gpuf::cli
