// Kernel families; see kernel_family.h.
#include "core/mutators/kernel_family.h"

#include "core/gpu/kernel_spec.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QMutex>
#include <QRegularExpression>
#include <QSet>

#include <muParser.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <random>

namespace gpuf::families {
namespace {

double modulo(double a, double b)
{
    if (b == 0.0)
        throw mu::Parser::exception_type(std::string("mod: division by zero"));
    return std::fmod(a, b);
}

double ceilDiv(double a, double b)
{
    if (b == 0.0)
        throw mu::Parser::exception_type(std::string("ceil_div: division by zero"));
    return std::ceil(a / b);
}

// muparser over a family's tunables and derived values. Variables are bound by address, so they live in a map whose
// nodes never move; every name is defined before any expression is evaluated.
class Evaluator
{
public:
    explicit Evaluator(const QStringList &names)
    {
        m_parser.DefineFun("mod", modulo);
        m_parser.DefineFun("ceil_div", ceilDiv);
        for (const QString &name : names) {
            double &slot = m_vars[name.toStdString()];
            m_parser.DefineVar(name.toStdString(), &slot);
        }
    }
    void set(const QString &name, double value) { m_vars[name.toStdString()] = value; }
    Result<double> evaluate(const QString &expression)
    {
        try {
            m_parser.SetExpr(expression.toStdString());
            const double value = m_parser.Eval();
            if (!std::isfinite(value))
                return Error {QStringLiteral("'%1' is not finite").arg(expression)};
            return value;
        } catch (const mu::Parser::exception_type &e) {
            if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN)
                return Error {
                    QStringLiteral("unknown name '%1' in '%2'").arg(QString::fromStdString(e.GetToken()), expression)};
            return Error {QStringLiteral("%1 in '%2'").arg(QString::fromStdString(e.GetMsg()), expression)};
        }
    }

private:
    std::map<std::string, double> m_vars;
    mu::Parser m_parser;
};

QStringList allNames(const KernelFamily &family)
{
    QStringList names;
    for (const Tunable &t : family.tunables)
        names.append(t.name);
    for (const Derived &d : family.derived)
        names.append(d.name);
    return names;
}

// The tunables' and derived values of one configuration, in declaration order; an error names the derived value that
// cannot be computed or is not an integer, or the constraint that fails.
struct Values
{
    QList<QPair<QString, qint64>> named;
    QString failure;
};

Values evaluateValues(const KernelFamily &family, const Configuration &configuration, bool checkConstraints)
{
    Values out;
    Evaluator eval(allNames(family));
    for (int i = 0; i < family.tunables.size(); ++i) {
        eval.set(family.tunables[i].name, double(configuration.value(i)));
        out.named.append({family.tunables[i].name, configuration.value(i)});
    }
    for (const Derived &d : family.derived) {
        auto value = eval.evaluate(d.expression);
        if (!value) {
            out.failure = QStringLiteral("%1: %2").arg(d.name, value.error());
            return out;
        }
        if (*value != std::floor(*value) || std::fabs(*value) > 9.0e15) {
            out.failure = QStringLiteral("%1 = %2 is not an integer").arg(d.name).arg(*value);
            return out;
        }
        eval.set(d.name, *value);
        out.named.append({d.name, qint64(*value)});
    }
    if (!checkConstraints)
        return out;
    for (const Constraint &c : family.constraints) {
        auto value = eval.evaluate(c.expression);
        if (!value) {
            out.failure = value.error();
            return out;
        }
        if (*value == 0.0) {
            out.failure = QStringLiteral("'%1' does not hold (%2)").arg(c.expression, c.why);
            return out;
        }
    }
    return out;
}

// Replaces every identifier that names a tunable or derived value by its number; case variables and functions stay.
QString substitute(const QString &expression, const QHash<QString, qint64> &values)
{
    static const QRegularExpression identifier(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"));
    QString out;
    qsizetype last = 0;
    auto it = identifier.globalMatch(expression);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const auto found = values.constFind(m.captured());
        if (found == values.constEnd())
            continue;
        out += QStringView(expression).mid(last, m.capturedStart() - last);
        out += QString::number(found.value());
        last = m.capturedEnd();
    }
    out += QStringView(expression).mid(last);
    return out;
}

QJsonValue substituteValue(const QJsonValue &value, const QHash<QString, qint64> &values)
{
    if (value.isString())
        return substitute(value.toString(), values);
    if (value.isArray()) {
        QJsonArray out;
        for (const auto &v : value.toArray())
            out.append(substituteValue(v, values));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            // Buffer names and dtypes are names, not expressions.
            if (it.key() == QLatin1StringView("buffer") || it.key() == QLatin1StringView("dtype")
                || it.key() == QLatin1StringView("entry"))
                out.insert(it.key(), it.value());
            else
                out.insert(it.key(), substituteValue(it.value(), values));
        }
        return out;
    }
    return value;
}

