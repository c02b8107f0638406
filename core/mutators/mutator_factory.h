// Building the family and LLM mutators from a search's mutator configuration (SearchConfig::mutatorConfig), for the
// search setup's mutator factory (search::makeMutator in core/search/search_setup.cpp).
#pragma once

#include "core/common/result.h"
#include "core/mutators/mutator.h"

#include <QJsonObject>

#include <memory>

namespace gpuf {
class Store;
}

namespace gpuf::families {

// {"family": NAME} (a shipped family), optionally {"families_dir": DIR, "corpus_dir": DIR} for families kept
// elsewhere. Fails with the known names when the family does not exist; the valid space is checked by prepare().
Result<std::unique_ptr<search::Mutator>> makeFamilyMutator(const QJsonObject &config);

// The endpoint as an LLM forecaster's configuration is written (forecasters::llmConfig keys: endpoint, model,
// temperature, max_tokens, reasoning_effort, concurrency, timeouts, retries, stream, api_key_env, keychain_entry,
// extra_headers; never a key itself), or {"generator": NAME} naming an LLM forecaster of the store whose endpoint is
// used, plus the problem's generation task read from `store`. `hardware` describes the
// target GPU in the prompt (empty: not said).
Result<std::unique_ptr<search::Mutator>> makeLlmMutator(
    Store &store, RowId problemId, const QJsonObject &config, const QString &hardware = {});

} // namespace gpuf::families
