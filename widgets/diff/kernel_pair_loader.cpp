// KernelPairLoader; see kernel_pair_loader.h.
#include "widgets/diff/kernel_pair_loader.h"

#include "core/forecasters/costmodel/costmodel_forecaster.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

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
    ForecastAnnotations annotations;
};

// Annotations are extra: a forecast that cannot be read leaves the pair without them, never without its diff.
ForecastAnnotations annotationsOf(Store &store, RowId candidateId, RowId baselineId, const QString &forecaster)
{
    auto annotations = loadForecastAnnotations(store, candidateId, baselineId, forecaster);
    return annotations ? *annotations : ForecastAnnotations {};
}

QString titleOf(const Kernel &kernel, const QString &role)
{
    const QString name = kernel.name.isEmpty() ? kernel.contentHash.left(12) : kernel.name;
    return QStringLiteral("%1: %2").arg(role, name);
}

Loaded loadPair(const QString &path, RowId candidateId, RowId baselineId, const QString &forecaster, quint64 generation)
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
    result.baseline.notes = b.notes.trimmed();
    result.candidate.notes = c.notes.trimmed();
    result.annotations = annotationsOf(**store, candidateId, baselineId, forecaster);
    return result;
}

Loaded loadAnnotations(
    const QString &path, RowId candidateId, RowId baselineId, const QString &forecaster, quint64 generation)
{
    Loaded result;
    result.generation = generation;
    auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
    if (store)
        result.annotations = annotationsOf(**store, candidateId, baselineId, forecaster);
    return result;
}

} // namespace

KernelPairLoader::KernelPairLoader(StoreSession *session, Selection *selection, QObject *parent)
    : KernelPairLoader(session, selection, nullptr, parent)
{ }

KernelPairLoader::KernelPairLoader(StoreSession *session, Selection *selection, Settings *settings, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_forecasterName(settings ? settings->forecasterName() : QString::fromLatin1(costmodel::kForecasterName))
{
    connect(selection, &Selection::pairChanged, this, &KernelPairLoader::load);
    connect(session, &StoreSession::closed, this, [this]() {
        ++m_generation;
        ++m_annotationGeneration;
        m_candidateId = m_baselineId = 0;
        Q_EMIT cleared();
    });
    // A change follows every forecast batch (and imports): the pair may have a newer forecast now.
    connect(session, &StoreSession::opened, this, &KernelPairLoader::reloadAnnotations);
    connect(session, &StoreSession::changed, this, &KernelPairLoader::reloadAnnotations);
    if (settings)
        connect(settings, &Settings::forecasterNameChanged, this, &KernelPairLoader::setForecasterName);
}

void KernelPairLoader::setForecasterName(const QString &name)
{
    if (name == m_forecasterName)
        return;
    m_forecasterName = name;
    reloadAnnotations();
}

void KernelPairLoader::reloadAnnotations()
{
    if (m_candidateId <= 0 || m_baselineId <= 0 || !m_session->isOpen())
        return;
    const quint64 generation = ++m_annotationGeneration;
    auto *watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        const Loaded loaded = watcher->result();
        if (loaded.generation == m_annotationGeneration)
            Q_EMIT annotationsLoaded(loaded.annotations);
    });
    watcher->setFuture(QtConcurrent::run(
        loadAnnotations, m_session->path(), m_candidateId, m_baselineId, m_forecasterName, generation));
}

void KernelPairLoader::load(RowId candidateId, RowId baselineId)
{
    const quint64 generation = ++m_generation;
    // The pair's own load brings its annotations: a reload still running is stale, and one started after this load
    // read the store later, so its annotations win over the load's.
    const quint64 annotationGeneration = ++m_annotationGeneration;
    m_candidateId = candidateId;
    m_baselineId = baselineId;
    if (candidateId <= 0 || baselineId <= 0 || !m_session->isOpen()) {
        Q_EMIT cleared();
        return;
    }
    auto *watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher, annotationGeneration]() {
        watcher->deleteLater();
        const Loaded loaded = watcher->result();
        if (loaded.generation != m_generation)
            return;
        if (!loaded.error.isEmpty()) {
            Q_EMIT failed(loaded.error);
            return;
        }
        Q_EMIT pairLoaded(loaded.baseline, loaded.candidate);
        if (annotationGeneration == m_annotationGeneration)
            Q_EMIT annotationsLoaded(loaded.annotations);
    });
    watcher->setFuture(
        QtConcurrent::run(loadPair, m_session->path(), candidateId, baselineId, m_forecasterName, generation));
}

} // namespace gpuf
