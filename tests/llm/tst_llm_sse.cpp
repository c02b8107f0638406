// Tests for the pure parts of core/llm: the SSE parser fed at every byte boundary, the <think> splitter, the answer
// accumulator (streamed chunks and whole answers), request bodies, profile checks and the retry schedule.
#include "core/llm/chat_accumulator.h"
#include "core/llm/chat_protocol.h"
#include "core/llm/chunk_fields.h"
#include "core/llm/sse_parser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gpuf;
using namespace gpuf::llm;

using Events = QList<SseEvent>;
Q_DECLARE_METATYPE(SseEvent)

namespace {

Events parseIn(const QList<QByteArray> &pieces, bool *partial = nullptr)
{
    SseParser parser;
    Events events;
    for (const QByteArray &piece : pieces)
        parser.feed(piece, events);
    if (partial)
        *partial = parser.hasPartialEvent();
    return events;
}

SseEvent data(const QByteArray &text, const QByteArray &event = {}) { return SseEvent {event, text}; }

QByteArray chunk(const QJsonObject &delta, const QString &finish = {})
{
    QJsonObject choice {{QStringLiteral("index"), 0}, {QStringLiteral("delta"), delta}};
    choice.insert(QStringLiteral("finish_reason"), finish.isEmpty() ? QJsonValue() : QJsonValue(finish));
    return QJsonDocument(QJsonObject {{QStringLiteral("choices"), QJsonArray {choice}}}).toJson(QJsonDocument::Compact);
}

QJsonObject call(int index, const QString &id, const QString &name, const QString &arguments)
{
    QJsonObject function {{QStringLiteral("arguments"), arguments}};
    if (!name.isNull())
        function.insert(QStringLiteral("name"), name);
    QJsonObject c {{QStringLiteral("function"), function}};
    if (index >= 0)
        c.insert(QStringLiteral("index"), index);
    if (!id.isNull())
        c.insert(QStringLiteral("id"), id);
    return QJsonObject {{QStringLiteral("tool_calls"), QJsonArray {c}}};
}

QString joined(const QList<ChatDelta> &deltas, DeltaKind kind)
{
    QString text;
    for (const ChatDelta &d : deltas) {
        if (d.kind == kind)
            text += d.text;
    }
    return text;
}

} // namespace

