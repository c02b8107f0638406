// Tests for core/forecasters/forecast_parse: every rule of paper-facts §2 on the answer, one table row each.
#include "core/forecasters/forecast_parse.h"
#include "core/forecasters/prompt.h"
#include "core/forecasters/streamed_field.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gpuf;
using namespace gpuf::forecasters;
using namespace Qt::StringLiterals;

namespace {

// Arguments text with `ps` as the eight probabilities; `bin` and `reasoning` as raw JSON fragments.
QString argsText(const QStringList &ps, const QString &bin = u"5"_s, const QString &reasoning = u"\"Tiled.\""_s,
    const QString &extra = {})
{
    QString text = u"{\"predicted_bin\": "_s + bin;
    for (int b = 1; b <= 8; ++b)
        text += u", \"%1\": %2"_s.arg(probabilityField(b), ps.value(b - 1, u"0"_s));
    text += u", \"reasoning\": "_s + reasoning + extra + u"}"_s;
    return text;
}

const QStringList kValid {u"0"_s, u"0"_s, u"0"_s, u"0.1"_s, u"0.6"_s, u"0.3"_s, u"0"_s, u"0"_s};

} // namespace

class TestForecastParse : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void arguments_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("bin");
        QTest::addColumn<double>("rawSum");
        QTest::addColumn<double>("p5"); // renormalised probability of bin 5
        QTest::addColumn<QString>("error"); // expected error text (exact) when !ok

        QTest::newRow("valid") << argsText(kValid) << true << 5 << 1.0 << 0.6 << QString();
        QTest::newRow("sum 0.8 renormalised")
            << argsText({u"0"_s, u"0"_s, u"0"_s, u"0.2"_s, u"0.4"_s, u"0.2"_s, u"0"_s, u"0"_s}) << true << 5 << 0.8
            << 0.5 << QString();
        QTest::newRow("sum 1.2 renormalised")
            << argsText({u"0"_s, u"0"_s, u"0"_s, u"0.3"_s, u"0.6"_s, u"0.3"_s, u"0"_s, u"0"_s}) << true << 5 << 1.2
            << 0.5 << QString();
        QTest::newRow("bin is the model's, not argmax")
            << argsText(kValid, u"7"_s) << true << 7 << 1.0 << 0.6 << QString();
        QTest::newRow("bin 5.0 accepted") << argsText(kValid, u"5.0"_s) << true << 5 << 1.0 << 0.6 << QString();
        QTest::newRow("numeric strings accepted")
            << argsText({u"0"_s, u"0"_s, u"0"_s, u"\"0.1\""_s, u"\"0.6\""_s, u"\" 0.3\""_s, u"0"_s, u"0"_s}) << true
            << 5 << 1.0 << 0.6 << QString();
        QTest::newRow("extra keys ignored")
            << argsText(kValid, u"5"_s, u"\"Tiled.\""_s, u", \"confidence\": \"high\", \"p_9\": 7"_s) << true << 5
            << 1.0 << 0.6 << QString();
        QTest::newRow("edges 0 and 1") << argsText({u"0"_s, u"0"_s, u"0"_s, u"0"_s, u"1"_s, u"0"_s, u"0"_s, u"0"_s})
                                       << true << 5 << 1.0 << 1.0 << QString();

        QTest::newRow("all zeros") << argsText({}) << false << 0 << 0.0 << 0.0
                                   << u"the probabilities sum to 0; nothing to renormalise"_s;
        QTest::newRow("bare NaN") << argsText({u"0"_s, u"0"_s, u"NaN"_s, u"0.1"_s, u"0.6"_s, u"0.3"_s, u"0"_s, u"0"_s})
                                  << false << 0 << 0.0 << 0.0 << u"p_moderate_slowdown is NaN"_s;
        QTest::newRow("string NaN") << argsText(
            {u"0"_s, u"0"_s, u"\"NaN\""_s, u"0.1"_s, u"0.6"_s, u"0.3"_s, u"0"_s, u"0"_s})
                                    << false << 0 << 0.0 << 0.0 << u"p_moderate_slowdown is NaN"_s;
        QTest::newRow("bare Infinity") << argsText(
            {u"0"_s, u"0"_s, u"0"_s, u"0.1"_s, u"Infinity"_s, u"0.3"_s, u"0"_s, u"0"_s})
                                       << false << 0 << 0.0 << 0.0 << u"p_minor_speedup is Infinity"_s;
        QTest::newRow("bin 9") << argsText(kValid, u"9"_s) << false << 0 << 0.0 << 0.0
                               << u"predicted_bin is 9, outside 1..8"_s;
        QTest::newRow("bin 0") << argsText(kValid, u"0"_s) << false << 0 << 0.0 << 0.0
                               << u"predicted_bin is 0, outside 1..8"_s;
        QTest::newRow("bin 5.5") << argsText(kValid, u"5.5"_s) << false << 0 << 0.0 << 0.0
                                 << u"predicted_bin is 5.5, not an integer"_s;
        QTest::newRow("string bin") << argsText(kValid, u"\"5\""_s) << false << 0 << 0.0 << 0.0
                                    << u"predicted_bin is the string \"5\"; an integer is required"_s;
        QTest::newRow("null bin") << argsText(kValid, u"null"_s) << false << 0 << 0.0 << 0.0
                                  << u"predicted_bin is null; an integer is required"_s;
        QTest::newRow("NaN bin") << argsText(kValid, u"NaN"_s) << false << 0 << 0.0 << 0.0
                                 << u"predicted_bin is NaN, not an integer"_s;
        QTest::newRow("negative p") << argsText({u"0"_s, u"0"_s, u"0"_s, u"-0.1"_s, u"0.6"_s, u"0.3"_s, u"0"_s, u"0"_s})
                                    << false << 0 << 0.0 << 0.0 << u"p_minor_slowdown is -0.1, outside [0, 1]"_s;
        QTest::newRow("p above 1") << argsText({u"0"_s, u"0"_s, u"0"_s, u"0"_s, u"1.5"_s, u"0"_s, u"0"_s, u"0"_s})
                                   << false << 0 << 0.0 << 0.0 << u"p_minor_speedup is 1.5, outside [0, 1]"_s;
        QTest::newRow("non-numeric string p")
            << argsText({u"0"_s, u"0"_s, u"0"_s, u"\"low\""_s, u"0.6"_s, u"0.3"_s, u"0"_s, u"0"_s}) << false << 0 << 0.0
            << 0.0 << u"p_minor_slowdown is \"low\", not a number"_s;
        QTest::newRow("bool p") << argsText({u"0"_s, u"0"_s, u"0"_s, u"true"_s, u"0.6"_s, u"0.3"_s, u"0"_s, u"0"_s})
                                << false << 0 << 0.0 << 0.0 << u"p_minor_slowdown is true, not a number"_s;
        QTest::newRow("empty reasoning") << argsText(kValid, u"5"_s, u"\"  \""_s) << false << 0 << 0.0 << 0.0
                                         << u"reasoning is empty"_s;
        QTest::newRow("reasoning not a string")
            << argsText(kValid, u"5"_s, u"3"_s) << false << 0 << 0.0 << 0.0 << u"reasoning is 3, not a string"_s;
        QTest::newRow("missing key") << u"{\"predicted_bin\": 5, \"reasoning\": \"x\"}"_s << false << 0 << 0.0 << 0.0
                                     << u"p_severe_slowdown is missing"_s;
        QTest::newRow("array") << u"[1, 2]"_s << false << 0 << 0.0 << 0.0
                               << u"the arguments are not a JSON object: \"[1, 2]\""_s;
    }
    void arguments()
    {
        QFETCH(QString, json);
        QFETCH(bool, ok);
        QFETCH(int, bin);
        QFETCH(double, rawSum);
        QFETCH(double, p5);
        QFETCH(QString, error);
        const Result<ParsedAnswer> parsed = parseArguments(json);
        QCOMPARE(parsed.error(), error);
        QCOMPARE(parsed.ok(), ok);
        if (!ok)
            return;
        QCOMPARE(parsed->predictedBin, bin);
        QCOMPARE(parsed->rawSum, rawSum);
        QCOMPARE(parsed->probabilities[4], p5);
        double sum = 0.0;
        for (double p : parsed->probabilities)
            sum += p;
        QVERIFY(qFuzzyCompare(sum, 1.0));
        QCOMPARE(parsed->reasoning, u"Tiled."_s);
    }

    void invalidJson()
    {
        const Result<ParsedAnswer> parsed = parseArguments(u"{\"predicted_bin\": 5, \"p_severe"_s);
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().startsWith(u"the arguments are not valid JSON ("_s), qPrintable(parsed.error()));
        QVERIFY2(parsed.error().endsWith(u"\"{\"predicted_bin\": 5, \"p_severe\""_s), qPrintable(parsed.error()));
    }

    // NaN inside a string value is text, not a number: only bare words are rewritten.
    void nanInsideStringsIsText()
    {
        const Result<ParsedAnswer> parsed = parseArguments(argsText(kValid, u"5"_s, u"\"NaN checks: none\""_s));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error()));
        QCOMPARE(parsed->reasoning, u"NaN checks: none"_s);
    }

    void toolCalls_data()
    {
        QTest::addColumn<QList<llm::ToolCall>>("calls");
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("error");
        const QString good = argsText(kValid);
        const llm::ToolCall right {u"c1"_s, QString(kToolName), good};
        const llm::ToolCall wrong {u"c0"_s, u"defer_to_real_evaluator"_s, u"{\"reason\":\"unsure\"}"_s};
        QTest::newRow("one call") << QList<llm::ToolCall> {right} << QString() << QString();
        QTest::newRow("first with the name wins") << QList<llm::ToolCall> {wrong, right} << QString() << QString();
        QTest::newRow("wrong name") << QList<llm::ToolCall> {wrong} << u"thinking"_s
                                    << u"the model called 'defer_to_real_evaluator' instead of "
                                       "submit_kernel_runtime_estimate (finish reason: stop; content: \"thinking\")"_s;
        QTest::newRow("no call") << QList<llm::ToolCall> {} << QString(250, u'x')
                                 << u"no tool call in the answer (finish reason: stop; content: \""_s
                + QString(200, u'x') + u"\"…)"_s;
    }
    void toolCalls()
    {
        QFETCH(QList<llm::ToolCall>, calls);
        QFETCH(QString, content);
        QFETCH(QString, error);
        const Result<ParsedAnswer> parsed = parseToolCalls(calls, u"stop"_s, content);
        QCOMPARE(parsed.error(), error);
        QCOMPARE(parsed.ok(), error.isEmpty());
    }

    void content_data()
    {
        QTest::addColumn<QString>("content");
        QTest::addColumn<int>("bin");
        QTest::addColumn<QString>("error");
        const QString obj = argsText(kValid, u"6"_s);
        QTest::newRow("bare object") << obj << 6 << QString();
        QTest::newRow("fenced after prose with braces")
            << u"The loop `for (;;) { x++; }` is gone.\n\n```json\n"_s + obj + u"\n```\n"_s << 6 << QString();
        QTest::newRow("last object wins") << argsText(kValid, u"2"_s) + u"\nOn reflection:\n"_s + obj << 6 << QString();
        // Qt's own wording of the JSON error sits between the prefix and the excerpt.
        QTest::newRow("object invalid") << u"```json\n{\"predicted_bin\": 6, \"p_severe_slowdown\": }\n```"_s << 0
                                        << u"the answer's JSON object is not valid JSON (*): "
                                           "\"{\"predicted_bin\": 6, \"p_severe_slowdown\": }\""_s;
        QTest::newRow("object fails a rule") << argsText(kValid, u"9"_s) << 0 << u"predicted_bin is 9, outside 1..8"_s;
        QTest::newRow("no object") << u"I think it is faster."_s << 0
                                   << u"no JSON object with predicted_bin in the answer (finish reason: stop; "
                                      "content: \"I think it is faster.\")"_s;
    }
    void content()
    {
        QFETCH(QString, content);
        QFETCH(int, bin);
        QFETCH(QString, error);
        const Result<ParsedAnswer> parsed = parseContent(content, u"stop"_s);
        if (const qsizetype star = error.indexOf(u"(*)"_s); star >= 0) {
            QVERIFY2(parsed.error().startsWith(error.left(star + 1)), qPrintable(parsed.error()));
            QVERIFY2(parsed.error().endsWith(error.mid(star + 3)), qPrintable(parsed.error()));
            return;
        }
        QCOMPARE(parsed.error(), error);
        if (error.isEmpty())
            QCOMPARE(parsed->predictedBin, bin);
    }

    // In the no-tool mode a server that calls the tool anyway is still understood.
    void contentModeAcceptsToolCall()
    {
        llm::ChatResult result;
        result.toolCalls = {llm::ToolCall {u"c"_s, QString(kToolName), argsText(kValid, u"3"_s)}};
        const Result<ParsedAnswer> parsed = parseChatAnswer(result, false);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error()));
        QCOMPARE(parsed->predictedBin, 3);
        // …while the tool mode refuses a JSON answer in the content (no call is a failure).
        result.toolCalls.clear();
        result.content = argsText(kValid);
        result.finishReason = u"stop"_s;
        QVERIFY(!parseChatAnswer(result, true));
    }

    // The tool call's reasoning argument is handed out while it streams, whatever the cuts.
    void streamedField_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("escapes")
            << u"{\"predicted_bin\": 5, \"reasoning\": \"Says \\\"tiled\\\"\\nthen \\u00e9 \\\\ /\"}"_s
            << u"Says \"tiled\"\nthen é \\ /"_s;
        QTest::newRow("nested and value decoys")
            << u"{\"meta\": {\"reasoning\": \"no\"}, \"note\": \"reasoning\", \"reasoning\" : \"yes\", \"x\": 1}"_s
            << u"yes"_s;
        QTest::newRow("surrogate pair") << u"{\"reasoning\": \"a\\ud83d\\ude00b\"}"_s << u"a\U0001F600b"_s;
        QTest::newRow("no field") << u"{\"predicted_bin\": 5}"_s << QString();
    }
    void streamedField()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        for (qsizetype cut = 0; cut <= json.size(); ++cut) {
            StreamedJsonField field(u"reasoning"_s);
            QString got = field.feed(json.left(cut)); // two statements: operands of + have no order
            got += field.feed(json.mid(cut));
            QCOMPARE(got, expected);
            QCOMPARE(field.complete(), !expected.isEmpty());
        }
        StreamedJsonField byChar(u"reasoning"_s);
        QString got;
        for (QChar c : json)
            got += byChar.feed(QString(c));
        QCOMPARE(got, expected);
    }

    void excerptCutsAt200()
    {
        QCOMPARE(excerpt(u"abc"_s), u"\"abc\""_s);
        QCOMPARE(excerpt(QString(201, u'a')), u"\""_s + QString(200, u'a') + u"\"…"_s);
    }
};

QTEST_GUILESS_MAIN(TestForecastParse)
#include "tst_forecast_parse.moc"
