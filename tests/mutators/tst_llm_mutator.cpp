// The LLM mutator against the scripted OpenAI-compatible server on loopback (real sockets, real SSE): a proposal
// from a streamed answer, the prompt the server received, 429 answered by a retry, an endpoint that fails every call,
// answers without code, cancel; every failure an answer with an error, never a crash. Also the generation task read
// from a real store.
#include "core/interop/corpus.h"
#include "core/mutators/llm_mutator.h"
#include "core/mutators/mutator_factory.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "gpuf_config.h"
#include "tests/llm/llm_test_support.h"

#include <QTemporaryDir>

using namespace gpuf;
using namespace gpuf::families;
using namespace gpuf::llm::testing;
using namespace Qt::StringLiterals;

namespace {

const QString kKernel
    = u"// Tiles through shared memory.\nextern \"C\" __global__ void transpose_naive(const float* in, "
      "float* out, int rows, int cols)\n{\n    out[0] = in[0];\n}"_s;

struct Fixture
{
    QTemporaryDir dir;
    std::unique_ptr<Store> store;
    GenerationTask task;
    search::MutationParent parent;

    bool create()
    {
        auto opened = Store::open(dir.filePath(u"llm.gpuf"_s), Store::Mode::CreateIfMissing);
        if (!opened || !interop::importCorpus(**opened, QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus")))
            return false;
        store = std::move(*opened);
        auto problem = ProblemRepo(*store).findByName(u"transpose"_s);
        if (!problem || !problem->has_value())
            return false;
        auto t = loadGenerationTask(*store, (*problem)->id, u"NVIDIA H200 (sm_90)"_s);
        if (!t)
            return false;
        task = *t;
        parent.source = task.referenceSource;
        parent.language = u"cuda"_s;
        QJsonObject spec = task.referenceSpec;
        spec.remove(u"source"_s);
        parent.parameters = QJsonObject {{u"spec"_s, spec}};
        parent.feedback.kind = search::EvaluationFeedback::Kind::Incorrect;
        parent.feedback.message = u"case 4096x8192: 7 of 33554432 elements differ"_s;
        return true;
    }
};

search::MutationRequest requestFor(const search::MutationParent &parent, int index)
{
    search::MutationRequest r;
    r.requestId = u"01JREQ%1"_s.arg(index, 20, 10, QLatin1Char('0'));
    r.index = index;
    r.seed = quint64(index);
    r.parent = parent;
    return r;
}

// Runs the requests and waits for their answers (or the time limit).
QList<search::MutationResult> ask(
    LlmMutator &mutator, const QList<search::MutationRequest> &requests, int timeoutMs = 5000)
{
    QList<search::MutationResult> answers;
    mutator.request(requests, [&](search::MutationResult r) { answers.append(r); });
    waitUntil([&] { return answers.size() >= requests.size(); }, timeoutMs);
    return answers;
}

} // namespace

class TestLlmMutator : public QObject
{
    Q_OBJECT

    Fixture m_fixture;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_fixture.create()); }

    void generationTaskFromStore()
    {
        const GenerationTask &task = m_fixture.task;
        QCOMPARE(task.problemName, u"transpose"_s);
        QCOMPARE(task.language, u"cuda"_s);
        QVERIFY(task.referenceSource.contains(u"transpose_naive"_s));
        QCOMPARE(task.referenceSpec.value(u"cases"_s).toArray().size(), 2);
        auto missing = loadGenerationTask(*m_fixture.store, 9999);
        QVERIFY(!missing);
        QCOMPARE(missing.error(), u"problem 9999 is not in the store"_s);
    }

