// KernelPairLoader; see kernel_pair_loader.h.
#include "widgets/diff/kernel_pair_loader.h"

#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "widgets/session/selection.h"
#include "widgets/session/store_session.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {
namespace {

struct Loaded
{
    quint64 generation = 0;
    QString error;
    DiffSide baseline;
    DiffSide candidate;
};

QString titleOf(const Kernel &kernel, const QString &role)
{
    const QString name = kernel.name.isEmpty() ? kernel.contentHash.left(12) : kernel.name;
    return QStringLiteral("%1: %2").arg(role, name);
}

Loaded loadPair(const QString &path, RowId candidateId, RowId baselineId, quint64 generation)
{
    Loaded result;
    result.generation = generation;
    auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!store) {
        result.error = store.error();
        return result;
    }
    KernelRepo kernels(**store);
    auto candidate = kernels.find(candidateId);
    auto baseline = kernels.find(baselineId);
    if (!candidate || !baseline) {
        result.error = candidate ? baseline.error() : candidate.error();
        return result;
    }
    if (!candidate->has_value() || !baseline->has_value()) {
        result.error
            = QObject::tr("kernel %1 is not in the store").arg(!candidate->has_value() ? candidateId : baselineId);
        return result;
    }
    const Kernel &c = **candidate;
    const Kernel &b = **baseline;
    auto problem = ProblemRepo(**store).find(c.problemId);
    const bool isReference = problem && problem->has_value() && (*problem)->referenceKernelId == b.id;
    const bool isParent = c.parentId == b.id;
    const QString role = isReference ? QObject::tr("reference")
        : isParent                   ? QObject::tr("parent")
                                     : QObject::tr("baseline");
    result.baseline = DiffSide {titleOf(b, role), b.language, b.source};
    result.candidate = DiffSide {titleOf(c, QObject::tr("candidate")), c.language, c.source};
    return result;
}

} // namespace

KernelPairLoader::KernelPairLoader(StoreSession *session, Selection *selection, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    connect(selection, &Selection::pairChanged, this, &KernelPairLoader::load);
    connect(session, &StoreSession::closed, this, [this]() {
        ++m_generation;
        Q_EMIT cleared();
    });
}

void KernelPairLoader::load(RowId candidateId, RowId baselineId)
{
    const quint64 generation = ++m_generation;
    if (candidateId <= 0 || baselineId <= 0 || !m_session->isOpen()) {
        Q_EMIT cleared();
        return;
    }
    auto *watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        const Loaded loaded = watcher->result();
        if (loaded.generation != m_generation)
            return;
        if (!loaded.error.isEmpty())
            Q_EMIT failed(loaded.error);
        else
            Q_EMIT pairLoaded(loaded.baseline, loaded.candidate);
    });
    watcher->setFuture(QtConcurrent::run(loadPair, m_session->path(), candidateId, baselineId, generation));
}

} // namespace gpuf
