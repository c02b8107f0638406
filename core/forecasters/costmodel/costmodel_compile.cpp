// CompileFeatureWorker; see costmodel_compile.h.
#include "core/forecasters/costmodel/costmodel_compile.h"

#include "core/features/compile_features.h"
#include "core/measure/worker_locator.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>

namespace gpuf::costmodel {

QString archOf(const Hardware &hardware)
{
    const QStringList parts = hardware.computeCapability.split(u'.');
    bool okMajor = false, okMinor = false;
    const int major = parts.value(0).toInt(&okMajor);
    const int minor = parts.value(1).toInt(&okMinor);
    if (parts.size() != 2 || !okMajor || !okMinor || major <= 0 || minor < 0)
        return {};
    return QStringLiteral("sm_%1%2").arg(major).arg(minor);
}

QJsonObject compileSpecOf(const Kernel &kernel)
{
    if (kernel.language.compare(QLatin1StringView("cuda"), Qt::CaseInsensitive) != 0 || kernel.source.isEmpty())
        return {};
    const QJsonObject spec = kernel.parameters.value(QStringLiteral("spec")).toObject();
    QJsonObject out {{QStringLiteral("format"), QStringLiteral("gpuf-kernel/1")},
        {QStringLiteral("name"), kernel.name.isEmpty() ? QStringLiteral("kernel") : kernel.name},
        {QStringLiteral("source"), kernel.source}};
    if (const QJsonValue options = spec.value(QStringLiteral("options")); options.isArray())
        out.insert(QStringLiteral("options"), options);
    QJsonArray entries;
    for (const QJsonValue l : spec.value(QStringLiteral("launches")).toArray()) {
        const QString entry = l.toObject().value(QStringLiteral("entry")).toString();
        if (!entry.isEmpty())
            entries.append(QJsonObject {{QStringLiteral("entry"), entry}});
    }
    if (!entries.isEmpty())
        out.insert(QStringLiteral("launches"), entries);
    return out;
}

Result<std::unique_ptr<CompileFeatureWorker>> CompileFeatureWorker::start(const QString &program, int budgetMs)
{
    QString path = program;
    if (path.isEmpty()) {
        auto located = measure::locateMeasureWorker();
        if (!located)
            return located.failure();
        path = *located;
    }
    std::unique_ptr<CompileFeatureWorker> w(new CompileFeatureWorker);
    w->m_budgetMs = budgetMs;
    w->m_process.setProgram(path);
    w->m_process.setProcessChannelMode(QProcess::SeparateChannels);
    w->m_process.start();
    if (!w->m_process.waitForStarted(budgetMs))
        return Error {QStringLiteral("gpuf-measure (%1) did not start: %2").arg(path, w->m_process.errorString())};
    return w;
}

CompileFeatureWorker::~CompileFeatureWorker()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.closeWriteChannel(); // end of stdin ends the worker
    if (!m_process.waitForFinished(3000)) {
        m_process.kill();
        m_process.waitForFinished(1000);
    }
}

Result<QJsonObject> CompileFeatureWorker::exchange(const QJsonObject &request)
{
    if (!m_dead.isEmpty())
        return Error {m_dead};
    m_process.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
    const QDeadlineTimer deadline(m_budgetMs);
    while (!m_process.canReadLine()) {
        if (m_process.state() == QProcess::NotRunning || !m_process.waitForReadyRead(int(deadline.remainingTime()))) {
            m_dead = QStringLiteral("gpuf-measure gave no answer (%1)").arg(m_process.errorString());
            m_process.kill();
            return Error {m_dead};
        }
    }
    const QJsonDocument doc = QJsonDocument::fromJson(m_process.readLine());
    if (!doc.isObject() || doc.object().value(QStringLiteral("id")) != request.value(QStringLiteral("id")))
        return Error {QStringLiteral("gpuf-measure answered something else than the compile request")};
    return doc.object();
}

Result<QJsonObject> CompileFeatureWorker::compile(const Kernel &kernel, const QString &arch)
{
    const QJsonObject spec = compileSpecOf(kernel);
    if (spec.isEmpty())
        return Error {QStringLiteral("not a CUDA kernel")};
    if (arch.isEmpty())
        return Error {QStringLiteral("no architecture to compile for")};
    QMutexLocker lock(&m_lock);
    const QJsonObject request {{QStringLiteral("id"), QString::number(m_nextId++)},
        {QStringLiteral("type"), QStringLiteral("compile")}, {QStringLiteral("arch"), arch},
        {QStringLiteral("ptx_mix"), true}, {QStringLiteral("spec"), spec}};
    auto response = exchange(request);
    if (!response)
        return response.failure();
    const QJsonObject compile = response->value(QStringLiteral("compile")).toObject();
    if (response->value(QStringLiteral("status")).toString() != QLatin1StringView("ok") || compile.isEmpty())
        return Error {QStringLiteral("compile %1: %2")
                          .arg(response->value(QStringLiteral("status")).toString(),
                              response->value(QStringLiteral("message")).toString())};
    return compile;
}

features::KernelFeatures CompileFeatureWorker::features(const Kernel &kernel, const QString &arch, QString *error)
{
    features::KernelFeatures f = features::extractKernelFeatures(kernel.source, kernel.language, kernel.parameters);
    auto compiled = compile(kernel, arch);
    if (!compiled) {
        if (error)
            *error = compiled.error();
        return f;
    }
    if (!features::applyCompileResult(f, *compiled) && error)
        *error = QStringLiteral("the compile answer named no kernel");
    return f;
}

} // namespace gpuf::costmodel
