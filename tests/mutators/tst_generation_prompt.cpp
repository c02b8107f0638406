// Tests for core/mutators/generation_prompt: code extraction edge cases, the prompt's parts (task, rules, the parent's
// code and each kind of evaluation feedback), and answers turned into kernels (launches from the answer or the parent,
// broken launch blocks, entries the source lacks, specs the validator refuses).
#include "core/interop/corpus.h"
#include "core/mutators/generation_prompt.h"
#include "core/mutators/kernel_family.h"
#include "gpuf_config.h"

#include <QJsonDocument>
#include <QTest>

using namespace gpuf;
using namespace gpuf::families;
using namespace Qt::StringLiterals;

namespace {

GenerationTask transposeTask()
{
    GenerationTask task;
    task.problemId = 1;
    task.problemName = u"transpose"_s;
    task.description = u"out[c][r] = in[r][c]."_s;
    task.language = u"cuda"_s;
    auto spec
        = interop::corpusVariantSpec(QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus/transpose"), u"v0_naive"_s);
    task.referenceSpec = spec ? *spec : QJsonObject {};
    task.referenceSource = task.referenceSpec.value(u"source"_s).toString();
    task.hardware = u"NVIDIA H100 80GB HBM3 (sm_90)"_s;
    return task;
}

search::MutationParent referenceParent(const GenerationTask &task)
{
    search::MutationParent parent;
    parent.source = task.referenceSource;
    parent.language = u"cuda"_s;
    QJsonObject spec = task.referenceSpec;
    spec.remove(u"source"_s);
    parent.parameters = QJsonObject {{u"spec"_s, spec}};
    return parent;
}

QString userText(const QJsonArray &messages) { return messages.first().toObject().value(u"content"_s).toString(); }

const QString kKernel
    = u"extern \"C\" __global__ void transpose_better(const float* in, float* out, int rows, int cols)\n"
      "{\n    int c = blockIdx.x * 32 + threadIdx.x;\n}"_s;

} // namespace

class TestGenerationPrompt : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void extraction_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected"); // "<none>": no code
        QTest::newRow("one block") << u"Here:\n```cuda\nint x;\n```\nDone."_s << u"int x;"_s;
        QTest::newRow("last block wins") << u"```cuda\nfirst\n```\nthen\n```cuda\nsecond\n```"_s << u"second"_s;
        QTest::newRow("other languages ignored") << u"```cuda\nmine\n```\n```python\nnot mine\n```"_s << u"mine"_s;
        QTest::newRow("unclosed runs to the end") << u"```cuda\nint y;\n  \n"_s << u"int y;"_s;
        QTest::newRow("trailing whitespace stripped") << u"```cuda\nint z;   \n\n```"_s << u"int z;"_s;
        QTest::newRow("leading indentation kept") << u"```cuda\n    int w;\n```"_s << u"    int w;"_s;
        QTest::newRow("empty block") << u"```cuda\n```"_s << u"<none>"_s;
        QTest::newRow("blank block") << u"```cuda\n   \n```"_s << u"<none>"_s;
        QTest::newRow("no block") << u"I would tile it."_s << u"<none>"_s;
        QTest::newRow("tag needs a newline") << u"```cuda int x; ```"_s << u"<none>"_s;
        QTest::newRow("untagged fence ignored") << u"```\nint x;\n```"_s << u"<none>"_s;
        QTest::newRow("cu tag") << u"```cu\nint v;\n```"_s << u"int v;"_s;
        QTest::newRow("cuda is not cu") << u"```cudax\nint v;\n```"_s << u"<none>"_s;
        QTest::newRow("crlf") << u"```cuda\r\nint a;\r\nint b;\r\n```\r\n"_s << u"int a;\nint b;"_s;
        QTest::newRow("backticks inside a line") << u"```cuda\nchar s[] = \"```\";\n```"_s << u"char s[] = \"```\";"_s;
        QTest::newRow("last of two tags")
            << u"```cpp\nfirst\n```\n```cuda\nsecond\n```\n```c++\nthird\n```"_s << u"third"_s;
    }
    void extraction()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto code = lastFencedBlock(text, cudaFenceTags());
        if (expected == u"<none>"_s)
            QVERIFY2(!code, qPrintable(code.value_or(QString())));
        else
            QCOMPARE(code.value_or(u"<none>"_s), expected);
    }

    void pythonExtractionFollowsThePaperRule()
    {
        QCOMPARE(*lastFencedBlock(u"```python\nimport torch\n```\nand\n```python\nimport triton\n"_s, {u"python"_s}),
            u"import triton"_s);
        QVERIFY(!lastFencedBlock(u"```py\nimport torch\n```"_s, {u"python"_s}));
    }

    void promptHasTaskRulesParentAndFeedback()
    {
        const GenerationTask task = transposeTask();
        QVERIFY(!task.referenceSource.isEmpty());
        search::MutationParent parent = referenceParent(task);
        parent.source = kKernel;
        parent.feedback.kind = search::EvaluationFeedback::Kind::Success;
        parent.feedback.aggregatedSpeedup = 1.5;
        parent.feedback.cases = {{u"small"_s, 2.0, 50'000, 100'000}, {u"big"_s, 1.2, 250'000, 300'000}};
        const QJsonArray messages = generationMessages(task, parent);
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.first().toObject().value(u"role"_s).toString(), u"user"_s);
        const QString text = userText(messages);
        QVERIFY(text.startsWith(u"# Task: a faster kernel for `transpose`"_s));
        QVERIFY(text.contains(u"- in: f32, rows*cols elements, input"_s));
        QVERIFY(text.contains(u"- 5000x3000: cols = 3000, rows = 5000"_s));
        QVERIFY(text.contains(task.referenceSource.trimmed()));
        QVERIFY(text.contains(u"```json"_s));
        QVERIFY(text.contains(u"The target GPU is NVIDIA H100 80GB HBM3 (sm_90)."_s));
        QVERIFY(text.contains(u"## The kernel to improve\n```cuda\n"_s + kKernel));
        QVERIFY(text.contains(u"Speedup over the reference: 1.500x"_s));
        // Slowest first, with both times.
        const qsizetype big = text.indexOf(u"- big: 250.00 us (reference 300.00 us), 1.200x"_s);
        const qsizetype small = text.indexOf(u"- small: 50.00 us (reference 100.00 us), 2.000x"_s);
        QVERIFY(big > 0 && small > big);
        QVERIFY(text.contains(u"Make the slowest cases faster."_s));
    }

    void feedbackKinds_data()
    {
        using Kind = search::EvaluationFeedback::Kind;
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("absent");
        const QString longLog = QString(1500, u'a') + QString(1000, u'b');
        QTest::newRow("compile error keeps the first 2000 characters")
            << int(Kind::CompileFailed) << longLog
            << u"It did not compile. The compiler said:```"_s + QString(1500, u'a') + QString(500, u'b') + u"```"_s
            << QString(501, u'b');
        QTest::newRow("incorrect") << int(Kind::Incorrect) << u"3 of 100 elements differ"_s
                                   << u"It ran but its results were wrong:\n```\n3 of 100 elements differ"_s
                                   << QString();
        QTest::newRow("runtime error") << int(Kind::RuntimeError) << u"illegal address"_s
                                       << u"It failed while running: CUDA_ERROR_ILLEGAL_ADDRESS: illegal address"_s
                                       << QString();
        QTest::newRow("not measured") << int(Kind::None) << QString() << u"It has not been measured yet."_s
                                      << QString();
    }
    void feedbackKinds()
    {
        QFETCH(int, kind);
        QFETCH(QString, message);
        QFETCH(QString, expected);
        QFETCH(QString, absent);
        const GenerationTask task = transposeTask();
        search::MutationParent parent = referenceParent(task);
        parent.feedback.kind = search::EvaluationFeedback::Kind(kind);
        parent.feedback.message = message;
        parent.feedback.errorType = u"CUDA_ERROR_ILLEGAL_ADDRESS"_s;
        const QString text = userText(generationMessages(task, parent)).remove(u'\n');
        QVERIFY2(text.contains(QString(expected).remove(u'\n')), qPrintable(text.right(600)));
        if (!absent.isEmpty())
            QVERIFY(!text.contains(absent));
    }

    void answersBecomeKernels()
    {
        const GenerationTask task = transposeTask();
        const search::MutationParent parent = referenceParent(task);
        const QString launches
            = u"[{\"entry\": \"transpose_better\", \"grid\": [\"ceil_div(cols, 32)\", "
              "\"ceil_div(rows, 32)\", \"1\"], \"block\": [\"32\", \"8\", \"1\"], \"shared_bytes\": "
              "\"0\", \"args\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"scalar\": \"rows\", "
              "\"dtype\": \"i32\"}, {\"scalar\": \"cols\", \"dtype\": \"i32\"}]}]"_s;
        const QString answer
            = u"I tile it.\n```cuda\n"_s + kKernel + u"\n```\nLaunch:\n```json\n"_s + launches + u"\n```\n"_s;
        auto k = readGeneratedKernel(answer, task, parent);
        QVERIFY2(k, qPrintable(k.error()));
        QVERIFY(k->launchesFromAnswer);
        QCOMPARE(k->source, kKernel);
        QCOMPARE(k->spec.value(u"launches"_s).toArray().first().toObject().value(u"entry"_s).toString(),
            u"transpose_better"_s);
        QCOMPARE(k->spec.value(u"cases"_s), task.referenceSpec.value(u"cases"_s));
        QVERIFY(validateKernelSpec(k->spec).isEmpty());

        // An object with "launches" is accepted too.
        auto wrapped = readGeneratedKernel(
            u"```cuda\n"_s + kKernel + u"\n```\n```json\n{\"launches\": "_s + launches + u"}\n```"_s, task, parent);
        QVERIFY2(wrapped, qPrintable(wrapped.error()));

        // Without a launch block, the parent's launches are kept (its entry must then be in the new source).
        const QString sameEntry = task.referenceSource + u"\n// faster now\n"_s;
        auto kept = readGeneratedKernel(u"```cuda\n"_s + sameEntry + u"\n```"_s, task, parent);
        QVERIFY2(kept, qPrintable(kept.error()));
        QVERIFY(!kept->launchesFromAnswer);
        QCOMPARE(kept->spec.value(u"launches"_s), task.referenceSpec.value(u"launches"_s));
    }

    void badAnswers_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QString>("error");
        QTest::newRow("no code") << u"Use shared memory."_s << u"no code: the answer has no non-empty ```cuda block"_s;
        QTest::newRow("python instead of cuda")
            << u"```python\nimport torch\n```"_s << u"no code: the answer has no non-empty ```cuda block"_s;
        QTest::newRow("launch block not json") << u"```cuda\n"_s + kKernel + u"\n```\n```json\n[{entry}]\n```"_s
                                               << u"the ```json launch block is not JSON"_s;
        QTest::newRow("launch block of another shape")
            << u"```cuda\n"_s + kKernel + u"\n```\n```json\n{\"grid\": 1}\n```"_s
            << u"neither an array of launches nor an object"_s;
        QTest::newRow("entry missing from the source") << u"```cuda\n"_s + kKernel
                + u"\n```"_s << u"launch entry 'transpose_naive' is not a function of the answer's source"_s;
        QTest::newRow("invalid spec") << u"```cuda\n"_s + kKernel
                + u"\n```\n```json\n[{\"entry\": \"transpose_better\", \"grid\": [\"ceil_div(cols, 32)\", \"1\", "
                  u"\"1\"], "
                  "\"block\": [\"32\", \"1\"], \"shared_bytes\": \"0\", \"args\": [{\"buffer\": \"nowhere\"}]}]\n```"_s
                                      << u"the kernel spec is not valid: "_s;
    }
    void badAnswers()
    {
        QFETCH(QString, answer);
        QFETCH(QString, error);
        const GenerationTask task = transposeTask();
        auto k = readGeneratedKernel(answer, task, referenceParent(task));
        QVERIFY(!k);
        QVERIFY2(k.error().contains(error), qPrintable(k.error()));
    }
};

QTEST_GUILESS_MAIN(TestGenerationPrompt)
#include "tst_generation_prompt.moc"
