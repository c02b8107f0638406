// Parsing and validation of gpuf-family/1 objects; see kernel_family.h. Every error names its field.
#include "core/mutators/kernel_family.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <cmath>

namespace gpuf::families {

bool isIdentifier(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return pattern.match(name).hasMatch();
}

namespace {

// Bounds on a family file, far above any real family (the shipped ones span at most a few thousand configurations),
// so that a typo cannot make enumerating the space run for hours.
constexpr qsizetype kMaxTunableValues = 4096;
constexpr double kMaxTunableMagnitude = 9007199254740992.0; // 2^53
constexpr qint64 kMaxConfigurations = 1000000;

// Names the expressions already give a meaning to: muparser's functions and constants, ours, and CUDA's built-ins a
// #define must not shadow.
bool isReserved(const QString &name)
{
    static const QSet<QString> reserved {QStringLiteral("mod"), QStringLiteral("ceil_div"), QStringLiteral("min"),
        QStringLiteral("max"), QStringLiteral("sin"), QStringLiteral("cos"), QStringLiteral("tan"),
        QStringLiteral("log"), QStringLiteral("log2"), QStringLiteral("log10"), QStringLiteral("ln"),
        QStringLiteral("exp"), QStringLiteral("sqrt"), QStringLiteral("sign"), QStringLiteral("rint"),
        QStringLiteral("abs"), QStringLiteral("sum"), QStringLiteral("avg"), QStringLiteral("_pi"),
        QStringLiteral("_e"), QStringLiteral("threadIdx"), QStringLiteral("blockIdx"), QStringLiteral("blockDim"),
        QStringLiteral("gridDim"), QStringLiteral("warpSize")};
    return reserved.contains(name);
}

bool isInteger(const QJsonValue &v) { return v.isDouble() && v.toDouble() == std::floor(v.toDouble()); }

class Checker
{
public:
    QStringList errors;

    void unknownFields(const QJsonObject &o, const QString &where, const QSet<QString> &known)
    {
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!known.contains(it.key()))
                errors.append(QStringLiteral("%1%2: unknown field").arg(where, it.key()));
        }
    }
    QString text(const QJsonObject &o, const QString &key, const QString &where, bool required = true)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() && !required)
            return {};
        if (!v.isString() || v.toString().trimmed().isEmpty()) {
            errors.append(QStringLiteral("%1%2: expected a non-empty string").arg(where, key));
            return {};
        }
        return v.toString();
    }
    void name(const QString &value, const QString &field, QSet<QString> &taken, const QSet<QString> &caseVars)
    {
        if (value.isEmpty())
            return;
        if (!isIdentifier(value))
            errors.append(QStringLiteral("%1: '%2' is not an identifier").arg(field, value));
        else if (isReserved(value))
            errors.append(QStringLiteral("%1: '%2' is a reserved name").arg(field, value));
        else if (caseVars.contains(value))
            errors.append(QStringLiteral("%1: '%2' is also a case variable of the problem").arg(field, value));
        else if (taken.contains(value))
            errors.append(QStringLiteral("%1: '%2' is used twice").arg(field, value));
        taken.insert(value);
    }
};

Tunable readTunable(Checker &c, const QJsonValue &value, int i, QSet<QString> &taken, const QSet<QString> &caseVars)
{
    const QString where = QStringLiteral("tunables[%1].").arg(i);
    Tunable t;
    const QJsonObject o = value.toObject();
    if (!value.isObject()) {
        c.errors.append(QStringLiteral("tunables[%1]: expected an object").arg(i));
        return t;
    }
    c.unknownFields(o, where,
        {QStringLiteral("name"), QStringLiteral("values"), QStringLiteral("default"), QStringLiteral("note")});
    t.name = c.text(o, QStringLiteral("name"), where);
    c.name(t.name, where + QStringLiteral("name"), taken, caseVars);
    t.note = c.text(o, QStringLiteral("note"), where);
    const QJsonArray values = o.value(QStringLiteral("values")).toArray();
    if (values.isEmpty())
        c.errors.append(where + QStringLiteral("values: expected a non-empty array of integers"));
    if (values.size() > kMaxTunableValues) {
        c.errors.append(QStringLiteral("%1values: %2 values; a tunable takes at most %3")
                            .arg(where)
                            .arg(values.size())
                            .arg(kMaxTunableValues));
        return t;
    }
    for (int k = 0; k < values.size(); ++k) {
        if (!isInteger(values[k])) {
            c.errors.append(QStringLiteral("%1values[%2]: expected an integer").arg(where).arg(k));
            continue;
        }
        if (std::abs(values[k].toDouble()) > kMaxTunableMagnitude) {
            c.errors.append(QStringLiteral("%1values[%2]: %3 is beyond ±2^53, where integers stop being exact")
                                .arg(where)
                                .arg(k)
                                .arg(QString::number(values[k].toDouble(), 'g', 17)));
            continue;
        }
        const qint64 v = qint64(values[k].toDouble());
        if (t.values.contains(v))
            c.errors.append(QStringLiteral("%1values[%2]: %3 appears twice").arg(where).arg(k).arg(v));
        t.values.append(v);
    }
    if (!isInteger(o.value(QStringLiteral("default")))
        || std::abs(o.value(QStringLiteral("default")).toDouble()) > kMaxTunableMagnitude) {
        c.errors.append(where + QStringLiteral("default: expected an integer"));
    } else {
        t.defaultValue = qint64(o.value(QStringLiteral("default")).toDouble());
        if (!values.isEmpty() && !t.values.contains(t.defaultValue))
            c.errors.append(QStringLiteral("%1default: %2 is not one of its values").arg(where).arg(t.defaultValue));
    }
    return t;
}