class TestLlmSse : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sseAtEveryBoundary_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<Events>("expected");
        QTest::addColumn<bool>("partial");
        QTest::newRow("LF") << QByteArray("data: a\n\n") << Events {data("a")} << false;
        QTest::newRow("CRLF") << QByteArray("data: a\r\n\r\ndata: b\r\n\r\n") << Events {data("a"), data("b")} << false;
        QTest::newRow("CR only") << QByteArray("data: a\r\rdata: b\r\r") << Events {data("a"), data("b")} << false;
        QTest::newRow("mixed ends") << QByteArray("data: a\r\n\ndata: b\n\r\n") << Events {data("a"), data("b")}
                                    << false;
        QTest::newRow("comment") << QByteArray(": keep-alive\r\n\r\ndata: x\r\n\r\n: ping\n\n") << Events {data("x")}
                                 << false;
        QTest::newRow("data lines joined")
            << QByteArray("data: a\ndata: b\ndata:\n\n") << Events {data("a\nb\n")} << false;
        QTest::newRow("no space after colon") << QByteArray("data:a\n\n") << Events {data("a")} << false;
        QTest::newRow("only one space dropped") << QByteArray("data:  a \n\n") << Events {data(" a ")} << false;
        QTest::newRow("bare field") << QByteArray("data\n\n") << Events {data("")} << false;
        QTest::newRow("event type") << QByteArray("event: error\ndata: {}\n\ndata: y\n\n")
                                    << Events {data("{}", "error"), data("y")} << false;
        QTest::newRow("no data no event") << QByteArray("event: ping\n\nid: 7\nretry: 10\n\n") << Events {} << false;
        QTest::newRow("id and retry ignored")
            << QByteArray("id: 1\nretry: 5\ndata: a\n\n") << Events {data("a")} << false;
        QTest::newRow("done") << QByteArray("data: {\"a\":1}\n\ndata: [DONE]\n\n")
                              << Events {data("{\"a\":1}"), data("[DONE]")} << false;
        QTest::newRow("byte-order mark") << QByteArray("\xEF\xBB\xBF"
                                                       "data: a\n\n")
                                         << Events {data("a")} << false;
        QTest::newRow("multi-byte UTF-8") << QByteArray("data: Grö→😀\r\n\r\n") << Events {data("Grö→😀")} << false;
        QTest::newRow("colon in value") << QByteArray("data: {\"k\": \"a:b\"}\n\n") << Events {data("{\"k\": \"a:b\"}")}
                                        << false;
        QTest::newRow("unfinished event") << QByteArray("data: a\n\ndata: b\n") << Events {data("a")} << true;
        QTest::newRow("unfinished line") << QByteArray("data: a\n\ndata: b") << Events {data("a")} << true;
        QTest::newRow("unknown field") << QByteArray("foo: bar\ndata: a\n\n") << Events {data("a")} << false;
    }
    // Whole, cut in two at every offset, and byte by byte: the same events every time.
    void sseAtEveryBoundary()
    {
        QFETCH(QByteArray, stream);
        QFETCH(Events, expected);
        QFETCH(bool, partial);
        bool leftOver = false;
        QCOMPARE(parseIn({stream}, &leftOver), expected);
        QCOMPARE(leftOver, partial);
        for (qsizetype cut = 1; cut < stream.size(); ++cut) {
            const Events events = parseIn({stream.left(cut), stream.mid(cut)}, &leftOver);
            QVERIFY2(events == expected, qPrintable(QStringLiteral("cut at %1").arg(cut)));
            QCOMPARE(leftOver, partial);
        }
        QList<QByteArray> bytes;
        for (char c : stream)
            bytes.append(QByteArray(1, c));
        QCOMPARE(parseIn(bytes), expected);
    }

    void thinkSplitter_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("reasoning");
        QTest::newRow("no tags") << QStringLiteral("plain a < b text") << QStringLiteral("plain a < b text")
                                 << QString();
        QTest::newRow("leading block") << QStringLiteral("<think>why</think>\nanswer") << QStringLiteral("\nanswer")
                                       << QStringLiteral("why");
        QTest::newRow("block in the middle")
            << QStringLiteral("a<think>b</think>c") << QStringLiteral("ac") << QStringLiteral("b");
        QTest::newRow("two blocks") << QStringLiteral("<think>1</think>x<think>2</think>y") << QStringLiteral("xy")
                                    << QStringLiteral("12");
        QTest::newRow("unterminated") << QStringLiteral("<think>still going") << QString()
                                      << QStringLiteral("still going");
        QTest::newRow("tag prefix at the end") << QStringLiteral("a <thin") << QStringLiteral("a <thin") << QString();
        QTest::newRow("close prefix at the end")
            << QStringLiteral("<think>r</thi") << QString() << QStringLiteral("r</thi");
        QTest::newRow("lookalike") << QStringLiteral("<thinking>x</thinking>")
                                   << QStringLiteral("<thinking>x</thinking>") << QString();
        QTest::newRow("double bracket") << QStringLiteral("<<think>r</think>") << QStringLiteral("<")
                                        << QStringLiteral("r");
        QTest::newRow("non-ASCII") << QStringLiteral("<think>Größe→</think>Ergebnis…") << QStringLiteral("Ergebnis…")
                                   << QStringLiteral("Größe→");
    }
    // Fed whole, in two pieces cut anywhere, in three pieces, and one character at a time.
    void thinkSplitter()
    {
        QFETCH(QString, text);
        QFETCH(QString, content);
        QFETCH(QString, reasoning);
        using Split = std::pair<QString, QString>;
        const Split expected {content, reasoning};
        const auto run = [](const QStringList &pieces) {
            ThinkSplitter splitter;
            ThinkSplitter::Pieces all;
            for (const QString &piece : pieces) {
                const ThinkSplitter::Pieces out = splitter.feed(piece);
                all.content += out.content;
                all.reasoning += out.reasoning;
            }
            const ThinkSplitter::Pieces rest = splitter.finish();
            return Split {all.content + rest.content, all.reasoning + rest.reasoning};
        };
        QCOMPARE(run({text}), expected);
        for (qsizetype a = 1; a < text.size(); ++a) {
            QCOMPARE(run({text.left(a), text.mid(a)}), expected);
            for (qsizetype b = a + 1; b < text.size(); ++b)
                QCOMPARE(run({text.left(a), text.mid(a, b - a), text.mid(b)}), expected);
        }
        QStringList characters;
        for (QChar c : text)
            characters.append(QString(c));
        QCOMPARE(run(characters), expected);
    }

    void thinkSplitterHoldsOnlyPossibleTags()
    {
        ThinkSplitter splitter;
        QCOMPARE(splitter.feed(u"abc <th").content, QStringLiteral("abc ")); // "<th" may start a tag
        QCOMPARE(splitter.feed(u"ree").content, QStringLiteral("<three"));
        QCOMPARE(splitter.feed(u"<think>x").reasoning, QStringLiteral("x"));
        QVERIFY(splitter.insideThink());
    }

    void accumulatesStreamedChunks()
    {
        ChatAccumulator accumulator(42);
        QList<ChatDelta> deltas;
        const QList<QByteArray> chunks {
            chunk(QJsonObject {{QStringLiteral("role"), QStringLiteral("assistant")}}),
            // vLLM sends the same text in both fields: it must count once.
            chunk(QJsonObject {{QStringLiteral("reasoning_content"), QStringLiteral("r1 ")},
                {QStringLiteral("reasoning"), QStringLiteral("r1 ")}}),
            chunk(QJsonObject {{QStringLiteral("reasoning"), QStringLiteral("r2 ")}}),
            chunk(QJsonObject {{QStringLiteral("content"), QStringLiteral("<think>t1</th")}}),
            chunk(QJsonObject {{QStringLiteral("content"), QStringLiteral("ink>c1")}}),
            chunk(call(0, QStringLiteral("call_a"), QStringLiteral("submit"), QString())),
            chunk(call(1, QStringLiteral("call_b"), QStringLiteral("other"), QStringLiteral("{}"))),
            chunk(call(0, QString(), QString(), QStringLiteral("{\"x\":"))),
            chunk(call(0, QString(), QString(), QStringLiteral("1}"))),
            chunk(QJsonObject {}, QStringLiteral("tool_calls")),
            "{\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":34,\"total_tokens\":46}}",
        };
        for (const QByteArray &c : chunks)
            QVERIFY(accumulator.addChunk(c, deltas).ok());
        accumulator.finish(&deltas);
        ChatResult result;
        accumulator.fill(result);
        QCOMPARE(result.reasoning, QStringLiteral("r1 r2 t1"));
        QCOMPARE(result.content, QStringLiteral("c1"));
        QCOMPARE(result.toolCalls.size(), 2);
        QCOMPARE(result.toolCalls[0].id, QStringLiteral("call_a"));
        QCOMPARE(result.toolCalls[0].name, QStringLiteral("submit"));
        QCOMPARE(result.toolCalls[0].arguments, QStringLiteral("{\"x\":1}"));
        QCOMPARE(result.toolCalls[1].name, QStringLiteral("other"));
        QCOMPARE(result.toolCalls[1].arguments, QStringLiteral("{}"));
        QCOMPARE(result.finishReason, QStringLiteral("tool_calls"));
        QCOMPARE(result.promptTokens, qint64(12));
        QCOMPARE(result.completionTokens, qint64(34));
        QVERIFY(accumulator.deliveredAnything());
        QCOMPARE(joined(deltas, DeltaKind::Reasoning), result.reasoning);
        QCOMPARE(joined(deltas, DeltaKind::Content), result.content);
        QCOMPARE(joined(deltas, DeltaKind::ToolArguments), QStringLiteral("{}{\"x\":1}"));
        for (const ChatDelta &d : std::as_const(deltas)) {
            QCOMPARE(d.requestId, quint64(42));
            QVERIFY(!d.text.isEmpty());
        }
        QCOMPARE(deltas.size(), 7); // one per kind per chunk that carried text
    }

    void toolCallsWithoutIndex()
    {
        // Some servers (Gemini's compatible endpoint) send whole calls without "index".
        ChatAccumulator accumulator;
        QList<ChatDelta> deltas;
        QVERIFY(
            accumulator
                .addChunk(chunk(call(-1, QStringLiteral("a"), QStringLiteral("f"), QStringLiteral("{\"n\":"))), deltas)
                .ok());
        QVERIFY(accumulator.addChunk(chunk(call(-1, QString(), QString(), QStringLiteral("1}"))), deltas).ok());
        QVERIFY(accumulator
                    .addChunk(chunk(call(-1, QStringLiteral("b"), QStringLiteral("g"), QStringLiteral("{}"))), deltas)
                    .ok());
        QVERIFY(accumulator.addChunk(chunk(call(-1, QStringLiteral("b"), QStringLiteral("g"), QString())), deltas)
                    .ok()); // name repeated
        ChatResult result;
        accumulator.fill(result);
        QCOMPARE(result.toolCalls.size(), 2);
        QCOMPARE(result.toolCalls[0].arguments, QStringLiteral("{\"n\":1}"));
        QCOMPARE(result.toolCalls[1].id, QStringLiteral("b"));
        QCOMPARE(result.toolCalls[1].name, QStringLiteral("g"));
    }

    // The scanner reads exactly what Qt's parser reads, or gives up; it must not give up on the usual shapes.
    void scannerAgreesWithQt_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("scanned");
        QTest::newRow("role") << chunk(QJsonObject {{QStringLiteral("role"), QStringLiteral("assistant")}}) << true;
        QTest::newRow("content") << chunk(
            QJsonObject {{QStringLiteral("content"), QStringLiteral("Grö\u00DFe → \"x\"\n")}})
                                 << true;
        QTest::newRow("reasoning both") << chunk(
            QJsonObject {{QStringLiteral("reasoning_content"), QStringLiteral("a")},
                {QStringLiteral("reasoning"), QStringLiteral("a")}})
                                        << true;
        QTest::newRow("tool call") << chunk(
            call(0, QStringLiteral("c1"), QStringLiteral("f"), QStringLiteral("{\"a\":")))
                                   << true;
        QTest::newRow("tool call without index") << chunk(call(-1, QString(), QString(), QStringLiteral("1}"))) << true;
        QTest::newRow("finish") << chunk(QJsonObject {}, QStringLiteral("tool_calls")) << true;
        QTest::newRow("usage") << QByteArray("{\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":34,"
                                             "\"details\":{\"x\":[1,2.5,true,null]}}}")
                               << true;
        QTest::newRow("usage null") << QByteArray(
            "{\"id\":\"x\",\"usage\":null,\"choices\":[{\"index\":0,\"delta\":{\"content\":null}}]}")
                                    << true;
        QTest::newRow("escapes") << QByteArray(
            "{\"choices\":[{\"delta\":{\"content\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"}}]}")
                                 << true;
        QTest::newRow("whitespace") << QByteArray(
            " { \"choices\" : [ { \"delta\" : { \"content\" : \"a\" } , \"finish_reason\" : null } ] } ")
                                    << true;
        QTest::newRow("two choices") << QByteArray(
            "{\"choices\":[{\"delta\":{\"content\":\"a\"}},{\"delta\":{\"content\":\"b\"}}]}")
                                     << true;
        QTest::newRow("unknown nested") << QByteArray("{\"x\":{\"y\":[{\"z\":\"}\"}]},\"choices\":[{\"logprobs\":{"
                                                      "\"content\":[]},\"delta\":{\"content\":\"a\"}}]}")
                                        << true;
        QTest::newRow("content parts") << QByteArray(
            "{\"choices\":[{\"delta\":{\"content\":[{\"type\":\"text\",\"text\":\"a\"}]}}]}")
                                       << false;
        QTest::newRow("arguments object") << QByteArray(
            "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":{\"a\":1}}}]}}]}")
                                          << false;
        QTest::newRow("error") << QByteArray("{\"error\":{\"message\":\"m\"}}") << false;
        QTest::newRow("float tokens") << QByteArray("{\"choices\":[],\"usage\":{\"prompt_tokens\":1.0}}") << false;
        QTest::newRow("escaped key") << QByteArray("{\"cho\\u0069ces\":[]}") << false;
        QTest::newRow("lone surrogate") << QByteArray("{\"choices\":[{\"delta\":{\"content\":\"\\ud83d\"}}]}") << false;
        QTest::newRow("invalid UTF-8") << QByteArray("{\"choices\":[{\"delta\":{\"content\":\"\xC3\x28\"}}]}") << false;
        QTest::newRow("trailing garbage") << QByteArray("{\"choices\":[]} x") << false;
        QTest::newRow("truncated") << QByteArray("{\"choices\":[{\"delta\":{\"content\":\"a") << false;
    }
    void scannerAgreesWithQt()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, scanned);
        const std::optional<ChunkFields> fast = scanChunk(json);
        QCOMPARE(fast.has_value(), scanned);
        if (!fast)
            return;
        const QJsonDocument document = QJsonDocument::fromJson(json);
        QVERIFY(document.isObject());
        const ChunkFields slow = chunkFields(document.object());
        QCOMPARE(fast->delta.content, slow.delta.content);
        QCOMPARE(fast->delta.reasoning, slow.delta.reasoning);
        QCOMPARE(fast->delta.reasoningContent, slow.delta.reasoningContent);
        QCOMPARE(fast->delta.toolCalls.size(), slow.delta.toolCalls.size());
        QVERIFY(*fast == slow);
    }

    void streamedChunkErrors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("not JSON") << QByteArray("{\"choices\": [") << QStringLiteral("stream event is not JSON");
        QTest::newRow("not an object") << QByteArray("[1,2]")
                                       << QStringLiteral("stream event is not JSON (not an object)");
        QTest::newRow("error object") << QByteArray("{\"error\":{\"message\":\"context length exceeded\"}}")
                                      << QStringLiteral(
                                             "the server sent an error in the stream: context length exceeded");
    }
    void streamedChunkErrors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        ChatAccumulator accumulator;
        QList<ChatDelta> deltas;
        const Status status = accumulator.addChunk(json, deltas);
        QVERIFY(!status.ok());
        QVERIFY2(status.error().startsWith(error), qPrintable(status.error()));
    }

    void wholeAnswers_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("reasoning");
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("finish");
        QTest::newRow("tool call") << QByteArray(
            "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"because\","
            "\"tool_calls\":[{\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{"
            "\\\"a\\\":1}\"}}]},\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":5,\"completion_"
            "tokens\":6}}") << QString()
                                   << QString() << QStringLiteral("because") << QStringLiteral("{\"a\":1}")
                                   << QStringLiteral("tool_calls");
        QTest::newRow("arguments as object")
            << QByteArray("{\"choices\":[{\"message\":{\"tool_calls\":[{\"function\":{\"name\":\"f\",\"arguments\":{"
                          "\"a\":1}}}]},\"finish_reason\":\"stop\"}]}")
            << QString() << QString() << QString() << QStringLiteral("{\"a\":1}") << QStringLiteral("stop");
        QTest::newRow("think in content") << QByteArray(
            "{\"choices\":[{\"message\":{\"content\":\"<think>hm</think>{\\\"x\\\":2}\"},\"finish_reason\":\"stop\"}]}")
                                          << QString() << QStringLiteral("{\"x\":2}") << QStringLiteral("hm")
                                          << QString() << QStringLiteral("stop");
        QTest::newRow("reasoning field") << QByteArray(
            "{\"choices\":[{\"message\":{\"content\":\"ok\",\"reasoning\":\"r\"},\"finish_reason\":\"length\"}]}")
                                         << QString() << QStringLiteral("ok") << QStringLiteral("r") << QString()
                                         << QStringLiteral("length");
        QTest::newRow("content parts") << QByteArray("{\"choices\":[{\"message\":{\"content\":[{\"type\":\"text\","
                                                     "\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}]}}]}")
                                       << QString() << QStringLiteral("ab") << QString() << QString() << QString();
        QTest::newRow("broken JSON") << QByteArray("{\"choices\":[{\"mess") << QStringLiteral("response is not JSON: ")
                                     << QString() << QString() << QString() << QString();
        QTest::newRow("HTML") << QByteArray("<html>Bad gateway</html>") << QStringLiteral("response is not JSON: ")
                              << QString() << QString() << QString() << QString();
        QTest::newRow("no choices") << QByteArray("{\"object\":\"chat.completion\"}")
                                    << QStringLiteral("response has no choices") << QString() << QString() << QString()
                                    << QString();
        QTest::newRow("error object") << QByteArray("{\"error\":\"model not loaded\"}")
                                      << QStringLiteral("the server answered with an error: model not loaded")
                                      << QString() << QString() << QString() << QString();
    }
    void wholeAnswers()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        QFETCH(QString, content);
        QFETCH(QString, reasoning);
        QFETCH(QString, arguments);
        QFETCH(QString, finish);
        ChatAccumulator accumulator;
        const Status status = accumulator.addWhole(json);
        QVERIFY2(status.error().startsWith(error) && status.ok() == error.isEmpty(), qPrintable(status.error()));
        if (!status.ok())
            return;
        ChatResult result;
        accumulator.fill(result);
        QCOMPARE(result.content, content);
        QCOMPARE(result.reasoning, reasoning);
        QCOMPARE(result.toolCalls.isEmpty() ? QString() : result.toolCalls.first().arguments, arguments);
        QCOMPARE(result.finishReason, finish);
    }

    void wholeAnswerUsage()
    {
        ChatAccumulator accumulator;
        QVERIFY(accumulator
                    .addWhole("{\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":{\"prompt_tokens\":7,"
                              "\"completion_tokens\":8}}")
                    .ok());
        ChatResult result;
        accumulator.fill(result);
        QCOMPARE(result.promptTokens, qint64(7));
        QCOMPARE(result.completionTokens, qint64(8));
        ChatAccumulator none;
        QVERIFY(none.addWhole("{\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":null}").ok());
        none.fill(result);
        QCOMPARE(result.promptTokens, qint64(-1));
    }

    void serverErrorMessages_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("openai") << QByteArray("{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}")
                                << QStringLiteral("Rate limit reached");
        QTest::newRow("string error") << QByteArray("{\"error\":\"busy\"}") << QStringLiteral("busy");
        QTest::newRow("message") << QByteArray("{\"message\":\"nope\",\"code\":3}") << QStringLiteral("nope");
        QTest::newRow("fastapi detail") << QByteArray("{\"detail\":\"Not Found\"}") << QStringLiteral("Not Found");
        QTest::newRow("text") << QByteArray("upstream  connect\nerror") << QStringLiteral("upstream connect error");
        QTest::newRow("long text") << QByteArray(400, 'x') << QString(300, u'x');
        QTest::newRow("empty") << QByteArray() << QString();
    }
    void serverErrorMessages()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        QCOMPARE(serverErrorMessage(body), message);
    }

    void requestBody_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QString>("effort");
        QTest::addColumn<bool>("tools");
        QTest::newRow("streamed, tools, effort") << true << QStringLiteral("medium") << true;
        QTest::newRow("whole, no tools, no effort") << false << QString() << false;
    }
    void requestBody()
    {
        QFETCH(bool, stream);
        QFETCH(QString, effort);
        QFETCH(bool, tools);
        EndpointProfile profile;
        profile.model = QStringLiteral("m");
        profile.temperature = 0.5;
        profile.maxTokens = 1234;
        profile.reasoningEffort = effort;
        ChatRequest request;
        request.messages = QJsonArray {QJsonObject {
            {QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), QStringLiteral("hi")}}};
        if (tools) {
            request.tools = QJsonArray {QJsonObject {{QStringLiteral("type"), QStringLiteral("function")}}};
            request.toolChoice = QJsonObject {{QStringLiteral("type"), QStringLiteral("function")}};
        }
        const QJsonObject body = QJsonDocument::fromJson(buildRequestBody(profile, request, stream)).object();
        QCOMPARE(body.value(QLatin1StringView("model")).toString(), QStringLiteral("m"));
        QCOMPARE(body.value(QLatin1StringView("messages")).toArray(), request.messages);
        QCOMPARE(body.value(QLatin1StringView("temperature")).toDouble(), 0.5);
        QCOMPARE(body.value(QLatin1StringView("max_tokens")).toInt(), 1234);
        QCOMPARE(body.value(QLatin1StringView("stream")).toBool(), stream);
        QCOMPARE(body.contains(QLatin1StringView("stream_options")), stream);
        if (stream)
            QCOMPARE(body.value(QLatin1StringView("stream_options"))
                         .toObject()
                         .value(QLatin1StringView("include_usage"))
                         .toBool(),
                true);
        QCOMPARE(body.value(QLatin1StringView("reasoning_effort")).toString(), effort);
        QCOMPARE(body.contains(QLatin1StringView("reasoning_effort")), !effort.isEmpty());
        QCOMPARE(body.contains(QLatin1StringView("tools")), tools);
        QCOMPARE(body.contains(QLatin1StringView("tool_choice")), tools);
    }

    void profileChecks_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("error");
        QTest::newRow("fine") << QByteArray("X-Title") << QByteArray("gpuf") << QString();
        QTest::newRow("authorization") << QByteArray("Authorization") << QByteArray("Bearer x")
                                       << QStringLiteral("extra headers may not set Authorization: the API key comes "
                                                         "from an environment variable or the keychain");
        QTest::newRow("authorization, other case")
            << QByteArray(" authorization ") << QByteArray("x")
            << QStringLiteral("extra headers may not set Authorization: the API key comes from an environment variable "
                              "or the keychain");
        QTest::newRow("line break") << QByteArray("X-A") << QByteArray("a\r\nAuthorization: b")
                                    << QStringLiteral("extra header \"X-A\" is not a valid header");
    }
    void profileChecks()
    {
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, value);
        QFETCH(QString, error);
        EndpointProfile profile;
        profile.baseUrl = QStringLiteral("http://127.0.0.1:1/v1");
        profile.model = QStringLiteral("m");
        profile.extraHeaders = {{header, value}};
        QCOMPARE(checkProfile(profile).error(), error);
    }

    void retryAfter_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<qint64>("ms"); // -1: none
        QTest::newRow("seconds") << QByteArray("1") << qint64(1000);
        QTest::newRow("zero") << QByteArray(" 0 ") << qint64(0);
        QTest::newRow("negative") << QByteArray("-3") << qint64(-1);
        QTest::newRow("HTTP-date") << QByteArray("Wed, 21 Oct 2015 07:28:30 GMT") << qint64(30000);
        QTest::newRow("HTTP-date in the past") << QByteArray("Wed, 21 Oct 2015 07:00:00 GMT") << qint64(0);
        QTest::newRow("garbage") << QByteArray("soon") << qint64(-1);
        QTest::newRow("empty") << QByteArray() << qint64(-1);
    }
    void retryAfter()
    {
        QFETCH(QByteArray, value);
        QFETCH(qint64, ms);
        const QDateTime now(QDate(2015, 10, 21), QTime(7, 28, 0), Qt::UTC);
        QCOMPARE(parseRetryAfterMs(value, now).value_or(-1), ms);
    }

    void backoff_data()
    {
        QTest::addColumn<int>("attempt");
        QTest::addColumn<double>("random");
        QTest::addColumn<qint64>("ms");
        QTest::newRow("first, no jitter") << 1 << 0.5 << qint64(500);
        QTest::newRow("first, least") << 1 << 0.0 << qint64(250);
        QTest::newRow("third") << 3 << 0.5 << qint64(2000);
        QTest::newRow("capped") << 30 << 0.99 << qint64(60000);
    }
    void backoff()
    {
        QFETCH(int, attempt);
        QFETCH(double, random);
        QFETCH(qint64, ms);
        QCOMPARE(backoffDelayMs(500, attempt, random), ms);
    }

    void retryableStatuses()
    {
        for (int status : {408, 429, 500, 502, 503, 504})
            QVERIFY2(isRetryableHttpStatus(status), qPrintable(QString::number(status)));
        for (int status : {200, 400, 401, 403, 404, 413, 422})
            QVERIFY2(!isRetryableHttpStatus(status), qPrintable(QString::number(status)));
    }

    void statusNames()
    {
        QCOMPARE(chatStatusName(ChatStatus::Ok), QStringLiteral("ok"));
        QCOMPARE(chatStatusName(ChatStatus::Cancelled), QStringLiteral("cancelled"));
        QCOMPARE(chatStatusName(ChatStatus::TimedOut), QStringLiteral("timed_out"));
        QCOMPARE(chatStatusName(ChatStatus::HttpError), QStringLiteral("http_error"));
        QCOMPARE(chatStatusName(ChatStatus::TransportError), QStringLiteral("transport_error"));
        QCOMPARE(chatStatusName(ChatStatus::ProtocolError), QStringLiteral("protocol_error"));
    }
};

QTEST_GUILESS_MAIN(TestLlmSse)
#include "tst_llm_sse.moc"
