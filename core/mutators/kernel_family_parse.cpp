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
    for (int k = 0; k < values.size(); ++k) {
        if (!isInteger(values[k])) {
            c.errors.append(QStringLiteral("%1values[%2]: expected an integer").arg(where).arg(k));
            continue;
        }
        const qint64 v = qint64(values[k].toDouble());
        if (t.values.contains(v))
            c.errors.append(QStringLiteral("%1values[%2]: %3 appears twice").arg(where).arg(k).arg(v));
        t.values.append(v);
    }
    if (!isInteger(o.value(QStringLiteral("default")))) {
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
    for (const QJsonValue &cs : problem.value(QStringLiteral("cases")).toArray()) {
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
        for (const QJsonValue &o : options.toArray()) {
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
    const QJsonArray derived = json.value(QStringLiteral("derived")).toArray();
    for (int i = 0; i < derived.size(); ++i) {
        const QString where = QStringLiteral("derived[%1].").arg(i);
        const QJsonObject o = derived[i].toObject();
        c.unknownFields(o, where, {QStringLiteral("name"), QStringLiteral("value")});
        Derived d {c.text(o, QStringLiteral("name"), where), c.text(o, QStringLiteral("value"), where)};
        c.name(d.name, where + QStringLiteral("name"), taken, caseVars);
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
