// Tests for EndpointProbe ("Test connection") against the scripted loopback server: each capability reported with
// its detail for servers that have it or lack it, and what the probe sent.
#include "core/llm/endpoint_probe.h"
#include "tests/llm/llm_test_support.h"

#include <QSignalSpy>

using namespace gpuf;
using namespace gpuf::llm;
using namespace gpuf::llm::testing;

class TestLlmProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void probe_data()
    {
        QTest::addColumn<bool>("tools");
        QTest::addColumn<bool>("streaming");
        QTest::addColumn<bool>("listed");
        QTest::newRow("everything") << true << true << true;
        QTest::newRow("no tool calling") << false << true << true;
        QTest::newRow("no streaming") << true << false << true;
        QTest::newRow("model not listed") << true << true << false;
    }
    void probe()
    {
        QFETCH(bool, tools);
        QFETCH(bool, streaming);
        QFETCH(bool, listed);
        OpenAiServer server;
        QVERIFY(server.listen());
        server.setResponder(capableServer(tools, streaming));
        if (!listed)
            server.setModels({QStringLiteral("other-model"), QStringLiteral("third-model")});
        EndpointProbe probe(fastProfile(server));
        QSignalSpy finished(&probe, &EndpointProbe::finished);
        QSignalSpy steps(&probe, &EndpointProbe::checkFinished);
        probe.start();
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(steps.size(), 4);
        const ProbeReport report = probe.report();
        QCOMPARE(report.reachable.state, ProbeCheck::State::Ok);
        QVERIFY2(
            report.reachable.detail.startsWith(QStringLiteral("HTTP 200 from 127.0.0.1:%1 in ").arg(server.port())),
            qPrintable(report.reachable.detail));
        QCOMPARE(report.modelListed.ok(), listed);
        QCOMPARE(report.modelListed.detail,
            listed ? QStringLiteral("\"test-model\" is listed (1 model(s) in all)")
                   : QStringLiteral("\"test-model\" is not among the 2 listed model(s): other-model, third-model"));
        QCOMPARE(report.toolCalling.ok(), tools);
        if (tools)
            QVERIFY2(report.toolCalling.detail.startsWith(
                         QStringLiteral("the model called report_number({\"value\":7}) in ")),
                qPrintable(report.toolCalling.detail));
        else
            QCOMPARE(report.toolCalling.detail,
                QStringLiteral("the model answered without calling the tool (finish reason \"stop\"): OK"));
        QCOMPARE(report.streaming.ok(), streaming);
        if (!streaming)
            QCOMPARE(report.streaming.detail,
                QStringLiteral("the server answered with one JSON body instead of server-sent events"));
        // What the probe sent: /models, then a forced tool call without and with stream.
        const QList<RecordedRequest> sent = server.requests();
        QCOMPARE(sent.size(), 3);
        QCOMPARE(sent[0].method + ' ' + sent[0].path, QByteArray("GET /v1/models"));
        QCOMPARE(sent[1].json().value(QLatin1StringView("stream")).toBool(), false);
        QCOMPARE(sent[1]
                     .json()
                     .value(QLatin1StringView("tool_choice"))
                     .toObject()
                     .value(QLatin1StringView("function"))
                     .toObject()
                     .value(QLatin1StringView("name"))
                     .toString(),
            QStringLiteral("report_number"));
        QCOMPARE(sent[2].json().value(QLatin1StringView("stream")).toBool(), true);
        QCOMPARE(sent[2].json().contains(QLatin1StringView("tools")),
            tools); // streaming is tested without tools when they failed
    }

    void probeToolsRejected()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.setResponder([](const RecordedRequest &request) {
            if (request.json().contains(QLatin1StringView("tools")))
                return errorResponse(400, QStringLiteral("tool calling is not supported by this model"));
            return contentAnswer(QStringLiteral("OK"), request.json().value(QLatin1StringView("stream")).toBool());
        });
        EndpointProbe probe(fastProfile(server));
        QSignalSpy finished(&probe, &EndpointProbe::finished);
        probe.start();
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(probe.report().toolCalling.state, ProbeCheck::State::Failed);
        QCOMPARE(
            probe.report().toolCalling.detail, QStringLiteral("HTTP 400: tool calling is not supported by this model"));
        QCOMPARE(probe.report().streaming.state, ProbeCheck::State::Ok);
    }

    void probeCancelled()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.setResponder([](const RecordedRequest &) {
            ScriptedResponse slow = toolCallAnswer(
                QJsonObject {{QStringLiteral("value"), 7}}, false, QStringLiteral("report_number"), QString());
            slow.headersDelayMs = 10000;
            return slow;
        });
        EndpointProbe probe(fastProfile(server));
        QSignalSpy finished(&probe, &EndpointProbe::finished);
        probe.start();
        QTRY_COMPARE(server.requestCount(), 2); // /models answered, the tool call waiting
        probe.cancel();
        QCOMPARE(finished.size(), 1);
        QVERIFY(!probe.isRunning());
        QCOMPARE(probe.report().reachable.state, ProbeCheck::State::Ok);
        QCOMPARE(probe.report().modelListed.state, ProbeCheck::State::Ok);
        QCOMPARE(probe.report().toolCalling.state, ProbeCheck::State::Skipped);
        QCOMPARE(probe.report().toolCalling.detail, QStringLiteral("cancelled"));
        QCOMPARE(probe.report().streaming.detail, QStringLiteral("cancelled"));
        QTRY_COMPARE(server.openRequests(), 0); // its connection was dropped
        QTest::qWait(50);
        QCOMPARE(finished.size(), 1);
    }

    void probeUnreachable()
    {
        const quint16 port = closedPort();
        EndpointProfile profile;
        profile.baseUrl = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
        profile.model = QStringLiteral("m");
        EndpointProbe probe(profile);
        QSignalSpy finished(&probe, &EndpointProbe::finished);
        probe.start();
        QVERIFY(finished.wait(kWaitMs));
        const ProbeReport report = probe.report();
        QCOMPARE(report.reachable.state, ProbeCheck::State::Failed);
        QCOMPARE(report.reachable.detail, QStringLiteral("connection refused to 127.0.0.1:%1").arg(port));
        for (const ProbeCheck &c : {report.modelListed, report.toolCalling, report.streaming}) {
            QCOMPARE(c.state, ProbeCheck::State::Skipped);
            QCOMPARE(c.detail, QStringLiteral("skipped: the endpoint cannot be reached"));
        }
    }
};

QTEST_GUILESS_MAIN(TestLlmProbe)
#include "tst_llm_probe.moc"
