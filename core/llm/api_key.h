// Where an endpoint's API key comes from: an environment variable or an entry in the OS keychain (QtKeychain,
// service "gpuf"). Keys live only in memory, in the Authorization header; never in the store, settings or logs.
#pragma once

#include "core/common/result.h"
#include "core/llm/chat_types.h"

#include <QLatin1StringView>
#include <QObject>
#include <QString>

#include <functional>

namespace gpuf::llm {

inline constexpr QLatin1StringView kKeychainService {"gpuf"};

// Why `name` cannot be kept as the name of the environment variable holding a key, or an empty string when it can:
// a value that looks like a key itself (looksLikeSecret), or not a variable name (letters, digits, '_', not starting
// with a digit). The message never repeats the value.
QString apiKeyEnvProblem(const QString &name);

// The key held by the variable profile.apiKeyEnv names; empty when none is named or it is unset. Synchronous.
QString apiKeyFromEnvironment(const EndpointProfile &profile);

// Looks the key up: the environment variable first, then the keychain entry. `done` runs once, on `context`'s
// thread, through its event loop (never inside this call): with the key, an empty string when the profile names
// no source at all, or an error naming the source that failed (a variable that is unset, an entry that is missing
// or a keychain that cannot be reached) — never the key. Nothing runs if `context` is destroyed first.
void resolveApiKey(const EndpointProfile &profile, QObject *context, std::function<void(Result<QString>)> done);

// Stores / deletes a key under `entry` in the keychain (for the settings dialog); `done` as above. Never falls back
// to a plain-text file when no keychain is available: that is an error.
void storeApiKey(const QString &entry, const QString &key, QObject *context, std::function<void(Status)> done);
void deleteApiKey(const QString &entry, QObject *context, std::function<void(Status)> done);

} // namespace gpuf::llm
