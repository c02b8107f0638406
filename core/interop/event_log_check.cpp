// Checks of an imported search event log; see event_log_check.h.
#include "core/interop/event_log_check.h"

#include "core/domain/search_event_kind.h"
#include "core/search/feedback_json.h"
#include "core/search/search_state.h"

#include <QJsonArray>
#include <QSet>

#include <cmath>

namespace gpuf::interop {
namespace {

Error refused(const ReadEvent &e, const QString &why)
{
    return Error {QStringLiteral("%1: %2 event refused: %3").arg(e.location, e.event.kind, why)};
}

// A `step` the event carries must be a whole number a search could reach (-1: before the first step).
Status checkStepField(const ReadEvent &e)
{
    const QJsonValue step = e.event.payload.value(QStringLiteral("step"));
    if (step.isUndefined() || step.isNull())
        return {};
    const double value = step.toDouble(std::nan(""));
    if (!step.isDouble() || value != std::floor(value) || value < -1 || value > double(kLargestStep))
        return refused(e,
            QStringLiteral("'step' must be a whole number from -1 to %1 (got %2)")
                .arg(kLargestStep)
                .arg(step.isDouble() ? QString::number(value, 'g', 17) : QStringLiteral("a non-number")));
    return {};
}

Status checkHeader(const ReadEvent &first)
{
    if (eventKindOf(first.event) != SearchEventKind::SearchInitialized)
        return Error {QStringLiteral("%1: the log starts with a %2 event, not search_initialized; it is not a whole"
                                     " search's log")
                          .arg(first.location, first.event.kind)};
    const QJsonValue version = first.event.payload.value(QStringLiteral("format_version"));
    if (version.isUndefined())
        return {};
    const double v = version.toDouble(-1);
    if (!version.isDouble() || v != std::floor(v) || v < 1)
        return refused(first, QStringLiteral("'format_version' must be a positive whole number"));
    if (v > kNewestEventLogFormat)
        return refused(first,
            QStringLiteral("format_version %1 is newer than this gpuf reads (up to %2)")
                .arg(QString::number(v, 'g', 17))
                .arg(kNewestEventLogFormat));
    return {};
}

// gpuf's own logs go through the fold that shows and resumes them: what it refuses, import refuses.
Status foldGpufLog(const QList<ReadEvent> &events)
{
    search::SearchState state;
    for (qsizetype i = 0; i < events.size(); ++i) {
        SearchEvent event = events[i].event;
        event.sequence = i;
        if (Status s = search::applyEvent(state, event); !s) {
            const QString &message = s.error();
            const qsizetype at = message.indexOf(QLatin1StringView(" is corrupt: "));
            return refused(events[i], at < 0 ? message : message.mid(at + 13));
        }
    }
    return {};
}

// What any log must hold to be shown: steps in order, answers to requests it made, positive speedups.
class LogShape
{
public:
    Status check(const ReadEvent &e);

private:
    Status answer(const ReadEvent &e, SearchEventKind request);
    qint64 m_nextStep = 0;
    qint64 m_openStep = -1;
    QSet<QString> m_requests[3]; // mutation, forecast, evaluation request ids
};

int requestSlot(SearchEventKind request)
{
    return request == SearchEventKind::MutationRequested ? 0 : request == SearchEventKind::ForecastRequested ? 1 : 2;
}

Status LogShape::answer(const ReadEvent &e, SearchEventKind request)
{
    const QString id = e.event.payload.value(QStringLiteral("request_id")).toString();
    if (!id.isEmpty() && !m_requests[requestSlot(request)].contains(id))
        return refused(
            e, QStringLiteral("it answers request %1, which no earlier %2 event made").arg(id, eventKindName(request)));
    return {};
}

Status LogShape::check(const ReadEvent &e)
{
    const std::optional<SearchEventKind> kind = eventKindOf(e.event);
    const qint64 step = e.event.payload.value(QStringLiteral("step")).toInteger(-1);
    switch (kind.value_or(SearchEventKind::SearchInitialized)) {
    case SearchEventKind::StepStarted:
        if (m_openStep >= 0 || step != m_nextStep)
            return refused(e,
                m_openStep >= 0 ? QStringLiteral("step %1 started before step %2 completed").arg(step).arg(m_openStep)
                                : QStringLiteral("step %1 started where step %2 was due").arg(step).arg(m_nextStep));
        m_openStep = step;
        ++m_nextStep;
        return {};
    case SearchEventKind::StepCompleted:
        if (step != m_openStep)
            return refused(
                e, QStringLiteral("step %1 completed, but the step in progress is %2").arg(step).arg(m_openStep));
        m_openStep = -1;
        return {};
    case SearchEventKind::MutationRequested:
    case SearchEventKind::ForecastRequested:
    case SearchEventKind::EvaluationRequested:
        m_requests[requestSlot(*kind)].insert(e.event.payload.value(QStringLiteral("request_id")).toString());
        return {};
    case SearchEventKind::MutationCompleted:
    case SearchEventKind::MutationFailed:
        return answer(e, SearchEventKind::MutationRequested);
    case SearchEventKind::ForecastCompleted:
    case SearchEventKind::ForecastFailed:
        return answer(e, SearchEventKind::ForecastRequested);
    case SearchEventKind::EvaluationFailed:
        return answer(e, SearchEventKind::EvaluationRequested);
    case SearchEventKind::EvaluationCompleted: {
        if (Status s = answer(e, SearchEventKind::EvaluationRequested); !s)
            return s;
        const QJsonObject feedback = e.event.payload.value(QStringLiteral("feedback")).toObject();
        if (auto read = search::feedbackFromJson(feedback); !read)
            return refused(e, read.error());
        for (const auto &c : feedback.value(QStringLiteral("per_case_speedups")).toArray()) {
            const QJsonValue s = c.toObject().value(QStringLiteral("speedup"));
            if (s.isDouble() && !(s.toDouble() > 0.0 && std::isfinite(s.toDouble())))
                return refused(e, QStringLiteral("a per-case speedup must be a positive number"));
        }
        return {};
    }
    default:
        return {};
    }
}

} // namespace

Status checkEventLog(const QList<ReadEvent> &events)
{
    if (events.isEmpty())
        return {};
    if (Status s = checkHeader(events.first()); !s)
        return s;
    for (const ReadEvent &e : events) {
        if (Status s = checkStepField(e); !s)
            return s;
    }
    const bool gpufLog
        = events.first().event.payload.value(QStringLiteral("engine")).toString() == QLatin1StringView("gpuf");
    if (gpufLog)
        return foldGpufLog(events);
    LogShape shape;
    for (const ReadEvent &e : events) {
        if (Status s = shape.check(e); !s)
            return s;
    }
    return {};
}

} // namespace gpuf::interop
