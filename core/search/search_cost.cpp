// searchCost; see search_cost.h.
#include "core/search/search_cost.h"

#include <algorithm>

namespace gpuf::search {

SearchCost searchCost(const SearchConfig &config, bool llmForecaster)
{
    SearchCost cost;
    if (config.steps <= 0 || config.parentsPerStep <= 0)
        return cost;
    qint64 admitted = 0; // non-seed nodes the archive can hold so far
    for (int step = 0; step < config.steps; ++step) {
        const qint64 parents = step == 0
            ? 1
            : std::min<qint64>({qint64(config.parentsPerStep), admitted, qint64(std::max(config.capacity - 1, 1))});
        cost.parentExpansions += int(parents);
        admitted = std::min<qint64>(admitted + parents * std::max(config.keepPerParent, 0), config.capacity);
    }
    const bool standard = config.mode == Mode::Standard;
    const int proposalsPerParent = standard ? config.measurementsPerParent : config.proposalsPerParent;
    cost.proposals = cost.parentExpansions * proposalsPerParent;
    cost.gpuEvaluations = cost.parentExpansions * std::min(config.measurementsPerParent, proposalsPerParent);
    cost.forecasts = config.needsForecasts() ? cost.proposals + 1 : 0;
    cost.llmCalls = (config.mutator == MutatorKind::Llm ? cost.proposals : 0) + (llmForecaster ? cost.forecasts : 0);
    return cost;
}

} // namespace gpuf::search