    void proposalFromStreamedAnswer()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.enqueue(
            contentAnswer(u"The naive kernel strides its writes.\n```cuda\n"_s + kKernel + u"\n```\n"_s, true));
        LlmMutator mutator(fastProfile(server), m_fixture.task);
        QVERIFY(mutator.prepare({m_fixture.task.problemId, u"transpose"_s, 1}));
        QCOMPARE(mutator.kind(), u"llm"_s);
        QCOMPARE(mutator.configuration().value(u"model"_s).toString(), u"test-model"_s);
        const auto answers = ask(mutator, {requestFor(m_fixture.parent, 0)});
        QCOMPARE(answers.size(), 1);
        const search::MutationResult &r = answers.first();
        QVERIFY2(r.proposal, qPrintable(r.error));
        QCOMPARE(r.requestId, requestFor(m_fixture.parent, 0).requestId);
        QCOMPARE(r.proposal->source, kKernel);
        QCOMPARE(r.proposal->origin, u"llm:test-model"_s);
        QCOMPARE(r.proposal->language, u"cuda"_s);
        const QJsonObject spec = r.proposal->parameters.value(u"spec"_s).toObject();
        QCOMPARE(spec.value(u"launches"_s), m_fixture.task.referenceSpec.value(u"launches"_s)); // the parent's
        QVERIFY(!spec.contains(u"source"_s));
        QCOMPARE(r.details.value(u"prompt_version"_s).toString(), QString(kGenerationPromptVersion));
        QCOMPARE(r.details.value(u"attempts"_s).toInt(), 1);

