// CliEngine; see cli_engine.h.
#include "app/cli/cli_engine.h"

#include "app/cli/local_loop.h"
#include "core/measure/worker_locator.h"

namespace gpuf::cli {
namespace {

MeasureEngineConfig localConfig(const QString &worker, const QStringList &arguments)
{
    MeasureEngineConfig config;
    config.workerPath = worker;
    config.workerArguments = arguments;
    config.snapshotIntervalMs = 50; // a command waits on snapshots: it sees the end sooner than the GUI needs to
    return config;
}

bool deviceSettled(const MeasureSnapshot &s)
{
    return s.device.availability == DeviceState::Availability::Available
        || s.device.availability == DeviceState::Availability::Unavailable;
}

} // namespace

CliEngine::CliEngine(const QString &worker, const QStringList &arguments)
    : m_engine(localConfig(worker, arguments))
    , m_shutDownAtEnd(true)
{ }

CliEngine::CliEngine(ForCluster)
    : m_engine(MeasureEngineConfig {})
{ }

CliEngine::~CliEngine()
{
    if (m_shutDownAtEnd)
        shutdown();
}

DeviceState CliEngine::probeDevice()
{
    m_engine.probeDevice();
    return runUntil(deviceSettled).device;
}

MeasureSnapshot CliEngine::runUntil(const std::function<bool(const MeasureSnapshot &)> &done)
{
    if (!done(m_engine.snapshot()))
        waitFor(m_engine, &MeasureEngine::snapshotReady, done);
    return m_engine.snapshot();
}

void CliEngine::sayNoticesOn(QTextStream &err, const QString &prefix)
{
    QObject::connect(&m_engine, &MeasureEngine::notice, &m_engine, [&err, prefix](const QString &text) {
        err << prefix << ": " << text << '\n';
        err.flush();
    });
}

QStringList CliEngine::workerArguments(bool unsandboxed)
{
    return unsandboxed ? QStringList {QString::fromLatin1(measure::kUnsandboxedArgument)} : QStringList {};
}

QString CliEngine::unsandboxedOnCluster(const QString &cluster)
{
    return QStringLiteral("--unsandboxed concerns this machine's gpuf-measure, not the nodes of cluster '%1': give it "
                          "to theirs with gpuf cluster set-profile %1 --worker-arg=--unsandboxed")
        .arg(cluster);
}

MeasureSnapshot CliEngine::runUntilIdle() { return runUntil(isIdle); }

void CliEngine::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    waitFor(
        m_engine, &MeasureEngine::shutDown, [] { return true; }, [this] { m_engine.shutdown(); });
}

} // namespace gpuf::cli