void readShared(Checker &c, const QJsonObject &problem, KernelFamily &f, QSet<QString> &caseVars)
{
    if (problem.value(QStringLiteral("format")).toString() != QLatin1StringView("gpuf-problem/1"))
        c.errors.append(QStringLiteral("problem: expected a gpuf-problem/1 object"));
    f.referenceVariant = problem.value(QStringLiteral("reference")).toString();
    for (const char *key : {"buffers", "cases", "tolerance", "bytes_moved", "flops"}) {
        const QString name = QString::fromLatin1(key);
        if (problem.contains(name))
            f.problemSpec.insert(name, problem.value(name));
    }
    for (const QJsonValue cs : problem.value(QStringLiteral("cases")).toArray()) {
        const QJsonObject vars = cs.toObject().value(QStringLiteral("vars")).toObject();
        for (auto it = vars.begin(); it != vars.end(); ++it)
            caseVars.insert(it.key());
    }
}

// Only what decides the kernels goes into the hash: notes, titles and defaults may be edited without making the
// recorded sweeps of the family foreign to it.
QString decisiveHash(const QJsonObject &json, const KernelFamily &f)
{
    QJsonObject decisive;
    for (const char *key : {"problem", "options", "derived", "constraints", "launches"})
        decisive.insert(QString::fromLatin1(key), json.value(QString::fromLatin1(key)));
    QJsonArray tunableValues;
    for (const Tunable &t : f.tunables) {
        QJsonArray values;
        for (qint64 v : t.values)
            values.append(v);
        tunableValues.append(QJsonObject {{QStringLiteral("name"), t.name}, {QStringLiteral("values"), values}});
    }
    decisive.insert(QStringLiteral("tunables"), tunableValues);
    QByteArray material = QJsonDocument(decisive).toJson(QJsonDocument::Compact);
    material += '\n';
    material += f.source.toUtf8();
    return QString::fromLatin1(QCryptographicHash::hash(material, QCryptographicHash::Sha256).toHex());
}

// The whole space is enumerated (validConfigurations, sweep plans): its size is bounded before anything counts it.
void checkSpaceSize(Checker &c, const KernelFamily &f)
{
    qint64 size = 1;
    for (const Tunable &t : f.tunables) {
        if (t.values.isEmpty())
            return;
        size *= t.values.size();
        if (size > kMaxConfigurations) {
            c.errors.append(QStringLiteral("tunables: the values span more than %1 configurations (up to '%2'); a "
                                           "family may span at most that many")
                                .arg(kMaxConfigurations)
                                .arg(t.name));
            return;
        }
    }
}

// A derived value may name the tunables, the cases' variables and the derived values before it: a later one is not
// known yet when it is computed (it read as 0).
void checkDerivedNames(Checker &c, const Derived &d, const QString &where, const QSet<QString> &known)
{
    static const QRegularExpression identifier(QStringLiteral("\\b([A-Za-z_][A-Za-z0-9_]*)\\b(\\s*\\()?"));
    for (auto it = identifier.globalMatch(d.expression); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        if (!m.captured(2).isEmpty() || known.contains(m.captured(1)))
            continue; // a function, or a name already defined
        c.errors.append(QStringLiteral("%1value: '%2' names '%3', which is not a tunable, a case variable or a derived "
                                       "value defined before it")
                            .arg(where, d.expression, m.captured(1)));
    }
}

