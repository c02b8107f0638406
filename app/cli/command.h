// The shape every `gpuf` sub-command shares: its positional arguments and typed options, described once, and its
// logic, run with the checked command line (an Invocation) and returning the exit code.
#pragma once

#include "app/cli/options.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QStringList>
#include <QTextStream>

#include <functional>

namespace gpuf::cli {

// Exit codes, as `gpuf --help` states them: 0 success, 1 bad input, 2 usage error.
enum ExitCode { Success = 0, BadInput = 1, UsageError = 2 };

struct Io
{
    QTextStream &out;
    QTextStream &err;
    // --json was given: output is the one JSON document on stdout, and a failure is reported as {"error": …} there
    // (and on stderr). The only reading of --json: the dispatcher sets it (cli.cpp), commands read it.
    bool json = false;
};

class Invocation;

// A positional argument as --help lists it.
struct Argument
{
    QString name;
    QString description;
    QString syntax; // e.g. "FILE…"; empty: the name
};

struct Command
{
    QString name;
    QString summary;
    QString usage; // positional arguments, e.g. "STORE FILE…"
    QList<Argument> arguments;
    QList<Option> options; // besides --help and --json, which every command takes
    std::function<int(Invocation &)> invoke;
};

// Registry of the sub-commands, in the order `gpuf --help` lists them.
const QList<Command> &commands();

// Prints `doc` compactly on one line followed by a newline (the single JSON document of --json mode).
void printJson(Io &io, const QJsonDocument &doc);
// Reports `message` on stderr and, in --json mode, as {"error": message} on stdout; returns `code`.
int fail(Io &io, ExitCode code, const QString &message);
// The first line of a command's --help: "Usage: gpuf NAME [options] USAGE".
QString usageLine(const Command &command);
// Adds the command's positional arguments and options to `parser` (after --help and --json).
void addCommandOptions(QCommandLineParser &parser, const Command &command);

// Command factories; each lives in its cmd_*.cpp.
Command initCommand();
Command importCommand();
Command exportCommand();
Command statsCommand();
Command corpusCommand();
Command binsCommand();
Command measureCommand();
Command deviceCommand();
Command metricsCommand();
Command forecasterCommand();
Command forecastCommand();
Command trainCommand();
Command searchCommand();
Command sweepCommand();
Command lessonsCommand();
Command clusterCommand();
Command evidenceCommand();
Command quarantineCommand();

// `gpuf search families [--json]`: the shipped kernel families (cmd_sweep.cpp), for the search command to dispatch
// to; familySourceOptions are the --families-dir and --corpus-dir options it reads.
int runSearchFamilies(Invocation &run);
QList<Option> familySourceOptions();

} // namespace gpuf::cli
