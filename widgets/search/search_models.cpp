// SearchListModel and SearchEventsModel; see search_models.h.
#include "widgets/search/search_models.h"

#include <QJsonDocument>
#include <QLocale>

namespace gpuf {

SearchListModel::SearchListModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void SearchListModel::setSummaries(const QList<SearchSummary> &summaries)
{
    beginResetModel();
    m_rows = summaries;
    endResetModel();
}

const SearchSummary *SearchListModel::summaryAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
}

int SearchListModel::rowOfSearch(RowId searchId) const
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].search.id == searchId)
            return row;
    }
    return -1;
}

int SearchListModel::rowOfName(const QString &name) const
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].search.name == name)
            return row;
    }
    return -1;
}

void SearchListModel::applySnapshot(const search::SearchSnapshot &snapshot)
{
    m_live.insert(snapshot.name, snapshot.status);
    const int row = rowOfName(snapshot.name);
    if (row < 0)
        return;
    SearchSummary &s = m_rows[row];
    s.events = snapshot.events;
    // The summary and the engine count alike (search_summary.h), so the live figures replace the folded ones.
    s.steps = snapshot.step;
    s.gpuEvaluations = snapshot.gpuEvaluations;
    s.reusedEvaluations = snapshot.reusedEvaluations;
    s.unsuccessfulEvaluations = snapshot.unsuccessfulEvaluations;
    s.evaluationFailures = snapshot.evaluationFailures;
    s.forecasts = snapshot.forecasts;
    s.forecastFailures = snapshot.forecastFailures;
    if (snapshot.bestSpeedup)
        s.bestSpeedup = snapshot.bestSpeedup;
    s.finished = snapshot.status == search::RunStatus::Finished;
    s.stopped = snapshot.status == search::RunStatus::Stopped;
    s.paused = snapshot.status == search::RunStatus::Paused;
    s.finishReason = snapshot.finishReason;
    s.exhausted = snapshot.exhausted;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void SearchListModel::markLive(const QString &name, search::RunStatus status)
{
    if (m_live.contains(name))
        return; // the engine has reported: its own status stands
    m_live.insert(name, status);
    if (const int row = rowOfName(name); row >= 0)
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void SearchListModel::clearLive(const QString &name)
{
    if (!m_live.remove(name))
        return;
    const int row = rowOfName(name);
    if (row >= 0)
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

std::optional<search::RunStatus> SearchListModel::liveStatus(const QString &name) const
{
    const auto it = m_live.constFind(name);
    return it == m_live.cend() ? std::nullopt : std::optional(*it);
}

SearchStatus SearchListModel::statusAt(int row) const
{
    const SearchSummary *s = summaryAt(row);
    return s ? searchStatus(*s, liveStatus(s->search.name)) : SearchStatus::Recorded;
}

QString SearchListModel::statusTextAt(int row) const
{
    const SearchSummary *s = summaryAt(row);
    return s ? searchStatusText(statusAt(row), *s) : searchStatusText(SearchStatus::Recorded);
}

int SearchListModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int SearchListModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SearchListModel::data(const QModelIndex &index, int role) const
{
    const SearchSummary *s = index.isValid() ? summaryAt(index.row()) : nullptr;
    if (!s)
        return {};
    if (role == SearchIdRole)
        return s->search.id;
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column >= EventsColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == Qt::ToolTipRole) {
        if (QVariant tip = toolTip(*s, column); tip.isValid())
            return tip;
    } else if (role != Qt::DisplayRole && role != SortRole) {
        return {};
    }
    const bool sort = role == SortRole;
    const auto number = [sort](qint64 n) { return sort ? QVariant(n) : QVariant(QLocale().toString(n)); };
    switch (column) {
    case NameColumn:
        return s->search.name;
    case SourceColumn:
        return s->source;
    case ProblemColumn:
        return s->problemName.isEmpty() && !sort ? tr("—") : s->problemName;
    case ModeColumn:
        return s->search.mode;
    case ForecasterColumn: {
        const QString forecaster = s->search.config.value(QStringLiteral("forecaster")).toString();
        const bool standard = s->search.mode == QLatin1StringView("standard");
        return forecaster.isEmpty() || standard ? (sort ? QString() : tr("—")) : forecaster;
    }
    case StatusColumn:
        return searchStatusText(searchStatus(*s, liveStatus(s->search.name)), *s);
    case EventsColumn:
        return number(s->events);
    case StepsColumn:
        return number(s->steps);
    case GpuEvaluationsColumn:
        return number(s->gpuEvaluations);
    case ForecastsColumn:
        return number(s->forecasts);
    case BestSpeedupColumn:
        if (sort)
            return s->bestSpeedup.value_or(-1.0);
        return s->bestSpeedup ? QStringLiteral("%1×").arg(*s->bestSpeedup, 0, 'f', 3) : tr("—");
    default:
        return {};
    }
}

// The cells whose tooltip says more than their text; invalid: the text is the tooltip.
QVariant SearchListModel::toolTip(const SearchSummary &s, int column) const
{
    switch (column) {
    case NameColumn:
        if (!s.firstEvent.isValid())
            return {};
        return tr("%1\nevents from %2 to %3 (UTC)")
            .arg(s.search.name, s.firstEvent.toString(Qt::ISODate), s.lastEvent.toString(Qt::ISODate));
    case StatusColumn: {
        const SearchStatus status = searchStatus(s, liveStatus(s.search.name));
        if (status == SearchStatus::Interrupted)
            return tr("The log ends in the middle of the search and nothing runs it now: the process that ran it "
                      "stopped (a crash, a kill). Resume continues where the log ends; nothing measured is lost.");
        if (status == SearchStatus::Recorded)
            return tr("An imported log: it can be read, compared and replayed, not resumed");
        if (status == SearchStatus::Finished && !s.finishReason.isEmpty())
            return tr("It ended: %1").arg(s.finishReason);
        return {};
    }
    case StepsColumn:
        return tr("%n step(s) completed", nullptr, int(s.steps));
    case GpuEvaluationsColumn: {
        QString tip = tr("%n evaluation(s) ran on the GPU", nullptr, int(s.gpuEvaluations)) + QLatin1Char('\n')
            + tr("%n of them without a successful speedup (compile or runtime error, incorrect)", nullptr,
                int(s.unsuccessfulEvaluations));
        if (s.evaluationFailures > 0)
            tip += QLatin1Char('\n')
                + tr("%n more could not run at all (not counted)", nullptr, int(s.evaluationFailures));
        if (s.reusedEvaluations > 0)
            tip += QLatin1Char('\n')
                + tr("%n more reused the measurement of the same binary on this GPU (not counted)", nullptr,
                    int(s.reusedEvaluations));
        return tip;
    }
    case ForecastsColumn:
        return s.forecastFailures > 0 ? tr("%n forecast(s) completed", nullptr, int(s.forecasts)) + QLatin1Char('\n')
                + tr("%n more failed (not counted)", nullptr, int(s.forecastFailures))
                                      : tr("%n forecast(s) completed", nullptr, int(s.forecasts));
    case BestSpeedupColumn:
        return s.bestSpeedup ? QVariant() : QVariant(tr("No evaluation in the log reports a successful speedup"));
    default:
        return {};
    }
}

QVariant SearchListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Search");
    case SourceColumn:
        return tr("Source");
    case ProblemColumn:
        return tr("Problem");
    case ModeColumn:
        return tr("Mode");
    case ForecasterColumn:
        return tr("Forecaster");
    case StatusColumn:
        return tr("Status");
    case EventsColumn:
        return tr("Events");
    case StepsColumn:
        return tr("Steps");
    case GpuEvaluationsColumn:
        return tr("GPU evaluations");
    case ForecastsColumn:
        return tr("Forecasts");
    case BestSpeedupColumn:
        return tr("Best speedup");
    default:
        return {};
    }
}

