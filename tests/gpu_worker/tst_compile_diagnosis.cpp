// Tests for core/gpu/compile_diagnosis: NVRTC logs (as NVRTC 13 writes them) become the cause in words — which
// #include could not be found and through which of the source's includes, which entry does not resolve — and a log
// with nothing recognisable gives no diagnosis.
#include "core/gpu/compile_diagnosis.h"

#include <QTest>

using namespace gpuf::gpu;

namespace {

// NVRTC's log for "#include <cstdio>" on line 2 of a program compiled as sgemm/v1.cu.
const char *kCstdioLog = "sgemm/v1.cu(2): catastrophic error: cannot open source file \"cstdio\"\n"
                         "  #include <cstdio>\n"
                         "                   ^\n\n"
                         "1 catastrophic error detected in the compilation of \"sgemm/v1.cu\".\n"
                         "Compilation terminated.\n";

// cublas_v2.h is found on the toolkit's include path but pulls in host headers NVRTC does not have.
const char *kCublasLog = "/usr/local/cuda/include/cublas_api.h(68): catastrophic error: cannot open source file "
                         "\"stdint.h\"\n"
                         "  #include <stdint.h>\n"
                         "                     ^\n\n"
                         "1 catastrophic error detected in the compilation of \"sgemm/v1.cu\".\n"
                         "Compilation terminated.\n";

const char *kNameMapLog
    = "__nv_name_map(2): error: operand types are incompatible (\"void (*)(float *)\" and \"int\")\n"
      "  #pragma nv_mangled_name k<3>\n"
      "                           ^\n\n"
      "__nv_name_map(2): error: Error in parsing name expression for lowered name lookup. Input name expression "
      "was: \" k < 3 >\"\n"
      "  #pragma nv_mangled_name k<3>\n"
      "                          ^\n\n"
      "__nv_name_map(3): error: identifier \"nothere\" is undefined\n"
      "  #pragma nv_mangled_name nothere\n"
      "                          ^\n\n"
      "3 errors detected in the compilation of \"t.cu\".\n";

const char *kSyntaxLog = "t.cu(3): error: expected a \";\"\n  int x = 1\n           ^\n\n"
                         "1 error detected in the compilation of \"t.cu\".\n";

} // namespace

class TestCompileDiagnosis : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void includeLinesOfSource()
    {
        const auto lines = includeLines("// sgemm\n#include <cublas_v2.h>\n  #  include \"util.cuh\"\n__global__ void "
                                        "k() {}\n#include<cstdio>\n");
        QCOMPARE(lines.size(), std::size_t(3));
        QCOMPARE(lines[0].line, 2);
        QCOMPARE(QString::fromStdString(lines[0].header), QStringLiteral("cublas_v2.h"));
        QCOMPARE(lines[1].line, 3);
        QCOMPARE(QString::fromStdString(lines[1].header), QStringLiteral("util.cuh"));
        QCOMPARE(QString::fromStdString(lines[2].header), QStringLiteral("cstdio"));
    }

    void missingHeadersFromLog()
    {
        const auto missing = missingHeaders(kCublasLog);
        QCOMPARE(missing.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(missing[0].header), QStringLiteral("stdint.h"));
        QCOMPARE(
            QString::fromStdString(missing[0].includedFrom), QStringLiteral("/usr/local/cuda/include/cublas_api.h"));
        QCOMPARE(missing[0].line, 68);
        QVERIFY(missingHeaders(kSyntaxLog).empty());
    }

    void diagnosis_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QStringList>("entries");
        QTest::addColumn<QString>("expected"); // empty: no diagnosis

        QTest::newRow("include in the source")
            << QString::fromUtf8(kCstdioLog)
            << QStringLiteral("#include <cuda_runtime.h>\n#include <cstdio>\n__global__ void k() {}\n")
            << QStringList {QStringLiteral("k")}
            << QStringLiteral("#include <cstdio> (line 2) cannot be found; NVRTC compiles device code only");
        QTest::newRow("include inside a found header")
            << QString::fromUtf8(kCublasLog)
            << QStringLiteral("#include <cublas_v2.h>\n#include \"local.cuh\"\n__global__ void k() {}\n")
            << QStringList {QStringLiteral("k")}
            << QStringLiteral("header <stdint.h> cannot be found (needed by cublas_api.h, line 68), which the source "
                              "reaches through #include <cublas_v2.h> (line 1);");
        QTest::newRow("advice names the remedies")
            << QString::fromUtf8(kCstdioLog) << QStringLiteral("#include <cstdio>\n") << QStringList {}
            << QStringLiteral("remove the #include if the kernel does not use it, or give the header's folder to "
                              "gpuf-measure with --include-dir");
        QTest::newRow("template entry that does not match")
            << QString::fromUtf8(kNameMapLog) << QStringLiteral("__global__ void k(float *x) {}\n")
            << QStringList {QStringLiteral("nothere"), QStringLiteral("k<3>")}
            << QStringLiteral("entry 'k<3>' does not name a __global__ function of the source (operand types are "
                              "incompatible");
        QTest::newRow("undefined entry")
            << QString::fromUtf8(kNameMapLog) << QStringLiteral("__global__ void k(float *x) {}\n")
            << QStringList {QStringLiteral("nothere"), QStringLiteral("k<3>")}
            << QStringLiteral("entry 'nothere' does not name a __global__ function of the source (identifier "
                              "\"nothere\" is undefined)");
        QTest::newRow("ordinary syntax error")
            << QString::fromUtf8(kSyntaxLog) << QStringLiteral("__global__ void k() {\n\n int x = 1\n}\n")
            << QStringList {QStringLiteral("k")} << QString();
    }
    void diagnosis()
    {
        QFETCH(QString, log);
        QFETCH(QString, source);
        QFETCH(QStringList, entries);
        QFETCH(QString, expected);
        std::vector<std::string> names;
        for (const QString &e : std::as_const(entries))
            names.push_back(e.toStdString());
        // Only the toolkit's headers resolve on the worker's include path.
        const auto found
            = [](const std::string &header) { return header == "cublas_v2.h" || header == "cuda_runtime.h"; };
        const QString text = QString::fromStdString(
            diagnoseCompileLog(log.toStdString(), "sgemm/v1.cu", source.toStdString(), names, found));
        if (expected.isEmpty())
            QVERIFY2(text.isEmpty(), qPrintable(text));
        else
            QVERIFY2(text.contains(expected), qPrintable(text));
    }

    void headerFoundNowhereIsNotBlamed()
    {
        // "local.cuh" does not resolve, so it cannot be what led into cublas_api.h.
        const QString text = QString::fromStdString(
            diagnoseCompileLog(kCublasLog, "sgemm/v1.cu", "#include <cublas_v2.h>\n#include \"local.cuh\"\n", {},
                [](const std::string &h) { return h == "cublas_v2.h"; }));
        QVERIFY2(!text.contains(QStringLiteral("local.cuh")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestCompileDiagnosis)
#include "tst_compile_diagnosis.moc"
