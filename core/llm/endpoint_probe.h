// EndpointProbe: the "Test connection" of an endpoint profile — reachable, model listed, tool calling, streaming —
// each answered with a human-readable detail. Asynchronous; lives on the caller's thread (it never blocks).
#pragma once

#include "core/llm/chat_types.h"

#include <QObject>
#include <QString>

#include <memory>

namespace gpuf::llm {

struct ProbeCheck
{
    enum class State { Pending, Ok, Failed, Skipped };
    State state = State::Pending;
    QString detail; // e.g. "HTTP 200 in 12 ms, 3 models", "the model answered without calling the tool"
    bool ok() const { return state == State::Ok; }
};

struct ProbeReport
{
    ProbeCheck reachable; // GET {base}/models answered with HTTP (any status)
    ProbeCheck modelListed; // profile.model among /models' ids
    ProbeCheck toolCalling; // a tiny non-streamed request with a forced tool choice came back with that call
    ProbeCheck streaming; // the same request with stream=true came back as server-sent events
};

class EndpointProbePrivate;

class EndpointProbe : public QObject
{
    Q_OBJECT
public:
    enum class Step { Reachable, ModelListed, ToolCalling, Streaming };
    Q_ENUM(Step)

    explicit EndpointProbe(EndpointProfile profile, QObject *parent = nullptr);
    ~EndpointProbe() override;

    // Runs every check (the chat checks only when the endpoint answered); finished() follows exactly once per start().
    void start();
    // Stops the checks still running; they end as Skipped ("cancelled") and finished() follows.
    void cancel();
    bool isRunning() const;
    const ProbeReport &report() const;

Q_SIGNALS:
    void checkFinished(gpuf::llm::EndpointProbe::Step step, const gpuf::llm::ProbeCheck &check);
    void finished(const gpuf::llm::ProbeReport &report);

private:
    std::unique_ptr<EndpointProbePrivate> d;
};

} // namespace gpuf::llm

Q_DECLARE_METATYPE(gpuf::llm::ProbeCheck)
Q_DECLARE_METATYPE(gpuf::llm::ProbeReport)
