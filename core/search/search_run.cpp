// The search loop; see search_run.h.
#include "core/search/search_run.h"

#include "core/search/feedback_json.h"
#include "core/search/recorded_mutators.h"
#include "core/search/selection.h"
#include "core/search/ulid.h"
#include "core/store/forecast_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QJsonArray>

#include <algorithm>
#include <limits>

namespace gpuf::search {

namespace {

// The learner behind a step's outlook (forecasts_drained's `learner`): its version and, while the prior alone
// forecasts, why.
QJsonObject learnerJson(const StepOutlook &outlook)
{
    QJsonObject o {{QStringLiteral("version"), outlook.learnerVersion}};
    if (!outlook.learnerReason.isEmpty())
        o.insert(QStringLiteral("prior_only"), outlook.learnerReason);
    else
        o.insert(QStringLiteral("calibration"),
            QJsonObject {{QStringLiteral("temperature"), outlook.temperature},
                {QStringLiteral("pairs"), outlook.calibrationPairs}});
    o.insert(QStringLiteral("improvement_rate"), outlook.improvementRate);
    return o;
}

// A decision's outlook (candidate_selected / candidate_deferred): which learner version forecast it and what it said.
void insertOutlook(QJsonObject &payload, const ProposalOutlook &o)
{
    payload.insert(QStringLiteral("learner_version"), o.learnerVersion);
    payload.insert(QStringLiteral("p_beat_parent"), o.pBeatParent);
    payload.insert(QStringLiteral("p_beat_best"), o.pBeatBest);
    payload.insert(QStringLiteral("gain_over_best"), o.gainOverBest);
    if (o.belief.known()) {
        payload.insert(QStringLiteral("mean_log2_speedup"), o.belief.meanLog2());
        payload.insert(QStringLiteral("sd_log2_speedup"), o.belief.sdLog2());
        if (o.learnerVersion > 0)
            payload.insert(QStringLiteral("raw_sd_log2_speedup"), o.rawSd);
    }
}

QJsonArray toArray(const QStringList &list)
{
    QJsonArray a;
    for (const QString &s : list)
        a.append(s);
    return a;
}

} // namespace

SearchRun::SearchRun(std::unique_ptr<EventSink> sink, RunParts parts)
    : m_sink(std::move(sink))
    , m_parts(std::move(parts))
    , m_alive(std::make_shared<bool>(true))
{ }

SearchRun::~SearchRun()
{
    *m_alive = false;
    if (m_parts.mutator)
        m_parts.mutator->cancel();
    if (m_parts.evaluator)
        m_parts.evaluator->cancel();
    if (m_parts.forecaster)
        m_parts.forecaster->cancel();
}

QList<SearchEvent> SearchRun::initialEvents(
    const QString &name, const SearchConfig &config, const QList<SeedSpec> &seeds, const QDateTime &now)
{
    QList<SearchEvent> events;
    int mint = 0;
    auto id = [&]() { return makeUlid(now, mix64(config.seed) & 0xFFFF, mix64(config.seed ^ quint64(++mint))); };
    QJsonArray seedArray;
    QList<std::pair<QString, QString>> unmeasured; // node id, request id
    for (const SeedSpec &seed : seeds) {
        const QString nodeId = id();
        QJsonObject s {{QStringLiteral("node_id"), nodeId}, {QStringLiteral("code"), seed.proposal.source},
            {QStringLiteral("language"), seed.proposal.language}, {QStringLiteral("origin"), seed.proposal.origin},
            {QStringLiteral("content_hash"), contentHashOf(seed.proposal.source)},
            {QStringLiteral("kernel_id"), seed.kernelId}, {QStringLiteral("parameters"), seed.proposal.parameters}};
        if (seed.reward)
            s.insert(QStringLiteral("reward"), *seed.reward);
        else
            unmeasured.append({nodeId, id()});
        seedArray.append(s);
    }
    SearchEvent init;
    init.kind = eventKindName(SearchEventKind::SearchInitialized);
    init.time = now;
    init.payload = {{QStringLiteral("id"), id()}, {QStringLiteral("search_id"), name},
        {QStringLiteral("engine"), QStringLiteral("gpuf")},
        {QStringLiteral("format_version"), config.mode == Mode::Standard ? 2 : 3},
        {QStringLiteral("config"), config.toJson()}, {QStringLiteral("seeds"), seedArray},
        {QStringLiteral("seed_node_id"),
            seedArray.isEmpty() ? QJsonValue() : seedArray.first().toObject().value(QStringLiteral("node_id"))}};
    events.append(init);
    for (const auto &[nodeId, requestId] : unmeasured) {
        SearchEvent e;
        e.kind = eventKindName(SearchEventKind::EvaluationRequested);
        e.time = now;
        e.payload = {{QStringLiteral("id"), id()}, {QStringLiteral("request_id"), requestId},
            {QStringLiteral("node_id"), nodeId}, {QStringLiteral("step"), -1}};
        events.append(e);
    }
    return events;
}

Status SearchRun::initialize(EventSink &sink, const QString &name, const SearchConfig &config,
    const QList<SeedSpec> &seeds, const QDateTime &now)
{
    if (seeds.isEmpty())
        return Error {QStringLiteral("a search needs a seed kernel")};
    return sink.transact([&](QList<SearchEvent> &events) -> Status {
        events = initialEvents(name, config, seeds, now);
        return {};
    });
}

Status SearchRun::open()
{
    if (Status s = sync(); !s)
        return s;
    if (!m_state.initialized)
        return Error {QStringLiteral("the search has no search_initialized event")};
    m_opened = true; // what is appended from here on is new to the store's other views
    if (m_parts.mutator) {
        MutatorSetup setup {m_parts.problem.id, m_parts.problem.name, m_state.config.seed};
        if (Status s = m_parts.mutator->prepare(setup); !s)
            return s;
    }
    dispatchOpen();
    return {};
}

Status SearchRun::sync()
{
    auto events = m_sink->since(m_state.events);
    if (!events)
        return Error {events.error()};
    for (const SearchEvent &e : std::as_const(*events)) {
        if (Status s = applyEvent(m_state, e); !s)
            return s;
        if (m_opened)
            noteWrites(e);
    }
    return {};
}

// The rows an event this run appended stands for (a proposed or injected kernel, a stored forecast, a measurement),
// for the store's other views.
void SearchRun::noteWrites(const SearchEvent &e)
{
    m_writes.events += 1;
    if (const RowId kernel = e.payload.value(QStringLiteral("kernel_id")).toInteger(); kernel > 0)
        m_writes.kernels.append(kernel);
    const std::optional<SearchEventKind> kind = eventKindOf(e);
    const bool forecast
        = kind == SearchEventKind::ForecastCompleted && e.payload.value(QStringLiteral("forecast_id")).toInteger() > 0;
    const bool measured = kind == SearchEventKind::EvaluationCompleted;
    if (!forecast && !measured)
        return;
    const Candidate *c = m_state.candidate(e.payload.value(QStringLiteral("node_id")).toString());
    if (!c || c->kernelId <= 0)
        return;
    (forecast ? m_writes.forecastKernels : m_writes.measuredKernels).append(c->kernelId);
}

SearchWrites SearchRun::takeWrites()
{
    SearchWrites out = std::move(m_writes);
    m_writes = {};
    out.searchId = m_sink->searchId();
    return out;
}

QString SearchRun::mintId(int mint) const
{
    const quint64 base = mix64(m_state.config.seed ^ (quint64(m_state.events) << 24) ^ quint64(mint));
    return makeUlid(QDateTime::currentDateTimeUtc(), mix64(base) & 0xFFFF, base);
}

SearchEvent SearchRun::event(SearchEventKind kind, QJsonObject payload, int mint)
{
    SearchEvent e;
    e.kind = eventKindName(kind);
    e.time = QDateTime::currentDateTimeUtc();
    payload.insert(QStringLiteral("id"), mintId(mint));
    e.payload = std::move(payload);
    return e;
}

Status SearchRun::commit(const std::function<Status(QList<SearchEvent> &)> &build)
{
    if (Status s = m_sink->transact(build); !s)
        return s;
    if (Status s = sync(); !s)
        return s;
    dispatchOpen();
    return {};
}

bool SearchRun::hasInbox() const
{
    QMutexLocker lock(&m_inboxMutex);
    return !m_inbox.isEmpty();
}

void SearchRun::deliver(Answer answer)
{
    {
        QMutexLocker lock(&m_inboxMutex);
        m_inbox.append(std::move(answer));
    }
    if (m_notify)
        m_notify();
}

bool SearchRun::canAct() const
{
    if (hasInbox())
        return true;
    switch (nextAction(m_state)) {
    case NextAction::Wait:
    case NextAction::Paused:
    case NextAction::Done:
        return false;
    default:
        return true;
    }
}

Status SearchRun::pump(int maxActions)
{
    for (int actions = 0; maxActions < 0 || actions < maxActions; ++actions) {
        QList<Answer> answers;
        {
            QMutexLocker lock(&m_inboxMutex);
            answers.swap(m_inbox);
        }
        for (const Answer &a : std::as_const(answers)) {
            if (Status s = processAnswer(a); !s)
                return s;
        }
        // Events other writers appended (pause, steering from another process): once per call is soon enough.
        if (actions == 0) {
            if (Status s = sync(); !s)
                return s;
        }
        Status s;
        switch (nextAction(m_state)) {
        case NextAction::Wait:
            if (hasInbox())
                continue;
            return {};
        case NextAction::Paused:
        case NextAction::Done:
            return {};
        case NextAction::StartStep:
            s = startStep();
            break;
        case NextAction::RequestForecasts:
            s = requestForecasts();
            break;
        case NextAction::Select:
            s = select();
            break;
        case NextAction::CompleteStep:
            s = completeStep();
            break;
        case NextAction::Finish:
            s = finish(m_state.exhausted.isEmpty() ? QStringLiteral("the step budget is spent") : m_state.exhausted);
            break;
        }
        if (!s)
            return s;
    }
    return {};
}

Kernel SearchRun::kernelOf(const Candidate &c) const
{
    Kernel k;
    k.id = c.kernelId;
    k.problemId = m_parts.problem.id;
    k.source = c.code;
    k.language = c.language;
    k.contentHash = c.contentHash;
    k.parameters = c.parameters;
    k.origin = c.origin;
    return k;
}

MutationParent SearchRun::parentContext(const QString &nodeId)
{
    MutationParent p;
    p.nodeId = nodeId;
    if (const Candidate *c = m_state.candidate(nodeId)) {
        p.kernelId = c->kernelId;
        p.source = c->code;
        p.language = c->language;
        p.parameters = c->parameters;
        p.feedback = c->feedback;
    }
    if (const ArchiveNode *node = m_state.archive.find(nodeId))
        p.ancestors = node->ancestors;
    if (p.source.isEmpty() && p.kernelId > 0 && m_sink->store()) {
        KernelRepo kernels(*m_sink->store());
        if (auto k = kernels.find(p.kernelId); k && k->has_value()) {
            p.source = (*k)->source;
            p.parameters = (*k)->parameters;
        }
    }
    return p;
}

void SearchRun::dispatchOpen()
{
    auto ordered = [this](const QSet<QString> &open) {
        QList<std::pair<int, QString>> list;
        for (const QString &id : open) {
            if (!m_dispatched.contains(id))
                list.append({m_state.byRequest.value(id, -1), id});
        }
        std::sort(list.begin(), list.end());
        return list;
    };
    std::weak_ptr<bool> alive = m_alive;
    QList<MutationRequest> mutations;
    for (const auto &[position, id] : ordered(m_state.openMutations)) {
        const Candidate &c = m_state.candidates[size_t(position)];
        MutationRequest r;
        r.requestId = id;
        r.step = c.step;
        r.index = c.index;
        r.ordinal = c.ordinal;
        r.seed = c.seed;
        r.problemId = m_parts.problem.id;
        r.problemName = m_parts.problem.name;
        r.parent = parentContext(c.parentId);
        mutations.append(r);
        m_dispatched.insert(id);
    }
    QList<ForecastAsk> asks;
    for (const auto &[position, id] : ordered(m_state.openForecasts)) {
        asks.append({id, kernelOf(m_state.candidates[size_t(position)])});
        m_dispatched.insert(id);
    }
    QList<EvaluationRequest> evaluations;
    for (const auto &[position, id] : ordered(m_state.openEvaluations)) {
        const Candidate &c = m_state.candidates[size_t(position)];
        evaluations.append({id, c.nodeId, c.kernelId, c.code, c.language, c.contentHash, c.parameters});
        m_dispatched.insert(id);
    }
    if (!mutations.isEmpty() && m_parts.mutator)
        m_parts.mutator->request(mutations, [this, alive](MutationResult r) {
            if (alive.lock())
                deliver(std::move(r));
        });
    if (!asks.isEmpty() && m_parts.forecaster)
        m_parts.forecaster->request(asks, [this, alive](ForecastAnswer a) {
            if (alive.lock())
                deliver(std::move(a));
        });
    if (!evaluations.isEmpty() && m_parts.evaluator)
        m_parts.evaluator->request(evaluations, [this, alive](EvaluationResult r) {
            if (alive.lock())
                deliver(std::move(r));
        });
}

Status SearchRun::processAnswer(const Answer &answer)
{
    if (const auto *m = std::get_if<MutationResult>(&answer))
        return processMutation(*m);
    if (const auto *f = std::get_if<ForecastAnswer>(&answer))
        return processForecast(*f);
    return processEvaluation(std::get<EvaluationResult>(answer));
}

// A proposal (its kernel stored, then mutation_completed) or why there is none (mutation_failed).
Status SearchRun::processMutation(const MutationResult &m)
{
    if (!m_state.openMutations.contains(m.requestId))
        return {}; // answered already (a re-dispatched request answered twice)
    const Candidate &c = m_state.candidates[size_t(m_state.byRequest.value(m.requestId))];
    const QString nodeId = c.nodeId;
    const RowId parentKernel = m_state.candidate(c.parentId) ? m_state.candidate(c.parentId)->kernelId : 0;
    return commit([&](QList<SearchEvent> &events) -> Status {
        if (!m.proposal) {
            QJsonObject payload {{QStringLiteral("request_id"), m.requestId}, {QStringLiteral("node_id"), nodeId},
                {QStringLiteral("error"), m.error}};
            if (!m.details.isEmpty())
                payload.insert(QStringLiteral("details"), m.details);
            if (m.exhausted)
                payload.insert(QStringLiteral("exhausted"), true);
            events.append(event(SearchEventKind::MutationFailed, payload, 0));
            return {};
        }
        const Proposal &p = *m.proposal;
        Kernel kernel;
        kernel.problemId = m_parts.problem.id;
        kernel.parentId = parentKernel;
        kernel.source = p.source;
        kernel.language = p.language;
        kernel.origin = p.origin.isEmpty() ? QStringLiteral("manual") : p.origin;
        kernel.parameters = p.parameters;
        kernel.name = p.name;
        kernel.notes = p.notes;
        if (m_sink->store() && kernel.problemId > 0) {
            KernelRepo kernels(*m_sink->store());
            if (auto id = kernels.insertOrGet(kernel); !id)
                return Error {id.error()};
        }
        QJsonObject payload {{QStringLiteral("request_id"), m.requestId}, {QStringLiteral("node_id"), nodeId},
            {QStringLiteral("code"), p.source}, {QStringLiteral("language"), p.language},
            {QStringLiteral("origin"), kernel.origin}, {QStringLiteral("content_hash"), contentHashOf(p.source)},
            {QStringLiteral("kernel_id"), kernel.id}, {QStringLiteral("parameters"), p.parameters}};
        if (!p.name.isEmpty())
            payload.insert(QStringLiteral("name"), p.name);
        if (!m.details.isEmpty())
            payload.insert(QStringLiteral("details"), m.details);
        events.append(event(SearchEventKind::MutationCompleted, payload, 0));
        return {};
    });
}

// A forecast (stored, then forecast_completed) or its failure.
Status SearchRun::processForecast(const ForecastAnswer &f)
{
    if (!m_state.openForecasts.contains(f.requestId))
        return {};
    const Candidate &c = m_state.candidates[size_t(m_state.byRequest.value(f.requestId))];
    const QString nodeId = c.nodeId;
    const RowId candidateKernel = c.kernelId;
    return commit([&](QList<SearchEvent> &events) -> Status {
        const QString forecasterName = m_parts.forecaster ? m_parts.forecaster->name() : QString();
        if (f.forecast.status != ForecastStatus::Ok) {
            events.append(event(SearchEventKind::ForecastFailed,
                {{QStringLiteral("request_id"), f.requestId}, {QStringLiteral("node_id"), nodeId},
                    {QStringLiteral("forecaster"), forecasterName}, {QStringLiteral("error"), f.forecast.errorText}},
                0));
            return {};
        }
        Forecast stored = f.forecast;
        if (m_sink->store() && candidateKernel > 0 && m_parts.reference.id > 0 && stored.forecasterId > 0) {
            stored.referenceKernelId = m_parts.reference.id;
            stored.candidateKernelId = candidateKernel;
            ForecastRepo forecasts(*m_sink->store());
            if (auto id = forecasts.insert(stored); !id)
                return Error {id.error()};
        }
        QJsonArray p;
        for (double v : stored.probabilities)
            p.append(v);
        events.append(event(SearchEventKind::ForecastCompleted,
            {{QStringLiteral("request_id"), f.requestId}, {QStringLiteral("node_id"), nodeId},
                {QStringLiteral("forecaster"), forecasterName}, {QStringLiteral("forecast_id"), stored.id},
                {QStringLiteral("probabilities"), p}, {QStringLiteral("predicted_bin"), f.predictedBin},
                {QStringLiteral("expected_bin"), f.expectedBin}, {QStringLiteral("confidence"), f.confidence}},
            0));
        return {};
    });
}

// A measurement's feedback (evaluation_completed) or why nothing was measured.
Status SearchRun::processEvaluation(const EvaluationResult &e)
{
    if (!m_state.openEvaluations.contains(e.requestId))
        return {};
    const QString nodeId = m_state.candidates[size_t(m_state.byRequest.value(e.requestId))].nodeId;
    return commit([&](QList<SearchEvent> &events) -> Status {
        if (e.feedback.kind == EvaluationFeedback::Kind::None) {
            events.append(event(SearchEventKind::EvaluationFailed,
                {{QStringLiteral("request_id"), e.requestId}, {QStringLiteral("node_id"), nodeId},
                    {QStringLiteral("error"), e.error.isEmpty() ? QStringLiteral("nothing was measured") : e.error}},
                0));
            return {};
        }
        QJsonArray ids;
        for (RowId id : e.measurementIds)
            ids.append(id);
        QJsonObject payload {{QStringLiteral("request_id"), e.requestId}, {QStringLiteral("node_id"), nodeId},
            {QStringLiteral("feedback"), feedbackToJson(e.feedback)}, {QStringLiteral("replay"), e.feedback.replayed}};
        if (!ids.isEmpty())
            payload.insert(QStringLiteral("measurement_ids"), ids);
        if (!e.binarySha256.isEmpty())
            payload.insert(QStringLiteral("binary_sha256"), e.binarySha256);
        if (e.reusedFromKernel > 0) // no GPU ran: the same binary's measurement, of the kernel named here
            payload.insert(QStringLiteral("reused_from"),
                QJsonObject {
                    {QStringLiteral("kernel_id"), e.reusedFromKernel}, {QStringLiteral("measurement_ids"), ids}});
        events.append(event(SearchEventKind::EvaluationCompleted, payload, 0));
        return {};
    });
}

Status SearchRun::startStep()
{
    const SearchConfig &config = m_state.config;
    const QStringList parents = selectParents(
        m_state.archive, config.parentsPerStep, m_state.pinned, vetoedArchiveNodes(m_state), PuctParams {config.c});
    if (parents.isEmpty())
        return finish(QStringLiteral("no node of the archive can be a parent (all vetoed)"));
    const int step = int(m_state.steps.size());
    return commit([&](QList<SearchEvent> &events) -> Status {
        int mint = 0;
        events.append(event(SearchEventKind::StepStarted,
            {{QStringLiteral("step"), step}, {QStringLiteral("parents"), toArray(parents)}}, mint++));
        qint64 ordinal = m_state.mutationOrdinal;
        for (const QString &parent : parents) {
            for (int i = 0; i < config.proposalsPerParent; ++i, ++ordinal) {
                const quint64 seed = mix64(config.seed ^ mix64(quint64(ordinal) + 1));
                events.append(event(SearchEventKind::MutationRequested,
                    {{QStringLiteral("step"), step}, {QStringLiteral("parent_id"), parent},
                        {QStringLiteral("request_id"), mintId(mint++)}, {QStringLiteral("node_id"), mintId(mint++)},
                        {QStringLiteral("index"), i}, {QStringLiteral("ordinal"), ordinal},
                        {QStringLiteral("seed"), QString::number(seed)}},
                    mint++));
            }
        }
        return {};
    });
}

Status SearchRun::requestForecasts()
{
    const int step = m_state.active()->step;
    const QList<int> positions = forecastable(m_state);
    return commit([&](QList<SearchEvent> &events) -> Status {
        int mint = 0;
        events.append(event(SearchEventKind::MutationsDrained, {{QStringLiteral("step"), step}}, mint++));
        const QString forecaster = m_parts.forecaster ? m_parts.forecaster->name() : m_state.config.forecaster;
        for (int position : positions) {
            events.append(event(SearchEventKind::ForecastRequested,
                {{QStringLiteral("request_id"), mintId(mint++)},
                    {QStringLiteral("node_id"), m_state.candidates[size_t(position)].nodeId},
                    {QStringLiteral("forecaster"), forecaster}},
                mint++));
        }
        return {};
    });
}

Status SearchRun::select()
{
    const int step = m_state.active()->step;
    const Selection selection = selectStep(m_state);
    const QList<Decision> &decisions = selection.decisions;
    // The drained events mark the surrogate and selective modes' barriers, with or without a prior forecaster.
    const bool barrier = m_state.config.mode != Mode::Standard;
    const bool probability = barrier && m_state.config.policy == Policy::Probability;
    return commit([&](QList<SearchEvent> &events) -> Status {
        int mint = 0;
        if (barrier) {
            QJsonObject drained {{QStringLiteral("step"), step}};
            if (probability)
                drained.insert(QStringLiteral("learner"), learnerJson(selection.outlook));
            if (selection.trust.active)
                drained.insert(QStringLiteral("certified"), certifiedJson(selection.trust));
            events.append(event(SearchEventKind::ForecastsDrained, drained, mint++));
            if (selection.trust.drift && m_state.driftAlarm.isEmpty())
                events.append(event(SearchEventKind::DriftAlarm, driftJson(selection.trust, step), mint++));
        }
        QList<int> measured;
        for (const Decision &d : decisions) {
            const Candidate &c = m_state.candidates[size_t(d.position)];
            QJsonObject payload {{QStringLiteral("node_id"), c.nodeId}, {QStringLiteral("step"), step},
                {QStringLiteral("reason"), d.reason}};
            if (d.rank >= 0)
                payload.insert(QStringLiteral("rank"), d.rank);
            if (c.forecastDone && !c.forecastFailed) {
                payload.insert(QStringLiteral("expected_bin"), c.expectedBin);
                payload.insert(QStringLiteral("confidence"), c.confidence);
            }
            double pBeatParent = std::numeric_limits<double>::quiet_NaN();
            if (const auto o = selection.outlook.proposals.constFind(d.position);
                o != selection.outlook.proposals.cend()) {
                insertOutlook(payload, *o);
                pBeatParent = o->pBeatParent;
            }
            if (!d.measure)
                payload.insert(QStringLiteral("queued"), d.queue);
            if (selection.trust.active)
                payload.insert(QStringLiteral("trusted"), trustedUnder(m_state, c, pBeatParent, selection.tau));
            events.append(event(
                d.measure ? SearchEventKind::CandidateSelected : SearchEventKind::CandidateDeferred, payload, mint++));
            if (d.measure)
                measured.append(d.position);
        }
        for (int position : std::as_const(measured)) {
            const Candidate &c = m_state.candidates[size_t(position)];
            events.append(event(SearchEventKind::EvaluationRequested,
                {{QStringLiteral("request_id"), mintId(mint++)}, {QStringLiteral("node_id"), c.nodeId},
                    {QStringLiteral("step"), step}, {QStringLiteral("kernel_id"), c.kernelId}},
                mint++));
        }
        if (decisions.isEmpty() && !barrier) // nothing to decide: the step ends here
            events.append(event(SearchEventKind::StepCompleted, {{QStringLiteral("step"), step}}, mint++));
        return {};
    });
}

Status SearchRun::completeStep()
{
    const int step = m_state.active()->step;
    const bool barrier = m_state.config.mode != Mode::Standard;
    return commit([&](QList<SearchEvent> &events) -> Status {
        int mint = 0;
        if (barrier)
            events.append(event(SearchEventKind::EvaluationsDrained, {{QStringLiteral("step"), step}}, mint++));
        QJsonObject payload {{QStringLiteral("step"), step}};
        QJsonArray children; // the nodes this step admits (the fold decides the same from the log alone)
        for (const ChildCandidate &c : planAdmission(m_state.archive, stepChildren(m_state),
                 AdmissionParams {m_state.config.keepPerParent, m_state.config.capacity}))
            children.append(c.id);
        payload.insert(QStringLiteral("children"), children);
        if (m_state.bestReward)
            payload.insert(QStringLiteral("best_speedup"), *m_state.bestReward);
        events.append(event(SearchEventKind::StepCompleted, payload, mint++));
        return {};
    });
}

Status SearchRun::finish(const QString &reason)
{
    return commit([&](QList<SearchEvent> &events) -> Status {
        QJsonObject payload {{QStringLiteral("reason"), reason}};
        if (!m_state.exhausted.isEmpty())
            payload.insert(QStringLiteral("exhausted"), true);
        if (m_state.bestReward)
            payload.insert(QStringLiteral("best_speedup"), *m_state.bestReward);
        events.append(event(SearchEventKind::SearchCompleted, payload, 0));
        return {};
    });
}

Status SearchRun::pause()
{
    if (m_state.paused || m_state.finished || m_state.stopped)
        return {};
    return commit([&](QList<SearchEvent> &events) -> Status {
        events.append(event(SearchEventKind::SearchPaused, {}, 0));
        return {};
    });
}

Status SearchRun::resume()
{
    if (!m_state.paused)
        return {};
    return commit([&](QList<SearchEvent> &events) -> Status {
        events.append(event(SearchEventKind::SearchResumed, {}, 0));
        return {};
    });
}

Status SearchRun::stop()
{
    if (m_state.stopped || m_state.finished)
        return {};
    return commit([&](QList<SearchEvent> &events) -> Status {
        events.append(event(SearchEventKind::SearchStopped, {}, 0));
        return {};
    });
}

Status SearchRun::pin(const QString &nodeId)
{
    if (!m_state.archive.find(nodeId))
        return Error {QStringLiteral("node '%1' is not in the archive: only archive nodes can be pinned").arg(nodeId)};
    return commit([&](QList<SearchEvent> &events) -> Status {
        events.append(event(SearchEventKind::NodePinned, {{QStringLiteral("node_id"), nodeId}}, 0));
        return {};
    });
}

Status SearchRun::unpin(const QString &nodeId)
{
    return commit([&](QList<SearchEvent> &events) -> Status {
        events.append(event(SearchEventKind::NodeUnpinned, {{QStringLiteral("node_id"), nodeId}}, 0));
        return {};
    });
}

Status SearchRun::veto(const QString &nodeId, bool branch)
{
    if (!m_state.candidate(nodeId))
        return Error {QStringLiteral("node '%1' is not part of this search").arg(nodeId)};
    QJsonObject payload {{QStringLiteral("node_id"), nodeId}};
    if (branch)
        payload.insert(QStringLiteral("branch"), true);
    return commit([&](QList<SearchEvent> &events) -> Status {
        events.append(event(SearchEventKind::NodeVetoed, payload, 0));
        return {};
    });
}

Status SearchRun::unveto(const QString &nodeId)
{
    if (!m_state.vetoed.contains(nodeId))
        return Error {QStringLiteral("node '%1' is not vetoed").arg(nodeId)};
    return commit([&](QList<SearchEvent> &events) -> Status {
        events.append(event(SearchEventKind::NodeUnvetoed, {{QStringLiteral("node_id"), nodeId}}, 0));
        return {};
    });
}

Status SearchRun::forceMeasure(const QString &nodeId)
{
    const Candidate *c = m_state.candidate(nodeId);
    if (!c)
        return Error {QStringLiteral("node '%1' is not part of this search").arg(nodeId)};
    if (c->status != CandidateStatus::Deferred && c->status != CandidateStatus::Queued
        && c->status != CandidateStatus::Proposed)
        return Error {
            QStringLiteral("node '%1' cannot be force-measured: it is %2").arg(nodeId, candidateStatusName(c->status))};
    return commit([&](QList<SearchEvent> &events) -> Status {
        events.append(event(SearchEventKind::MeasureForced, {{QStringLiteral("node_id"), nodeId}}, 0));
        return {};
    });
}

Status SearchRun::inject(const Proposal &proposal, const QString &parentId)
{
    if (proposal.source.trimmed().isEmpty())
        return Error {QStringLiteral("an injected kernel needs code")};
    if (!parentId.isEmpty() && !m_state.candidate(parentId))
        return Error {QStringLiteral("node '%1' is not part of this search").arg(parentId)};
    return commit([&](QList<SearchEvent> &events) -> Status {
        Kernel kernel;
        kernel.problemId = m_parts.problem.id;
        kernel.parentId = m_state.candidate(parentId) ? m_state.candidate(parentId)->kernelId : 0;
        kernel.source = proposal.source;
        kernel.language = proposal.language;
        kernel.origin = proposal.origin.isEmpty() ? QStringLiteral("manual") : proposal.origin;
        kernel.parameters = proposal.parameters;
        kernel.name = proposal.name;
        if (m_sink->store() && kernel.problemId > 0) {
            KernelRepo kernels(*m_sink->store());
            if (auto id = kernels.insertOrGet(kernel); !id)
                return Error {id.error()};
        }
        events.append(event(SearchEventKind::KernelInjected,
            {{QStringLiteral("node_id"), mintId(1)}, {QStringLiteral("parent_id"), parentId},
                {QStringLiteral("code"), proposal.source}, {QStringLiteral("language"), proposal.language},
                {QStringLiteral("origin"), kernel.origin},
                {QStringLiteral("content_hash"), contentHashOf(proposal.source)},
                {QStringLiteral("kernel_id"), kernel.id}, {QStringLiteral("parameters"), proposal.parameters}},
            0));
        return {};
    });
}

Status SearchRun::changeConfig(const QJsonObject &changes)
{
    QJsonObject merged = m_state.config.toJson();
    for (auto it = changes.constBegin(); it != changes.constEnd(); ++it)
        merged.insert(it.key(), it.value());
    auto config = SearchConfig::fromJson(merged);
    if (!config)
        return Error {config.error()};
    if (Status s = config->validate(); !s)
        return s;
    return commit([&](QList<SearchEvent> &events) -> Status {
        if (Store *store = m_sink->store()) {
            SearchRepo searches(*store);
            if (Status s = searches.updateConfig(m_sink->searchId(), config->toJson()); !s)
                return s;
        }
        events.append(event(SearchEventKind::ConfigChanged, {{QStringLiteral("changes"), changes}}, 0));
        return {};
    });
}

} // namespace gpuf::search
