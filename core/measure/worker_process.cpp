// One pooled gpuf-measure process; see worker_process.h.
#include "core/measure/worker_process.h"

#include "core/measure/worker_environment.h"

#include <QJsonDocument>

namespace gpuf::measure {

namespace {
constexpr int kStopGraceMs = 5000;
constexpr qsizetype kStderrKeep = 4096;
const QString kHelloId = QStringLiteral("hello");
const QString kDeviceInfoId = QStringLiteral("device_info");
} // namespace

WorkerProcess::WorkerProcess(QString program, QStringList arguments, int startBudgetMs, QObject *parent)
    : QObject(parent)
    , m_program(std::move(program))
    , m_arguments(std::move(arguments))
    , m_startBudgetMs(startBudgetMs)
    , m_watchdog(this)
    , m_stopGrace(this)
{
    m_watchdog.setSingleShot(true);
    connect(&m_watchdog, &QTimer::timeout, this, &WorkerProcess::onWatchdog);
    m_stopGrace.setSingleShot(true);
    connect(&m_stopGrace, &QTimer::timeout, this, [this] {
        if (m_process)
            m_process->kill();
    });
}

WorkerProcess::~WorkerProcess()
{
    if (m_process) {
        // Nobody waits for the answer any more; the process must not outlive the application.
        m_process->disconnect(this);
        m_process->kill();
    }
}

QString WorkerProcess::stateName() const
{
    switch (m_state) {
    case State::Stopped:
        return QStringLiteral("stopped");
    case State::Starting:
        return QStringLiteral("starting");
    case State::Idle:
        return QStringLiteral("idle");
    case State::Busy:
        return QStringLiteral("busy");
    }
    return {};
}

void WorkerProcess::start()
{
    if (m_process)
        return;
    m_hello = {};
    m_deviceInfo = {};
    m_stdout.clear();
    m_stderr.clear();
    m_killReason.clear();
    m_watchdogFired = false;
    m_inFlight = false;
    m_reachedReady = false;
    m_state = State::Starting;
    m_process = new QProcess(this);
    m_process->setProcessEnvironment(workerEnvironment()); // no API key reaches the worker or its candidates
    connect(m_process, &QProcess::readyReadStandardOutput, this, &WorkerProcess::onReadyRead);
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderr.append(m_process->readAllStandardError());
        if (m_stderr.size() > kStderrKeep)
            m_stderr = m_stderr.right(kStderrKeep);
    });
    connect(m_process, &QProcess::finished, this, &WorkerProcess::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &WorkerProcess::onErrorOccurred);
    m_process->start(m_program, m_arguments);
    // The hello is written at once: QProcess buffers it until the process runs.
    write(QJsonObject {{QStringLiteral("id"), kHelloId}, {QStringLiteral("type"), QStringLiteral("hello")}},
        m_startBudgetMs);
}

void WorkerProcess::send(const QJsonObject &request, int budgetMs)
{
    m_state = State::Busy;
    write(request, budgetMs);
}

void WorkerProcess::write(const QJsonObject &request, int budgetMs)
{
    m_inFlight = true;
    m_budgetMs = budgetMs;
    m_process->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    m_watchdog.start(budgetMs);
}

void WorkerProcess::kill(const QString &reason)
{
    if (!m_process)
        return;
    m_killReason = reason;
    m_watchdog.stop();
    m_process->kill();
}

void WorkerProcess::stop()
{
    if (!m_process)
        return;
    m_killReason = QStringLiteral("stopped by the application");
    m_watchdog.stop();
    if (m_process->state() == QProcess::Running) {
        m_process->write("{\"id\":\"shutdown\",\"type\":\"shutdown\"}\n");
        m_process->closeWriteChannel();
    }
    m_stopGrace.start(kStopGraceMs);
}

void WorkerProcess::onReadyRead()
{
    m_stdout.append(m_process->readAllStandardOutput());
    qsizetype newline = 0;
    while ((newline = m_stdout.indexOf('\n')) >= 0) {
        const QByteArray line = m_stdout.left(newline);
        m_stdout.remove(0, newline + 1);
        if (!line.trimmed().isEmpty())
            handleLine(line);
        if (!m_process)
            return;
    }
}

void WorkerProcess::handleLine(const QByteArray &line)
{
    const QJsonObject response = QJsonDocument::fromJson(line).object();
    const QJsonValue id = response.value(QStringLiteral("id"));
    if (!m_inFlight)
        return; // nothing asked: a stray line (the shutdown answer) is not a response to anything
    m_inFlight = false;
    m_watchdog.stop();
    if (id.toString() == kHelloId) {
        m_hello = response;
        if (response.value(QStringLiteral("gpu_available")).toBool()) {
            write(QJsonObject {{QStringLiteral("id"), kDeviceInfoId}, {QStringLiteral("type"), kDeviceInfoId}},
                m_startBudgetMs);
            return;
        }
        m_state = State::Idle;
        m_reachedReady = true;
        Q_EMIT ready();
        return;
    }
    if (id.toString() == kDeviceInfoId) {
        m_deviceInfo = response.value(QStringLiteral("device")).toObject();
        m_state = State::Idle;
        m_reachedReady = true;
        Q_EMIT ready();
        return;
    }
    // After restart_required the worker exits by itself; it is not idle until a new one has started.
    if (!response.value(QStringLiteral("restart_required")).toBool())
        m_state = State::Idle;
    Q_EMIT responseReceived(response);
}

void WorkerProcess::onWatchdog()
{
    if (!m_process || !m_inFlight)
        return;
    m_watchdogFired = true;
    m_killReason = m_state == State::Starting
        ? QStringLiteral("gpuf-measure did not answer hello within %1 s; it was killed").arg(m_budgetMs / 1000.0)
        : QStringLiteral("no answer within the request budget of %1 s (application watchdog); gpuf-measure was "
                         "killed and restarted")
              .arg(m_budgetMs / 1000.0);
    m_process->kill();
}

void WorkerProcess::onErrorOccurred(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || !m_process)
        return; // other errors end in finished()
    const QString reason = QStringLiteral("cannot start %1: %2").arg(m_program, m_process->errorString());
    m_process->deleteLater();
    m_process = nullptr;
    m_watchdog.stop();
    m_state = State::Stopped;
    Q_EMIT stopped(reason, false);
}

QString WorkerProcess::stderrTail() const
{
    const QString text = QString::fromUtf8(m_stderr).trimmed();
    return text.isEmpty() ? QString() : QStringLiteral(" (stderr: %1)").arg(text.right(400));
}

void WorkerProcess::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_watchdog.stop();
    m_stopGrace.stop();
    QString reason = m_killReason;
    if (reason.isEmpty()) {
        const QString how = status == QProcess::CrashExit ? QStringLiteral("crashed")
                                                          : QStringLiteral("exited with code %1").arg(exitCode);
        reason = m_inFlight ? QStringLiteral("gpuf-measure %1 without answering%2").arg(how, stderrTail())
                            : QStringLiteral("gpuf-measure %1").arg(how);
    }
    const bool watchdog = m_watchdogFired;
    m_process->deleteLater();
    m_process = nullptr;
    m_inFlight = false;
    m_state = State::Stopped;
    Q_EMIT stopped(reason, watchdog);
}

} // namespace gpuf::measure
