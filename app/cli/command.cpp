// Shared helpers of the sub-commands and the registry; see command.h.
#include "app/cli/command.h"

#include <QJsonObject>

namespace gpuf::cli {

const QList<Command> &commands()
{
    static const QList<Command> all {initCommand(), importCommand(), exportCommand(), statsCommand(), corpusCommand(),
        binsCommand(), metricsCommand(), evidenceCommand(), quarantineCommand(), forecasterCommand(), forecastCommand(),
        trainCommand(), measureCommand(), deviceCommand(), searchCommand(), sweepCommand(), lessonsCommand(),
        clusterCommand()};
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
    if (io.json) // a script reading stdout gets one document whatever happened
        printJson(io, QJsonDocument(QJsonObject {{QStringLiteral("error"), message}}));
    return code;
}

QString usageLine(const Command &command)
{
    QString line = QStringLiteral("Usage: gpuf ") + command.name + QStringLiteral(" [options]");
    if (!command.usage.isEmpty())
        line += u' ' + command.usage;
    return line;
}

void addCommandOptions(QCommandLineParser &parser, const Command &command)
{
    for (const Argument &a : command.arguments)
        parser.addPositionalArgument(a.name, a.description, a.syntax);
    addOptions(parser, command.options);
}

} // namespace gpuf::cli
