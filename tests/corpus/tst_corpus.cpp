// Checks the shipped kernel corpus (resources/corpus) for internal consistency without a GPU.
#include "gpuf_config.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

constexpr int kMinOperations = 12;
constexpr int kMinVariants = 10;
constexpr int kMinCases = 2;

QString corpusDir() { return QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"); }

QJsonObject readJson(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open %1").arg(path);
        return {};
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("%1: %2").arg(path, parseError.errorString());
        return {};
    }
    return doc.object();
}

QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        return {};
    }
    return QString::fromUtf8(file.readAll());
}

QStringList operations() { return QDir(corpusDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name); }

// Identifiers an expression refers to, with numeric literals (including exponents such as 1e-5) removed first.
QSet<QString> identifiersOf(const QString &expression)
{
    static const QRegularExpression number(QStringLiteral("\\b\\d+(\\.\\d*)?([eE][+-]?\\d+)?|\\.\\d+([eE][+-]?\\d+)?"));
    static const QRegularExpression identifier(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"));
    QString stripped = expression;
    stripped.replace(number, QStringLiteral(" "));
    QSet<QString> names;
    for (auto it = identifier.globalMatch(stripped); it.hasNext();) {
        names.insert(it.next().captured(0));
    }
    return names;
}

// Empty when every identifier in the expression is a case variable or an allowed function.
QString unknownNames(const QString &expression, const QSet<QString> &variables)
{
    static const QSet<QString> functions {QStringLiteral("ceil_div"), QStringLiteral("min"), QStringLiteral("max")};
    QStringList unknown;
    for (const QString &name : identifiersOf(expression)) {
        if (!variables.contains(name) && !functions.contains(name)) {
            unknown << name;
        }
    }
    return unknown.join(QStringLiteral(", "));
}

struct Parameter
{
    bool pointer = false;
    QString dtype; // for scalars: i32 / i64 / f32 / f64, or empty when the C type is not one of those
};

// Parameter list of `extern "C" __global__ ... entry(` in the source; nullopt when no such definition exists.
std::optional<QList<Parameter>> kernelParameters(const QString &source, const QString &entry)
{
    const QRegularExpression head(
        QStringLiteral("extern\\s+\"C\"\\s+__global__\\s[^;{}]*?\\b%1\\s*\\(").arg(QRegularExpression::escape(entry)));
    const QRegularExpressionMatch match = head.match(source);
    if (!match.hasMatch()) {
        return std::nullopt;
    }
    int depth = 1;
    int pos = match.capturedEnd();
    const int begin = pos;
    for (; pos < source.size() && depth > 0; ++pos) {
        if (source[pos] == QLatin1Char('(')) {
            ++depth;
        } else if (source[pos] == QLatin1Char(')')) {
            --depth;
        }
    }
    const QString list = source.mid(begin, pos - begin - 1).simplified();
    QList<Parameter> params;
    if (list.isEmpty() || list == QStringLiteral("void")) {
        return params;
    }
    static const QRegularExpression space(QStringLiteral("\\s+"));
    for (const QString &raw : list.split(QLatin1Char(','))) {
        Parameter p;
        p.pointer = raw.contains(QLatin1Char('*'));
        QStringList words = raw.simplified().split(space);
        words.removeLast(); // the parameter name
        words.removeAll(QStringLiteral("const"));
        const QString type = words.join(QLatin1Char(' '));
        if (type == QStringLiteral("int")) {
            p.dtype = QStringLiteral("i32");
        } else if (type == QStringLiteral("long long") || type == QStringLiteral("int64_t")) {
            p.dtype = QStringLiteral("i64");
        } else if (type == QStringLiteral("float")) {
            p.dtype = QStringLiteral("f32");
        } else if (type == QStringLiteral("double")) {
            p.dtype = QStringLiteral("f64");
        }
        params << p;
    }
    return params;
}

struct Problem
{
    QJsonObject problem;
    QJsonArray variants;
    QSet<QString> variables; // defined by every case
    QSet<QString> buffers;
};

Problem loadProblem(const QString &op)
{
    Problem p;
    QString error;
    p.problem = readJson(corpusDir() + QStringLiteral("/%1/problem.json").arg(op), &error);
    if (!error.isEmpty()) {
        qWarning("%s", qPrintable(error));
    }
    p.variants = readJson(corpusDir() + QStringLiteral("/%1/variants.json").arg(op), &error)
                     .value(QStringLiteral("variants"))
                     .toArray();
    const QJsonArray cases = p.problem.value(QStringLiteral("cases")).toArray();
    for (int i = 0; i < cases.size(); ++i) {
        QSet<QString> names;
        const QJsonObject vars = cases[i].toObject().value(QStringLiteral("vars")).toObject();
        for (auto it = vars.begin(); it != vars.end(); ++it) {
            names.insert(it.key());
        }
        p.variables = i == 0 ? names : p.variables.intersect(names);
    }
    for (const QJsonValue &b : p.problem.value(QStringLiteral("buffers")).toArray()) {
        p.buffers.insert(b.toObject().value(QStringLiteral("name")).toString());
    }
    return p;
}

QJsonObject findVariant(const QJsonArray &variants, const QString &name)
{
    for (const QJsonValue &v : variants) {
        if (v.toObject().value(QStringLiteral("name")).toString() == name) {
            return v.toObject();
        }
    }
    return {};
}

} // namespace