// Every launch calls a kernel the source defines.
void checkLaunchEntries(Checker &c, const KernelFamily &f)
{
    for (int i = 0; i < f.launches.size(); ++i) {
        const QString entry = f.launches[i].toObject().value(QStringLiteral("entry")).toString();
        if (entry.isEmpty())
            continue;
        const QRegularExpression call(QStringLiteral("\\b%1\\s*\\(").arg(QRegularExpression::escape(entry)));
        if (!f.source.contains(call))
            c.errors.append(QStringLiteral("launches[%1].entry: the source defines no kernel '%2'").arg(i).arg(entry));
    }
}

} // namespace

Result<KernelFamily> parseFamily(const QJsonObject &json, const QString &source, const QJsonObject &problem)
{
    Checker c;
    KernelFamily f;
    if (json.value(QStringLiteral("format")).toString() != kFamilyFormat)
        return Error {QStringLiteral("format: expected \"%1\"").arg(kFamilyFormat)};
    c.unknownFields(json, QString(),
        {QStringLiteral("format"), QStringLiteral("name"), QStringLiteral("title"), QStringLiteral("problem"),
            QStringLiteral("description"), QStringLiteral("source_file"), QStringLiteral("options"),
            QStringLiteral("tunables"), QStringLiteral("derived"), QStringLiteral("constraints"),
            QStringLiteral("launches")});
    f.name = c.text(json, QStringLiteral("name"), QString());
    if (!f.name.isEmpty() && !isIdentifier(f.name))
        c.errors.append(QStringLiteral("name: '%1' is not an identifier").arg(f.name));
    f.title = c.text(json, QStringLiteral("title"), QString());
    f.problem = c.text(json, QStringLiteral("problem"), QString());
    f.description = c.text(json, QStringLiteral("description"), QString());
    f.source = source;
    if (source.trimmed().isEmpty())
        c.errors.append(QStringLiteral("source_file: the source is empty"));
    const QJsonValue options = json.value(QStringLiteral("options"));
    if (!options.isUndefined()) {
        for (const QJsonValue o : options.toArray()) {
            if (!o.isString())
                c.errors.append(QStringLiteral("options: expected an array of strings"));
        }
        f.options = options.toArray();
    }
    QSet<QString> caseVars;
    readShared(c, problem, f, caseVars);

    QSet<QString> taken;
    const QJsonArray tunables = json.value(QStringLiteral("tunables")).toArray();
    if (tunables.isEmpty())
        c.errors.append(QStringLiteral("tunables: expected a non-empty array"));
    for (int i = 0; i < tunables.size(); ++i)
        f.tunables.append(readTunable(c, tunables[i], i, taken, caseVars));
    checkSpaceSize(c, f);
    const QJsonArray derived = json.value(QStringLiteral("derived")).toArray();
    QSet<QString> known = caseVars;
    for (const Tunable &t : std::as_const(f.tunables))
        known.insert(t.name);
    for (int i = 0; i < derived.size(); ++i) {
        const QString where = QStringLiteral("derived[%1].").arg(i);
        const QJsonObject o = derived[i].toObject();
        c.unknownFields(o, where, {QStringLiteral("name"), QStringLiteral("value")});
        Derived d {c.text(o, QStringLiteral("name"), where), c.text(o, QStringLiteral("value"), where)};
        c.name(d.name, where + QStringLiteral("name"), taken, caseVars);
        checkDerivedNames(c, d, where, known);
        known.insert(d.name);
        f.derived.append(d);
    }
    const QJsonArray constraints = json.value(QStringLiteral("constraints")).toArray();
    for (int i = 0; i < constraints.size(); ++i) {
        const QString where = QStringLiteral("constraints[%1].").arg(i);
        const QJsonObject o = constraints[i].toObject();
        c.unknownFields(o, where, {QStringLiteral("expr"), QStringLiteral("why")});
        f.constraints.append(
            Constraint {c.text(o, QStringLiteral("expr"), where), c.text(o, QStringLiteral("why"), where)});
    }
    f.launches = json.value(QStringLiteral("launches")).toArray();
    if (f.launches.isEmpty())
        c.errors.append(QStringLiteral("launches: expected a non-empty array"));
    checkLaunchEntries(c, f);
    if (!c.errors.isEmpty())
        return Error {c.errors.join(QStringLiteral("; "))};

    // Expressions that cannot be evaluated at all (a typo, an unknown name) are the family's error, not a property
    // of some configurations: check them on the default configuration.
    QString reason;
    const Configuration defaults = defaultConfiguration(f);
    if (!satisfiesConstraints(f, defaults, &reason) && !reason.contains(QLatin1StringView("does not hold")))
        return Error {reason};
    f.contentHash = decisiveHash(json, f);
    return f;
}

} // namespace gpuf::families