        // What the endpoint was sent: one user message with the parent's code and its evaluation.
        QCOMPARE(server.requestCount(), 1);
        const QJsonObject body = server.requests().first().json();
        QCOMPARE(body.value(u"model"_s).toString(), u"test-model"_s);
        const QJsonArray messages = body.value(u"messages"_s).toArray();
        QCOMPARE(messages.size(), 1);
        const QString prompt = messages.first().toObject().value(u"content"_s).toString();
        QVERIFY(prompt.contains(u"## The kernel to improve\n```cuda\n"_s + m_fixture.task.referenceSource.trimmed()));
        QVERIFY(prompt.contains(
            u"It ran but its results were wrong:\n```\ncase 4096x8192: 7 of 33554432 elements differ"_s));
        QVERIFY(prompt.contains(u"The target GPU is NVIDIA H200 (sm_90)."_s));
    }

    void rateLimitedThenAnswered()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.enqueue(errorResponse(429, u"Rate limit reached"_s, {{"Retry-After", "0"}}));
        server.enqueue(contentAnswer(u"```cuda\n"_s + kKernel + u"\n```"_s, false));
        LlmMutator mutator(fastProfile(server), m_fixture.task);
        const auto answers = ask(mutator, {requestFor(m_fixture.parent, 1)});
        QCOMPARE(answers.size(), 1);
        QVERIFY2(answers.first().proposal, qPrintable(answers.first().error));
        QCOMPARE(answers.first().details.value(u"attempts"_s).toInt(), 2);
        QCOMPARE(server.requestCount(), 2);
    }

    void endpointFailsEveryCall()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        server.setResponder([](const RecordedRequest &) { return errorResponse(429, u"Rate limit reached"_s); });
        LlmMutator mutator(fastProfile(server), m_fixture.task);
        const auto answers = ask(mutator, {requestFor(m_fixture.parent, 2), requestFor(m_fixture.parent, 3)});
        QCOMPARE(answers.size(), 2);
        for (const search::MutationResult &r : answers) {
            QVERIFY(!r.proposal);
            QCOMPARE(r.error, u"the endpoint failed (http_error): HTTP 429: Rate limit reached"_s);
            QCOMPARE(r.details.value(u"http_status"_s).toInt(), 429);
            QCOMPARE(r.details.value(u"attempts"_s).toInt(), 3);
        }
        QCOMPARE(server.requestCount(), 6);
    }

    void unreachableEndpoint()
    {
        llm::EndpointProfile profile;
        profile.baseUrl = u"http://127.0.0.1:%1/v1"_s.arg(closedPort());
        profile.model = u"test-model"_s;
        profile.maxRetries = 0;
        profile.connectTimeoutMs = 1000;
        profile.totalTimeoutMs = 3000;
        LlmMutator mutator(profile, m_fixture.task);
        const auto answers = ask(mutator, {requestFor(m_fixture.parent, 4)});
        QCOMPARE(answers.size(), 1);
        QVERIFY(!answers.first().proposal);
        QVERIFY2(answers.first().error.startsWith(u"the endpoint failed (transport_error)"_s),
            qPrintable(answers.first().error));
    }

    void answersWithoutUsableCode_data()
    {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("error");
        QTest::newRow("prose only") << u"I would use shared memory tiles."_s
                                    << u"no code: the answer has no non-empty ```cuda block"_s;
        QTest::newRow("empty block") << u"```cuda\n\n```"_s << u"no code: the answer has no non-empty ```cuda block"_s;
        QTest::newRow("broken launch block") << u"```cuda\n"_s + kKernel + u"\n```\n```json\n[{\"entry\":}]\n```"_s
                                             << u"the ```json launch block is not JSON"_s;
    }
    void answersWithoutUsableCode()
    {
        QFETCH(QString, content);
        QFETCH(QString, error);
        OpenAiServer server;
        QVERIFY(server.listen());
        server.enqueue(contentAnswer(content, true));
        LlmMutator mutator(fastProfile(server), m_fixture.task);
        const auto answers = ask(mutator, {requestFor(m_fixture.parent, 5)});
        QCOMPARE(answers.size(), 1);
        QVERIFY(!answers.first().proposal);
        QVERIFY2(answers.first().error.startsWith(error), qPrintable(answers.first().error));
        QCOMPARE(answers.first().details.value(u"answer_head"_s).toString(), content.left(2000));
    }

    void cancelledRequestsAreNotAnswered()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        ScriptedResponse slow = contentAnswer(u"```cuda\n"_s + kKernel + u"\n```"_s, false);
        slow.headersDelayMs = 300;
        server.enqueue(slow);
        LlmMutator mutator(fastProfile(server), m_fixture.task);
        QList<search::MutationResult> answers;
        mutator.request({requestFor(m_fixture.parent, 6)}, [&](search::MutationResult r) { answers.append(r); });
        QVERIFY(waitUntil([&] { return server.requestCount() == 1; }));
        mutator.cancel();
        // Give a late answer every chance to arrive: none may.
        QVERIFY(!waitUntil([&] { return !answers.isEmpty(); }, 800));
    }

    void factory()
    {
        OpenAiServer server;
        QVERIFY(server.listen());
        auto made = makeLlmMutator(*m_fixture.store, m_fixture.task.problemId,
            QJsonObject {{u"endpoint"_s, server.baseUrl()}, {u"model"_s, u"test-model"_s}}, u"NVIDIA H200"_s);
        QVERIFY2(made, qPrintable(made.error()));
        QCOMPARE((*made)->kind(), u"llm"_s);
        QCOMPARE((*made)->configuration().value(u"model"_s).toString(), u"test-model"_s);
        auto missing = makeLlmMutator(*m_fixture.store, m_fixture.task.problemId, QJsonObject {});
        QVERIFY(!missing);
        QVERIFY2(missing.error().startsWith(u"the LLM mutator's configuration: "_s), qPrintable(missing.error()));
    }

    void prepareRefusesMisconfiguration()
    {
        llm::EndpointProfile noModel;
        noModel.baseUrl = u"http://127.0.0.1:1/v1"_s;
        LlmMutator unconfigured(noModel, m_fixture.task);
        QCOMPARE(unconfigured.prepare({m_fixture.task.problemId, u"transpose"_s, 1}).error(),
            u"the LLM mutator needs an endpoint and a model"_s);
        OpenAiServer server;
        QVERIFY(server.listen());
        LlmMutator other(fastProfile(server), m_fixture.task);
        QCOMPARE(other.prepare({m_fixture.task.problemId + 1, u"sgemm"_s, 1}).error(),
            u"the LLM mutator was prepared for problem 'transpose', not this search's 'sgemm'"_s);
    }
};

QTEST_GUILESS_MAIN(TestLlmMutator)
#include "tst_llm_mutator.moc"