class TestCorpus : public QObject
{
    Q_OBJECT

private:
    // Checks one launch of a variant against its kernel source; returns the first problem found, or empty.
    static QString checkLaunch(const QJsonObject &launch, const QString &source, const Problem &p)
    {
        const QString entry = launch.value(QStringLiteral("entry")).toString();
        const auto params = kernelParameters(source, entry);
        if (!params) {
            return QStringLiteral("no extern \"C\" __global__ definition of %1").arg(entry);
        }
        for (const QString &key : {QStringLiteral("grid"), QStringLiteral("block")}) {
            const QJsonArray dims = launch.value(key).toArray();
            if (dims.size() != 3) {
                return QStringLiteral("%1 of %2 needs 3 expressions").arg(key, entry);
            }
            for (const QJsonValue &d : dims) {
                if (!d.isString() || !unknownNames(d.toString(), p.variables).isEmpty()) {
                    return QStringLiteral("%1 of %2: bad expression '%3'").arg(key, entry, d.toString());
                }
            }
        }
        if (!launch.value(QStringLiteral("shared_bytes")).isString()
            || !unknownNames(launch.value(QStringLiteral("shared_bytes")).toString(), p.variables).isEmpty()) {
            return QStringLiteral("shared_bytes of %1 is missing or names unknown variables").arg(entry);
        }
        const QJsonArray args = launch.value(QStringLiteral("args")).toArray();
        if (args.size() != params->size()) {
            return QStringLiteral("%1 takes %2 parameters, launch passes %3")
                .arg(entry)
                .arg(params->size())
                .arg(args.size());
        }
        for (int i = 0; i < args.size(); ++i) {
            const QJsonObject arg = args[i].toObject();
            const Parameter &param = params->at(i);
            if (arg.contains(QStringLiteral("buffer"))) {
                if (!param.pointer || !p.buffers.contains(arg.value(QStringLiteral("buffer")).toString())) {
                    return QStringLiteral("%1 argument %2: unknown buffer or not a pointer parameter")
                        .arg(entry)
                        .arg(i);
                }
            } else {
                const QString expr = arg.value(QStringLiteral("scalar")).toString();
                const QString unknown = unknownNames(expr, p.variables);
                if (param.pointer || expr.isEmpty() || !unknown.isEmpty()
                    || arg.value(QStringLiteral("dtype")).toString() != param.dtype) {
                    return QStringLiteral("%1 argument %2: scalar '%3' (dtype %4) does not fit the parameter")
                        .arg(entry)
                        .arg(i)
                        .arg(expr, arg.value(QStringLiteral("dtype")).toString());
                }
            }
        }
        return {};
    }

private Q_SLOTS:
    void corpusIsLargeEnough()
    {
        const QStringList ops = operations();
        QVERIFY2(ops.size() >= kMinOperations, qPrintable(QStringLiteral("only %1 operations").arg(ops.size())));
        for (const QString &op : ops) {
            const Problem p = loadProblem(op);
            QVERIFY2(p.variants.size() >= kMinVariants, qPrintable(op));
            QVERIFY2(p.problem.value(QStringLiteral("cases")).toArray().size() >= kMinCases, qPrintable(op));
        }
    }

