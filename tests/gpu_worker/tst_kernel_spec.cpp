// Tests for core/gpu/kernel_spec: good specs parse, bad specs fail with errors naming the field, and the C++
// validator agrees with resources/schemas/gpuf-kernel-1.schema.json (checked with Python's jsonschema).
#include "core/gpu/kernel_spec.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace gpuf::gpu;

namespace {

QString specPath(const QString &name)
{
    return QStringLiteral(GPUF_WORKER_DATA_DIR "/specs/") + name + QStringLiteral(".json");
}

nlohmann::json readSpec(const QString &name)
{
    QFile f(specPath(name));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    return nlohmann::json::parse(f.readAll().toStdString());
}

QString joined(const std::vector<std::string> &errors)
{
    QStringList out;
    for (const auto &e : errors)
        out << QString::fromStdString(e);
    return out.join(QStringLiteral(" | "));
}

} // namespace

class TestKernelSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void minimalSpecParses()
    {
        auto parsed = parseKernelSpec(readSpec(QStringLiteral("good_minimal")));
        if (auto *e = std::get_if<SpecErrors>(&parsed))
            QFAIL(qPrintable(joined(e->errors)));
        const KernelSpec &spec = std::get<KernelSpec>(parsed);
        QCOMPARE(QString::fromStdString(spec.name), QStringLiteral("scale/v0"));
        QCOMPARE(spec.launches.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(spec.launches[0].grid[0]), QStringLiteral("ceil_div(n, 256)"));
        QCOMPARE(spec.launches[0].args.size(), std::size_t(4));
        QVERIFY(!spec.launches[0].args[2].isBuffer);
        QVERIFY(spec.launches[0].args[3].scalarType == ScalarType::F32);
        QVERIFY(spec.buffers[0].init.has_value());
        QCOMPARE(spec.buffers[0].init->seed, std::uint64_t(7));
        QVERIFY(spec.buffers[1].role == BufferRole::Output);
        QCOMPARE(spec.cases[1].vars.at("n"), 1048576.0);
        QCOMPARE(spec.rtol, 1e-5);
        QCOMPARE(QString::fromStdString(spec.bytesMoved), QStringLiteral("8*n"));

        ExpressionEvaluator eval(spec.cases[0].vars);
        auto g = evaluateGeometry(spec.launches[0], eval);
        QVERIFY(g.ok());
        QCOMPARE(g->grid[0], 4u);
        QCOMPARE(g->block[0], 256u);
    }

    void fullSpecParses()
    {
        auto parsed = parseKernelSpec(readSpec(QStringLiteral("good_full")));
        if (auto *e = std::get_if<SpecErrors>(&parsed))
            QFAIL(qPrintable(joined(e->errors)));
        const KernelSpec &spec = std::get<KernelSpec>(parsed);
        QCOMPARE(spec.buffers.size(), std::size_t(5));
        QVERIFY(spec.buffer("h")->dtype == Dtype::BF16);
        QVERIFY(spec.buffer("h")->init->kind == InitKind::Normal);
        QCOMPARE(spec.options.size(), std::size_t(1));
        QCOMPARE(spec.launches.size(), std::size_t(2));
    }

    void badSpecs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("field");
        QTest::newRow("format") << QStringLiteral("bad_format") << QStringLiteral("format: expected \"gpuf-kernel/1\"");
        QTest::newRow("missing source") << QStringLiteral("bad_missing_source")
                                        << QStringLiteral("source: required field is missing");
        QTest::newRow("grid number") << QStringLiteral("bad_grid_number")
                                     << QStringLiteral("launches[0].grid[0]: expected a string expression");
        QTest::newRow("grid of two") << QStringLiteral("bad_grid_two")
                                     << QStringLiteral("launches[0].grid: expected an array of 3");
        QTest::newRow("dtype") << QStringLiteral("bad_dtype") << QStringLiteral("buffers[0].dtype: expected one of");
        QTest::newRow("role") << QStringLiteral("bad_role") << QStringLiteral("buffers[1].role: expected one of");
        QTest::newRow("output with init") << QStringLiteral("bad_output_init") << QStringLiteral("buffers[1].init:");
        QTest::newRow("input without init")
            << QStringLiteral("bad_input_no_init") << QStringLiteral("buffers[0].init: required");
        QTest::newRow("init kind") << QStringLiteral("bad_init_kind") << QStringLiteral("buffers[0].init.kind:");
        QTest::newRow("negative seed") << QStringLiteral("bad_seed_negative")
                                       << QStringLiteral("buffers[0].init.seed:");
        QTest::newRow("unknown field") << QStringLiteral("bad_unknown_field")
                                       << QStringLiteral("launches[0].threads: unknown field");
        QTest::newRow("arg shape") << QStringLiteral("bad_arg_shape") << QStringLiteral("launches[0].args[2]:");
        QTest::newRow("negative rtol") << QStringLiteral("bad_tolerance_negative")
                                       << QStringLiteral("tolerance.rtol: must be >= 0");
        QTest::newRow("no cases") << QStringLiteral("bad_cases_empty")
                                  << QStringLiteral("cases: expected a non-empty array");
        QTest::newRow("string var") << QStringLiteral("bad_case_var_string")
                                    << QStringLiteral("cases[0].vars.n: expected a number");
        QTest::newRow("unknown variable")
            << QStringLiteral("bad_unknown_variable") << QStringLiteral("buffers[0].count: unknown variable 'rows'");
        QTest::newRow("no such buffer") << QStringLiteral("bad_no_such_buffer")
                                        << QStringLiteral("launches[0].args[0].buffer: no buffer named 'z'");
        QTest::newRow("negative grid") << QStringLiteral("bad_negative_grid")
                                       << QStringLiteral("(small): launches[0].grid[0]: 'n - 2000' is negative");
        QTest::newRow("fractional block") << QStringLiteral("bad_fraction_block")
                                          << QStringLiteral("launches[0].block[0]: 'n / 3' is not an integer");
        QTest::newRow("duplicate buffer")
            << QStringLiteral("bad_duplicate_buffer") << QStringLiteral("buffers[1].name: duplicate buffer name 'x'");
    }
    void badSpecs()
    {
        QFETCH(QString, file);
        QFETCH(QString, field);
        auto parsed = parseKernelSpec(readSpec(file));
        auto *errors = std::get_if<SpecErrors>(&parsed);
        QVERIFY2(errors, "a bad spec was accepted");
        const QString all = joined(errors->errors);
        QVERIFY2(all.contains(field), qPrintable(all));
    }

    // An entry is an extern "C" name, a C++ name or a template instantiation (NVRTC name expressions).
    void entryForms_data()
    {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("error"); // empty: accepted
        QTest::newRow("extern C") << QStringLiteral("scale") << QString();
        QTest::newRow("qualified") << QStringLiteral("kernels::scale") << QString();
        QTest::newRow("global namespace") << QStringLiteral("::scale") << QString();
        QTest::newRow("template") << QStringLiteral("sgemm_blocktiling<64, 64, 8, 8>") << QString();
        QTest::newRow("template with types") << QStringLiteral("ns::gemv<float, 4 * 32, (8)>") << QString();
        QTest::newRow("nested template") << QStringLiteral("k<Tile<2, 2>, 16>") << QString();
        QTest::newRow("empty") << QString() << QStringLiteral("must not be empty");
        QTest::newRow("spaces around") << QStringLiteral(" scale") << QStringLiteral("leading or trailing spaces");
        QTest::newRow("digit first") << QStringLiteral("1scale") << QStringLiteral("expected a kernel name");
        QTest::newRow("statement") << QStringLiteral("scale; int x")
                                   << QStringLiteral("expected a kernel name such as scale, ns::scale");
        QTest::newRow("unclosed") << QStringLiteral("sgemm<64, 8") << QStringLiteral("ends with '>'");
        QTest::newRow("extra >") << QStringLiteral("sgemm<64>>") << QStringLiteral("unbalanced");
        QTest::newRow("text after") << QStringLiteral("sgemm<64> x") << QStringLiteral("ends with '>'");
        QTest::newRow("brace") << QStringLiteral("k<{1}>") << QStringLiteral("character '{' cannot appear");
        QTest::newRow("quote") << QStringLiteral("k<\"a\">") << QStringLiteral("character '\"' cannot appear");
        QTest::newRow("no name") << QStringLiteral("<64>") << QStringLiteral("expected a kernel name before '<'");
    }
    void entryForms()
    {
        QFETCH(QString, entry);
        QFETCH(QString, error);
        const QString why = QString::fromStdString(entryError(entry.toStdString()));
        if (error.isEmpty())
            QVERIFY2(why.isEmpty(), qPrintable(why));
        else
            QVERIFY2(!why.isEmpty() && why.contains(error), qPrintable(why));
        // The launch's entry field reports the same reason under its path.
        nlohmann::json j = readSpec(QStringLiteral("good_minimal"));
        j["launches"][0]["entry"] = entry.toStdString();
        auto parsed = parseKernelSpec(j);
        if (why.isEmpty()) {
            QVERIFY(std::holds_alternative<KernelSpec>(parsed));
            QCOMPARE(QString::fromStdString(std::get<KernelSpec>(parsed).launches[0].entry), entry);
        } else {
            QVERIFY(std::holds_alternative<SpecErrors>(parsed));
            QVERIFY(joined(std::get<SpecErrors>(parsed).errors).contains(QStringLiteral("launches[0].entry: ") + why));
        }
        QCOMPARE(isPlainEntry(entry.toStdString()), entry == QLatin1StringView("scale"));
    }

    void compileSpecNeedsOnlySource()
    {
        nlohmann::json j = {{"format", "gpuf-kernel/1"}, {"name", "k"},
            {"source", "extern \"C\" __global__ void f(){}"}, {"launches", {{{"entry", "f"}}}}};
        auto parsed = parseCompileSpec(j);
        QVERIFY(std::holds_alternative<CompileSpec>(parsed));
        QCOMPARE(std::get<CompileSpec>(parsed).entries.size(), std::size_t(1));
        j.erase("source");
        auto bad = parseCompileSpec(j);
        QVERIFY(std::holds_alternative<SpecErrors>(bad));
        QVERIFY(joined(std::get<SpecErrors>(bad).errors).contains(QStringLiteral("source: required")));
    }

    // The schema is the documented contract: it must accept exactly the files the C++ validator accepts,
    // except the checks a schema cannot express (names that must resolve, expressions that must evaluate).
    void schemaAgreesWithValidator()
    {
        const QString script = QStringLiteral(
            "import json, sys\n"
            "try:\n    import jsonschema\nexcept ImportError:\n    print('NO_JSONSCHEMA'); sys.exit(0)\n"
            "schema = json.load(open(sys.argv[1]))\n"
            "jsonschema.Draft202012Validator.check_schema(schema)\n"
            "v = jsonschema.Draft202012Validator(schema)\n"
            "for path in sys.argv[2:]:\n    print(path, v.is_valid(json.load(open(path))))\n");
        const QStringList files = QDir(QStringLiteral(GPUF_WORKER_DATA_DIR "/specs"))
                                      .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 20);
        QStringList args {QStringLiteral("-c"), script, QStringLiteral(GPUF_SCHEMA_FILE)};
        for (const QString &f : files)
            args << specPath(QFileInfo(f).completeBaseName());
        QProcess python;
        python.start(QStringLiteral("python3"), args);
        if (!python.waitForStarted())
            QSKIP("python3 is not available to check the JSON Schema");
        QVERIFY(python.waitForFinished(60000));
        const QString out = QString::fromUtf8(python.readAllStandardOutput());
        if (out.contains(QStringLiteral("NO_JSONSCHEMA")))
            QSKIP("Python's jsonschema module is not installed");
        QCOMPARE(python.exitCode(), 0);
        // Checks beyond the schema: the C++ validator refuses these, the schema cannot.
        const QStringList beyondSchema {QStringLiteral("bad_unknown_variable"), QStringLiteral("bad_no_such_buffer"),
            QStringLiteral("bad_negative_grid"), QStringLiteral("bad_fraction_block"),
            QStringLiteral("bad_duplicate_buffer")};
        int checked = 0;
        for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QStringList parts = line.split(QLatin1Char(' '));
            QCOMPARE(parts.size(), 2);
            const QString name = QFileInfo(parts[0]).completeBaseName();
            const bool schemaValid = parts[1] == QLatin1StringView("True");
            const bool cppValid = std::holds_alternative<KernelSpec>(parseKernelSpec(readSpec(name)));
            const bool expectedSchema = cppValid || beyondSchema.contains(name);
            QVERIFY2(schemaValid == expectedSchema, qPrintable(name));
            ++checked;
        }
        QCOMPARE(checked, files.size());
    }
};

QTEST_GUILESS_MAIN(TestKernelSpec)
#include "tst_kernel_spec.moc"
