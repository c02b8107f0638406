// Adding one kernel by hand: reading dropped files and pasted text, every refusal, and storing under a problem
// with a parent (deduplicated by content) in a real store file.
#include "core/interop/kernel_input.h"
#include "core/store/problem_repo.h"
#include "interop_test_util.h"

#include <QDir>

using namespace gpuf;

namespace {

struct Fixture
{
    RowId problem = 0;
    RowId otherProblem = 0;
    RowId reference = 0;
    RowId otherKernel = 0;
};

Fixture seed(Store &store)
{
    Fixture f;
    ProblemRepo problems(store);
    KernelRepo kernels(store);
    Problem a;
    a.name = QStringLiteral("axpy");
    f.problem = problems.insert(a).value();
    Problem b;
    b.name = QStringLiteral("transpose");
    f.otherProblem = problems.insert(b).value();
    Kernel ref;
    ref.problemId = f.problem;
    ref.language = QStringLiteral("cuda");
    ref.source = QStringLiteral("extern \"C\" __global__ void k(float* x) { x[0] = 1.0f; }\n");
    ref.origin = QStringLiteral("seed");
    f.reference = kernels.insertOrGet(ref).value();
    Kernel other = ref;
    other.problemId = f.otherProblem;
    f.otherKernel = kernels.insertOrGet(other).value();
    return f;
}

} // namespace

class TestKernelInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsFiles_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("source");
        const QByteArray cuda = "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n";
        QTest::newRow("cu") << QStringLiteral("v1.cu") << cuda << QStringLiteral("cuda") << QString::fromUtf8(cuda);
        QTest::newRow("cuh upper-case suffix")
            << QStringLiteral("tile.CUH") << QByteArray("#pragma once\n__device__ int twice(int v) { return 2 * v; }\n")
            << QStringLiteral("cuda")
            << QStringLiteral("#pragma once\n__device__ int twice(int v) { return 2 * v; }\n");
        QTest::newRow("triton") << QStringLiteral("k.py")
                                << QByteArray("import triton\n@triton.jit\ndef k(x_ptr):\n    pass\n")
                                << QStringLiteral("triton")
                                << QStringLiteral("import triton\n@triton.jit\ndef k(x_ptr):\n    pass\n");
        QTest::newRow("plain python") << QStringLiteral("ref.py")
                                      << QByteArray("import torch\ndef f(x):\n    return x * 2\n")
                                      << QStringLiteral("python")
                                      << QStringLiteral("import torch\ndef f(x):\n    return x * 2\n");
        QTest::newRow("byte-order mark dropped") << QStringLiteral("bom.cu") << QByteArray("\xEF\xBB\xBF") + cuda
                                                 << QStringLiteral("cuda") << QString::fromUtf8(cuda);
        QTest::newRow("CRLF kept") << QStringLiteral("crlf.cu") << QByteArray("// a\r\n// b\r\n")
                                   << QStringLiteral("cuda") << QStringLiteral("// a\r\n// b\r\n");
        QTest::newRow("UTF-8 comment") << QStringLiteral("utf8.cu") << QByteArray("// Größe µs\n")
                                       << QStringLiteral("cuda") << QStringLiteral("// Größe µs\n");
    }
    void readsFiles()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, language);
        QFETCH(QString, source);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QVERIFY(testing::writeFile(path, bytes));
        const auto kernel = interop::kernelFromFile(path);
        QVERIFY2(kernel.ok(), qPrintable(kernel.error()));
        QCOMPARE(kernel->name, name);
        QCOMPARE(kernel->language, language);
        QCOMPARE(kernel->source, source);
        QCOMPARE(kernel->origin, QStringLiteral("manual"));
    }

    void refusesBadFiles_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes"); // empty name: no file is written
        QTest::addColumn<QString>("message");
        QTest::newRow("suffix") << QStringLiteral("notes.txt") << QByteArray("x") << QStringLiteral("only .cu, .cuh");
        QTest::newRow("missing") << QStringLiteral("-gone.cu") << QByteArray() << QStringLiteral("does not exist");
        QTest::newRow("empty") << QStringLiteral("empty.cu") << QByteArray() << QStringLiteral("is empty");
        QTest::newRow("blank") << QStringLiteral("blank.cu") << QByteArray(" \n\t\n") << QStringLiteral("is empty");
        QTest::newRow("NUL byte") << QStringLiteral("bin.cu") << QByteArray("abc\0def", 7)
                                  << QStringLiteral("NUL byte at offset 3");
        QTest::newRow("Latin-1") << QStringLiteral("latin1.cu")
                                 << QByteArray("// Gr\xF6\xDF"
                                               "e\n")
                                 << QStringLiteral("not UTF-8 (byte 0xf6 at offset 5)");
        QTest::newRow("overlong") << QStringLiteral("overlong.cu") << QByteArray("a\xC0\xAF")
                                  << QStringLiteral("not UTF-8 (byte 0xc0 at offset 1)");
        QTest::newRow("truncated sequence") << QStringLiteral("cut.cu") << QByteArray("ab\xE2\x82")
                                            << QStringLiteral("not UTF-8 (byte 0xe2 at offset 2)");
        QTest::newRow("too large") << QStringLiteral("big.cu")
                                   << QByteArray(int(interop::kMaxKernelSourceBytes) + 1, 'a')
                                   << QStringLiteral("a kernel source may be at most 1024 KiB");
    }
    void refusesBadFiles()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QString path = dir.filePath(name);
        if (name.startsWith(QLatin1Char('-')))
            path = dir.filePath(name.mid(1)); // not written
        else
            QVERIFY(testing::writeFile(path, bytes));
        const auto kernel = interop::kernelFromFile(path);
        QVERIFY(!kernel.ok());
        QVERIFY2(kernel.error().contains(message), qPrintable(kernel.error()));
        QVERIFY2(kernel.error().contains(path), qPrintable(kernel.error())); // says which file
    }

    void refusesFolder()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("k.cu")));
        const auto kernel = interop::kernelFromFile(dir.filePath(QStringLiteral("k.cu")));
        QVERIFY(!kernel.ok());
        QVERIFY2(kernel.error().contains(QStringLiteral("is a folder")), qPrintable(kernel.error()));
    }

    void pastedText()
    {
        const auto kernel = interop::kernelFromText(QStringLiteral("@triton.jit\ndef k(x):\n    pass\n"));
        QVERIFY2(kernel.ok(), qPrintable(kernel.error()));
        QCOMPARE(kernel->language, QStringLiteral("triton"));
        const auto blank = interop::kernelFromText(QStringLiteral("   \n"));
        QVERIFY(!blank.ok());
        QCOMPARE(blank.error(), QStringLiteral("the pasted text is empty"));
        QString withNul = QStringLiteral("ab");
        withNul.append(QChar(0));
        QVERIFY(interop::kernelFromText(withNul).error().contains(QStringLiteral("NUL byte")));
    }

    void addsUnderProblemWithParent()
    {
        QTemporaryDir dir;
        auto store = testing::openStore(dir, QStringLiteral("s.gpuf"));
        QVERIFY(store);
        const Fixture f = seed(*store);

        auto kernel = interop::kernelFromText(QStringLiteral("extern \"C\" __global__ void k2(float* x) {}\n"));
        QVERIFY(kernel.ok());
        kernel->problemId = f.problem;
        kernel->parentId = f.reference;
        const auto added = interop::addKernel(*store, *kernel);
        QVERIFY2(added.ok(), qPrintable(added.error()));
        QVERIFY(added->inserted);
        const auto stored = KernelRepo(*store).find(added->id);
        QVERIFY(stored.ok() && stored->has_value());
        QCOMPARE((*stored)->parentId, f.reference);
        QCOMPARE((*stored)->origin, QStringLiteral("manual"));
        QCOMPARE((*stored)->contentHash, contentHashOf(kernel->source));

        // Same content again, even with another parent: deduplicated, nothing changed.
        kernel->parentId = 0;
        const auto again = interop::addKernel(*store, *kernel);
        QVERIFY(again.ok());
        QVERIFY(!again->inserted);
        QCOMPARE(again->id, added->id);
        QCOMPARE(again->existingParentId, f.reference);
        QCOMPARE(KernelRepo(*store).list(f.problem)->size(), 2);

        // The same source under another problem is another kernel.
        kernel->problemId = f.otherProblem;
        const auto elsewhere = interop::addKernel(*store, *kernel);
        QVERIFY(elsewhere.ok());
        QVERIFY(elsewhere->inserted);
        QVERIFY(elsewhere->id != added->id);
    }

    void refusesBadTargets_data()
    {
        QTest::addColumn<int>("problemCase"); // 0: the problem, 1: missing problem
        QTest::addColumn<int>("parentCase"); // 0: none, 1: missing kernel, 2: kernel of another problem
        QTest::addColumn<QString>("message");
        QTest::newRow("missing problem") << 1 << 0 << QStringLiteral("problem #999 does not exist");
        QTest::newRow("missing parent") << 0 << 1 << QStringLiteral("parent kernel #999 does not exist");
        QTest::newRow("parent of another problem") << 0 << 2 << QStringLiteral("belongs to another problem than axpy");
    }
    void refusesBadTargets()
    {
        QFETCH(int, problemCase);
        QFETCH(int, parentCase);
        QFETCH(QString, message);
        QTemporaryDir dir;
        auto store = testing::openStore(dir, QStringLiteral("s.gpuf"));
        QVERIFY(store);
        const Fixture f = seed(*store);
        const QByteArray before = testing::snapshot(*store, dir);

        Kernel kernel = interop::kernelFromText(QStringLiteral("__global__ void z() {}")).value();
        kernel.problemId = problemCase == 1 ? 999 : f.problem;
        kernel.parentId = parentCase == 1 ? 999 : parentCase == 2 ? f.otherKernel : 0;
        const auto added = interop::addKernel(*store, kernel);
        QVERIFY(!added.ok());
        QVERIFY2(added.error().contains(message), qPrintable(added.error()));
        QCOMPARE(testing::snapshot(*store, dir), before); // nothing stored
    }
};

QTEST_GUILESS_MAIN(TestKernelInput)
#include "tst_kernel_input.moc"
