// Invocation; see invocation.h.
#include "app/cli/invocation.h"

namespace gpuf::cli {

Invocation::Invocation(const Command &command, const QCommandLineParser &parser, Io &io)
    : m_command(command)
    , m_parser(parser)
    , m_io(io)
    , m_args(parser.positionalArguments())
    , m_prefix(command.name)
{ }

int Invocation::usage(const QString &reason) const
{
    return report(UsageError, m_prefix.isEmpty() ? reason : m_prefix + QStringLiteral(": ") + reason);
}

int Invocation::bad(const QString &reason) const
{
    return report(BadInput, m_prefix.isEmpty() ? reason : m_prefix + QStringLiteral(": ") + reason);
}

int Invocation::report(ExitCode code, const QString &sentence) const { return fail(m_io, code, sentence); }

Result<OptionValues> Invocation::checkOptions(const QStringList &names) const
{
    return cli::checkOptions(m_command.options, m_parser, names);
}

Result<std::unique_ptr<Store>> Invocation::readStore(const QString &path) const
{
    return Store::open(path, Store::Mode::ReadOnly);
}

Result<std::unique_ptr<Store>> Invocation::existingStore(const QString &path, Store::Check check) const
{
    return Store::open(path, Store::Mode::ExistingOnly, check);
}

Result<std::unique_ptr<Store>> Invocation::createStore(const QString &path) const
{
    return Store::open(path, Store::Mode::CreateIfMissing);
}

void Invocation::printJson(const QJsonObject &object) const { cli::printJson(m_io, QJsonDocument(object)); }

void Invocation::printJson(const QJsonArray &array) const { cli::printJson(m_io, QJsonDocument(array)); }

} // namespace gpuf::cli
