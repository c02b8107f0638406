// One gpuf-measure process of the measurement pool, driven by signals and timers only (no blocking waits): start,
// the hello/device_info handshake, one request in flight at a time with a process-level watchdog, and the reason it
// stopped. Lives in the measurement engine's thread.
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>

#include <utility>

namespace gpuf::measure {

class WorkerProcess : public QObject
{
    Q_OBJECT

public:
    enum class State { Stopped, Starting, Idle, Busy };

    WorkerProcess(QString program, QStringList arguments, int startBudgetMs, QObject *parent = nullptr);
    ~WorkerProcess() override;

    State state() const { return m_state; }
    qint64 pid() const { return m_process ? m_process->processId() : 0; }
    const QJsonObject &hello() const { return m_hello; }
    bool reachedReady() const { return m_reachedReady; } // the last start got through the handshake
    const QJsonObject &deviceInfo() const { return m_deviceInfo; } // device_info's `device`; empty without a GPU
    QString stateName() const;
    const QStringList &arguments() const { return m_arguments; }
    // The arguments of the next start() (the running process keeps the ones it was started with).
    void setArguments(QStringList arguments) { m_arguments = std::move(arguments); }

    // Starts the process; ready() follows the handshake, stopped() any failure.
    void start();
    // Writes one request (its `id` must be set) and arms the watchdog: no answer within budgetMs kills the process.
    void send(const QJsonObject &request, int budgetMs);
    // Kills the process now (cancellation of the request in flight); stopped() says `reason`.
    void kill(const QString &reason);
    // Asks the worker to exit (shutdown request, end of stdin) and kills it if it has not within a grace period.
    void stop();

Q_SIGNALS:
    void ready(); // hello (and device_info with a GPU) answered
    void responseReceived(const QJsonObject &response);
    // The process ended; `reason` says why, `watchdog` whether the request budget ran out and it was killed.
    void stopped(const QString &reason, bool watchdog);

private:
    void onReadyRead();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onErrorOccurred(QProcess::ProcessError error);
    void onWatchdog();
    void handleLine(const QByteArray &line);
    void write(const QJsonObject &request, int budgetMs);
    QString stderrTail() const;

    QString m_program;
    QStringList m_arguments;
    int m_startBudgetMs;
    QProcess *m_process = nullptr;
    QTimer m_watchdog;
    QTimer m_stopGrace;
    State m_state = State::Stopped;
    QJsonObject m_hello;
    QJsonObject m_deviceInfo;
    QByteArray m_stdout;
    QByteArray m_stderr; // the last few kilobytes, for the reason a worker died
    QString m_killReason;
    bool m_watchdogFired = false;
    bool m_inFlight = false;
    bool m_reachedReady = false;
    int m_budgetMs = 0;
};

} // namespace gpuf::measure
