// The learner's quality in a replayed search; see compare_learner.h.
#include "core/search/compare_learner.h"

#include "core/bins/bins.h"
#include "core/search/search_learner.h"
#include "core/search/search_state.h"
#include "core/search/tuning_space.h"

#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace gpuf::search {

namespace compare_learner_detail {

// The recorded log2 speedup of a candidate's kernel in the space; NaN when the space does not know it or it failed.
double recordedLog2(const TuningSpace &space, const Candidate &c)
{
    const int i = space.indexOfHash(c.contentHash);
    if (i < 0)
        return std::nan("");
    const std::optional<double> s = space.points.at(i).speedup;
    return s && *s > 0.0 ? std::log2(*s) : std::nan("");
}

// A measured node's log2 speedup (an unmeasured seed, the reference, at 1×).
double nodeLog2(const SearchState &state, const QString &nodeId)
{
    if (const Candidate *p = state.candidate(nodeId); p && p->reward && *p->reward > 0.0)
        return std::log2(*p->reward);
    if (const ArchiveNode *node = state.archive.find(nodeId); node && node->reward && *node->reward > 0.0)
        return std::log2(*node->reward);
    return 0.0;
}

// The search's measured configurations in the order they were sent to the GPU (step, then request order).
std::vector<int> measuredInOrder(const SearchState &state)
{
    std::vector<int> out;
    for (size_t i = 0; i < state.candidates.size(); ++i) {
        const Candidate &c = state.candidates[i];
        if (c.status == CandidateStatus::Evaluated && c.reward && *c.reward > 0.0
            && !c.parameters.value(QStringLiteral("tunables")).toObject().isEmpty())
            out.push_back(int(i));
    }
    std::stable_sort(out.begin(), out.end(), [&state](int a, int b) {
        return state.candidates[size_t(a)].measuredInStep < state.candidates[size_t(b)].measuredInStep;
    });
    return out;
}

double spaceSpearman(const SearchState &state, const TuningSpace &space)
{
    std::vector<int> measured = measuredInOrder(state);
    if (int(measured.size()) < kLearnerCheckMeasurements)
        return std::nan("");
    measured.resize(size_t(kLearnerCheckMeasurements));
    LearnerData data;
    QSet<QString> learnt;
    for (int position : measured) {
        const Candidate &c = state.candidates[size_t(position)];
        if (data.features.isEmpty())
            data.features = c.parameters.value(QStringLiteral("tunables")).toObject().keys();
        std::vector<double> row = learnerRow(data, state, position);
        if (row.empty())
            continue;
        data.x.push_back(std::move(row));
        data.prior.push_back(std::nan(""));
        data.y.push_back(std::log2(*c.reward));
        learnt.insert(c.contentHash);
    }
    const LearnerFit fit = LearnerFit::fit(data);
    if (!fit.learned())
        return std::nan("");
    QList<int> column; // the space's column of each learner feature
    for (const QString &name : std::as_const(data.features))
        column << int(space.tunables.indexOf(name));
    if (column.contains(-1))
        return std::nan("");
    std::vector<double> forecast, recorded;
    for (const SpacePoint &p : space.points) {
        if (!p.speedup || !(*p.speedup > 0.0) || learnt.contains(p.contentHash))
            continue;
        std::vector<double> row;
        for (int k : std::as_const(column))
            row.push_back(double(p.configuration.at(k)));
        forecast.push_back(fit.predict(row, std::nan("")).mean);
        recorded.push_back(std::log2(*p.speedup));
    }
    return spearman(forecast, recorded);
}

double proposalSpearman(const SearchState &state, const TuningSpace &space)
{
    std::vector<double> forecast, recorded;
    for (const Candidate &c : state.candidates) {
        if (c.learnerVersion < kLearnerCheckMeasurements || !std::isfinite(c.meanLog2))
            continue;
        const double r = recordedLog2(space, c);
        if (!std::isfinite(r))
            continue;
        forecast.push_back(c.meanLog2);
        recorded.push_back(r);
    }
    return forecast.size() >= 3 ? spearman(forecast, recorded) : std::nan("");
}

} // namespace compare_learner_detail

LearnerQuality learnerQuality(const SearchState &state, const TuningSpace &space)
{
    using namespace compare_learner_detail;
    LearnerQuality q;
    q.spearmanSpace = spaceSpearman(state, space);
    q.spearmanProposals = proposalSpearman(state, space);
    const bool probability = state.config.policy == Policy::Probability;
    for (const Candidate &c : state.candidates) {
        if (c.trustedAtDecision != 1)
            continue;
        const double r = recordedLog2(space, c);
        if (!std::isfinite(r))
            continue; // a failed configuration answers neither question
        ++q.trusted;
        if (probability) {
            q.trustedWrong += r > nodeLog2(state, c.parentId) ? 1 : 0;
        } else {
            const std::optional<int> bin = bins::binOf(std::exp2(r));
            q.trustedWrong += bin && *bin == c.predictedBin ? 0 : 1;
        }
    }
    return q;
}

} // namespace gpuf::search
