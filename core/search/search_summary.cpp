// Search summaries; see search_summary.h.
#include "core/search/search_summary.h"

#include "core/domain/search_event_kind.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace gpuf {
namespace {

QString sourceOf(const Search &search)
{
    const QString source = search.config.value(QStringLiteral("source")).toString();
    const QString file = search.config.value(QStringLiteral("file")).toString();
    if (source == QLatin1StringView("events-jsonl"))
        return file.isEmpty() ? QCoreApplication::translate("gpuf::SearchesPanel", "events.jsonl")
                              : QCoreApplication::translate("gpuf::SearchesPanel", "events.jsonl: %1").arg(file);
    if (source == QLatin1StringView("paper-search-events")) {
        const QString experiment = search.config.value(QStringLiteral("internal_experiment")).toString();
        return experiment.isEmpty()
            ? QCoreApplication::translate("gpuf::SearchesPanel", "published search events")
            : QCoreApplication::translate("gpuf::SearchesPanel", "published search events (%1)").arg(experiment);
    }
    // Run by gpuf itself, in the explorer or from the command line (not "this application": a terminal's search is
    // listed alike).
    return source.isEmpty() ? QCoreApplication::translate("gpuf::SearchesPanel", "gpuf") : source;
}

// A payload value in at most `limit` characters: strings as they are, numbers plainly, the rest as compact JSON.
QString shortValue(const QJsonValue &value, int limit = 40)
{
    QString text;
    if (value.isString())
        text = value.toString();
    else if (value.isDouble())
        text = QString::number(value.toDouble(), 'g', 6);
    else if (value.isBool())
        text = value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    else if (value.isArray())
        text = QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    else if (value.isObject())
        text = QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    if (text.size() > limit)
        text = text.left(limit - 1) + QChar(0x2026);
    return text;
}

} // namespace

std::optional<double> evaluationSpeedup(const QJsonObject &payload)
{
    const QJsonObject feedback = payload.value(QStringLiteral("feedback")).toObject();
    if (feedback.value(QStringLiteral("kind")).toString() != QLatin1StringView("success"))
        return std::nullopt;
    const QJsonValue speedup = feedback.value(QStringLiteral("aggregated_speedup"));
    if (!speedup.isDouble() || !(speedup.toDouble() > 0.0))
        return std::nullopt;
    return speedup.toDouble();
}

qint64 eventStep(const SearchEvent &event)
{
    const QJsonValue step = event.payload.value(QStringLiteral("step"));
    return step.isDouble() ? step.toInteger(-1) : -1;
}

namespace {

bool namesQuarantined(const QJsonObject &payload, const QSet<RowId> &quarantined)
{
    if (quarantined.isEmpty())
        return false;
    const QJsonArray ids = payload.value(QStringLiteral("measurement_ids")).toArray();
    return std::any_of(
        ids.begin(), ids.end(), [&quarantined](const QJsonValue &id) { return quarantined.contains(id.toInteger()); });
}

} // namespace

SearchSummary summarizeSearch(const Search &search, const QList<SearchEvent> &events, const QSet<RowId> &quarantined)
{
    SearchSummary s;
    s.search = search;
    s.source = sourceOf(search);
    s.events = events.size();
    QSet<qint64> steps;
    for (const SearchEvent &event : events) {
        if (event.time.isValid()) {
            if (!s.firstEvent.isValid() || event.time < s.firstEvent)
                s.firstEvent = event.time;
            if (!s.lastEvent.isValid() || event.time > s.lastEvent)
                s.lastEvent = event.time;
        }
        const std::optional<SearchEventKind> kind = eventKindOf(event);
        if (!kind)
            continue;
        switch (*kind) {
        case SearchEventKind::StepCompleted:
            steps.insert(eventStep(event));
            break;
        case SearchEventKind::EvaluationCompleted:
            ++(event.payload.contains(QStringLiteral("reused_from")) ? s.reusedEvaluations : s.gpuEvaluations);
            if (auto speedup = evaluationSpeedup(event.payload)) {
                if (namesQuarantined(event.payload, quarantined))
                    ++s.quarantinedEvaluations;
                else if (!s.bestSpeedup || *speedup > *s.bestSpeedup)
                    s.bestSpeedup = speedup;
            } else {
                ++s.unsuccessfulEvaluations;
            }
            break;
        case SearchEventKind::EvaluationFailed:
            ++s.evaluationFailures;
            break;
        case SearchEventKind::ForecastCompleted:
            ++s.forecasts;
            break;
        case SearchEventKind::ForecastFailed:
            ++s.forecastFailures;
            break;
        case SearchEventKind::SearchInitialized:
            s.ownEngine = event.payload.value(QStringLiteral("engine")).toString() == QLatin1StringView("gpuf");
            break;
        case SearchEventKind::SearchCompleted:
            s.finished = true;
            s.finishReason = event.payload.value(QStringLiteral("reason")).toString();
            s.exhausted = event.payload.value(QStringLiteral("exhausted")).toBool();
            break;
        case SearchEventKind::SearchStopped:
            s.stopped = true;
            break;
        case SearchEventKind::SearchPaused:
            s.paused = true;
            break;
        case SearchEventKind::SearchResumed:
            s.paused = false;
            break;
        case SearchEventKind::ConfigChanged:
            // A larger step budget reopens a finished search (as the engine's fold does).
            s.finished = false;
            s.finishReason.clear();
            s.exhausted = false;
            break;
        default: // the rest changes nothing a summary counts
            break;
        }
    }
    s.steps = steps.size();
    return s;
}

