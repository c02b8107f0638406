// RooflineLoader; see roofline_loader.h.
#include "widgets/measure/roofline_loader.h"

#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/store.h"

namespace gpuf {

RooflineLoader::RooflineLoader(StoreSession *session, Selection *selection, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    connect(selection, &Selection::pairChanged, this,
        [this, selection](RowId candidateId, RowId) { load(candidateId, selection->hardwareName()); });
    connect(selection, &Selection::hardwareNameChanged, this, [this](const QString &name) { load(m_kernelId, name); });
    // A new store, or a write to this one (a measurement stored, a deletion), may change the times the roofline uses.
    connect(session, &StoreSession::opened, this, &RooflineLoader::reload);
    connect(session, &StoreSession::changed, this, &RooflineLoader::reload);
    connect(session, &StoreSession::closed, this, [this] { load(0, m_hardwareName); });
}

void RooflineLoader::load(RowId kernelId, const QString &hardwareName)
{
    m_kernelId = kernelId;
    m_hardwareName = hardwareName;
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
            if (result)
                Q_EMIT loaded(*result);
            else
                Q_EMIT failed(result.error());
        });
}

} // namespace gpuf
