// Kernel specs typed into forms: the short notations (arguments, variables, initialisers), every kind of invalid
// field reported against its own spec path by the worker's validator, creating a problem with its reference kernel
// in a real store (and refusing a bad or taken one without writing anything), a stored kernel without a spec taking
// the launch fields it is added again with, and which launch features stay unknown.
#include "core/features/feature_gaps.h"
#include "core/interop/corpus.h"
#include "core/interop/kernel_input.h"
#include "core/interop/kernel_spec_form.h"
#include "core/store/problem_repo.h"
#include "interop_test_util.h"

using namespace gpuf;
using namespace gpuf::interop;

namespace {

const QString kSource
    = QStringLiteral("template <int BLOCK> __global__ void scale(const float *x, float *y, int n) {\n"
                     "    int i = blockIdx.x * BLOCK + threadIdx.x;\n    if (i < n) y[i] = 2.0f * x[i];\n}\n");

ProblemFields goodFields()
{
    ProblemFields f;
    f.name = QStringLiteral("scale");
    f.family = QStringLiteral("elementwise");
    f.referenceName = QStringLiteral("v0");
    f.source = kSource;
    LaunchFields launch;
    launch.entry = QStringLiteral("scale<256>");
    launch.grid = {QStringLiteral("ceil_div(n, 256)"), QStringLiteral("1"), QStringLiteral("1")};
    launch.block = {QStringLiteral("256"), QStringLiteral("1"), QStringLiteral("1")};
    launch.args = QStringLiteral("x, y, n:i32");
    f.launches = {launch};
    f.buffers = {{QStringLiteral("x"), QStringLiteral("f32"), QStringLiteral("n"), QStringLiteral("input"),
                     QStringLiteral("uniform(-1, 1, seed=3)")},
        {QStringLiteral("y"), QStringLiteral("f32"), QStringLiteral("n"), QStringLiteral("output"), QString()}};
    f.cases = {{QStringLiteral("small"), QStringLiteral("n=4096")}, {QStringLiteral("big"), QStringLiteral("n=1e6")}};
    f.bytesMoved = QStringLiteral("8*n");
    return f;
}

QString describe(const QList<FieldIssue> &issues)
{
    QStringList lines;
    for (const FieldIssue &i : issues)
        lines.append(i.field + QStringLiteral(": ") + i.message
            + (i.caseName.isEmpty() ? QString() : QStringLiteral(" [") + i.caseName + u']'));
    return lines.join(QStringLiteral(" | "));
}

} // namespace

