// One run of a command, as its logic sees it: the arguments and options given, --json, failures reported in one
// sentence that names the command ("gpuf: measure: …"), its options checked against their descriptions, and its
// store opened. Written once here so that each cmd_*.cpp reads as its own logic.
#pragma once

#include "app/cli/command.h"
#include "core/store/store.h"

#include <QJsonArray>
#include <QJsonObject>

#include <memory>

namespace gpuf::cli {

class Invocation
{
public:
    Invocation(const Command &command, const QCommandLineParser &parser, Io &io);

    // What was given.
    const QStringList &args() const { return m_args; }
    bool isSet(const QString &option) const { return m_parser.isSet(option); }
    QString value(const QString &option) const { return m_parser.value(option); }
    QStringList values(const QString &option) const { return m_parser.values(option); }
    const QCommandLineParser &parser() const { return m_parser; }
    // --json: print one JSON document on stdout.
    bool json() const { return m_io.json; }
    Io &io() const { return m_io; }
    QTextStream &out() const { return m_io.out; }
    QTextStream &err() const { return m_io.err; }

    // What a failure's sentence starts with: the command's name, or a verb of it ("forecaster add").
    const QString &prefix() const { return m_prefix; }
    void setPrefix(const QString &prefix) { m_prefix = prefix; }
    // "gpuf: PREFIX: reason" on stderr (and {"error": "PREFIX: reason"} on stdout with --json); the exit code.
    int usage(const QString &reason) const; // 2: the command line is wrong
    int bad(const QString &reason) const; // 1: what it names is wrong
    // A sentence that names no command (the file it is about says enough), as it is.
    int report(ExitCode code, const QString &sentence) const;

    // The command's options, in the order it lists them (or those named, in that order), checked: required ones
    // given, numbers parsed and in range. The error is the first refusal, for usage().
    Result<OptionValues> checkOptions(const QStringList &names = {}) const;

    // The store at `path`, or why not (the store's sentence, naming the file).
    Result<std::unique_ptr<Store>> readStore(const QString &path) const; // read-only; it must exist
    // For writing; it must exist. Check::Header for a further connection to a file this process has checked.
    Result<std::unique_ptr<Store>> existingStore(const QString &path, Store::Check check = Store::Check::Full) const;
    Result<std::unique_ptr<Store>> createStore(const QString &path) const; // for writing; made when missing or empty

    void printJson(const QJsonObject &object) const;
    void printJson(const QJsonArray &array) const;

private:
    const Command &m_command;
    const QCommandLineParser &m_parser;
    Io &m_io;
    QStringList m_args;
    QString m_prefix;
};

} // namespace gpuf::cli
