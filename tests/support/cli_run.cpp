#include "tests/support/cli_run.h"

namespace gpuf::test {

CliText runGpuf(const QStringList &args, int timeoutMs, const std::optional<QProcessEnvironment> &environment)
{
    return asText(runProgram(QStringLiteral(GPUF_CLI_PATH), args, timeoutMs, environment));
}

} // namespace gpuf::test
