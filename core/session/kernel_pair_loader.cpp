// KernelPairLoader; see kernel_pair_loader.h.
#include "core/session/kernel_pair_loader.h"

#include "core/forecasters/costmodel/costmodel_forecaster.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/pair_reads.h"

#include <QCoreApplication>

namespace gpuf {
namespace {

const QString kPairKey = QStringLiteral("pair");
const QString kAnnotationsKey = QStringLiteral("annotations");

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

QString roleName(KernelPair::BaselineRole role)
{
    switch (role) {
    case KernelPair::BaselineRole::Reference:
        return QCoreApplication::translate("QObject", "reference");
    case KernelPair::BaselineRole::Parent:
        return QCoreApplication::translate("QObject", "parent");
    case KernelPair::BaselineRole::Other:
        break;
    }
    return QCoreApplication::translate("QObject", "baseline");
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
        m_candidateId = m_baselineId = 0;
        Q_EMIT cleared();
    });
    connect(session, &StoreSession::opened, this, &KernelPairLoader::reloadAnnotations);
    connect(session, &StoreSession::changed, this, &KernelPairLoader::followChange);
    if (settings)
        connect(settings, &Settings::forecasterNameChanged, this, &KernelPairLoader::setForecasterName);
}

// A forecast batch (or an import) that touched the candidate may have brought a newer forecast of the pair.
void KernelPairLoader::followChange(const StoreChange &change)
{
    if (change.mayAffectKernel(m_candidateId))
        reloadAnnotations();
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
    m_annotationsReread = true;
    m_session->read<ForecastAnnotations>(
        kAnnotationsKey,
        [candidateId = m_candidateId, baselineId = m_baselineId, forecaster = m_forecasterName](
            Store &store, const CancelToken &) { return annotationsOf(store, candidateId, baselineId, forecaster); },
        this,
        [this](Result<ForecastAnnotations> annotations) {
            if (annotations)
                Q_EMIT annotationsLoaded(*annotations);
        });
}

void KernelPairLoader::load(RowId candidateId, RowId baselineId)
{
    // The pair's own load brings its annotations: a reload still running is stale, and one started after this load
    // read the store later, so its annotations win over the load's.
    m_session->cancelReads(this);
    m_annotationsReread = false;
    m_candidateId = candidateId;
    m_baselineId = baselineId;
    if (candidateId <= 0 || baselineId <= 0 || !m_session->isOpen()) {
        Q_EMIT cleared();
        return;
    }
    m_session->read<Loaded>(
        kPairKey,
        [candidateId, baselineId, forecaster = m_forecasterName](
            Store &store, const CancelToken &cancel) -> Result<Loaded> {
            auto pair = loadKernelPair(store, candidateId, baselineId, cancel);
            if (!pair)
                return pair.failure();
            const Kernel &c = pair->candidate;
            const Kernel &b = pair->baseline;
            Loaded loaded;
            loaded.baseline = DiffSide {titleOf(b, roleName(pair->role)), b.language, b.source, b.notes.trimmed()};
            loaded.candidate = DiffSide {titleOf(c, QCoreApplication::translate("QObject", "candidate")), c.language,
                c.source, c.notes.trimmed()};
            loaded.annotations = annotationsOf(store, candidateId, baselineId, forecaster);
            return loaded;
        },
        this,
        [this](Result<Loaded> loaded) {
            if (!loaded) {
                if (!loaded.isCancelled())
                    Q_EMIT failed(loaded.error());
                return;
            }
            Q_EMIT pairLoaded(loaded->baseline, loaded->candidate);
            if (!m_annotationsReread)
                Q_EMIT annotationsLoaded(loaded->annotations);
        });
}

} // namespace gpuf
