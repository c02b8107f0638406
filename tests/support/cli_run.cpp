#include "tests/support/cli_run.h"

namespace gpuf::test {

QString gpufPath() { return QStringLiteral(GPUF_CLI_PATH); }

CliRun runGpufBytes(const QStringList &args, int timeoutMs, const std::optional<QProcessEnvironment> &environment)
{
    return runProgram(gpufPath(), args, timeoutMs, environment);
}

CliText runGpuf(const QStringList &args, int timeoutMs, const std::optional<QProcessEnvironment> &environment)
{
    return asText(runGpufBytes(args, timeoutMs, environment));
}

} // namespace gpuf::test