SearchStatus searchStatus(const SearchSummary &summary, std::optional<search::RunStatus> live)
{
    if (live) {
        switch (*live) {
        case search::RunStatus::Failed:
            return SearchStatus::Failed;
        case search::RunStatus::Running:
        case search::RunStatus::Waiting:
        case search::RunStatus::Pausing:
            return SearchStatus::Running;
        case search::RunStatus::Paused:
            return SearchStatus::Paused;
        case search::RunStatus::Finished:
            return SearchStatus::Finished;
        case search::RunStatus::Stopped:
            return SearchStatus::Stopped;
        }
    }
    if (!summary.ownEngine)
        return SearchStatus::Recorded;
    if (summary.stopped)
        return SearchStatus::Stopped;
    if (summary.finished)
        return SearchStatus::Finished;
    if (summary.paused)
        return SearchStatus::Paused;
    // The log ends mid-search and no engine of ours runs it: the process that ran it is gone.
    return SearchStatus::Interrupted;
}

QString searchStatusText(SearchStatus status)
{
    switch (status) {
    case SearchStatus::Running:
        return QCoreApplication::translate("gpuf::SearchesPanel", "running");
    case SearchStatus::Paused:
        return QCoreApplication::translate("gpuf::SearchesPanel", "paused");
    case SearchStatus::Finished:
        return QCoreApplication::translate("gpuf::SearchesPanel", "finished");
    case SearchStatus::Stopped:
        return QCoreApplication::translate("gpuf::SearchesPanel", "stopped");
    case SearchStatus::Interrupted:
        return QCoreApplication::translate("gpuf::SearchesPanel", "interrupted — resumable");
    case SearchStatus::Recorded:
        return QCoreApplication::translate("gpuf::SearchesPanel", "recorded");
    case SearchStatus::Failed:
        return QCoreApplication::translate("gpuf::SearchesPanel", "failed");
    }
    return {};
}

QString searchStatusText(SearchStatus status, const SearchSummary &summary)
{
    if (status == SearchStatus::Finished && summary.exhausted)
        return QCoreApplication::translate("gpuf::SearchesPanel", "finished — proposals ran out");
    return searchStatusText(status);
}

bool isResumable(SearchStatus status)
{
    return status == SearchStatus::Paused || status == SearchStatus::Interrupted || status == SearchStatus::Failed;
}

QString eventGist(const SearchEvent &event)
{
    static const QStringList first {QStringLiteral("step"), QStringLiteral("node_id"), QStringLiteral("parent_id"),
        QStringLiteral("parents"), QStringLiteral("children"), QStringLiteral("request_id"),
        QStringLiteral("expected_bin")};
    QStringList parts;
    for (const QString &key : first) {
        if (event.payload.contains(key))
            parts.append(key + QLatin1Char('=') + shortValue(event.payload.value(key), 28));
    }
    const QJsonObject feedback = event.payload.value(QStringLiteral("feedback")).toObject();
    if (!feedback.isEmpty()) {
        QString text = QCoreApplication::translate("gpuf::SearchesPanel", "feedback %1")
                           .arg(feedback.value(QStringLiteral("kind")).toString());
        if (auto speedup = evaluationSpeedup(event.payload))
            text += QStringLiteral(" %1×").arg(*speedup, 0, 'f', 3);
        parts.append(text);
    }
    for (auto it = event.payload.begin(); it != event.payload.end(); ++it) {
        if (first.contains(it.key()) || it.key() == QLatin1StringView("feedback")
            || it.key() == QLatin1StringView("id"))
            continue;
        parts.append(it.key() + QLatin1Char('=') + shortValue(it.value()));
    }
    return parts.join(QStringLiteral(" · "));
}

} // namespace gpuf