Result<QJsonObject> readObject(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("%1: cannot read (%2)").arg(path, file.errorString())};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error {
            QStringLiteral("%1: offset %2: %3").arg(path).arg(parseError.offset).arg(parseError.errorString())};
    if (!doc.isObject())
        return Error {QStringLiteral("%1: expected a JSON object").arg(path)};
    return doc.object();
}

} // namespace

QStringList validateKernelSpec(const QJsonObject &spec)
{
    const QByteArray text = QJsonDocument(spec).toJson(QJsonDocument::Compact);
    const nlohmann::json json = nlohmann::json::parse(text.constData(), text.constData() + text.size());
    auto parsed = gpu::parseKernelSpec(json);
    QStringList errors;
    if (const auto *e = std::get_if<gpu::SpecErrors>(&parsed)) {
        for (const std::string &m : e->errors)
            errors.append(QString::fromStdString(m));
    }
    return errors;
}

int KernelFamily::tunableIndex(const QString &tunableName) const
{
    for (int i = 0; i < tunables.size(); ++i) {
        if (tunables[i].name == tunableName)
            return i;
    }
    return -1;
}

qint64 KernelFamily::spaceSize() const
{
    qint64 size = 1;
    for (const Tunable &t : tunables)
        size *= t.values.size();
    return size;
}

Result<KernelFamily> loadFamily(const QString &familyFile, const QString &corpusDir)
{
    auto json = readObject(familyFile);
    if (!json)
        return Error {json.error()};
    const QString sourceFile = json->value(QStringLiteral("source_file")).toString();
    if (sourceFile.isEmpty() || sourceFile.contains(QLatin1Char('/')))
        return Error {QStringLiteral("%1: field 'source_file': expected the name of a file beside it").arg(familyFile)};
    QFile source(QFileInfo(familyFile).dir().filePath(sourceFile));
    if (!source.open(QIODevice::ReadOnly))
        return Error {QStringLiteral("%1: field 'source_file': cannot read %2 (%3)")
                          .arg(familyFile, source.fileName(), source.errorString())};
    const QString text = QString::fromUtf8(source.readAll());
    const QString problemName = json->value(QStringLiteral("problem")).toString();
    if (problemName.isEmpty() || !isIdentifier(problemName))
        return Error {QStringLiteral("%1: field 'problem': expected the name of a corpus operation").arg(familyFile)};
    auto problem = readObject(QDir(corpusDir).filePath(problemName + QStringLiteral("/problem.json")));
    if (!problem)
        return Error {QStringLiteral("%1: field 'problem': %2").arg(familyFile, problem.error())};
    auto family = parseFamily(*json, text, *problem);
    if (!family)
        return Error {QStringLiteral("%1: %2").arg(familyFile, family.error())};
    return family;
}

Result<QList<KernelFamily>> loadFamilies(const QString &dir, const QString &corpusDir)
{
    const QDir root(dir);
    if (!root.exists())
        return Error {QStringLiteral("%1: no such folder").arg(dir)};
    QList<KernelFamily> out;
    for (const QString &file : root.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        auto family = loadFamily(root.filePath(file), corpusDir);
        if (!family)
            return Error {family.error()};
        out.append(*family);
    }
    return out;
}

Configuration defaultConfiguration(const KernelFamily &family)
{
    Configuration c;
    for (const Tunable &t : family.tunables)
        c.append(t.defaultValue);
    return c;
}

QString configurationLabel(const KernelFamily &family, const Configuration &configuration)
{
    QStringList parts;
    for (int i = 0; i < family.tunables.size(); ++i)
        parts.append(QStringLiteral("%1=%2").arg(family.tunables[i].name).arg(configuration.value(i)));
    return parts.join(QLatin1Char(' '));
}

QJsonObject configurationJson(const KernelFamily &family, const Configuration &configuration)
{
    QJsonObject o;
    for (int i = 0; i < family.tunables.size(); ++i)
        o.insert(family.tunables[i].name, configuration.value(i));
    return o;
}

