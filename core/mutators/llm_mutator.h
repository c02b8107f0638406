// The LLM mutator: proposals written by a language model behind an OpenAI-compatible endpoint (the core/llm client
// and its endpoint profiles), asked with the generation prompt (generation_prompt.h) for each parent. Every failure —
// transport, HTTP status after the client's retries, no code block, an invalid launch — is an answer with an error
// (a mutation_failed event), never an exception or a crash.
#pragma once

#include "core/llm/chat_types.h"
#include "core/mutators/generation_prompt.h"
#include "core/mutators/mutator.h"

#include <QHash>
#include <QObject>
#include <QThread>

namespace gpuf {
class Store;
}

namespace gpuf::llm {
class ChatClient;
}

namespace gpuf::families {

// The problem's generation task from a store: description, reference source and spec, language. `hardware` is
// copied into the task as the target GPU's description.
Result<GenerationTask> loadGenerationTask(Store &store, RowId problemId, const QString &hardware = {});

class LlmMutator : public QObject, public search::Mutator
{
    Q_OBJECT

public:
    // The client runs on a thread of its own; answers come back to the thread this object lives on, and `done` is
    // called there.
    LlmMutator(llm::EndpointProfile endpoint, GenerationTask task, QObject *parent = nullptr);
    ~LlmMutator() override; // cancels what is open and stops the client's thread

    QString kind() const override;
    QJsonObject configuration() const override; // endpoint, model, sampling, prompt version (never a key)
    Status prepare(const search::MutatorSetup &setup) override;
    void request(const QList<search::MutationRequest> &requests, Done done) override;
    void cancel() override;

    const GenerationTask &task() const { return m_task; }

private:
    struct Open
    {
        search::MutationRequest request;
        Done done;
    };

    void onFinished(const llm::ChatResult &result);
    search::MutationResult resultFor(const Open &open, const llm::ChatResult &chat) const;

    llm::EndpointProfile m_endpoint;
    GenerationTask m_task;
    QThread m_thread;
    llm::ChatClient *m_client = nullptr; // lives on m_thread
    QHash<quint64, Open> m_open; // by chat id
    quint64 m_nextChatId = 1;
};

} // namespace gpuf::families
