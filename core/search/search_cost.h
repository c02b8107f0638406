// What a search's configuration commits to before it starts: the most GPU evaluations, forecasts and LLM calls its
// budget can spend (the New Search dialog shows them; docs/search.md gives the rules they follow).
#pragma once

#include "core/search/search_config.h"

namespace gpuf::search {

struct SearchCost
{
    int parentExpansions = 0; // parents over all steps
    int proposals = 0; // mutation requests
    int gpuEvaluations = 0; // measurements (recorded runtimes under --gpu replay)
    int forecasts = 0; // surrogate/selective: one per proposal, and the forecaster's first check
    int llmCalls = 0; // the LLM mutator's requests, and the forecasts of an LLM forecaster
};

// Upper bounds for `config`: step 0 expands the seed alone; a later step expands at most `parentsPerStep` nodes and no
// more than the archive can hold apart from the seed (each parent admits at most `keepPerParent` children, and a
// chosen parent blocks its lineage, the seed included). Deduplication, failures and a vetoed branch only lower them.
SearchCost searchCost(const SearchConfig &config, bool llmForecaster);

} // namespace gpuf::search
