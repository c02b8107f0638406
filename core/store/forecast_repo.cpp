// ForecasterRepo and ForecastRepo; see forecast_repo.h.
#include "core/store/forecast_repo.h"

#include "core/bins/bins.h"
#include "core/common/secret_text.h"
#include "core/store/json_text.h"
#include "core/store/sql.h"
#include "core/store/store.h"

#include <cmath>

namespace gpuf {
namespace {

const QString kForecasterColumns = QStringLiteral("id, name, kind, display_name, config_json");

Forecaster forecasterFrom(const QSqlQuery &q)
{
    Forecaster f;
    f.id = q.value(0).toLongLong();
    f.name = q.value(1).toString();
    f.kind = forecasterKindFromName(q.value(2).toString()).value_or(ForecasterKind::Import);
    f.displayName = q.value(3).toString();
    f.config = store::jsonObject(q.value(4).toString());
    return f;
}

const QString kForecastColumns = QStringLiteral(
    "id, reference_kernel_id, candidate_kernel_id, hardware_id, forecaster_id, repeat, p1, p2, p3, p4, p5, p6, p7,"
    " p8, predicted_bin, raw_probability_sum, reasoning, response, messages, tokens_in, tokens_out, latency_s,"
    " status, error_text, cache_key, created_at");

Forecast forecastFrom(const QSqlQuery &q)
{
    Forecast f;
    f.id = q.value(0).toLongLong();
    f.referenceKernelId = q.value(1).toLongLong();
    f.candidateKernelId = q.value(2).toLongLong();
    f.hardwareId = q.value(3).toLongLong();
    f.forecasterId = q.value(4).toLongLong();
    f.repeat = q.value(5).toInt();
    for (int b = 0; b < bins::kBinCount; ++b)
        f.probabilities[b] = q.value(6 + b).toDouble();
    f.predictedBin = sql::optionalInt(q.value(14));
    f.rawProbabilitySum = sql::optionalDouble(q.value(15));
    f.reasoning = q.value(16).toString();
    f.response = q.value(17).toString();
    f.messages = q.value(18).toString();
    f.tokensIn = q.value(19).isNull() ? -1 : q.value(19).toLongLong();
    f.tokensOut = q.value(20).isNull() ? -1 : q.value(20).toLongLong();
    f.latencySeconds = q.value(21).isNull() ? -1.0 : q.value(21).toDouble();
    f.status = forecastStatusFromName(q.value(22).toString()).value_or(ForecastStatus::Error);
    f.errorText = q.value(23).toString();
    f.cacheKey = q.value(24).toString();
    f.createdAt = sql::fromStoredTime(q.value(25).toString());
    return f;
}

Result<QList<Forecast>> forecastList(QSqlDatabase &db, const QString &where, std::initializer_list<QVariant> values)
{
    auto q = sql::run(
        db, QStringLiteral("SELECT ") + kForecastColumns + QStringLiteral(" FROM forecasts ") + where, values);
    if (!q)
        return Error {q.error()};
    QList<Forecast> out;
    while (q->next())
        out.append(forecastFrom(*q));
    return out;
}

} // namespace

bool containsSecret(const QJsonObject &config)
{
    for (auto it = config.begin(); it != config.end(); ++it) {
        const QString key = it.key().toLower();
        const bool secretKey = key.contains(QLatin1StringView("api_key")) || key.contains(QLatin1StringView("apikey"))
            || key == QLatin1StringView("authorization") || key.contains(QLatin1StringView("secret"))
            || (key.contains(QLatin1StringView("token")) && !key.contains(QLatin1StringView("tokens")));
        // Naming where a key comes from (api_key_env) is fine; the key itself is not, in any field.
        if (secretKey && !key.endsWith(QLatin1StringView("_env")))
            return true;
        if (secretKey && it->isString() && looksLikeSecret(it->toString()))
            return true;
        if (it->isObject() && containsSecret(it->toObject()))
            return true;
    }
    return false;
}

Result<RowId> ForecasterRepo::ensure(Forecaster &f)
{
    if (f.name.trimmed().isEmpty())
        return Error {QStringLiteral("a forecaster needs a name")};
    if (containsSecret(f.config))
        return Error {QStringLiteral("forecaster '%1': its configuration holds a secret; API keys are never stored"
                                     " (give the name of an environment variable or use the keychain)")
                          .arg(f.name)};
    auto existing = findByName(f.name);
    if (!existing)
        return Error {existing.error()};
    if (existing->has_value()) {
        f.id = (*existing)->id;
        return f.id;
    }
    // Another writer (a search and a forecast batch started together) may store the same name between the look-up
    // above and this insert: the name is unique, so whichever row got there is the one.
    auto q = m_cache.get(QStringLiteral(
        "INSERT OR IGNORE INTO forecasters (name, kind, display_name, config_json) VALUES (?, ?, ?, ?)"));
    if (!q)
        return Error {q.error()};
    Status s = store::execBound(*q, {f.name, forecasterKindName(f.kind), f.displayName, store::jsonText(f.config)});
    if (!s)
        return Error {QStringLiteral("cannot store forecaster '%1': %2").arg(f.name, s.error())};
    auto stored = findByName(f.name);
    if (!stored)
        return Error {stored.error()};
    if (!stored->has_value())
        return Error {QStringLiteral("cannot store forecaster '%1'").arg(f.name)};
    f.id = (*stored)->id;
    return f.id;
}

Result<std::optional<Forecaster>> ForecasterRepo::find(RowId id)
{
    return store::fetchOne<Forecaster>(
        m_cache.get(QStringLiteral("SELECT ") + kForecasterColumns + QStringLiteral(" FROM forecasters WHERE id = ?")),
        {id}, forecasterFrom);
}

Result<std::optional<Forecaster>> ForecasterRepo::findByName(const QString &name)
{
    return store::fetchOne<Forecaster>(m_cache.get(QStringLiteral("SELECT ") + kForecasterColumns
                                           + QStringLiteral(" FROM forecasters WHERE name = ?")),
        {name}, forecasterFrom);
}

Result<QList<Forecaster>> ForecasterRepo::list()
{
    auto q = sql::run(m_cache.store().database(),
        QStringLiteral("SELECT ") + kForecasterColumns + QStringLiteral(" FROM forecasters ORDER BY id"));
    if (!q)
        return Error {q.error()};
    QList<Forecaster> out;
    while (q->next())
        out.append(forecasterFrom(*q));
    return out;
}

Status ForecasterRepo::update(const Forecaster &f)
{
    if (containsSecret(f.config))
        return Error {QStringLiteral("forecaster '%1': its configuration holds a secret; API keys are never stored"
                                     " (give the name of an environment variable or use the keychain)")
                          .arg(f.name)};
    auto q = m_cache.get(QStringLiteral("UPDATE forecasters SET display_name = ?, config_json = ? WHERE id = ?"));
    if (!q)
        return Error {q.error()};
    // A null QString would bind SQL NULL, which the NOT NULL column refuses.
    const QString displayName = f.displayName.isNull() ? QStringLiteral("") : f.displayName;
    if (Status s = store::execBound(*q, {displayName, store::jsonText(f.config), f.id}); !s)
        return Error {QStringLiteral("cannot update forecaster '%1': %2").arg(f.name, s.error())};
    if ((*q)->numRowsAffected() != 1)
        return Error {QStringLiteral("no forecaster with id %1 in the store").arg(f.id)};
    return {};
}

Result<RowId> ForecastRepo::insert(Forecast &f)
{
    for (double p : f.probabilities) {
        if (!std::isfinite(p) || p < 0.0 || p > 1.0)
            return Error {QStringLiteral("a forecast probability must be a number in [0, 1] (got %1)").arg(p)};
    }
    if (f.predictedBin && (*f.predictedBin < 1 || *f.predictedBin > bins::kBinCount))
        return Error {QStringLiteral("a predicted bin must be 1..8 (got %1)").arg(*f.predictedBin)};
    auto q = m_cache.get(QStringLiteral("INSERT INTO forecasts (") + kForecastColumns.mid(4)
        + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                         " ?, ?, ?)"));
    if (!q)
        return Error {q.error()};
    if (!f.createdAt.isValid())
        f.createdAt = QDateTime::currentDateTimeUtc();
    const auto &p = f.probabilities;
    Status s = store::execBound(*q,
        {f.referenceKernelId, f.candidateKernelId, sql::idOrNull(f.hardwareId), f.forecasterId, f.repeat, p[0], p[1],
            p[2], p[3], p[4], p[5], p[6], p[7], sql::nullable(f.predictedBin), sql::nullable(f.rawProbabilitySum),
            f.reasoning, f.response, f.messages, f.tokensIn >= 0 ? QVariant(f.tokensIn) : QVariant(),
            f.tokensOut >= 0 ? QVariant(f.tokensOut) : QVariant(),
            f.latencySeconds >= 0 ? QVariant(f.latencySeconds) : QVariant(), forecastStatusName(f.status), f.errorText,
            f.cacheKey, sql::toStoredTime(f.createdAt)});
    if (!s)
        return Error {QStringLiteral("cannot store forecast: %1").arg(s.error())};
    f.id = (*q)->lastInsertId().toLongLong();
    return f.id;
}

Result<QList<Forecast>> ForecastRepo::list()
{
    return forecastList(m_cache.store().database(), QStringLiteral("ORDER BY id"), {});
}

Result<QList<Forecast>> ForecastRepo::forCandidate(RowId candidateKernelId)
{
    return forecastList(
        m_cache.store().database(), QStringLiteral("WHERE candidate_kernel_id = ? ORDER BY id"), {candidateKernelId});
}

Result<std::optional<Forecast>> ForecastRepo::findByCacheKey(const QString &cacheKey)
{
    return store::fetchOne<Forecast>(m_cache.get(QStringLiteral("SELECT ") + kForecastColumns
                                         + QStringLiteral(" FROM forecasts WHERE cache_key = ? AND"
                                                          " cache_key <> '' ORDER BY id DESC LIMIT 1")),
        {cacheKey}, forecastFrom);
}

} // namespace gpuf
