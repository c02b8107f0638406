// Typed options and their checks; see options.h.
#include "app/cli/options.h"

#include <algorithm>
#include <cmath>

namespace gpuf::cli {
namespace {

Option make(const QString &name, const QString &valueName, const QString &help, Option::Kind kind)
{
    Option o;
    o.name = name;
    o.help = help;
    o.valueName = valueName;
    o.kind = kind;
    return o;
}

QString number(double v) { return QString::number(v, 'g', 17); }

// "a positive integer", "an integer from 1 to 8", "a non-negative number", …
QString rangeText(const Option &o)
{
    const bool whole = o.kind != Option::Kind::Double;
    const QString noun = whole ? QStringLiteral("integer") : QStringLiteral("number");
    const bool hasMin = std::isfinite(o.minimum) && !(o.kind == Option::Kind::UInt64 && o.minimum <= 0);
    const bool hasMax = std::isfinite(o.maximum);
    if (o.kind == Option::Kind::UInt64 && !hasMin && !hasMax)
        return QStringLiteral("a non-negative integer");
    if (hasMin && hasMax)
        return QStringLiteral("a%1 %2 from %3 to %4")
            .arg(whole ? QStringLiteral("n") : QString(), noun, number(o.minimum), number(o.maximum));
    if (hasMin && o.minimum == 0)
        return QStringLiteral("a non-negative ") + noun;
    if (hasMin && o.minimum == 1 && whole)
        return QStringLiteral("a positive ") + noun;
    if (hasMin)
        return QStringLiteral("a%1 %2 of at least %3")
            .arg(whole ? QStringLiteral("n") : QString(), noun)
            .arg(number(o.minimum));
    if (hasMax)
        return QStringLiteral("a%1 %2 of at most %3")
            .arg(whole ? QStringLiteral("n") : QString(), noun)
            .arg(number(o.maximum));
    return whole ? QStringLiteral("an integer") : QStringLiteral("a number");
}

// The value of `text` for `o`, or nothing when it does not parse or lies outside the range.
std::optional<OptionValues::Value> parse(const Option &o, const QString &text)
{
    bool ok = false;
    double v = 0;
    OptionValues::Value value;
    switch (o.kind) {
    case Option::Kind::Int: {
        const int i = text.toInt(&ok);
        v = i;
        value = i;
        break;
    }
    case Option::Kind::UInt64: {
        const quint64 u = text.toULongLong(&ok);
        v = double(u);
        value = u;
        break;
    }
    case Option::Kind::Double:
        v = text.toDouble(&ok);
        value = v;
        break;
    case Option::Kind::Flag:
    case Option::Kind::Text:
        return std::nullopt;
    }
    if (!ok || v < o.minimum || v > o.maximum)
        return std::nullopt;
    return value;
}

} // namespace

Option Option::flag(const QString &name, const QString &help) { return make(name, {}, help, Kind::Flag); }

Option Option::text(const QString &name, const QString &valueName, const QString &help)
{
    return make(name, valueName, help, Kind::Text);
}

Option Option::integer(const QString &name, const QString &valueName, const QString &help)
{
    return make(name, valueName, help, Kind::Int);
}

Option Option::uint64(const QString &name, const QString &valueName, const QString &help)
{
    return make(name, valueName, help, Kind::UInt64);
}

Option Option::real(const QString &name, const QString &valueName, const QString &help)
{
    return make(name, valueName, help, Kind::Double);
}

Option Option::atLeast(double min) const
{
    Option o = *this;
    o.minimum = min;
    return o;
}

Option Option::atMost(double max) const
{
    Option o = *this;
    o.maximum = max;
    return o;
}

Option Option::byDefault(const QString &value) const
{
    Option o = *this;
    o.defaultValue = value;
    return o;
}

Option Option::refusedAs(const QString &text) const
{
    Option o = *this;
    o.refusal = text;
    return o;
}

Option Option::mandatory() const
{
    Option o = *this;
    o.required = true;
    return o;
}

QString Option::refusalFor(const QString &given) const
{
    QString why = refusal.isEmpty() ? QStringLiteral("takes ") + rangeText(*this) : refusal;
    if (why.contains(QLatin1StringView("%1")))
        why = why.arg(given);
    return QStringLiteral("--") + name + u' ' + why;
}

void addOptions(QCommandLineParser &parser, const QList<Option> &options)
{
    for (const Option &o : options)
        parser.addOption(QCommandLineOption(o.name, o.help, o.valueName, o.defaultValue));
}

int OptionValues::integer(const QString &name, int fallback) const
{
    const auto it = m_values.constFind(name);
    if (it == m_values.cend())
        return fallback;
    Q_ASSERT(std::holds_alternative<int>(*it));
    return std::holds_alternative<int>(*it) ? std::get<int>(*it) : fallback;
}

quint64 OptionValues::uint64(const QString &name, quint64 fallback) const
{
    const auto it = m_values.constFind(name);
    if (it == m_values.cend())
        return fallback;
    Q_ASSERT(std::holds_alternative<quint64>(*it));
    return std::holds_alternative<quint64>(*it) ? std::get<quint64>(*it) : fallback;
}

double OptionValues::real(const QString &name, double fallback) const
{
    const auto it = m_values.constFind(name);
    if (it == m_values.cend())
        return fallback;
    Q_ASSERT(std::holds_alternative<double>(*it));
    return std::holds_alternative<double>(*it) ? std::get<double>(*it) : fallback;
}

Result<OptionValues> checkOptions(
    const QList<Option> &options, const QCommandLineParser &parser, const QStringList &names)
{
    QList<const Option *> checked;
    for (const Option &o : options) {
        if (names.isEmpty())
            checked.append(&o);
    }
    for (const QString &name : names) {
        const auto it = std::find_if(options.cbegin(), options.cend(), [&](const Option &o) { return o.name == name; });
        Q_ASSERT(it != options.cend());
        if (it != options.cend())
            checked.append(&*it);
    }
    OptionValues values;
    for (const Option *o : std::as_const(checked)) {
        if (o->required && parser.value(o->name).isEmpty())
            return Error {QStringLiteral("--%1 %2 is required").arg(o->name, o->valueName)};
        if (!o->isNumber() || (!parser.isSet(o->name) && o->defaultValue.isEmpty()))
            continue;
        const QString text = parser.value(o->name);
        const auto value = parse(*o, text);
        if (!value)
            return Error {o->refusalFor(text)};
        values.insert(o->name, *value);
    }
    return values;
}

} // namespace gpuf::cli