Result<Configuration> configurationFromJson(const KernelFamily &family, const QJsonObject &tunables)
{
    Configuration c;
    for (const Tunable &t : family.tunables) {
        const QJsonValue v = tunables.value(t.name);
        if (!v.isDouble() || v.toDouble() != std::floor(v.toDouble()))
            return Error {QStringLiteral("tunable '%1' of family '%2': expected an integer").arg(t.name, family.name)};
        const qint64 value = qint64(v.toDouble());
        if (!t.values.contains(value))
            return Error {QStringLiteral("tunable '%1' of family '%2': %3 is not one of its values")
                              .arg(t.name, family.name)
                              .arg(value)};
        c.append(value);
    }
    for (auto it = tunables.begin(); it != tunables.end(); ++it) {
        if (family.tunableIndex(it.key()) < 0)
            return Error {QStringLiteral("family '%1' has no tunable '%2'").arg(family.name, it.key())};
    }
    return c;
}

bool satisfiesConstraints(const KernelFamily &family, const Configuration &configuration, QString *reason)
{
    const Values values = evaluateValues(family, configuration, true);
    if (reason)
        *reason = values.failure;
    return values.failure.isEmpty();
}

Result<Expansion> expand(const KernelFamily &family, const Configuration &configuration)
{
    if (configuration.size() != family.tunables.size())
        return Error {QStringLiteral("family '%1': a configuration needs %2 values, got %3")
                          .arg(family.name)
                          .arg(family.tunables.size())
                          .arg(configuration.size())};
    const Values values = evaluateValues(family, configuration, true);
    const QString label = configurationLabel(family, configuration);
    if (!values.failure.isEmpty())
        return Error {QStringLiteral("family '%1', %2: %3").arg(family.name, label, values.failure)};
    QHash<QString, qint64> byName;
    QString header = QStringLiteral("// %1 (%2 configuration): %3\n").arg(family.name, kFamilyFormat, label);
    for (const auto &[name, value] : values.named) {
        byName.insert(name, value);
        header += QStringLiteral("#define %1 %2\n").arg(name).arg(value);
    }
    Expansion e;
    e.name = family.name + QLatin1Char(' ') + label;
    e.source = header + family.source;
    e.notes = family.description;
    QJsonObject spec = family.problemSpec;
    spec.insert(QStringLiteral("format"), QStringLiteral("gpuf-kernel/1"));
    spec.insert(QStringLiteral("name"), QString(family.problem + QLatin1Char('/') + e.name));
    spec.insert(QStringLiteral("language"), QStringLiteral("cuda"));
    spec.insert(QStringLiteral("launches"), substituteValue(family.launches, byName));
    if (!family.options.isEmpty())
        spec.insert(QStringLiteral("options"), family.options);
    spec.insert(QStringLiteral("source"), e.source);
    if (const QStringList errors = validateKernelSpec(spec); !errors.isEmpty())
        return Error {QStringLiteral("family '%1', %2: the expanded spec is not valid: %3")
                          .arg(family.name, label, errors.join(QStringLiteral("; ")))};
    e.spec = spec;
    QJsonObject withoutSource = spec;
    withoutSource.remove(QStringLiteral("source"));
    e.parameters = QJsonObject {{QStringLiteral("spec"), withoutSource}, {QStringLiteral("family"), family.name},
        {QStringLiteral("tunables"), configurationJson(family, configuration)}};
    return e;
}

namespace {

Result<QList<Configuration>> enumerateValid(const KernelFamily &family)
{
    QList<Configuration> valid;
    QStringList rejections;
    const qsizetype n = family.tunables.size();
    QList<qsizetype> index(n, 0);
    for (bool more = n > 0; more;) {
        Configuration c;
        for (qsizetype i = 0; i < n; ++i)
            c.append(family.tunables[i].values[index[i]]);
        QString reason;
        if (!satisfiesConstraints(family, c, &reason)) {
            if (rejections.size() < 3)
                rejections.append(configurationLabel(family, c) + QStringLiteral(": ") + reason);
        } else if (auto e = expand(family, c); !e) {
            if (rejections.size() < 3)
                rejections.append(e.error());
        } else {
            valid.append(c);
        }
        // Odometer: the last tunable moves fastest.
        more = false;
        for (qsizetype i = n - 1; i >= 0; --i) {
            if (++index[i] < family.tunables[i].values.size()) {
                more = true;
                break;
            }
            index[i] = 0;
        }
    }
    if (valid.isEmpty())
        return Error {QStringLiteral("family '%1' has no valid configuration: all %2 combinations break a constraint "
                                     "or give an invalid spec (%3)")
                          .arg(family.name)
                          .arg(family.spaceSize())
                          .arg(rejections.join(QStringLiteral("; ")))};
    return valid;
}

} // namespace