    void problemIsComplete_data()
    {
        QTest::addColumn<QString>("op");
        for (const QString &op : operations()) {
            QTest::newRow(qPrintable(op)) << op;
        }
    }
    void problemIsComplete()
    {
        QFETCH(QString, op);
        const Problem p = loadProblem(op);
        const QJsonObject &pr = p.problem;
        QCOMPARE(pr.value(QStringLiteral("format")).toString(), QStringLiteral("gpuf-problem/1"));
        QCOMPARE(pr.value(QStringLiteral("name")).toString(), op);
        for (const QString &key : {QStringLiteral("family"), QStringLiteral("description"), QStringLiteral("reference"),
                 QStringLiteral("bytes_moved"), QStringLiteral("flops")}) {
            QVERIFY2(!pr.value(key).toString().isEmpty(), qPrintable(key));
        }
        QVERIFY(unknownNames(pr.value(QStringLiteral("bytes_moved")).toString(), p.variables).isEmpty());
        QVERIFY(unknownNames(pr.value(QStringLiteral("flops")).toString(), p.variables).isEmpty());
        const QJsonObject tol = pr.value(QStringLiteral("tolerance")).toObject();
        QVERIFY(tol.value(QStringLiteral("rtol")).isDouble() && tol.value(QStringLiteral("rtol")).toDouble() >= 0.0);
        QVERIFY(tol.value(QStringLiteral("atol")).isDouble() && tol.value(QStringLiteral("atol")).toDouble() >= 0.0);

        const QSet<QString> roles {QStringLiteral("input"), QStringLiteral("output"), QStringLiteral("inout")};
        const QSet<QString> dtypes {QStringLiteral("f32"), QStringLiteral("f16"), QStringLiteral("bf16"),
            QStringLiteral("i32"), QStringLiteral("i64"), QStringLiteral("u8")};
        int compared = 0;
        for (const QJsonValue &v : pr.value(QStringLiteral("buffers")).toArray()) {
            const QJsonObject b = v.toObject();
            const QString role = b.value(QStringLiteral("role")).toString();
            QVERIFY2(roles.contains(role), qPrintable(role));
            QVERIFY(dtypes.contains(b.value(QStringLiteral("dtype")).toString()));
            QVERIFY(unknownNames(b.value(QStringLiteral("count")).toString(), p.variables).isEmpty());
            QCOMPARE(b.contains(QStringLiteral("init")), role != QStringLiteral("output"));
            compared += role != QStringLiteral("input") ? 1 : 0;
        }
        QCOMPARE(p.buffers.size(), pr.value(QStringLiteral("buffers")).toArray().size()); // names are unique
        QVERIFY2(compared > 0, "a problem needs an output or inout buffer to compare");

        QSet<QString> caseNames;
        for (const QJsonValue &c : pr.value(QStringLiteral("cases")).toArray()) {
            caseNames.insert(c.toObject().value(QStringLiteral("name")).toString());
            QVERIFY(!c.toObject().value(QStringLiteral("vars")).toObject().isEmpty());
        }
        QCOMPARE(caseNames.size(), pr.value(QStringLiteral("cases")).toArray().size());
    }