SearchEventsModel::SearchEventsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void SearchEventsModel::setEvents(RowId searchId, const QList<SearchEvent> &events)
{
    beginResetModel();
    m_searchId = searchId;
    m_events = events;
    m_gists.clear();
    m_gists.reserve(events.size());
    for (const SearchEvent &event : events)
        m_gists.append(eventGist(event));
    endResetModel();
}

void SearchEventsModel::appendEvents(const QList<SearchEvent> &events)
{
    if (events.isEmpty())
        return;
    beginInsertRows({}, int(m_events.size()), int(m_events.size() + events.size() - 1));
    for (const SearchEvent &event : events) {
        m_events.append(event);
        m_gists.append(eventGist(event));
    }
    endInsertRows();
}

const SearchEvent *SearchEventsModel::eventAt(int row) const
{
    return row >= 0 && row < m_events.size() ? &m_events[row] : nullptr;
}

int SearchEventsModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_events.size()); }

int SearchEventsModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SearchEventsModel::data(const QModelIndex &index, int role) const
{
    const SearchEvent *e = index.isValid() ? eventAt(index.row()) : nullptr;
    if (!e)
        return {};
    const bool sort = role == SortRole;
    if (role == Qt::TextAlignmentRole)
        return index.column() == SequenceColumn || index.column() == StepColumn
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant();
    if (role != Qt::DisplayRole && !sort && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case SequenceColumn:
        return sort ? QVariant(e->sequence) : QVariant(QString::number(e->sequence));
    case TimeColumn:
        if (sort)
            return e->time;
        return e->time.isValid() ? e->time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : tr("—");
    case KindColumn:
        return e->kind;
    case StepColumn: {
        const qint64 step = eventStep(*e);
        return sort ? QVariant(step) : (step < 0 ? QVariant() : QVariant(QString::number(step)));
    }
    case DetailsColumn:
        if (role == Qt::ToolTipRole)
            return QString::fromUtf8(QJsonDocument(e->payload).toJson(QJsonDocument::Indented)).left(4000);
        return m_gists.value(index.row());
    default:
        return {};
    }
}

QVariant SearchEventsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SequenceColumn:
        return tr("#");
    case TimeColumn:
        return tr("Time (UTC)");
    case KindColumn:
        return tr("Kind");
    case StepColumn:
        return tr("Step");
    case DetailsColumn:
        return tr("Details");
    default:
        return {};
    }
}

} // namespace gpuf
