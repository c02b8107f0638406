// RooflineLoader; see roofline_loader.h.
#include "widgets/measure/roofline_loader.h"

#include "core/session/selection.h"
#include "core/session/store_change.h"
#include "core/session/store_session.h"
#include "core/store/store.h"

#include <algorithm>

namespace gpuf {

RooflineLoader::RooflineLoader(StoreSession *session, Selection *selection, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    connect(selection, &Selection::pairChanged, this,
        [this, selection](RowId candidateId, RowId) { load(candidateId, selection->hardwareName()); });
    connect(selection, &Selection::hardwareNameChanged, this, [this](const QString &name) { load(m_kernelId, name); });
    // A new store, or a write to this one that touches what the roofline read (a measurement stored, a deletion).
    connect(session, &StoreSession::opened, this, &RooflineLoader::reload);
    connect(session, &StoreSession::changed, this, &RooflineLoader::followChange);
    connect(session, &StoreSession::closed, this, [this] { load(0, m_hardwareName); });
}

bool RooflineLoader::mayChange(const StoreChange &change) const
{
    using Kind = StoreChange::Kind;
    if (m_kernelId <= 0)
        return false; // nothing drawn: the empty state stays
    const auto names = [this, &change] {
        return m_loading // not known yet what the read in flight draws
            || std::any_of(m_readKernels.cbegin(), m_readKernels.cend(),
                [&change](RowId id) { return change.mayAffectKernel(id); });
    };
    switch (change.kind) {
    case Kind::Forecasts:
    case Kind::Forecasters:
    case Kind::Lessons:
        return false; // the roofline reads no forecasts, cost models or lessons
    case Kind::Measurements:
        // Any measurement may bring the GPU the roofline had none of; else only the drawn kernels' measurements do.
        return !m_hardwareKnown || names();
    case Kind::Searches:
        return names(); // the kernels a search added (its events and other rows are not drawn)
    case Kind::Kernels: // a kernel added may be the reference of the kernel's problem
    case Kind::Removed:
    case Kind::Restored:
    case Kind::Import:
    case Kind::Reload:
        break;
    }
    return true;
}

void RooflineLoader::followChange(const StoreChange &change)
{
    if (mayChange(change))
        reload();
}

void RooflineLoader::load(RowId kernelId, const QString &hardwareName)
{
    m_kernelId = kernelId;
    m_hardwareName = hardwareName;
    m_readKernels = {kernelId};
    m_hardwareKnown = false;
    if (kernelId <= 0 || !m_session->isOpen()) {
        m_session->cancelReads(this);
        m_loading = false;
        Q_EMIT cleared(m_session->isOpen() ? tr("Choose a kernel in the Candidates table to see where it stands "
                                                "against the GPU: its roofline, its parent's and its reference's.")
                                           : tr("No store is open."));
        return;
    }
    m_loading = true;
    m_session->read<RooflineData>(
        QStringLiteral("roofline"),
        [kernelId, hardwareName](Store &store, const CancelToken &cancel) {
            return readRooflineData(store, kernelId, hardwareName, cancel);
        },
        this,
        [this](const Result<RooflineData> &result) {
            m_loading = false;
            if (result) {
                for (const RooflineSeries &series : result->series)
                    m_readKernels.append(series.kernelId);
                std::sort(m_readKernels.begin(), m_readKernels.end());
                m_readKernels.erase(std::unique(m_readKernels.begin(), m_readKernels.end()), m_readKernels.end());
                m_hardwareKnown = result->hardware.id != 0;
                Q_EMIT loaded(*result);
            } else {
                Q_EMIT failed(result.error());
            }
        });
}

} // namespace gpuf
