// The forecast engine; see forecast_engine.h.
#include "core/forecasters/forecast_engine.h"

#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <utility>

namespace gpuf {

QString forecastItemStateName(ForecastItemState state)
{
    switch (state) {
    case ForecastItemState::Queued:
        return QStringLiteral("queued");
    case ForecastItemState::Running:
        return QStringLiteral("running");
    case ForecastItemState::Done:
        return QStringLiteral("done");
    case ForecastItemState::Cached:
        return QStringLiteral("cached");
    case ForecastItemState::Cancelled:
        return QStringLiteral("cancelled");
    case ForecastItemState::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

namespace {

bool isOpen(ForecastItemState state)
{
    return state == ForecastItemState::Queued || state == ForecastItemState::Running;
}

void count(ForecastSummary &summary, ForecastItemState state, std::optional<ForecastStatus> status)
{
    switch (state) {
    case ForecastItemState::Cached:
        ++summary.cached;
        return;
    case ForecastItemState::Cancelled:
        ++summary.cancelled;
        return;
    case ForecastItemState::Done:
        if (status == ForecastStatus::Ok)
            ++summary.ok;
        else if (status == ForecastStatus::ParseFailed)
            ++summary.parseFailed;
        else
            ++summary.errors;
        return;
    default:
        ++summary.errors;
    }
}

} // namespace

ForecastEngine::ForecastEngine(ForecastEngineConfig config, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_snapshotTimer(this) // children, so moveToThread() takes them along to the engine's thread
    , m_reasoningTimer(this)
{
    qRegisterMetaType<ForecastPair>();
    qRegisterMetaType<ForecastBatch>();
    qRegisterMetaType<ForecastSummary>();
    qRegisterMetaType<ForecastSnapshot>();
    qRegisterMetaType<ForecastReasoning>();
    qRegisterMetaType<Forecast>();
    m_snapshotTimer.setSingleShot(true);
    m_snapshotTimer.setInterval(m_config.snapshotIntervalMs);
    connect(&m_snapshotTimer, &QTimer::timeout, this, &ForecastEngine::emitSnapshot);
    m_reasoningTimer.setSingleShot(true);
    m_reasoningTimer.setInterval(m_config.reasoningIntervalMs);
    connect(&m_reasoningTimer, &QTimer::timeout, this, &ForecastEngine::flushReasoning);
}

ForecastEngine::~ForecastEngine()
{
    for (Entry &e : m_entries) {
        if (e.item.state == ForecastItemState::Running) {
            if (auto it = m_backends.find(e.item.forecasterId); it != m_backends.end())
                it->second.backend->cancel(e.item.id);
        }
    }
}

void ForecastEngine::setStorePath(const QString &path)
{
    m_store.reset();
    if (path.isEmpty())
        return;
    // The caller opened and fully checked the file already; this connection only needs the header check.
    auto opened = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
    if (!opened) {
        Q_EMIT notice(tr("Forecasts cannot be stored: %1").arg(opened.error()));
        return;
    }
    m_store = std::move(opened.value());
}

void ForecastEngine::setCostModelPath(const QString &path) { m_config.backend.costModelPath = path; }

Result<ForecastEngine::Backend *> ForecastEngine::backendFor(RowId forecasterId)
{
    auto forecaster = ForecasterRepo(*m_store).find(forecasterId);
    if (!forecaster)
        return Error {forecaster.error()};
    if (!forecaster->has_value())
        return Error {tr("no forecaster with id %1 in the store").arg(forecasterId)};
    auto it = m_backends.find(forecasterId);
    if (it != m_backends.end()) {
        // A configuration (or a cost model) changed since the backend was made takes effect once the backend is idle.
        // (Only cost-model backends read the model path: an LLM backend is never remade for it.)
        const bool sameModel
            = (*forecaster)->kind != ForecasterKind::CostModel || it->second.options == m_config.backend;
        const bool same = it->second.config == (*forecaster)->config && sameModel;
        if (same || it->second.running > 0 || !it->second.queue.empty())
            return &it->second;
        m_backends.erase(it);
    }
    auto made = makeBackend(**forecaster, m_config.backend);
    if (!made)
        return Error {made.error()};
    Backend b;
    b.backend = std::move(made.value());
    b.config = (*forecaster)->config;
    b.options = m_config.backend;
    connect(b.backend.get(), &ForecastBackend::finished, this, &ForecastEngine::onFinished);
    connect(b.backend.get(), &ForecastBackend::reasoningDelta, this, &ForecastEngine::onReasoning);
    return &m_backends.insert_or_assign(forecasterId, std::move(b)).first->second;
}

Status ForecastEngine::prepare(const ForecastBatch &batch, QList<Entry> &entries, Backend *&backend)
{
    if (!m_store)
        return Error {tr("no store is open")};
    if (batch.samples < 1)
        return Error {tr("the number of samples must be at least 1 (got %1)").arg(batch.samples)};
    auto made = backendFor(batch.forecasterId);
    if (!made)
        return Error {made.error()};
    backend = *made;
    std::optional<Hardware> hardware = batch.hardware;
    if (hardware) {
        if (auto id = HardwareRepo(*m_store).ensure(*hardware); !id)
            return Error {id.error()};
    }
    KernelRepo kernels(*m_store);
    ProblemRepo problems(*m_store);
    ForecastRepo forecasts(*m_store);
    QHash<RowId, QString> operations; // problem id → name
    for (const ForecastPair &pair : batch.pairs) {
        auto reference = kernels.find(pair.referenceKernelId);
        auto candidate = kernels.find(pair.candidateKernelId);
        QString missing;
        if (!reference || !reference->has_value())
            missing = tr("reference kernel %1 is not in the store").arg(pair.referenceKernelId);
        else if (!candidate || !candidate->has_value())
            missing = tr("candidate kernel %1 is not in the store").arg(pair.candidateKernelId);
        const RowId problemId = missing.isEmpty() ? (**candidate).problemId : 0;
        if (problemId != 0 && !operations.contains(problemId)) {
            auto problem = problems.find(problemId);
            operations.insert(problemId, problem && problem->has_value() ? (**problem).name : QString());
        }
        for (int repeat = 0; repeat < batch.samples; ++repeat) {
            Entry e;
            e.item.batchId = batch.id;
            e.item.pair = pair;
            e.item.repeat = repeat;
            e.item.forecasterId = batch.forecasterId;
            if (!missing.isEmpty()) {
                e.item.state = ForecastItemState::Failed;
                e.item.message = missing;
                entries.append(e);
                continue;
            }
            e.request = ForecastRequest {0, **reference, **candidate, operations.value(problemId), hardware, repeat};
            if (!batch.refresh) {
                // Errors (timeouts, refused connections) are not answers: they are asked again.
                auto cached = forecasts.findByCacheKey(backend->backend->cacheKey(e.request));
                if (cached && cached->has_value() && (**cached).status != ForecastStatus::Error
                    && (**cached).forecasterId == batch.forecasterId) {
                    e.item.state = ForecastItemState::Cached;
                    e.item.status = (**cached).status;
                    e.item.forecastId = (**cached).id;
                    e.item.message = (**cached).errorText;
                }
            }
            entries.append(e);
        }
    }
    return {};
}

void ForecastEngine::enqueue(const ForecastBatch &batch)
{
    QList<Entry> entries;
    Backend *backend = nullptr;
    if (Status s = prepare(batch, entries, backend); !s) {
        failBatch(batch, s.error());
        return;
    }
    BatchState &state = m_batches[batch.id];
    state.summary = ForecastSummary {};
    state.summary.requested = int(entries.size());
    state.open = int(entries.size());
    m_total.requested += int(entries.size());
    const bool empty = entries.isEmpty();
    for (Entry &e : entries) {
        e.item.id = m_firstId + m_entries.size();
        e.request.id = e.item.id;
        const ForecastItemState initial = e.item.state;
        e.item.state = ForecastItemState::Queued;
        m_entries.push_back(std::move(e));
        Entry &stored = m_entries.back();
        if (initial == ForecastItemState::Queued)
            backend->queue.push_back(stored.item.id);
        else
            close(stored, initial, stored.item.status, stored.item.message);
    }
    if (empty) {
        m_batches.remove(batch.id);
        Q_EMIT batchFinished(batch.id, ForecastSummary {});
    }
    markDirty();
    dispatch();
}

void ForecastEngine::failBatch(const ForecastBatch &batch, const QString &error)
{
    ForecastSummary summary;
    summary.requested = int(batch.pairs.size()) * std::max(0, batch.samples);
    summary.errors = summary.requested;
    summary.error = error;
    m_total.requested += summary.requested;
    m_total.errors += summary.errors;
    Q_EMIT notice(tr("Nothing forecast: %1").arg(error));
    Q_EMIT batchFinished(batch.id, summary);
    markDirty();
}

void ForecastEngine::dispatch()
{
    // A synchronous backend answers inside start(); its onFinished() asks for another round instead of recursing.
    if (m_dispatching) {
        m_dispatchAgain = true;
        return;
    }
    m_dispatching = true;
    do {
        m_dispatchAgain = false;
        for (auto &[forecasterId, b] : m_backends) {
            while (b.running < b.backend->concurrency() && !b.queue.empty()) {
                const quint64 id = b.queue.front();
                b.queue.pop_front();
                Entry *e = entry(id);
                if (!e || e->item.state != ForecastItemState::Queued)
                    continue;
                e->item.state = ForecastItemState::Running;
                ++b.running;
                b.backend->start(e->request);
            }
        }
    } while (m_dispatchAgain);
    m_dispatching = false;
    markDirty();
}

void ForecastEngine::onFinished(quint64 requestId, const Forecast &forecast)
{
    Entry *e = entry(requestId);
    if (!e || e->item.state != ForecastItemState::Running)
        return;
    if (auto it = m_backends.find(e->item.forecasterId); it != m_backends.end())
        --it->second.running;
    flushReasoning();
    Forecast stored = forecast;
    auto id = m_store ? ForecastRepo(*m_store).insert(stored) : Result<RowId>(Error {tr("no store is open")});
    if (!id) {
        close(*e, ForecastItemState::Failed, forecast.status, tr("forecast made but not stored: %1").arg(id.error()));
    } else {
        e->item.forecastId = *id;
        Q_EMIT forecastStored(stored);
        close(*e, ForecastItemState::Done, stored.status, stored.errorText);
    }
    dispatch();
}

void ForecastEngine::onReasoning(quint64 requestId, const QString &text)
{
    Entry *e = entry(requestId);
    if (!e || e->item.state != ForecastItemState::Running)
        return;
    e->reasoning += text;
    if (watched(*e) && !m_reasoningTimer.isActive())
        m_reasoningTimer.start();
}

void ForecastEngine::close(
    Entry &e, ForecastItemState state, std::optional<ForecastStatus> status, const QString &message)
{
    if (!isOpen(e.item.state))
        return;
    e.item.state = state;
    e.item.status = status;
    e.item.message = message;
    e.reasoning.clear();
    e.reasoningSent = 0;
    count(m_total, state, status);
    markDirty();
    auto it = m_batches.find(e.item.batchId);
    if (it == m_batches.end())
        return;
    count(it->summary, state, status);
    if (--it->open > 0)
        return;
    const ForecastSummary summary = it->summary;
    m_batches.erase(it);
    Q_EMIT batchFinished(e.item.batchId, summary);
}

ForecastEngine::Entry *ForecastEngine::entry(quint64 id)
{
    if (id < m_firstId || id - m_firstId >= m_entries.size())
        return nullptr;
    return &m_entries[id - m_firstId];
}

bool ForecastEngine::watched(const Entry &e) const
{
    return m_watched.candidateKernelId != 0 && e.item.pair == m_watched;
}

void ForecastEngine::watch(const ForecastPair &pair)
{
    m_watched = pair;
    for (Entry &e : m_entries) {
        if (e.item.state != ForecastItemState::Running || !watched(e))
            continue;
        e.reasoningSent = e.reasoning.size();
        Q_EMIT reasoningUpdated(ForecastReasoning {e.item.pair, e.item.repeat, e.item.forecasterId, e.reasoning, true});
    }
}

void ForecastEngine::flushReasoning()
{
    m_reasoningTimer.stop();
    if (m_watched.candidateKernelId == 0)
        return;
    for (Entry &e : m_entries) {
        if (e.item.state != ForecastItemState::Running || !watched(e) || e.reasoning.size() == e.reasoningSent)
            continue;
        const QString text = e.reasoning.mid(e.reasoningSent);
        e.reasoningSent = e.reasoning.size();
        Q_EMIT reasoningUpdated(ForecastReasoning {e.item.pair, e.item.repeat, e.item.forecasterId, text, false});
    }
}

void ForecastEngine::cancel(quint64 batchId)
{
    // Ids first: closing the last entry emits batchFinished(), whose receivers may enqueue more.
    QList<quint64> ids;
    for (const Entry &e : m_entries) {
        if (e.item.batchId == batchId && isOpen(e.item.state))
            ids.append(e.item.id);
    }
    for (quint64 id : std::as_const(ids)) {
        Entry *found = entry(id);
        if (!found || !isOpen(found->item.state))
            continue;
        Entry &e = *found;
        if (e.item.state == ForecastItemState::Running) {
            if (auto it = m_backends.find(e.item.forecasterId); it != m_backends.end()) {
                it->second.backend->cancel(e.item.id);
                --it->second.running;
            }
        }
        close(e, ForecastItemState::Cancelled, std::nullopt, tr("cancelled"));
    }
    dispatch();
}

void ForecastEngine::cancelAll()
{
    QList<quint64> batches = m_batches.keys();
    for (quint64 id : batches)
        cancel(id);
}

void ForecastEngine::clearFinished()
{
    // Only a finished prefix goes, so ids keep mapping to positions.
    while (!m_entries.empty() && !isOpen(m_entries.front().item.state)) {
        m_entries.pop_front();
        ++m_firstId;
    }
    markDirty();
}

void ForecastEngine::markDirty()
{
    if (!m_snapshotTimer.isActive())
        m_snapshotTimer.start();
}

ForecastSnapshot ForecastEngine::snapshot() const
{
    ForecastSnapshot s;
    s.sequence = m_sequence;
    s.total = m_total;
    s.items.reserve(qsizetype(m_entries.size()));
    for (const Entry &e : m_entries) {
        s.items.append(e.item);
        if (e.item.state == ForecastItemState::Queued)
            ++s.queued;
        else if (e.item.state == ForecastItemState::Running)
            ++s.running;
    }
    return s;
}

void ForecastEngine::emitSnapshot()
{
    m_snapshotTimer.stop();
    ++m_sequence;
    Q_EMIT snapshotReady(snapshot());
}

} // namespace gpuf
