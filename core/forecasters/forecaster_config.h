// An LLM forecaster's configuration as stored in Forecaster::config (DESIGN §3): the endpoint profile and the prompt
// profile as JSON, and back. Never a key: only the name of the environment variable (or keychain entry) that holds it.
#pragma once

#include "core/common/result.h"
#include "core/forecasters/prompt.h"
#include "core/llm/chat_types.h"

#include <QJsonObject>

namespace gpuf::forecasters {

struct LlmForecasterSettings
{
    llm::EndpointProfile endpoint;
    PromptOptions prompt; // prompt.toolCalling mirrors endpoint.toolCalling
};

// Keys: endpoint, model, temperature, max_tokens, reasoning_effort, concurrency, total_timeout_ms, idle_timeout_ms,
// connect_timeout_ms, max_retries, stream, tool_calling, api_key_env, keychain_entry, extra_headers (an object of
// header name → value; never credentials: the API key travels only in the Authorization header), prompt_profile,
// prompt_version (the version current when the configuration was written; informative).
QJsonObject llmConfig(const LlmForecasterSettings &settings);
// Missing keys take the EndpointProfile defaults; endpoint and model are required; values of the wrong type, an
// unknown prompt profile or a configuration that holds a secret are refused with the key named.
Result<LlmForecasterSettings> llmSettings(const QJsonObject &config, const QString &name = {});

// The part of the configuration that can change an answer (cache keys): endpoint, model, sampling, reasoning
// effort, tool calling, prompt profile. Concurrency, timeouts, retries, streaming and key sources are left out.
QJsonObject answerRelevantConfig(const LlmForecasterSettings &settings);

} // namespace gpuf::forecasters
