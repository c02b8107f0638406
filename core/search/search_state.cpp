// The fold over a search's event log; see search_state.h.
#include "core/search/search_state.h"

#include "core/search/feedback_json.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace gpuf::search {

namespace {

// Reads a payload's fields; the first problem becomes the event's error.
class Fields
{
public:
    Fields(const SearchEvent &event)
        : m_event(event)
    { }
    QString text(const char *key)
    {
        const QJsonValue v = m_event.payload.value(QLatin1StringView(key));
        if (!v.isString() || v.toString().isEmpty()) {
            fail(key, QStringLiteral("a non-empty string"));
            return {};
        }
        return v.toString();
    }
    QString optionalText(const char *key) const { return m_event.payload.value(QLatin1StringView(key)).toString(); }
    qint64 integer(const char *key)
    {
        const QJsonValue v = m_event.payload.value(QLatin1StringView(key));
        if (!v.isDouble()) {
            fail(key, QStringLiteral("a number"));
            return 0;
        }
        return v.toInteger();
    }
    double number(const char *key)
    {
        const QJsonValue v = m_event.payload.value(QLatin1StringView(key));
        if (!v.isDouble()) {
            fail(key, QStringLiteral("a number"));
            return 0;
        }
        return v.toDouble();
    }
    QJsonObject object(const char *key)
    {
        const QJsonValue v = m_event.payload.value(QLatin1StringView(key));
        if (!v.isObject())
            fail(key, QStringLiteral("an object"));
        return v.toObject();
    }
    void fail(const char *key, const QString &what)
    {
        if (m_error.isEmpty())
            m_error = QStringLiteral("'%1' must be %2").arg(QLatin1StringView(key), what);
    }
    void failWith(const QString &message)
    {
        if (m_error.isEmpty())
            m_error = message;
    }
    Status status() const
    {
        if (m_error.isEmpty())
            return {};
        return Error {QStringLiteral("event %1 (%2) of search '%3' is corrupt: %4")
                          .arg(m_event.sequence)
                          .arg(m_event.kind, QString::number(m_event.searchId), m_error)};
    }

private:
    const SearchEvent &m_event;
    QString m_error;
};

int candidateByRequest(SearchState &state, Fields &f, const QString &requestId, QSet<QString> *open)
{
    const auto it = state.byRequest.constFind(requestId);
    if (it == state.byRequest.cend()) {
        f.failWith(QStringLiteral("request '%1' was never made").arg(requestId));
        return -1;
    }
    if (open && !open->remove(requestId)) {
        f.failWith(QStringLiteral("request '%1' was answered twice").arg(requestId));
        return -1;
    }
    return *it;
}

int candidateByNode(SearchState &state, Fields &f, const QString &nodeId)
{
    const auto it = state.byNode.constFind(nodeId);
    if (it == state.byNode.cend()) {
        f.failWith(QStringLiteral("node '%1' is unknown").arg(nodeId));
        return -1;
    }
    return *it;
}

int addCandidate(SearchState &state, Candidate c)
{
    const int position = int(state.candidates.size());
    state.byNode.insert(c.nodeId, position);
    if (!c.requestId.isEmpty())
        state.byRequest.insert(c.requestId, position);
    state.candidates.push_back(std::move(c));
    return position;
}

void readProposal(Candidate &c, Fields &f, const QJsonObject &payload)
{
    c.code = payload.value(QStringLiteral("code")).toString();
    c.language = payload.value(QStringLiteral("language")).toString();
    c.origin = payload.value(QStringLiteral("origin")).toString();
    c.contentHash = payload.value(QStringLiteral("content_hash")).toString();
    if (c.contentHash.isEmpty()) {
        if (c.code.isEmpty())
            f.fail("code", QStringLiteral("present (or content_hash)"));
        else
            c.contentHash = contentHashOf(c.code);
    }
    c.kernelId = payload.value(QStringLiteral("kernel_id")).toInteger();
    c.parameters = payload.value(QStringLiteral("parameters")).toObject();
}

Status onInitialized(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    if (state.initialized)
        f.failWith(QStringLiteral("the search was already initialised"));
    state.name = e.payload.value(QStringLiteral("search_id")).toString();
    auto config = SearchConfig::fromJson(f.object("config"));
    if (!config)
        f.failWith(config.error());
    else
        state.config = *config;
    const QJsonArray seeds = e.payload.value(QStringLiteral("seeds")).toArray();
    if (seeds.isEmpty())
        f.fail("seeds", QStringLiteral("a non-empty list"));
    for (const auto &v : seeds) {
        const QJsonObject s = v.toObject();
        Candidate c;
        c.nodeId = s.value(QStringLiteral("node_id")).toString();
        if (c.nodeId.isEmpty())
            f.fail("seeds[].node_id", QStringLiteral("a non-empty string"));
        readProposal(c, f, s);
        c.seedNode = true;
        c.status = CandidateStatus::Proposed;
        ArchiveNode node;
        node.id = c.nodeId;
        node.seed = true;
        node.contentHash = c.contentHash;
        node.kernelId = c.kernelId;
        const QJsonValue reward = s.value(QStringLiteral("reward"));
        if (reward.isDouble()) {
            node.reward = reward.toDouble();
            node.q = reward.toDouble();
            c.reward = node.reward;
            c.status = CandidateStatus::Evaluated;
            c.feedback.kind = EvaluationFeedback::Kind::Success;
            c.feedback.aggregatedSpeedup = reward.toDouble();
            state.evaluatedHashes.insert(c.contentHash, int(state.candidates.size()));
            if (!state.bestReward || *node.reward > *state.bestReward) {
                state.bestReward = node.reward;
                state.bestNode = node.id;
            }
        }
        state.archive.add(node);
        addCandidate(state, std::move(c));
    }
    if (Status s = f.status(); !s)
        return s;
    state.initialized = true;
    return {};
}

Status onStepStarted(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    const int step = int(f.integer("step"));
    if (state.activeStep >= 0)
        f.failWith(QStringLiteral("step %1 started before step %2 completed").arg(step).arg(state.active()->step));
    else if (step != int(state.steps.size()))
        f.failWith(QStringLiteral("step %1 started where step %2 was due").arg(step).arg(state.steps.size()));
    StepRecord record;
    record.step = step;
    for (const auto &v : e.payload.value(QStringLiteral("parents")).toArray())
        record.parents.append(v.toString());
    if (Status s = f.status(); !s)
        return s;
    state.steps.push_back(record);
    state.activeStep = int(state.steps.size()) - 1;
    return {};
}

Status onMutationRequested(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    Candidate c;
    c.step = int(f.integer("step"));
    c.parentId = f.text("parent_id");
    c.requestId = f.text("request_id");
    c.nodeId = f.text("node_id");
    c.index = int(e.payload.value(QStringLiteral("index")).toInteger());
    c.ordinal = e.payload.value(QStringLiteral("ordinal")).toInteger(state.mutationOrdinal);
    c.seed = e.payload.value(QStringLiteral("seed")).toString().toULongLong();
    if (!state.active() || state.active()->step != c.step)
        f.failWith(QStringLiteral("a mutation for step %1 outside that step").arg(c.step));
    if (state.byNode.contains(c.nodeId) || state.byRequest.contains(c.requestId))
        f.failWith(QStringLiteral("ids '%1' / '%2' are used twice").arg(c.nodeId, c.requestId));
    if (Status s = f.status(); !s)
        return s;
    state.openMutations.insert(c.requestId);
    state.mutationOrdinal = std::max(state.mutationOrdinal, c.ordinal + 1);
    const int position = addCandidate(state, std::move(c));
    state.steps[size_t(state.activeStep)].candidates.append(position);
    return {};
}

Status onMutationAnswered(SearchState &state, const SearchEvent &e, bool ok)
{
    Fields f(e);
    const int position = candidateByRequest(state, f, f.text("request_id"), &state.openMutations);
    if (position < 0)
        return f.status();
    Candidate &c = state.candidates[size_t(position)];
    if (ok) {
        readProposal(c, f, e.payload);
        c.status = CandidateStatus::Proposed;
    } else {
        c.mutationError = e.payload.value(QStringLiteral("error")).toString();
        c.status = CandidateStatus::MutationFailed;
        ++state.mutationFailures;
        if (e.payload.value(QStringLiteral("exhausted")).toBool())
            state.exhausted = c.mutationError;
    }
    return f.status();
}

Status onForecastRequested(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    const QString requestId = f.text("request_id");
    const int position = candidateByNode(state, f, f.text("node_id"));
    if (Status s = f.status(); !s)
        return s;
    state.candidates[size_t(position)].forecastRequestId = requestId;
    state.byRequest.insert(requestId, position);
    state.openForecasts.insert(requestId);
    return {};
}

Status onForecastAnswered(SearchState &state, const SearchEvent &e, bool ok)
{
    Fields f(e);
    const int position = candidateByRequest(state, f, f.text("request_id"), &state.openForecasts);
    if (position < 0)
        return f.status();
    Candidate &c = state.candidates[size_t(position)];
    c.forecastDone = true;
    if (ok) {
        c.expectedBin = f.number("expected_bin");
        c.confidence = f.number("confidence");
        c.predictedBin = int(e.payload.value(QStringLiteral("predicted_bin")).toInteger());
        c.forecastId = e.payload.value(QStringLiteral("forecast_id")).toInteger();
        const QJsonArray p = e.payload.value(QStringLiteral("probabilities")).toArray();
        for (qsizetype i = 0; i < p.size() && i < qsizetype(c.probabilities.size()); ++i)
            c.probabilities[size_t(i)] = p.at(i).toDouble();
        ++state.forecastsDone;
    } else {
        c.forecastFailed = true;
        ++state.forecastFailures;
    }
    return f.status();
}

Status onDecision(SearchState &state, const SearchEvent &e, bool selected)
{
    Fields f(e);
    const int position = candidateByNode(state, f, f.text("node_id"));
    const int step = int(e.payload.value(QStringLiteral("step")).toInteger(-1));
    if (Status s = f.status(); !s)
        return s;
    Candidate &c = state.candidates[size_t(position)];
    c.decision = e.payload.value(QStringLiteral("reason")).toString();
    if (const QJsonValue v = e.payload.value(QStringLiteral("learner_version")); v.isDouble()) {
        c.learnerVersion = v.toInt();
        c.pBeatParent = e.payload.value(QStringLiteral("p_beat_parent")).toDouble(c.pBeatParent);
        c.pBeatBest = e.payload.value(QStringLiteral("p_beat_best")).toDouble(c.pBeatBest);
        c.meanLog2 = e.payload.value(QStringLiteral("mean_log2_speedup")).toDouble(c.meanLog2);
        c.sdLog2 = e.payload.value(QStringLiteral("sd_log2_speedup")).toDouble(c.sdLog2);
        c.rawSdLog2 = e.payload.value(QStringLiteral("raw_sd_log2_speedup")).toDouble(c.sdLog2);
    }
    if (const QJsonValue v = e.payload.value(QStringLiteral("trusted")); v.isBool())
        c.trustedAtDecision = v.toBool() ? 1 : 0;
    state.queue.removeAll(c.nodeId);
    state.forcedQueue.removeAll(c.nodeId);
    if (selected) {
        c.status = CandidateStatus::Selected;
        c.measuredInStep = step;
        if (!c.contentHash.isEmpty() && !state.evaluatedHashes.contains(c.contentHash))
            state.evaluatedHashes.insert(c.contentHash, position);
        if (state.active() && state.active()->step == step)
            state.steps[size_t(state.activeStep)].measured.append(position);
    } else {
        const bool queued = e.payload.value(QStringLiteral("queued")).toBool();
        if (c.status != CandidateStatus::Queued) // re-deferring a queued node does not count it twice
            ++state.deferred;
        c.status = queued ? CandidateStatus::Queued : CandidateStatus::Deferred;
        if (queued)
            state.queue.append(c.nodeId);
    }
    if (state.active() && state.active()->step == step)
        state.steps[size_t(state.activeStep)].selectionDone = true;
    return {};
}

Status onEvaluationRequested(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    const QString requestId = f.text("request_id");
    const int position = candidateByNode(state, f, f.text("node_id"));
    if (Status s = f.status(); !s)
        return s;
    Candidate &c = state.candidates[size_t(position)];
    c.evaluationRequestId = requestId;
    if (c.seedNode) {
        c.status = CandidateStatus::Selected;
        c.measuredInStep = -1;
    }
    state.byRequest.insert(requestId, position);
    state.openEvaluations.insert(requestId);
    return {};
}

void recordBest(SearchState &state, const Candidate &c)
{
    if (c.reward && (!state.bestReward || *c.reward > *state.bestReward)) {
        state.bestReward = c.reward;
        state.bestNode = c.nodeId;
    }
    state.trajectory.push_back({state.gpuEvaluations, state.bestReward.value_or(0.0)});
}

// An evaluation's compiled binary (`binary_sha256`, 64 hex digits) and, when no GPU ran, the kernel whose
// measurement of the same binary it took (`reused_from.kernel_id`). False when either is malformed.
bool readBinaryReuse(Fields &f, const SearchEvent &e, Candidate &c)
{
    const QJsonValue binary = e.payload.value(QStringLiteral("binary_sha256"));
    if (!binary.isUndefined()) {
        static const QRegularExpression sha(QStringLiteral("^[0-9a-fA-F]{64}$"));
        if (!binary.isString() || !sha.match(binary.toString()).hasMatch()) {
            f.failWith(QStringLiteral("'binary_sha256' must be a SHA-256 of 64 hex digits (got '%1')")
                           .arg(binary.isString() ? binary.toString().left(80) : QStringLiteral("a non-string")));
            return false;
        }
        c.binarySha256 = binary.toString().toLower();
    }
    const QJsonValue reused = e.payload.value(QStringLiteral("reused_from"));
    if (reused.isUndefined())
        return true;
    const QJsonValue kernel = reused.toObject().value(QStringLiteral("kernel_id"));
    if (!reused.isObject() || !kernel.isDouble() || kernel.toInteger() <= 0 || c.binarySha256.isEmpty()) {
        f.failWith(QStringLiteral("'reused_from' must name the measured kernel ({\"kernel_id\": N > 0}) of the same "
                                  "binary, given as 'binary_sha256'"));
        return false;
    }
    c.reusedFromKernel = kernel.toInteger();
    return true;
}

Status onEvaluationAnswered(SearchState &state, const SearchEvent &e, bool ok)
{
    Fields f(e);
    const int position = candidateByRequest(state, f, f.text("request_id"), &state.openEvaluations);
    if (position < 0)
        return f.status();
    Candidate &c = state.candidates[size_t(position)];
    if (!ok) {
        c.status = CandidateStatus::EvaluationFailed;
        c.feedback.kind = EvaluationFeedback::Kind::InfrastructureFailure;
        c.feedback.message = e.payload.value(QStringLiteral("error")).toString();
        ++state.evaluationFailures;
        return f.status();
    }
    auto feedback = feedbackFromJson(f.object("feedback"));
    if (!feedback) {
        f.failWith(feedback.error());
        return f.status();
    }
    c.feedback = *feedback;
    c.feedback.replayed = e.payload.value(QStringLiteral("replay")).toBool();
    if (!readBinaryReuse(f, e, c))
        return f.status();
    c.status = CandidateStatus::Evaluated;
    if (c.feedback.kind == EvaluationFeedback::Kind::Success)
        c.reward = c.feedback.aggregatedSpeedup;
    else
        ++state.unsuccessfulEvaluations;
    if (c.reusedFromKernel > 0)
        ++state.reusedEvaluations; // free: the trajectory's x (GPU evaluations) does not move
    else
        ++state.gpuEvaluations;
    if (c.feedback.replayed)
        ++state.replayedEvaluations;
    if (c.seedNode) {
        if (ArchiveNode *node = state.archive.find(c.nodeId)) {
            node->reward = c.reward;
            node->q = c.reward.value_or(0.0);
        }
    }
    recordBest(state, c);
    return f.status();
}

Status onStepCompleted(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    const int step = int(f.integer("step"));
    if (!state.active() || state.active()->step != step)
        f.failWith(QStringLiteral("step %1 completed but was not in progress").arg(step));
    if (Status s = f.status(); !s)
        return s;
    StepRecord &record = state.steps[size_t(state.activeStep)];
    // Back-propagation: each parent of the step, with its children measured in this step.
    for (const QString &parent : std::as_const(record.parents)) {
        ParentOutcome outcome {parent, {}};
        for (int position : std::as_const(record.measured)) {
            const Candidate &c = state.candidates[size_t(position)];
            if (c.parentId == parent && c.reward && !c.forced)
                outcome.childRewards.append(*c.reward);
        }
        backpropagate(state.archive, outcome);
    }
    // Children of parents not expanded this step (queued, forced, injected) still lift their parent's Q.
    const QList<ChildCandidate> children = stepChildren(state);
    for (const ChildCandidate &c : children) {
        if (c.reward && (c.forced || !record.parents.contains(c.parentId))) {
            if (ArchiveNode *parent = state.archive.find(c.parentId))
                parent->q = std::max(parent->q, *c.reward);
        }
    }
    record.admitted
        = admit(state.archive, children, step, AdmissionParams {state.config.keepPerParent, state.config.capacity});
    record.completed = true;
    ++state.completedStepCount;
    state.activeStep = -1;
    // Code is kept only where a later mutation can ask for it: nodes of the archive.
    for (int position : std::as_const(record.candidates)) {
        Candidate &c = state.candidates[size_t(position)];
        if (!state.archive.index.contains(c.nodeId) && c.status != CandidateStatus::Queued) {
            c.code.clear();
            c.parameters = {};
        }
    }
    return {};
}

Status onPinned(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    const QString id = f.text("node_id");
    if (!id.isEmpty() && !state.pinned.contains(id))
        state.pinned.append(id);
    return f.status();
}

Status onUnpinned(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    state.pinned.removeAll(f.text("node_id"));
    return f.status();
}

Status onVetoed(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    const QString id = f.text("node_id");
    if (!id.isEmpty() && !state.vetoed.contains(id))
        state.vetoed.append(id);
    if (e.payload.value(QStringLiteral("branch")).toBool() && !id.isEmpty() && !state.vetoedBranches.contains(id))
        state.vetoedBranches.append(id);
    // Whatever the veto reaches leaves the pins and the queues (an unveto makes it eligible again, no more).
    const auto reached = [&state](const QString &node) { return isVetoed(state, node); };
    state.pinned.removeIf(reached);
    state.queue.removeIf(reached);
    state.forcedQueue.removeIf(reached);
    return f.status();
}

Status onUnvetoed(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    const QString id = f.text("node_id");
    state.vetoed.removeAll(id);
    state.vetoedBranches.removeAll(id);
    return f.status();
}

Status onMeasureForced(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    const int position = candidateByNode(state, f, f.text("node_id"));
    if (position < 0)
        return f.status();
    Candidate &c = state.candidates[size_t(position)];
    if (c.status == CandidateStatus::Deferred || c.status == CandidateStatus::Queued
        || c.status == CandidateStatus::Proposed) {
        c.forced = true;
        state.queue.removeAll(c.nodeId);
        if (!state.forcedQueue.contains(c.nodeId))
            state.forcedQueue.append(c.nodeId);
    } else {
        f.failWith(QStringLiteral("node '%1' cannot be force-measured (it is %2)")
                       .arg(c.nodeId, candidateStatusName(c.status)));
    }
    return f.status();
}

Status onKernelInjected(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    Candidate c;
    c.nodeId = f.text("node_id");
    c.parentId = e.payload.value(QStringLiteral("parent_id")).toString();
    c.step = state.active() ? state.active()->step : int(state.steps.size());
    readProposal(c, f, e.payload);
    c.status = CandidateStatus::Proposed;
    c.injected = true;
    c.forced = true;
    if (state.byNode.contains(c.nodeId))
        f.failWith(QStringLiteral("node id '%1' is used twice").arg(c.nodeId));
    if (Status s = f.status(); !s)
        return s;
    state.forcedQueue.append(c.nodeId);
    addCandidate(state, std::move(c));
    return {};
}

Status onConfigChanged(SearchState &state, const SearchEvent &e)
{
    Fields f(e);
    const QJsonObject changes = f.object("changes");
    QJsonObject merged = state.config.toJson();
    for (auto it = changes.constBegin(); it != changes.constEnd(); ++it)
        merged.insert(it.key(), it.value());
    auto config = SearchConfig::fromJson(merged);
    if (!config)
        f.failWith(config.error());
    else if (Status valid = config->validate(); !valid)
        f.failWith(valid.error());
    else {
        state.config = *config;
        // A larger step budget reopens a search that had spent its old one.
        if (state.finished && state.config.steps > state.completedSteps())
            state.finished = false;
    }
    return f.status();
}

// Marks the step in progress (a barrier of the surrogate and selective modes).
Status markActiveStep(SearchState &state, bool StepRecord::*flag)
{
    if (state.activeStep >= 0)
        state.steps[size_t(state.activeStep)].*flag = true;
    return {};
}

// One case per kind and no default: -Wswitch names a kind added to SearchEventKind and not folded here.
Status applyKnown(SearchState &state, const SearchEvent &e, SearchEventKind kind)
{
    switch (kind) {
    case SearchEventKind::SearchInitialized:
        return onInitialized(state, e);
    case SearchEventKind::StepStarted:
        return onStepStarted(state, e);
    case SearchEventKind::MutationRequested:
        return onMutationRequested(state, e);
    case SearchEventKind::MutationCompleted:
        return onMutationAnswered(state, e, true);
    case SearchEventKind::MutationFailed:
        return onMutationAnswered(state, e, false);
    case SearchEventKind::MutationsDrained:
        return markActiveStep(state, &StepRecord::forecastsRequested);
    case SearchEventKind::ForecastRequested:
        return onForecastRequested(state, e);
    case SearchEventKind::ForecastCompleted:
        return onForecastAnswered(state, e, true);
    case SearchEventKind::ForecastFailed:
        return onForecastAnswered(state, e, false);
    case SearchEventKind::ForecastsDrained:
        if (const QJsonValue v = e.payload.value(QStringLiteral("certified")); v.isObject())
            state.certified = v.toObject();
        return markActiveStep(state, &StepRecord::selectionDone);
    case SearchEventKind::DriftAlarm:
        if (state.driftAlarm.isEmpty())
            state.driftAlarm = e.payload;
        return {};
    case SearchEventKind::CandidateSelected:
        return onDecision(state, e, true);
    case SearchEventKind::CandidateDeferred:
        return onDecision(state, e, false);
    case SearchEventKind::EvaluationRequested:
        return onEvaluationRequested(state, e);
    case SearchEventKind::EvaluationCompleted:
        return onEvaluationAnswered(state, e, true);
    case SearchEventKind::EvaluationFailed:
        return onEvaluationAnswered(state, e, false);
    case SearchEventKind::EvaluationsDrained:
        // Nothing to fold: it is written once the step's evaluations are answered, and the fold already knows that
        // from its open requests (nextAction completes the step when none is left). Kept for readers of the log.
        return {};
    case SearchEventKind::StepCompleted:
        return onStepCompleted(state, e);
    case SearchEventKind::SearchCompleted:
        state.finished = true;
        state.finishReason = e.payload.value(QStringLiteral("reason")).toString();
        return {};
    case SearchEventKind::SearchPaused:
        state.paused = true;
        return {};
    case SearchEventKind::SearchResumed:
        state.paused = false;
        return {};
    case SearchEventKind::SearchStopped:
        state.stopped = true;
        return {};
    case SearchEventKind::ConfigChanged:
        return onConfigChanged(state, e);
    case SearchEventKind::NodePinned:
        return onPinned(state, e);
    case SearchEventKind::NodeUnpinned:
        return onUnpinned(state, e);
    case SearchEventKind::NodeVetoed:
        return onVetoed(state, e);
    case SearchEventKind::NodeUnvetoed:
        return onUnvetoed(state, e);
    case SearchEventKind::MeasureForced:
        return onMeasureForced(state, e);
    case SearchEventKind::KernelInjected:
        return onKernelInjected(state, e);
    }
    return {};
}

} // namespace

