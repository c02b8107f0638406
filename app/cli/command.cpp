// Shared helpers of the sub-commands and the registry; see command.h.
#include "app/cli/command.h"

namespace gpuf::cli {

const QList<Command> &commands()
{
    static const QList<Command> all {initCommand(), importCommand(), exportCommand(), statsCommand(), corpusCommand(),
        binsCommand(), metricsCommand(), forecasterCommand(), forecastCommand(), trainCommand(), measureCommand(),
        deviceCommand(), searchCommand(), sweepCommand()};
    return all;
}

void printJson(Io &io, const QJsonDocument &doc)
{
    io.out << QString::fromUtf8(doc.toJson(QJsonDocument::Compact)) << '\n';
    io.out.flush();
}

int fail(Io &io, ExitCode code, const QString &message)
{
    io.err << "gpuf: " << message << '\n';
    io.err.flush();
    return code;
}

} // namespace gpuf::cli
