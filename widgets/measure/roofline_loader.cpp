// RooflineLoader; see roofline_loader.h.
#include "widgets/measure/roofline_loader.h"

#include "core/store/store.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {
namespace {

struct Loaded
{
    quint64 generation = 0;
    Result<RooflineData> data = Error {};
};

} // namespace

RooflineLoader::RooflineLoader(StoreSession *session, Selection *selection, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    connect(selection, &Selection::pairChanged, this,
        [this, selection](RowId candidateId, RowId) { load(candidateId, selection->hardwareName()); });
    connect(selection, &Selection::hardwareNameChanged, this, [this](const QString &name) { load(m_kernelId, name); });
    // A refresh (after a measurement, an import) may bring the times the roofline needs; a deletion may take them.
    connect(session, &StoreSession::opened, this, &RooflineLoader::reload);
    connect(session, &StoreSession::changed, this, &RooflineLoader::reload);
    connect(session, &StoreSession::closed, this, [this] { load(0, m_hardwareName); });
}

RooflineLoader::~RooflineLoader()
{
    if (m_cancel)
        m_cancel->store(true);
}

void RooflineLoader::load(RowId kernelId, const QString &hardwareName)
{
    const quint64 generation = ++m_generation;
    m_kernelId = kernelId;
    m_hardwareName = hardwareName;
    if (m_cancel)
        m_cancel->store(true); // an older read stops at its next check; its result is ignored anyway
    if (kernelId <= 0 || !m_session->isOpen()) {
        m_loading = false;
        Q_EMIT cleared(m_session->isOpen() ? tr("Choose a kernel in the Candidates table to see where it stands "
                                                "against the GPU: its roofline, its parent's and its reference's.")
                                           : tr("No store is open."));
        return;
    }
    m_loading = true;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    auto *watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher]() {
        watcher->deleteLater();
        const Loaded result = watcher->result();
        if (result.generation != m_generation)
            return;
        m_loading = false;
        if (result.data)
            Q_EMIT loaded(*result.data);
        else
            Q_EMIT failed(result.data.error());
    });
    watcher->setFuture(QtConcurrent::run(
        [path = m_session->path(), kernelId, hardwareName, generation, cancel = m_cancel]() -> Loaded {
            auto store = Store::open(path, Store::Mode::ReadOnly, Store::Check::Header);
            if (!store)
                return Loaded {generation, Error {store.error()}};
            return Loaded {generation, readRooflineData(**store, kernelId, hardwareName, cancel.get())};
        }));
}

} // namespace gpuf
