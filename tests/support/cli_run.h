// Running a real program of the product (gpuf, gpuf-measure, gpuf-explorer) from a test: its exit code and both
// outputs, as bytes or as text. Every suite that starts one of the programs goes through here; runGpuf, the gpuf CLI
// of this build, is in the gpuf-test-cli library (tests/support/CMakeLists.txt).
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpuf::test {

struct CliRun
{
    int exitCode = -1; // -1: did not finish in time; -2: crashed
    QByteArray out;
    QByteArray err;
};

// The same run with both outputs decoded as UTF-8, for suites that compare text.
struct CliText
{
    int exitCode = -1;
    QString out;
    QString err;
};

// Runs `program` with `args` and waits for it (the test thread has nothing else to do); `environment`, when given,
// replaces the inherited one.
inline CliRun runProgram(const QString &program, const QStringList &args, int timeoutMs = 120000,
    const std::optional<QProcessEnvironment> &environment = std::nullopt)
{
    QProcess p;
    if (environment)
        p.setProcessEnvironment(*environment);
    p.start(program, args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

inline CliText asText(const CliRun &run)
{
    return CliText {run.exitCode, QString::fromUtf8(run.out), QString::fromUtf8(run.err)};
}

// Runs the gpuf CLI of this build with `args`, as runProgram does. Only in suites that link gpuf-test-cli.
CliText runGpuf(const QStringList &args, int timeoutMs = 120000,
    const std::optional<QProcessEnvironment> &environment = std::nullopt);
// The same run with both outputs as bytes, for suites that compare bytes or parse JSON.
CliRun runGpufBytes(const QStringList &args, int timeoutMs = 120000,
    const std::optional<QProcessEnvironment> &environment = std::nullopt);
// The path of the gpuf CLI of this build, for suites that start it through another program.
QString gpufPath();

} // namespace gpuf::test
