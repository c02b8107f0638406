// API keys: the environment variable first, then QtKeychain jobs (asynchronous; results delivered on the caller's
// context object). The plain-text fallback of QtKeychain stays off: a key never lands in a settings file.
#include "core/llm/api_key.h"

#include "core/common/secret_text.h"

#include <QPointer>
#include <QRegularExpression>

#include <qt6keychain/keychain.h>

namespace gpuf::llm {

namespace {

template<typename T>
void deliver(QObject *context, std::function<void(T)> done, T value)
{
    QMetaObject::invokeMethod(
        context, [done = std::move(done), value = std::move(value)]() mutable { done(std::move(value)); },
        Qt::QueuedConnection);
}

QString keychainFailure(const QKeychain::Job &job, const QString &entry)
{
    if (job.error() == QKeychain::EntryNotFound)
        return QStringLiteral("keychain entry \"%1\" does not exist").arg(entry);
    return QStringLiteral("keychain entry \"%1\": %2").arg(entry, job.errorString());
}

// Runs a configured job; `finished` gets it on the job's thread (the caller's), and nothing when `context` is gone.
void runJob(QKeychain::Job *job, QObject *context, std::function<void(QKeychain::Job &)> finished)
{
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    QObject::connect(
        job, &QKeychain::Job::finished, context, [finished = std::move(finished)](QKeychain::Job *j) { finished(*j); });
    job->start();
}

} // namespace

QString apiKeyEnvProblem(const QString &name)
{
    if (looksLikeSecret(name))
        return QStringLiteral("the value given as the variable's name looks like an API key itself; it was not kept. "
                              "Put the key in an environment variable (export OPENAI_API_KEY=...) and give that "
                              "variable's name");
    static const QRegularExpression variable(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!variable.match(name).hasMatch())
        return QStringLiteral("give the NAME of an environment variable (letters, digits and _, not starting with a "
                              "digit), not its value");
    return {};
}

QString apiKeyFromEnvironment(const EndpointProfile &profile)
{
    if (profile.apiKeyEnv.isEmpty())
        return {};
    return qEnvironmentVariable(profile.apiKeyEnv.toLocal8Bit().constData()).trimmed();
}

void resolveApiKey(const EndpointProfile &profile, QObject *context, std::function<void(Result<QString>)> done)
{
    const QString fromEnvironment = apiKeyFromEnvironment(profile);
    if (!fromEnvironment.isEmpty() || profile.keychainEntry.isEmpty()) {
        if (fromEnvironment.isEmpty() && !profile.apiKeyEnv.isEmpty()) {
            deliver<Result<QString>>(context, std::move(done),
                Error {looksLikeSecret(profile.apiKeyEnv)
                        ? QStringLiteral("the variable name this forecaster was given looks like an API key; add it "
                                         "again with --api-key-env NAME")
                        : QStringLiteral("environment variable %1 is not set").arg(profile.apiKeyEnv)});
            return;
        }
        deliver<Result<QString>>(context, std::move(done), fromEnvironment);
        return;
    }
    auto *job = new QKeychain::ReadPasswordJob(kKeychainService);
    job->setKey(profile.keychainEntry);
    const QString entry = profile.keychainEntry;
    runJob(job, context, [done = std::move(done), entry](QKeychain::Job &finished) {
        if (finished.error() != QKeychain::NoError) {
            done(Error {keychainFailure(finished, entry)});
            return;
        }
        const QString key = static_cast<QKeychain::ReadPasswordJob &>(finished).textData().trimmed();
        if (key.isEmpty())
            done(Error {QStringLiteral("keychain entry \"%1\" is empty").arg(entry)});
        else
            done(key);
    });
}

void storeApiKey(const QString &entry, const QString &key, QObject *context, std::function<void(Status)> done)
{
    if (entry.trimmed().isEmpty() || key.trimmed().isEmpty()) {
        deliver<Status>(context, std::move(done), Error {QStringLiteral("a keychain entry needs a name and a key")});
        return;
    }
    auto *job = new QKeychain::WritePasswordJob(kKeychainService);
    job->setKey(entry);
    job->setTextData(key.trimmed());
    runJob(job, context, [done = std::move(done), entry](QKeychain::Job &finished) {
        if (finished.error() != QKeychain::NoError)
            done(Error {keychainFailure(finished, entry)});
        else
            done(Status {});
    });
}

void deleteApiKey(const QString &entry, QObject *context, std::function<void(Status)> done)
{
    auto *job = new QKeychain::DeletePasswordJob(kKeychainService);
    job->setKey(entry);
    runJob(job, context, [done = std::move(done), entry](QKeychain::Job &finished) {
        if (finished.error() != QKeychain::NoError && finished.error() != QKeychain::EntryNotFound)
            done(Error {keychainFailure(finished, entry)});
        else
            done(Status {});
    });
}

} // namespace gpuf::llm
