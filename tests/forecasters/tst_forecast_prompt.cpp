// Tests for core/forecasters/prompt: the two messages' sections, both profiles' bin tables, the hardware table's
// formats, fences, the tool schema of paper-facts §2, and that nothing about runtimes reaches the forecaster.
#include "core/bins/bins.h"
#include "core/forecasters/prompt.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace gpuf;
using namespace gpuf::forecasters;
using namespace Qt::StringLiterals;

namespace {

ForecastRequest request(std::optional<Hardware> hardware = hardwarePreset(u"A100"_s))
{
    ForecastRequest r;
    r.id = 1;
    r.operation = u"row_softmax"_s;
    r.reference.id = 10;
    r.reference.language = u"cuda"_s;
    r.reference.source = u"__global__ void ref(float *x) { x[0] = 1.0f; }"_s;
    // Runtimes and notes live on the kernel but must never be shown.
    r.reference.notes = u"measured 812.25 us on the reference GPU"_s;
    r.reference.parameters = QJsonObject {{u"runtime_ns"_s, 987654}};
    r.candidate.id = 11;
    r.candidate.language = u"triton"_s;
    r.candidate.source = u"@triton.jit\ndef cand(x):\n    pass\n"_s;
    r.candidate.notes = u"median 123.5 us"_s;
    r.hardware = std::move(hardware);
    return r;
}

} // namespace

