// The LLM mutator; see llm_mutator.h.
#include "core/mutators/llm_mutator.h"

#include "core/domain/kernel.h"
#include "core/llm/chat_client.h"
#include "core/measure/measure_plan.h"
#include "core/store/problem_repo.h"

#include <QCryptographicHash>
#include <QJsonDocument>

namespace gpuf::families {

Result<GenerationTask> loadGenerationTask(Store &store, RowId problemId, const QString &hardware)
{
    ProblemRepo problems(store);
    auto problem = problems.find(problemId);
    if (!problem)
        return Error {problem.error()};
    if (!problem->has_value())
        return Error {QStringLiteral("problem %1 is not in the store").arg(problemId)};
    const Problem &p = **problem;
    if (p.referenceKernelId == 0)
        return Error {QStringLiteral("problem '%1' has no reference kernel: the generator has nothing to start from "
                                     "and candidates nothing to be checked against")
                          .arg(p.name)};
    KernelRepo kernels(store);
    auto reference = kernels.find(p.referenceKernelId);
    if (!reference)
        return Error {reference.error()};
    if (!reference->has_value())
        return Error {
            QStringLiteral("problem '%1': its reference kernel %2 is missing").arg(p.name).arg(p.referenceKernelId)};
    GenerationTask task;
    task.problemId = p.id;
    task.problemName = p.name;
    task.description = p.description;
    task.referenceSource = (*reference)->source;
    task.hardware = hardware;
    task.language
        = (*reference)->language == QLatin1StringView("cuda") ? QStringLiteral("cuda") : QStringLiteral("python");
    if (task.language == QLatin1StringView("cuda")) {
        auto spec = measure::kernelSpec(store, p.referenceKernelId);
        if (!spec)
            return Error {QStringLiteral("problem '%1': %2").arg(p.name, spec.error())};
        task.referenceSpec = *spec;
    }
    return task;
}

LlmMutator::LlmMutator(llm::EndpointProfile endpoint, GenerationTask task, QObject *parent)
    : QObject(parent)
    , m_endpoint(std::move(endpoint))
    , m_task(std::move(task))
{
    m_client = new llm::ChatClient(m_endpoint);
    m_client->moveToThread(&m_thread);
    connect(m_client, &llm::ChatClient::finished, this, &LlmMutator::onFinished, Qt::QueuedConnection);
    m_thread.setObjectName(QStringLiteral("gpuf-llm-mutator"));
    m_thread.start();
}

LlmMutator::~LlmMutator()
{
    QMetaObject::invokeMethod(
        m_client,
        [client = m_client] {
            client->cancelAll();
            delete client;
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

QString LlmMutator::kind() const { return QStringLiteral("llm"); }

QJsonObject LlmMutator::configuration() const
{
    QJsonObject o {{QStringLiteral("endpoint"), m_endpoint.baseUrl}, {QStringLiteral("model"), m_endpoint.model},
        {QStringLiteral("temperature"), m_endpoint.temperature}, {QStringLiteral("max_tokens"), m_endpoint.maxTokens},
        {QStringLiteral("prompt_version"), kGenerationPromptVersion}, {QStringLiteral("language"), m_task.language}};
    if (!m_endpoint.reasoningEffort.isEmpty())
        o.insert(QStringLiteral("reasoning_effort"), m_endpoint.reasoningEffort);
    return o;
}

Status LlmMutator::prepare(const search::MutatorSetup &setup)
{
    if (m_endpoint.baseUrl.isEmpty() || m_endpoint.model.isEmpty())
        return Error {QStringLiteral("the LLM mutator needs an endpoint and a model")};
    if (setup.problemId != 0 && m_task.problemId != 0 && setup.problemId != m_task.problemId)
        return Error {QStringLiteral("the LLM mutator was prepared for problem '%1', not this search's '%2'")
                          .arg(m_task.problemName, setup.problemName)};
    if (m_task.referenceSource.isEmpty())
        return Error {
            QStringLiteral("problem '%1' has no reference source to show the generator").arg(m_task.problemName)};
    return {};
}

void LlmMutator::request(const QList<search::MutationRequest> &requests, Done done)
{
    for (const search::MutationRequest &r : requests) {
        llm::ChatRequest chat;
        chat.id = m_nextChatId++;
        chat.messages = generationMessages(m_task, r.parent);
        m_open.insert(chat.id, Open {r, done});
        QMetaObject::invokeMethod(
            m_client, [client = m_client, chat] { client->submit(chat); }, Qt::QueuedConnection);
    }
}

void LlmMutator::cancel()
{
    // The contract: after cancel() no answer comes for what was open.
    m_open.clear();
    QMetaObject::invokeMethod(
        m_client, [client = m_client] { client->cancelAll(); }, Qt::QueuedConnection);
}

void LlmMutator::onFinished(const llm::ChatResult &result)
{
    auto it = m_open.find(result.requestId);
    if (it == m_open.end())
        return; // cancelled meanwhile
    const Open open = it.value();
    m_open.erase(it);
    open.done(resultFor(open, result));
}

search::MutationResult LlmMutator::resultFor(const Open &open, const llm::ChatResult &chat) const
{
    search::MutationResult out;
    out.requestId = open.request.requestId;
    out.details = QJsonObject {{QStringLiteral("model"), m_endpoint.model},
        {QStringLiteral("prompt_version"), kGenerationPromptVersion}, {QStringLiteral("attempts"), chat.attempts},
        {QStringLiteral("status"), llm::chatStatusName(chat.status)},
        {QStringLiteral("latency_s"), chat.latencySeconds}};
    if (chat.promptTokens >= 0)
        out.details.insert(QStringLiteral("prompt_tokens"), chat.promptTokens);
    if (chat.completionTokens >= 0)
        out.details.insert(QStringLiteral("completion_tokens"), chat.completionTokens);
    if (chat.status != llm::ChatStatus::Ok) {
        out.error = QStringLiteral("the endpoint failed (%1): %2").arg(llm::chatStatusName(chat.status), chat.error);
        if (chat.httpStatus > 0)
            out.details.insert(QStringLiteral("http_status"), chat.httpStatus);
        return out;
    }
    out.details.insert(QStringLiteral("finish_reason"), chat.finishReason);
    auto kernel = readGeneratedKernel(chat.content, m_task, open.request.parent);
    if (!kernel) {
        out.error = kernel.error();
        // Enough of the answer to see what went wrong, never the whole of a long one.
        out.details.insert(QStringLiteral("answer_head"), chat.content.left(2000));
        return out;
    }
    search::Proposal p;
    p.source = kernel->source;
    p.language = m_task.language;
    p.origin = QStringLiteral("llm:") + m_endpoint.model;
    if (!kernel->spec.isEmpty()) {
        QJsonObject spec = kernel->spec;
        spec.remove(QStringLiteral("source"));
        p.parameters = QJsonObject {{QStringLiteral("spec"), spec}};
    }
    out.details.insert(QStringLiteral("launches_from_answer"), kernel->launchesFromAnswer);
    out.proposal = p;
    return out;
}

} // namespace gpuf::families