    void variantIsConsistent_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("variant");
        for (const QString &op : operations()) {
            for (const QJsonValue &v : loadProblem(op).variants) {
                const QString name = v.toObject().value(QStringLiteral("name")).toString();
                QTest::newRow(qPrintable(op + QLatin1Char('/') + name)) << op << name;
            }
        }
    }
    void variantIsConsistent()
    {
        QFETCH(QString, op);
        QFETCH(QString, variant);
        const Problem p = loadProblem(op);
        const QJsonObject v = findVariant(p.variants, variant);
        const QString file = v.value(QStringLiteral("source_file")).toString();
        QVERIFY2(!file.isEmpty() && !file.contains(QLatin1Char('/')), qPrintable(file));
        const QString source = readText(corpusDir() + QStringLiteral("/%1/%2").arg(op, file));
        QVERIFY2(!source.isEmpty(), qPrintable(QStringLiteral("missing or empty source %1").arg(file)));
        QVERIFY2(v.value(QStringLiteral("note")).toString().size() >= 120, "teaching note too short");
        const QJsonArray launches = v.value(QStringLiteral("launches")).toArray();
        QVERIFY(!launches.isEmpty());
        for (const QJsonValue &l : launches) {
            const QString problem = checkLaunch(l.toObject(), source, p);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }

    void lineageIsATree_data() { problemIsComplete_data(); }
    void lineageIsATree()
    {
        QFETCH(QString, op);
        const Problem p = loadProblem(op);
        const QString reference = p.problem.value(QStringLiteral("reference")).toString();
        QSet<QString> names;
        for (const QJsonValue &v : p.variants) {
            names.insert(v.toObject().value(QStringLiteral("name")).toString());
        }
        QCOMPARE(names.size(), p.variants.size());
        QVERIFY2(names.contains(reference), qPrintable(reference));
        QVERIFY(findVariant(p.variants, reference).value(QStringLiteral("parent")).isNull());
        // Every variant reaches the reference through existing parents, without a cycle.
        for (const QString &start : names) {
            QString at = start;
            int steps = 0;
            while (at != reference) {
                const QJsonValue parent = findVariant(p.variants, at).value(QStringLiteral("parent"));
                QVERIFY2(parent.isString() && names.contains(parent.toString()),
                    qPrintable(QStringLiteral("%1 has no valid parent").arg(at)));
                at = parent.toString();
                QVERIFY2(++steps <= names.size(), qPrintable(QStringLiteral("cycle through %1").arg(start)));
            }
        }
    }

    void everySourceIsUsed_data() { problemIsComplete_data(); }
    void everySourceIsUsed()
    {
        QFETCH(QString, op);
        const Problem p = loadProblem(op);
        QSet<QString> used;
        for (const QJsonValue &v : p.variants) {
            used.insert(v.toObject().value(QStringLiteral("source_file")).toString());
        }
        const QStringList files = QDir(corpusDir() + QLatin1Char('/') + op).entryList({QStringLiteral("*.cu")});
        QCOMPARE(QSet<QString>(files.begin(), files.end()), used);
    }

    // The signature parser must reject what it should, or the checks above prove nothing.
    void signatureParser_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("entry");
        QTest::addColumn<int>("count");
        QTest::newRow("plain") << QStringLiteral("extern \"C\" __global__ void k(const float* a, int n) {}")
                               << QStringLiteral("k") << 2;
        QTest::newRow("launch bounds") << QStringLiteral(
            "extern \"C\" __global__ void __launch_bounds__(256) k(float* a, float* b, float s) {}")
                                       << QStringLiteral("k") << 3;
        QTest::newRow("not extern C") << QStringLiteral("__global__ void k(float* a) {}") << QStringLiteral("k") << -1;
        QTest::newRow("other name") << QStringLiteral("extern \"C\" __global__ void kk(float* a) {}")
                                    << QStringLiteral("k") << -1;
        QTest::newRow("no parameters") << QStringLiteral("extern \"C\" __global__ void k() {}") << QStringLiteral("k")
                                       << 0;
    }
    void signatureParser()
    {
        QFETCH(QString, source);
        QFETCH(QString, entry);
        QFETCH(int, count);
        const auto params = kernelParameters(source, entry);
        QCOMPARE(params ? int(params->size()) : -1, count);
    }

    void expressionNames()
    {
        const QSet<QString> vars {QStringLiteral("rows"), QStringLiteral("cols")};
        QVERIFY(unknownNames(QStringLiteral("ceil_div(rows, 8) * max(cols, 1e-5)"), vars).isEmpty());
        QCOMPARE(unknownNames(QStringLiteral("ceil_div(n, 256)"), vars), QStringLiteral("n"));
    }
};

QTEST_GUILESS_MAIN(TestCorpus)
#include "tst_corpus.moc"
