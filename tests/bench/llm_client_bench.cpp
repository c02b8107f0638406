// llm_client_bench: 64 concurrent streamed forecasts against the loopback OpenAI-compatible server at a realistic
// pace (one SSE event per token, ~60 tokens/s per stream, 400 reasoning tokens then the tool call's arguments).
// The server runs on its own thread so its CPU time is not counted; the client runs on its own thread as the
// application runs it, and a consumer on the main thread receives every delta through queued signals.
// Prints `<name> <value> <unit>` lines: the client thread's CPU time per forecast and as a share of one core
// (target < 5 %), the same for the whole process minus the server thread, throughput and wall time.
// Usage: llm_client_bench [forecasts = 128] [streams = 64] [reasoning tokens = 400] [ms per token = 16]
#include "core/llm/chat_client.h"
#include "tests/support/openai_answers.h"
#include "tests/support/openai_server.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QThread>

#include <cmath>
#include <cstdio>

#include <sys/resource.h>

using namespace gpuf::llm;
using namespace gpuf::test;

namespace {

[[noreturn]] void die(const QString &message)
{
    std::fprintf(stderr, "llm_client_bench: %s\n", qPrintable(message));
    std::exit(1);
}

void report(const char *name, double value, const char *unit)
{
    std::printf("%s %.2f %s\n", name, value, unit);
    std::fflush(stdout);
}

double cpuSeconds(const rusage &usage)
{
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

// CPU time of the calling thread.
double threadCpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_THREAD, &usage);
    return cpuSeconds(usage);
}

double processCpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return cpuSeconds(usage);
}

// CPU time of the thread named `name` in this process, from the scheduler's nanosecond counter.
double namedThreadCpuSeconds(const QByteArray &name)
{
    const QDir tasks(QStringLiteral("/proc/self/task"));
    const QStringList ids = tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &id : ids) {
        QFile comm(tasks.filePath(id + QStringLiteral("/comm")));
        if (!comm.open(QIODevice::ReadOnly) || comm.readAll().trimmed() != name)
            continue;
        QFile schedstat(tasks.filePath(id + QStringLiteral("/schedstat")));
        if (!schedstat.open(QIODevice::ReadOnly))
            die(QStringLiteral("cannot read %1").arg(schedstat.fileName()));
        return schedstat.readAll().split(' ').value(0).toDouble() / 1e9;
    }
    die(QStringLiteral("no thread named %1").arg(QString::fromLatin1(name)));
}

ChatRequest request(quint64 id)
{
    ChatRequest r;
    r.id = id;
    r.messages = QJsonArray {QJsonObject {{QStringLiteral("role"), QStringLiteral("user")},
        {QStringLiteral("content"), QStringLiteral("forecast %1").arg(id)}}};
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const auto argument
        = [&](int i, int fallback) { return argc > i ? QString::fromLatin1(argv[i]).toInt() : fallback; };
    const int forecasts = argument(1, 128);
    const int streams = argument(2, 64);
    const int reasoningTokens = argument(3, 400);
    const int tokenMs = argument(4, 16);

    OpenAiServer server(OpenAiServer::Threading::OwnThread);
    if (!server.listen())
        die(QStringLiteral("the loopback server does not listen"));
    const ScriptedResponse answer = pacedForecastStream(reasoningTokens, tokenMs, forecastArguments());
    server.setResponder([answer](const RecordedRequest &) { return answer; });

    EndpointProfile profile;
    profile.baseUrl = server.baseUrl();
    profile.model = QStringLiteral("test-model");
    profile.concurrency = streams;
    profile.idleTimeoutMs = 30000;
    profile.totalTimeoutMs = 600000;
    QThread clientThread;
    clientThread.setObjectName(QStringLiteral("llm-client"));
    auto *client = new ChatClient(profile);
    client->moveToThread(&clientThread);
    QObject::connect(&clientThread, &QThread::finished, client, &QObject::deleteLater);
    clientThread.start();

    qint64 deltas = 0;
    int finished = 0;
    int failed = 0;
    QObject::connect(client, &ChatClient::delta, &app, [&](const ChatDelta &) { ++deltas; });
    QObject::connect(client, &ChatClient::finished, &app, [&](const ChatResult &r) {
        if (r.status != ChatStatus::Ok || r.toolCalls.size() != 1 || r.toolCalls[0].name != kForecastTool) {
            ++failed;
            std::fprintf(stderr, "forecast %llu: %s %s\n", static_cast<unsigned long long>(r.requestId),
                qPrintable(chatStatusName(r.status)), qPrintable(r.error));
        }
        if (++finished == forecasts)
            app.quit();
    });

    double clientCpuStart = 0.0;
    QMetaObject::invokeMethod(
        client, [&] { clientCpuStart = threadCpuSeconds(); }, Qt::BlockingQueuedConnection);
    const double processStart = processCpuSeconds();
    const double serverStart = namedThreadCpuSeconds("openai-server");
    QElapsedTimer wall;
    wall.start();
    for (int i = 1; i <= forecasts; ++i)
        QMetaObject::invokeMethod(
            client, [client, i] { client->submit(request(quint64(i))); }, Qt::QueuedConnection);
    app.exec();
    const double wallSeconds = wall.nsecsElapsed() / 1e9;
    double clientCpuEnd = 0.0;
    QMetaObject::invokeMethod(
        client, [&] { clientCpuEnd = threadCpuSeconds(); }, Qt::BlockingQueuedConnection);
    const double serverCpu = namedThreadCpuSeconds("openai-server") - serverStart;
    const double processCpu = processCpuSeconds() - processStart;
    clientThread.quit();
    clientThread.wait();
    if (failed > 0)
        die(QStringLiteral("%1 of %2 forecasts failed").arg(failed).arg(forecasts));

    const double clientCpu = clientCpuEnd - clientCpuStart;
    const double withoutServer = processCpu - serverCpu;
    std::fprintf(stderr,
        "(%d forecasts, %d streams, %d reasoning tokens at %d ms per token, %lld deltas; server thread %.2f s CPU)\n",
        forecasts, streams, reasoningTokens, tokenMs, static_cast<long long>(deltas), serverCpu);
    report("llm_client_wall", wallSeconds, "s");
    report("llm_client_throughput", forecasts / wallSeconds, "forecasts/s");
    report("llm_client_deltas_per_s", deltas / wallSeconds, "deltas/s");
    // The pace the streams really had: SSE events (tokens) sent per second per stream, all waves together.
    const double waves = std::ceil(double(forecasts) / streams);
    report("llm_client_stream_speed", answer.chunks.size() * waves / wallSeconds, "tokens/s per stream");
    report("llm_client_thread_cpu_per_forecast", clientCpu * 1e3 / forecasts, "ms");
    report("llm_client_thread_cpu_share", 100.0 * clientCpu / wallSeconds, "% of a core");
    report("llm_client_process_minus_server_cpu_per_forecast", withoutServer * 1e3 / forecasts, "ms");
    report("llm_client_process_minus_server_cpu_share", 100.0 * withoutServer / wallSeconds, "% of a core");
    return 0;
}
