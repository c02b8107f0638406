// Sub-command dispatch and per-command --help; see cli.h.
#include "app/cli/cli.h"

#include "app/cli/command.h"
#include "app/cli/invocation.h"
#include "gpuf_config.h"

namespace gpuf::cli {
namespace {

void printTopLevelHelp(QTextStream &out)
{
    out << "Usage: gpuf COMMAND [OPTIONS] [ARGS]\n\n"
        << "GPU Forecaster Explorer, command-line tool. Every command takes --json (one JSON document on stdout)\n"
        << "and --help. Exit codes: 0 success, 1 bad input, 2 usage error.\n\nCommands:\n";
    for (const Command &c : commands())
        out << "  " << c.name.leftJustified(12) << c.summary << '\n';
    out.flush();
}

} // namespace

int run(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    Io io {out, err};
    // Known before parsing, so that even a usage error is reported as the one JSON document.
    io.json = arguments.mid(2).contains(QStringLiteral("--json"));
    if (arguments.size() < 2) {
        printTopLevelHelp(err);
        return UsageError;
    }
    const QString &name = arguments.at(1);
    if (name == QLatin1StringView("--help") || name == QLatin1StringView("-h") || name == QLatin1StringView("help")) {
        printTopLevelHelp(out);
        return Success;
    }
    if (name == QLatin1StringView("--version")) {
        out << "gpuf " << GPUF_VERSION_STRING << '\n';
        return Success;
    }
    for (const Command &command : commands()) {
        if (command.name != name)
            continue;
        QCommandLineParser parser;
        parser.setApplicationDescription(command.summary);
        parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
        const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
        parser.addOption(help);
        const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON document on stdout."));
        parser.addOption(json);
        addCommandOptions(parser, command);
        QStringList rest = arguments.mid(1);
        rest[0] = QStringLiteral("gpuf ") + name;
        if (!parser.parse(rest))
            return fail(io, UsageError, name + QStringLiteral(": ") + parser.errorText());
        if (parser.isSet(help)) {
            // Qt's first line names the program's path and lists the positional arguments again after ours.
            QString text = parser.helpText();
            const qsizetype end = text.indexOf(u'\n');
            text = usageLine(command) + (end < 0 ? QString() : text.mid(end));
            out << text;
            out.flush();
            return Success;
        }
        io.json = parser.isSet(json);
        Invocation invocation(command, parser, io);
        return command.invoke(invocation);
    }
    return fail(io, UsageError, QStringLiteral("unknown command '%1' (try 'gpuf --help')").arg(name));
}

} // namespace gpuf::cli