class TestKernelSpecForm : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void goodFormMakesAValidSpec()
    {
        const ProblemFields f = goodFields();
        QVERIFY2(checkProblemFields(f, {}).isEmpty(), qPrintable(describe(checkProblemFields(f, {}))));
        const QJsonObject spec = referenceSpec(f).spec;
        QCOMPARE(spec.value(QStringLiteral("name")).toString(), QStringLiteral("scale/v0"));
        const QJsonObject launch = spec.value(QStringLiteral("launches")).toArray().first().toObject();
        QCOMPARE(launch.value(QStringLiteral("entry")).toString(), QStringLiteral("scale<256>"));
        const QJsonArray args = launch.value(QStringLiteral("args")).toArray();
        QCOMPARE(args.size(), 3);
        QCOMPARE(args[0].toObject().value(QStringLiteral("buffer")).toString(), QStringLiteral("x"));
        QCOMPARE(args[2].toObject().value(QStringLiteral("scalar")).toString(), QStringLiteral("n"));
        QCOMPARE(args[2].toObject().value(QStringLiteral("dtype")).toString(), QStringLiteral("i32"));
        const QJsonObject init = spec.value(QStringLiteral("buffers"))
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value(QStringLiteral("init"))
                                     .toObject();
        QCOMPARE(init.value(QStringLiteral("kind")).toString(), QStringLiteral("uniform"));
        QCOMPARE(init.value(QStringLiteral("low")).toDouble(), -1.0);
        QCOMPARE(init.value(QStringLiteral("seed")).toInteger(), 3);
        QCOMPARE(spec.value(QStringLiteral("cases"))
                     .toArray()[1]
                     .toObject()
                     .value(QStringLiteral("vars"))
                     .toObject()
                     .value(QStringLiteral("n"))
                     .toDouble(),
            1e6);
    }

    void launchRoundTrip()
    {
        // The corpus's own launches read back into fields and out again unchanged: a parent's launch prefills a form.
        auto spec
            = corpusVariantSpec(QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus/axpy"), QStringLiteral("v0_naive"));
        QVERIFY2(spec, qPrintable(spec.error()));
        const QJsonObject launch = spec->value(QStringLiteral("launches")).toArray().first().toObject();
        const LaunchFields fields = launchFields(launch);
        QCOMPARE(fields.args, QStringLiteral("x, y, out, 2.5:f32, n:i32"));
        QList<FieldIssue> issues;
        const QJsonObject again
            = launchJson(fields, 0, {QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("out")}, issues);
        QVERIFY(issues.isEmpty());
        QCOMPARE(again, launch);
    }

    // Each kind of invalid field, reported against the field it is in, in words.
    void invalidFields_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        const auto row = [](const char *tag, const char *what, const char *field, const char *message) {
            QTest::newRow(tag) << QString::fromUtf8(what) << QString::fromUtf8(field) << QString::fromUtf8(message);
        };
        row("no name", "name=", "problem.name", "a problem needs a name");
        row("taken name", "name=axpy", "problem.name", "a problem named 'axpy' already");
        row("empty source", "source=", "source", "must not be empty");
        row("python source", "source=import triton\n@triton.jit\ndef k(x):\n    pass\n", "source", "must be CUDA C++");
        row("empty entry", "entry=", "launches[0].entry", "must not be empty");
        row("bad entry", "entry=scale<256", "launches[0].entry", "ends with '>'");
        row("grid unknown variable", "grid0=ceil_div(m, 256)", "launches[0].grid[0]", "unknown variable 'm'");
        row("grid zero", "grid1=n-n", "launches[0].grid[1]", "is 0 (must be at least 1)");
        row("block fraction", "block0=n/3", "launches[0].block[0]", "is not an integer");
        row("empty block", "block2=", "launches[0].block[2]", "must not be empty");
        row("shared bytes", "shared=-4", "launches[0].shared_bytes", "negative");
        row("arg not a buffer", "args=x, z, n:i32", "launches[0].args[1]",
            "'z' is not a buffer; a scalar needs its type");
        row("arg bad type", "args=x, y, n:int", "launches[0].args[2]", "a scalar's type is i32, i64, f32 or f64");
        row("arg expression without type", "args=x, y, n/2", "launches[0].args[2]", "needs a type");
        row("scalar not integer", "args=x, y, n/3:i32", "launches[0].args[2].scalar", "is not an integer");
        row("no buffers", "buffers=", "buffers", "expected a non-empty array");
        row("buffer name", "buffer0.name=2x", "buffers[0].name", "expected an identifier");
        row("duplicate buffer", "buffer1.name=x", "buffers[1].name", "duplicate buffer name 'x'");
        row("buffer dtype", "buffer0.dtype=f8", "buffers[0].dtype", "expected one of");
        row("buffer count", "buffer0.count=rows*cols", "buffers[0].count", "unknown variable 'rows'");
        row("buffer role", "buffer0.role=scratch", "buffers[0].role", "expected one of");
        row("input without init", "buffer0.init=", "buffers[0].init", "required for input and inout buffers");
        row("output with init", "buffer1.init=constant(0)", "buffers[1].init", "an output buffer has no initialiser");
        row("init notation", "buffer0.init=random", "buffers[0].init", "write uniform(low, high, seed=S)");
        row("init kind", "buffer0.init=gauss(0, 1, seed=1)", "buffers[0].init", "'gauss' is not an initialiser");
        row("init without seed", "buffer0.init=uniform(0, 1)", "buffers[0].init", "write uniform(low, high, seed=S)");
        row("init bad number", "buffer0.init=constant(one)", "buffers[0].init", "'one' is not a number");
        row("init high below low", "buffer0.init=uniform(1, -1, seed=2)", "buffers[0].init.high", "must be >= low");
        row("no cases", "cases=", "cases", "expected a non-empty array");
        row("case name", "case0.name=", "cases[0].name", "must not be empty");
        row("duplicate case", "case1.name=small", "cases[1].name", "duplicate case name 'small'");
        row("case vars notation", "case0.vars=n 4096", "cases[0].vars", "is not NAME=NUMBER");
        row("case vars twice", "case0.vars=n=1, n=2", "cases[0].vars", "'n' is given twice");
        row("case var reserved", "case0.vars=n=4096, sin=1", "cases[0].vars.sin", "not a valid variable name");
        row("rtol text", "rtol=tight", "tolerance.rtol", "is not a number");
        row("atol negative", "atol=-1", "tolerance.atol", "must be >= 0");
        row("bytes moved", "bytes_moved=8*q", "bytes_moved", "unknown variable 'q'");
        row("flops", "flops=n*", "flops", "");
    }
    void invalidFields()
    {
        QFETCH(QString, what);
        QFETCH(QString, field);
        QFETCH(QString, message);
        ProblemFields f = goodFields();
        const QString key = what.section(u'=', 0, 0);
        const QString value = what.section(u'=', 1);
        LaunchFields &launch = f.launches[0];
        if (key == QLatin1StringView("name"))
            f.name = value;
        else if (key == QLatin1StringView("source"))
            f.source = value;
        else if (key == QLatin1StringView("entry"))
            launch.entry = value;
        else if (key.startsWith(QLatin1StringView("grid")))
            launch.grid[key.right(1).toInt()] = value;
        else if (key.startsWith(QLatin1StringView("block")))
            launch.block[key.right(1).toInt()] = value;
        else if (key == QLatin1StringView("shared"))
            launch.sharedBytes = value;
        else if (key == QLatin1StringView("args"))
            launch.args = value;
        else if (key == QLatin1StringView("buffers"))
            f.buffers.clear();
        else if (key == QLatin1StringView("cases"))
            f.cases.clear();
        else if (key.startsWith(QLatin1StringView("buffer"))) {
            BufferFields &b = f.buffers[key.mid(6, 1).toInt()];
            const QString part = key.section(u'.', 1);
            (part == QLatin1StringView("name")           ? b.name
                    : part == QLatin1StringView("dtype") ? b.dtype
                    : part == QLatin1StringView("count") ? b.count
                    : part == QLatin1StringView("role")  ? b.role
                                                         : b.init)
                = value;
        } else if (key.startsWith(QLatin1StringView("case"))) {
            CaseFields &c = f.cases[key.mid(4, 1).toInt()];
            (key.endsWith(QLatin1StringView("name")) ? c.name : c.vars) = value;
        } else if (key == QLatin1StringView("rtol"))
            f.rtol = value;
        else if (key == QLatin1StringView("atol"))
            f.atol = value;
        else if (key == QLatin1StringView("bytes_moved"))
            f.bytesMoved = value;
        else if (key == QLatin1StringView("flops"))
            f.flops = value;
        else
            QFAIL("unknown key in the test table");

        const QList<FieldIssue> issues = checkProblemFields(f, {QStringLiteral("axpy")});
        bool found = false;
        for (const FieldIssue &issue : issues)
            found = found || (issue.field == field && issue.message.contains(message));
        QVERIFY2(found, qPrintable(describe(issues)));
        // Words, never raw JSON or a C++ exception text.
        QVERIFY2(!describe(issues).contains(QStringLiteral("json")), qPrintable(describe(issues)));
    }

    void caseOfAFailingExpressionIsNamed()
    {
        ProblemFields f = goodFields();
        f.launches[0].grid[0] = QStringLiteral("n - 5000");
        const QList<FieldIssue> issues = checkProblemFields(f, {});
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues[0].field, QStringLiteral("launches[0].grid[0]"));
        QCOMPARE(issues[0].caseName, QStringLiteral("small"));
        QVERIFY2(issues[0].message.contains(QStringLiteral("is negative")), qPrintable(issues[0].message));
    }

    void structureProblemsDoNotHideExpressions()
    {
        // No source yet and a half-typed entry: the grid's problem is reported all the same.
        ProblemFields f = goodFields();
        f.source.clear();
        f.launches[0].entry = QStringLiteral("scale<256");
        f.launches[0].grid[0] = QStringLiteral("ceil_div(m, 256)");
        const QList<FieldIssue> issues = checkProblemFields(f, {});
        QStringList fields;
        for (const FieldIssue &i : issues)
            fields.append(i.field);
        QVERIFY2(fields.contains(QStringLiteral("source")), qPrintable(describe(issues)));
        QVERIFY2(fields.contains(QStringLiteral("launches[0].entry")), qPrintable(describe(issues)));
        QVERIFY2(fields.contains(QStringLiteral("launches[0].grid[0]")), qPrintable(describe(issues)));
        QCOMPARE(fields.count(QStringLiteral("source")), 1);
    }

    void createsProblemWithReference()
    {
        QTemporaryDir dir;
        auto store = testing::openStore(dir, QStringLiteral("new.gpuf"));
        QVERIFY(store);
        auto created = createProblem(*store, goodFields());
        QVERIFY2(created, qPrintable(created.error()));
        auto problem = ProblemRepo(*store).find(created->problemId);
        QVERIFY(problem && problem->has_value());
        QCOMPARE((**problem).name, QStringLiteral("scale"));
        QCOMPARE((**problem).family, QStringLiteral("elementwise"));
        QCOMPARE((**problem).referenceKernelId, created->referenceId);
        QCOMPARE((**problem).cases.size(), 2);
        auto kernel = KernelRepo(*store).find(created->referenceId);
        QVERIFY(kernel && kernel->has_value());
        QCOMPARE((**kernel).name, QStringLiteral("v0"));
        QCOMPARE((**kernel).origin, QStringLiteral("manual"));
        const QJsonObject spec = (**kernel).parameters.value(QStringLiteral("spec")).toObject();
        QVERIFY(!spec.contains(QStringLiteral("source"))); // the kernel's own text is the source
        QCOMPARE(spec.value(QStringLiteral("launches")).toArray().size(), 1);
        // Launch features are known for it: nothing to warn about.
        QVERIFY(features::kernelGaps(**kernel, QStringLiteral("v0")).unknown.isEmpty());

        // The same name again, or a bad form, changes nothing.
        const QByteArray before = testing::snapshot(*store, dir);
        auto again = createProblem(*store, goodFields());
        QVERIFY(!again);
        QVERIFY2(again.error().contains(QStringLiteral("problem.name: this store has a problem named 'scale' already")),
            qPrintable(again.error()));
        ProblemFields bad = goodFields();
        bad.name = QStringLiteral("other");
        bad.cases.clear();
        auto refused = createProblem(*store, bad);
        QVERIFY(!refused);
        QVERIFY2(
            refused.error().contains(QStringLiteral("cases: expected a non-empty array")), qPrintable(refused.error()));
        QCOMPARE(testing::snapshot(*store, dir), before);
    }

    void addedAgainWithLaunchesGetsThem()
    {
        QTemporaryDir dir;
        auto store = testing::openStore(dir, QStringLiteral("add.gpuf"));
        QVERIFY(store);
        auto created = createProblem(*store, goodFields());
        QVERIFY(created);
        // A candidate added without launch fields: its launch features are unknown.
        Kernel bare;
        bare.problemId = created->problemId;
        bare.parentId = created->referenceId;
        bare.language = QStringLiteral("cuda");
        bare.name = QStringLiteral("v1");
        bare.source = kSource + QStringLiteral("// v1\n");
        auto first = addKernel(*store, bare);
        QVERIFY(first && first->inserted);
        auto stored = KernelRepo(*store).find(first->id);
        const features::KernelGaps gaps = features::kernelGaps(**stored, QStringLiteral("v1"));
        QVERIFY(!gaps.hasSpec);
        QCOMPARE(gaps.unknown.size(), 4);
        QCOMPARE(features::unknownFeatureNames(gaps.unknown),
            QStringLiteral("threads per block, threads launched, blocks launched, dynamic shared memory"));
        const features::PairGaps pair = features::pairGaps(
            **KernelRepo(*store).find(created->referenceId), QStringLiteral("v0"), **stored, QStringLiteral("v1"));
        QCOMPARE(pair.kernels.size(), 1);
        QVERIFY2(features::pairGapsWarning(pair).startsWith(QStringLiteral(
                     "Forecast from unknown features: kernel 'v1' has no launch spec, so its threads per "
                     "block, threads launched, blocks launched, dynamic shared memory are unknown.")),
            qPrintable(features::pairGapsWarning(pair)));

        // Added again with launch fields (its parent's spec, another instantiation): the stored row takes them.
        const QJsonObject parentSpec
            = (**KernelRepo(*store).find(created->referenceId)).parameters.value(QStringLiteral("spec")).toObject();
        LaunchFields launch = launchFields(parentSpec.value(QStringLiteral("launches")).toArray().first().toObject());
        launch.entry = QStringLiteral("scale<128>");
        launch.block[0] = QStringLiteral("128");
        launch.grid[0] = QStringLiteral("ceil_div(n, 128)");
        QList<FieldIssue> issues;
        const QJsonArray launches {launchJson(launch, 0, {QStringLiteral("x"), QStringLiteral("y")}, issues)};
        QVERIFY(issues.isEmpty());
        Kernel again = bare;
        again.parameters.insert(QStringLiteral("spec"), specWithLaunches(parentSpec, launches));
        auto second = addKernel(*store, again);
        QVERIFY2(second, qPrintable(second.error()));
        QCOMPARE(second->id, first->id);
        QVERIFY(!second->inserted);
        QVERIFY(second->specAdded);
        stored = KernelRepo(*store).find(first->id);
        const QJsonObject spec = (**stored).parameters.value(QStringLiteral("spec")).toObject();
        QCOMPARE(spec.value(QStringLiteral("launches"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("entry"))
                     .toString(),
            QStringLiteral("scale<128>"));
        QVERIFY(!spec.contains(QStringLiteral("name")));
        QVERIFY(features::kernelGaps(**stored, QStringLiteral("v1")).unknown.isEmpty());
        // A kernel that has a spec keeps it: a third add changes nothing.
        auto third = addKernel(*store, bare);
        QVERIFY(third && !third->specAdded);
    }
};

QTEST_GUILESS_MAIN(TestKernelSpecForm)
#include "tst_kernel_spec_form.moc"