Result<QList<Configuration>> validConfigurations(const KernelFamily &family)
{
    // Checking every combination's spec for every case takes seconds for the larger families, and the answer depends
    // only on what the content hash covers: each family version is enumerated once per process (a comparison prepares
    // the same family for every one of its searches).
    static QMutex mutex;
    static QHash<QString, QList<Configuration>> cache;
    if (!family.contentHash.isEmpty()) {
        QMutexLocker lock(&mutex);
        if (auto it = cache.constFind(family.contentHash); it != cache.constEnd())
            return *it;
    }
    auto valid = enumerateValid(family);
    if (valid && !family.contentHash.isEmpty()) {
        QMutexLocker lock(&mutex);
        cache.insert(family.contentHash, *valid);
    }
    return valid;
}

Result<Configuration> configurationOfParameters(const KernelFamily &family, const QJsonObject &parameters)
{
    if (parameters.value(QStringLiteral("family")).toString() != family.name)
        return Error {QStringLiteral("not a kernel of family '%1'").arg(family.name)};
    return configurationFromJson(family, parameters.value(QStringLiteral("tunables")).toObject());
}

Result<Move> neighbour(
    const KernelFamily &family, const QList<Configuration> &valid, const Configuration &parent, quint64 seed)
{
    const QSet<Configuration> validSet(valid.begin(), valid.end());
    const QString label = configurationLabel(family, parent);
    if (!validSet.contains(parent))
        return Error {
            QStringLiteral("family '%1': the parent (%2) is not a valid configuration").arg(family.name, label)};
    QList<int> position;
    for (int i = 0; i < family.tunables.size(); ++i)
        position.append(int(family.tunables[i].values.indexOf(parent[i])));
    auto stepped = [&](Configuration c, int t, int delta) -> std::optional<Configuration> {
        const int to = position[t] + delta;
        if (to < 0 || to >= family.tunables[t].values.size())
            return std::nullopt;
        c[t] = family.tunables[t].values[to];
        return c;
    };
    QList<Move> single;
    QList<Move> pairs;
    const int n = int(family.tunables.size());
    for (int a = 0; a < n; ++a) {
        for (int da : {-1, 1}) {
            auto one = stepped(parent, a, da);
            if (!one)
                continue;
            if (validSet.contains(*one))
                single.append(Move {*one, {family.tunables[a].name}});
            for (int b = a + 1; b < n; ++b) {
                for (int db : {-1, 1}) {
                    auto two = stepped(*one, b, db);
                    if (two && validSet.contains(*two))
                        pairs.append(Move {*two, {family.tunables[a].name, family.tunables[b].name}});
                }
            }
        }
    }
    if (single.isEmpty() && pairs.isEmpty())
        return Error {QStringLiteral("family '%1': %2 has no valid neighbour").arg(family.name, label)};
    // std::mt19937_64's output is fixed by the standard; the distributions are not, so indices come from plain modulo.
    std::mt19937_64 rng(seed);
    const bool moveOne = pairs.isEmpty() || (!single.isEmpty() && (rng() & 1u) == 0);
    const QList<Move> &from = moveOne ? single : pairs;
    return from[qsizetype(rng() % quint64(from.size()))];
}

Configuration randomConfiguration(const QList<Configuration> &valid, quint64 seed)
{
    if (valid.isEmpty())
        return {};
    std::mt19937_64 rng(seed);
    return valid[qsizetype(rng() % quint64(valid.size()))];
}

QList<Configuration> sampleConfigurations(const QList<Configuration> &valid, int count, quint64 seed)
{
    QList<Configuration> out = valid;
    std::mt19937_64 rng(seed);
    for (qsizetype i = out.size() - 1; i > 0; --i)
        out.swapItemsAt(i, qsizetype(rng() % quint64(i + 1)));
    if (count > 0 && count < out.size())
        out.resize(count);
    return out;
}

} // namespace gpuf::families