class TestForecastPrompt : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void versionAndProfiles()
    {
        QCOMPARE(QString(kPromptVersion), u"gpuf-1"_s);
        QCOMPARE(promptProfileFromName(u"default"_s), std::optional(PromptProfile::Default));
        QCOMPARE(promptProfileFromName(u"paper"_s), std::optional(PromptProfile::Paper));
        QCOMPARE(promptProfileFromName(u"other"_s), std::nullopt);
        QCOMPARE(promptProfileName(PromptProfile::Paper), u"paper"_s);
    }

    void systemSections_data()
    {
        QTest::addColumn<int>("profile");
        QTest::addColumn<bool>("tools");
        QTest::newRow("default, tools") << int(PromptProfile::Default) << true;
        QTest::newRow("paper, tools") << int(PromptProfile::Paper) << true;
        QTest::newRow("default, no tools") << int(PromptProfile::Default) << false;
    }
    void systemSections()
    {
        QFETCH(int, profile);
        QFETCH(bool, tools);
        const QString text = systemMessage({PromptProfile(profile), tools});
        // The sections in order: role, speedup, bins, probabilities, analysis, answer.
        const QStringList headings {u"## Speedup\n"_s, u"## Speedup bins\n"_s, u"## Probabilities\n"_s,
            u"## How to analyse\n"_s, u"## Your answer\n"_s};
        qsizetype at = 0;
        for (const QString &h : headings) {
            const qsizetype found = text.indexOf(h, at);
            QVERIFY2(found > at || (at == 0 && found > 0), qPrintable(h));
            at = found;
        }
        QVERIFY(text.startsWith(u"You simulate how GPU kernels execute."_s));
        QVERIFY(text.contains(u"S = reference runtime / candidate runtime"_s));
        // Ten numbered analysis factors, the library remark and the relative-performance reminder.
        for (int i = 1; i <= 10; ++i)
            QVERIFY2(text.contains(u"\n%1. "_s.arg(i)), qPrintable(QString::number(i)));
        QVERIFY(!text.contains(u"\n11. "_s));
        QVERIFY(text.contains(u"cuBLAS"_s));
        QVERIFY(text.contains(u"relative to the reference, not how fast either is"_s));
        // Every probability field is named with its bin.
        for (int b = 1; b <= 8; ++b)
            QVERIFY(text.contains(u"- bin %1: `%2`"_s.arg(b).arg(probabilityField(b))));
        if (tools) {
            QVERIFY(text.contains(u"call the tool `submit_kernel_runtime_estimate` exactly once"_s));
            QVERIFY(!text.contains(u"```json"_s));
        } else {
            QVERIFY(text.contains(u"```json"_s));
            QVERIFY(text.contains(u"\"p_extreme_speedup\": <0-1>, \"reasoning\""_s));
            QVERIFY(!text.contains(u"call the tool"_s));
        }
    }

    void defaultTable()
    {
        const QString text = systemMessage({PromptProfile::Default, true});
        const QStringList expected {
            u"| 1 | severe slowdown | S < 0.5 | the candidate needs more than 2.0× the reference's time |"_s,
            u"| 2 | significant slowdown | 0.5 ≤ S < 0.7071 | the candidate needs 1.41× to 2.0× the reference's time |"_s,
            u"| 3 | slight slowdown | 0.7071 ≤ S < 1.0 | the candidate needs 1.0× to 1.41× the reference's time |"_s,
            u"| 4 | slight speedup | 1.0 ≤ S < 1.4142 | the candidate runs 1.0× to 1.41× as fast as the reference |"_s,
            u"| 5 | moderate speedup | 1.4142 ≤ S < 2.0 | the candidate runs 1.41× to 2.0× as fast as the reference |"_s,
            u"| 6 | significant speedup | 2.0 ≤ S < 2.8284 | the candidate runs 2.0× to 2.83× as fast as the reference |"_s,
            u"| 7 | high speedup | 2.8284 ≤ S < 4.0 | the candidate runs 2.83× to 4.0× as fast as the reference |"_s,
            u"| 8 | extreme speedup | S ≥ 4.0 | the candidate runs at least 4.0× as fast as the reference |"_s};
        for (const QString &row : expected)
            QVERIFY2(text.contains(row + u'\n'), qPrintable(row));
        QVERIFY(text.contains(u"| Bin | Name | Speedup range | Meaning |\n|---|---|---|---|\n"_s));
        // The names are core/bins' labels.
        for (int b = 1; b <= 8; ++b)
            QCOMPARE(binTable(PromptProfile::Default).at(b - 1).name, bins::untranslatedLabel(b));
    }

    void paperTable()
    {
        const QString text = systemMessage({PromptProfile::Paper, true});
        const QStringList expected {
            u"| 1 | severe slowdown | S ≤ 0.25 | the candidate needs more than 4.0× the reference's time |"_s,
            u"| 2 | significant slowdown | 0.25 < S ≤ 0.5 | the candidate needs 2.0× to 4.0× the reference's time |"_s,
            u"| 3 | moderate slowdown | 0.5 < S ≤ 0.71 | the candidate needs 1.41× to 2.0× the reference's time |"_s,
            u"| 4 | minor slowdown | 0.71 < S ≤ 1.0 | the candidate needs 1.0× to 1.41× the reference's time |"_s,
            u"| 5 | minor speedup | 1.0 < S ≤ 1.41 | the candidate runs 1.0× to 1.41× as fast as the reference |"_s,
            u"| 6 | significant speedup | 1.41 < S ≤ 2.0 | the candidate runs 1.41× to 2.0× as fast as the reference |"_s,
            u"| 7 | high speedup | 2.0 < S ≤ 4.0 | the candidate runs 2.0× to 4.0× as fast as the reference |"_s,
            u"| 8 | extreme speedup | S > 4.0 | the candidate runs more than 4.0× as fast as the reference |"_s};
        for (const QString &row : expected)
            QVERIFY2(text.contains(row + u'\n'), qPrintable(row));
        QVERIFY(!text.contains(u"0.7071"_s));
    }

    void userMessageStructure()
    {
        const ForecastRequest r = request();
        const QString text = userMessage(r, {});
        QVERIFY(text.startsWith(u"# Task: row_softmax\n"_s));
        const qsizetype ref = text.indexOf(u"## Reference kernel\n\n```cuda\n"_s + r.reference.source + u"\n```\n"_s);
        const qsizetype cand = text.indexOf(u"## Candidate kernel\n\n```python\n"_s + r.candidate.source + u"```\n"_s);
        const qsizetype hw = text.indexOf(u"## Hardware\n\n"_s);
        const qsizetype close = text.indexOf(u"call `submit_kernel_runtime_estimate` once"_s);
        QVERIFY(ref > 0);
        QVERIFY(cand > ref);
        QVERIFY(hw > cand);
        QVERIFY(close > hw);
        QVERIFY(text.contains(u"| Property | Value |\n|---|---|\n"
                              "| Device | NVIDIA A100-SXM4-80GB |\n"
                              "| Compute Capability | 8.0 |\n"
                              "| Global Memory | 80.0 GB |\n"
                              "| Multiprocessors | 108 |\n"
                              "| Max Threads/SM | 2048 |\n"
                              "| Clock Rate | 1.41 GHz |\n"
                              "| Memory Clock | 1.51 GHz |\n"
                              "| Memory Bus Width | 5120 bits |\n"_s));
        const QString noTools = userMessage(r, {PromptProfile::Default, false});
        QVERIFY(noTools.contains(u"end your reply with the JSON object"_s));
        QVERIFY(!noTools.contains(u"submit_kernel_runtime_estimate"_s));
    }

    void hardwareFormats()
    {
        Hardware h;
        h.name = u"Test GPU"_s;
        h.computeCapability = u"9.0"_s;
        h.globalMemoryGb = 139.84;
        h.smCount = 132;
        h.maxThreadsPerSm = 2048;
        h.clockGhz = 1.98;
        h.memoryClockGhz = 3.2005;
        h.busWidthBits = 6144;
        const QString table = hardwareTable(h);
        QCOMPARE(table.count(u'\n'), 10); // header, rule, 8 rows
        QVERIFY(table.contains(u"| Global Memory | 139.8 GB |"_s));
        QVERIFY(table.contains(u"| Clock Rate | 1.98 GHz |"_s));
        QVERIFY(table.contains(u"| Memory Clock | 3.20 GHz |"_s));
        QVERIFY(table.contains(u"| Memory Bus Width | 6144 bits |"_s));
    }

    void noHardwareNoTable()
    {
        const QString text = userMessage(request(std::nullopt), {});
        QVERIFY(!text.contains(u"## Hardware"_s));
        QVERIFY(!text.contains(u"| Device |"_s));
        QVERIFY(hardwareTable(std::nullopt).isEmpty());
    }

    void runtimesNeverShown()
    {
        const QJsonArray messages = promptMessages(request(), {});
        const QString all = QString::fromUtf8(QJsonDocument(messages).toJson());
        for (const QString &leak : {u"812.25"_s, u"987654"_s, u"123.5"_s, u"runtime_ns"_s, u"median"_s})
            QVERIFY2(!all.contains(leak), qPrintable(leak));
    }

    void messagesShape()
    {
        const QJsonArray messages = promptMessages(request(), {});
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages.at(0)[u"role"_s].toString(), u"system"_s);
        QCOMPARE(messages.at(1)[u"role"_s].toString(), u"user"_s);
        QCOMPARE(messages.at(0)[u"content"_s].toString(), systemMessage({}));
        QCOMPARE(messages.at(1)[u"content"_s].toString(), userMessage(request(), {}));
    }

    void fences_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("fence");
        QTest::newRow("cuda") << u"cuda"_s << u"cuda"_s;
        QTest::newRow("triton") << u"triton"_s << u"python"_s;
        QTest::newRow("python") << u"python"_s << u"python"_s;
        QTest::newRow("ptx") << u"ptx"_s << u"ptx"_s;
        QTest::newRow("unknown") << u"fortran"_s << QString();
    }
    void fences()
    {
        QFETCH(QString, language);
        QFETCH(QString, fence);
        QCOMPARE(fenceLanguage(language), fence);
    }

    // Backticks in the source must not end the block early.
    void fenceOutgrowsBackticks()
    {
        QCOMPARE(fencedBlock(u"a = '```'"_s, u"python"_s), u"````python\na = '```'\n````\n"_s);
        QCOMPARE(fencedBlock(u"x\n"_s, u"cuda"_s), u"```cuda\nx\n```\n"_s);
    }

    void toolSchema()
    {
        const QJsonObject tool = toolDefinition();
        QCOMPARE(tool[u"type"_s].toString(), u"function"_s);
        const QJsonObject function = tool[u"function"_s].toObject();
        QCOMPARE(function[u"name"_s].toString(), u"submit_kernel_runtime_estimate"_s);
        const QJsonObject parameters = function[u"parameters"_s].toObject();
        QCOMPARE(parameters[u"type"_s].toString(), u"object"_s);
        const QStringList fields {u"predicted_bin"_s, u"p_severe_slowdown"_s, u"p_significant_slowdown"_s,
            u"p_moderate_slowdown"_s, u"p_minor_slowdown"_s, u"p_minor_speedup"_s, u"p_significant_speedup"_s,
            u"p_high_speedup"_s, u"p_extreme_speedup"_s, u"reasoning"_s};
        QCOMPARE(answerFields(), fields);
        QStringList required;
        for (const QJsonValue &v : parameters[u"required"_s].toArray())
            required.append(v.toString());
        QCOMPARE(required, fields);
        const QJsonObject properties = parameters[u"properties"_s].toObject();
        QCOMPARE(properties.size(), 10);
        const QJsonObject bin = properties[u"predicted_bin"_s].toObject();
        QCOMPARE(bin[u"type"_s].toString(), u"integer"_s);
        QCOMPARE(bin[u"enum"_s].toArray(), (QJsonArray {1, 2, 3, 4, 5, 6, 7, 8}));
        for (int b = 1; b <= 8; ++b)
            QCOMPARE(properties[probabilityField(b)].toObject()[u"type"_s].toString(), u"number"_s);
        QCOMPARE(properties[u"reasoning"_s].toObject()[u"type"_s].toString(), u"string"_s);
        // Flat: no references or definitions anywhere.
        const QByteArray text = QJsonDocument(tool).toJson();
        QVERIFY(!text.contains("$ref"));
        QVERIFY(!text.contains("$defs"));
        QCOMPARE(toolChoice(),
            (QJsonObject {{u"type"_s, u"function"_s},
                {u"function"_s, QJsonObject {{u"name"_s, u"submit_kernel_runtime_estimate"_s}}}}));
    }
};

QTEST_GUILESS_MAIN(TestForecastPrompt)
#include "tst_forecast_prompt.moc"
