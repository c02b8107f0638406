// The shape every `gpuf` sub-command shares: parse its own options, run, report exit code.
#pragma once

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QStringList>
#include <QTextStream>

#include <functional>

namespace gpuf::cli {

// Exit codes (issue "Foundation"): 0 success, 1 bad input, 2 usage error.
enum ExitCode { Success = 0, BadInput = 1, UsageError = 2 };

struct Io
{
    QTextStream &out;
    QTextStream &err;
    // --json was given: a failure is reported as the one JSON document {"error": …} on stdout (and on stderr).
    bool json = false;
};

struct Command
{
    QString name;
    QString summary;
    QString usage; // positional arguments, e.g. "STORE FILE…"
    std::function<void(QCommandLineParser &)> addOptions;
    std::function<int(const QCommandLineParser &, Io &)> run;
};

// Registry of the sub-commands, in the order `gpuf --help` lists them.
const QList<Command> &commands();

// Prints `doc` compactly on one line followed by a newline (the single JSON document of --json mode).
void printJson(Io &io, const QJsonDocument &doc);
// Reports `message` on stderr and, in --json mode, as {"error": message} on stdout; returns `code`.
int fail(Io &io, ExitCode code, const QString &message);
// The first line of a command's --help: "Usage: gpuf NAME [options] USAGE".
QString usageLine(const Command &command);

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

// `gpuf search families [--json]`: the shipped kernel families (cmd_sweep.cpp), for the search command to dispatch
// to; addFamilySourceOptions adds the --families-dir and --corpus-dir options it reads.
int runSearchFamilies(const QCommandLineParser &parser, Io &io);
void addFamilySourceOptions(QCommandLineParser &parser);

} // namespace gpuf::cli
