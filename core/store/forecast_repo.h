// ForecasterRepo and ForecastRepo: who forecasts, and what they predicted for each pair.
#pragma once

#include "core/common/result.h"
#include "core/domain/forecast.h"
#include "core/store/statement_cache.h"

namespace gpuf {

class ForecasterRepo
{
public:
    explicit ForecasterRepo(Store &store)
        : m_cache(store)
    { }
    // By name: the existing id, or insert. A configuration that carries an API key is refused.
    Result<RowId> ensure(Forecaster &forecaster);
    Result<std::optional<Forecaster>> find(RowId id);
    Result<std::optional<Forecaster>> findByName(const QString &name);
    Result<QList<Forecaster>> list();
    // Replaces an existing row's display name and configuration (the endpoints dialog edits a profile); the name and
    // kind stay. A configuration that carries an API key is refused, and so is an id that is not in the store.
    Status update(const Forecaster &forecaster);

private:
    store::StatementCache m_cache;
};

class ForecastRepo
{
public:
    explicit ForecastRepo(Store &store)
        : m_cache(store)
    { }
    Result<RowId> insert(Forecast &forecast);
    Result<QList<Forecast>> list(); // ordered by id
    Result<QList<Forecast>> forCandidate(RowId candidateKernelId); // ordered by id
    Result<std::optional<Forecast>> findByCacheKey(const QString &cacheKey); // newest

private:
    store::StatementCache m_cache;
};

// True when a JSON configuration holds something that looks like a secret (api_key, authorization, token…).
bool containsSecret(const QJsonObject &config);

} // namespace gpuf