Status applyEvent(SearchState &state, const SearchEvent &e)
{
    const std::optional<SearchEventKind> kind = eventKindOf(e);
    if (!state.initialized && kind != SearchEventKind::SearchInitialized)
        return Error {QStringLiteral("event %1 (%2) comes before search_initialized").arg(e.sequence).arg(e.kind)};
    if (!kind) {
        // A kind this version does not know (a store written by a later one): kept in the log, folded as nothing.
        ++state.unknownEvents;
        ++state.events;
        return {};
    }
    Status s = applyKnown(state, e, *kind);
    if (s)
        ++state.events;
    return s;
}

Result<SearchState> foldEvents(const QList<SearchEvent> &events)
{
    SearchState state;
    for (const SearchEvent &e : events) {
        if (Status s = applyEvent(state, e); !s)
            return Error {s.error()};
    }
    return state;
}

NextAction nextAction(const SearchState &state)
{
    if (state.finished || state.stopped)
        return NextAction::Done;
    if (state.hasOpenRequests())
        return NextAction::Wait;
    if (state.paused)
        return NextAction::Paused;
    if (const StepRecord *step = state.active()) {
        if (state.config.needsForecasts() && !step->forecastsRequested)
            return NextAction::RequestForecasts;
        if (!step->selectionDone)
            return NextAction::Select;
        return NextAction::CompleteStep;
    }
    if (state.completedSteps() >= state.config.steps || !state.exhausted.isEmpty())
        return NextAction::Finish;
    return NextAction::StartStep;
}

} // namespace gpuf::search
