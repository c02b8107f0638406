// Case files opened as stores of their own; see case_store.h.
#include "core/session/case_store.h"

#include "core/interop/case_file.h"
#include "core/interop/interop.h"
#include "core/session/latest_job.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QStandardPaths>

#include <optional>

namespace gpuf {
namespace {

// The store a case file is imported into: its base name and the first 12 hex digits of its content's SHA-256.
Result<QString> caseStorePath(const QString &file, const QString &folder)
{
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return Error {QObject::tr("%1: cannot read: %2").arg(file, in.errorString())};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&in))
        return Error {QObject::tr("%1: cannot read: %2").arg(file, in.errorString())};
    const QString digest = QString::fromLatin1(hash.result().toHex().left(12));
    return QDir(folder).filePath(
        QFileInfo(file).completeBaseName() + QLatin1Char('-') + digest + QStringLiteral(".gpuf"));
}

Result<RowId> kernelIdOf(Store &store, RowId problemId, const interop::bundle::KernelRef &ref)
{
    auto kernel = KernelRepo(store).findByHash(problemId, ref.hash);
    if (!kernel)
        return kernel.failure();
    if (!kernel->has_value())
        return Error {
            QObject::tr("the case's kernel %1 of '%2' is not in its store").arg(ref.hash.left(12), ref.problem)};
    return (*kernel)->id;
}

// Imports a case file for one session in the background, then opens its store and shows its pair once it is open.
class CaseOpener : public QObject
{
public:
    static constexpr const char *kName = "gpuf-case-opener";

    CaseOpener(StoreSession *session, Selection *selection)
        : QObject(session)
        , m_session(session)
        , m_selection(selection)
    {
        setObjectName(QLatin1StringView(kName));
        connect(session, &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) {
            if (m_pending && snapshot.path == m_pending->storePath && m_selection)
                showCase(m_selection, *m_pending);
            m_pending.reset();
        });
        connect(session, &StoreSession::openFailed, this, [this]() { m_pending.reset(); });
    }

    void open(const QString &file)
    {
        m_session->beginWork(QObject::tr("Opening the case file %1").arg(QFileInfo(file).fileName()));
        const QString folder = caseStoreFolder();
        m_job.start([file, folder](const CancelToken &) { return importCaseFile(file, folder); },
            [this, file](const Result<OpenedCase> &opened) {
                m_session->endWork();
                if (!opened) {
                    m_session->reportOpenFailure(file, opened.error());
                    return;
                }
                m_pending = *opened;
                m_session->open(opened->storePath);
            });
    }

private:
    StoreSession *m_session;
    QPointer<Selection> m_selection;
    std::optional<OpenedCase> m_pending;
    LatestJob<OpenedCase> m_job {this};
};

} // namespace

QString caseStoreFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/cases");
}

Result<OpenedCase> importCaseFile(const QString &file, const QString &folder)
{
    auto view = interop::readCaseView(file);
    if (!view)
        return view.failure();
    auto path = caseStorePath(file, folder);
    if (!path)
        return path.failure();
    if (!QDir().mkpath(folder))
        return Error {QObject::tr("cannot make the folder %1 for case stores").arg(folder)};
    auto store = Store::open(*path, Store::Mode::CreateIfMissing);
    if (!store)
        return store.failure();
    if (auto report = interop::importFiles(**store, {file}); !report)
        return report.failure();
    auto problem = ProblemRepo(**store).findByName(view->candidate.problem);
    if (!problem)
        return problem.failure();
    if (!problem->has_value())
        return Error {QObject::tr("the case's problem '%1' is not in its store").arg(view->candidate.problem)};
    OpenedCase opened {*path, (*problem)->id, 0, 0, view->forecaster, view->hardware, view->trustThreshold};
    auto reference = kernelIdOf(**store, opened.problemId, view->reference);
    if (!reference)
        return reference.failure();
    auto candidate = kernelIdOf(**store, opened.problemId, view->candidate);
    if (!candidate)
        return candidate.failure();
    opened.referenceId = *reference;
    opened.candidateId = *candidate;
    return opened;
}

void openCaseFile(StoreSession *session, Selection *selection, const QString &file)
{
    auto *opener = session->findChild<QObject *>(QLatin1StringView(CaseOpener::kName), Qt::FindDirectChildrenOnly);
    static_cast<CaseOpener *>(opener ? opener : new CaseOpener(session, selection))->open(file);
}

void showCase(Selection *selection, const OpenedCase &opened)
{
    if (!opened.forecaster.isEmpty())
        selection->setForecasterName(opened.forecaster);
    if (!opened.hardware.isEmpty())
        selection->setHardwareName(opened.hardware);
    if (opened.trustThreshold)
        selection->setTrustThreshold(*opened.trustThreshold);
    selection->setBaselineKind(Selection::Baseline::Reference);
    selection->setScope(opened.problemId);
    selection->setSelectedIds({opened.candidateId});
    selection->setPair(opened.candidateId, opened.referenceId);
}

} // namespace gpuf
