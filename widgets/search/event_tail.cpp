// The live event tail; see event_tail.h.
#include "widgets/search/event_tail.h"

#include "core/bins/bins.h"
#include "core/domain/search_event_kind.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace gpuf {

namespace {

QString cut(const QString &text, int length = 120)
{
    const QString line = text.simplified();
    return line.size() > length ? line.left(length - 1) + QStringLiteral("…") : line;
}

} // namespace

EventTailModel::EventTailModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void EventTailModel::setCapacity(int capacity)
{
    m_capacity = std::max(1, capacity);
    if (int(m_rows.size()) > m_capacity) {
        const int excess = int(m_rows.size()) - m_capacity;
        beginRemoveRows({}, 0, excess - 1);
        m_rows.erase(m_rows.begin(), m_rows.begin() + excess);
        endRemoveRows();
    }
}

QString EventTailModel::summaryOf(const SearchEvent &e)
{
    const QJsonObject &p = e.payload;
    const auto text = [&p](const char *key) { return p.value(QLatin1StringView(key)).toString(); };
    const std::optional<SearchEventKind> kind = eventKindOf(e);
    if (!kind)
        return {};
    switch (*kind) {
    case SearchEventKind::StepStarted: {
        QStringList parents;
        for (const auto &v : p.value(QStringLiteral("parents")).toArray())
            parents << v.toString().right(8);
        return tr("parents: %1").arg(parents.join(QStringLiteral(", ")));
    }
    case SearchEventKind::MutationCompleted:
        return tr("code from %1").arg(text("origin").isEmpty() ? tr("the mutator") : text("origin"));
    case SearchEventKind::MutationFailed:
    case SearchEventKind::ForecastFailed:
    case SearchEventKind::EvaluationFailed:
        return cut(text("error"));
    case SearchEventKind::ForecastCompleted:
        return tr("bin %1 at %2% (expected bin %3)")
            .arg(p.value(QStringLiteral("predicted_bin")).toInt())
            .arg(QLocale().toString(p.value(QStringLiteral("confidence")).toDouble() * 100.0, 'f', 0))
            .arg(QLocale().toString(p.value(QStringLiteral("expected_bin")).toDouble(), 'f', 2));
    case SearchEventKind::CandidateSelected:
    case SearchEventKind::CandidateDeferred:
        return cut(text("reason"));
    case SearchEventKind::EvaluationCompleted: {
        const QJsonObject feedback = p.value(QStringLiteral("feedback")).toObject();
        const QString outcome = feedback.value(QStringLiteral("kind")).toString();
        QString out = outcome == QLatin1StringView("success")
            ? bins::speedupText(feedback.value(QStringLiteral("aggregated_speedup")).toDouble())
            : outcome;
        if (p.value(QStringLiteral("replay")).toBool())
            out += tr(" (replay)");
        return out;
    }
    case SearchEventKind::ConfigChanged:
        return QString::fromUtf8(
            QJsonDocument(p.value(QStringLiteral("changes")).toObject()).toJson(QJsonDocument::Compact));
    case SearchEventKind::SearchCompleted:
    case SearchEventKind::SearchStopped:
        return cut(text("reason"));
    case SearchEventKind::KernelInjected:
        return tr("under %1").arg(text("parent_id").isEmpty() ? tr("no parent") : text("parent_id").right(8));
    default: // the kind, step and node columns say all there is
        return {};
    }
}

EventTailModel::Row EventTailModel::rowOf(const search::SearchState &state, const SearchEvent &e)
{
    Row row;
    row.sequence = e.sequence;
    row.time = e.time;
    row.kind = e.kind;
    // Events that carry no step belong to the step in progress when they were written.
    row.step = int(e.payload.value(QStringLiteral("step")).toInteger(m_step));
    noteStep(e);
    row.nodeId = e.payload.value(QStringLiteral("node_id")).toString();
    if (row.nodeId.isEmpty()) {
        // Answers to a mutation name only their request; the state knows whose it was.
        const QString request = e.payload.value(QStringLiteral("request_id")).toString();
        const int position = request.isEmpty() ? -1 : state.byRequest.value(request, -1);
        if (position >= 0 && position < int(state.candidates.size()))
            row.nodeId = state.candidates[size_t(position)].nodeId;
    }
    row.summary = summaryOf(e);
    return row;
}

void EventTailModel::noteStep(const SearchEvent &e)
{
    const std::optional<SearchEventKind> kind = eventKindOf(e);
    if (kind == SearchEventKind::StepStarted)
        m_step = int(e.payload.value(QStringLiteral("step")).toInteger(-1));
    else if (kind == SearchEventKind::StepCompleted)
        m_step = -1;
}

void EventTailModel::setEvents(const search::SearchState &state, const QList<SearchEvent> &events)
{
    beginResetModel();
    m_rows.clear();
    m_step = -1;
    const qsizetype first = std::max<qsizetype>(0, events.size() - m_capacity);
    for (qsizetype i = 0; i < first; ++i)
        noteStep(events[i]);
    for (qsizetype i = first; i < events.size(); ++i)
        m_rows.push_back(rowOf(state, events[i]));
    m_total = events.size();
    endResetModel();
}

void EventTailModel::appendEvents(const search::SearchState &state, const QList<SearchEvent> &events)
{
    if (events.isEmpty())
        return;
    m_total += events.size();
    // Only the newest capacity events of the batch can stay.
    const qsizetype first = std::max<qsizetype>(0, events.size() - m_capacity);
    for (qsizetype i = 0; i < first; ++i)
        noteStep(events[i]);
    const int incoming = int(events.size() - first);
    const int excess = int(m_rows.size()) + incoming - m_capacity;
    if (excess > 0) {
        const int removed = std::min(excess, int(m_rows.size()));
        beginRemoveRows({}, 0, removed - 1);
        m_rows.erase(m_rows.begin(), m_rows.begin() + removed);
        endRemoveRows();
    }
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size()) + incoming - 1);
    for (qsizetype i = first; i < events.size(); ++i)
        m_rows.push_back(rowOf(state, events[i]));
    endInsertRows();
}

int EventTailModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int EventTailModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant EventTailModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row &row = m_rows[size_t(index.row())];
    if (role == NodeIdRole)
        return row.nodeId;
    if (role == SortRole) {
        switch (index.column()) {
        case SequenceColumn:
            return row.sequence;
        case TimeColumn:
            return row.time;
        case StepColumn:
            return row.step;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ToolTipRole && index.column() == NodeColumn)
        return row.nodeId;
    if (role == Qt::ToolTipRole && index.column() == SummaryColumn && !row.summary.isEmpty())
        return row.summary;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case SequenceColumn:
        return QString::number(row.sequence);
    case TimeColumn:
        return row.time.isValid() ? row.time.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz")) : QString();
    case KindColumn:
        return row.kind;
    case StepColumn:
        return row.step >= 0 ? QString::number(row.step) : QString();
    case NodeColumn:
        return row.nodeId.size() > 12 ? QStringLiteral("…") + row.nodeId.right(8) : row.nodeId;
    case SummaryColumn:
        return row.summary;
    }
    return {};
}

QVariant EventTailModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SequenceColumn:
        return tr("#");
    case TimeColumn:
        return tr("Time");
    case KindColumn:
        return tr("Event");
    case StepColumn:
        return tr("Step");
    case NodeColumn:
        return tr("Node");
    case SummaryColumn:
        return tr("Summary");
    }
    return {};
}

EventTailView::EventTailView(QWidget *parent)
    : QWidget(parent)
    , m_model(new EventTailModel(this))
    , m_view(new QTableView(this))
    , m_status(new QLabel(this))
{
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 4);
    m_view->horizontalHeader()->setStretchLastSection(true);
    // Uniform rows: the view never measures a thousand rows' contents on an append.
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->setColumnWidth(EventTailModel::SequenceColumn, 60);
    m_view->setColumnWidth(EventTailModel::TimeColumn, 100);
    m_view->setColumnWidth(EventTailModel::KindColumn, 160);
    m_view->setColumnWidth(EventTailModel::StepColumn, 50);
    m_view->setColumnWidth(EventTailModel::NodeColumn, 100);
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex &index) {
        const QString id = m_model->data(index, EventTailModel::NodeIdRole).toString();
        if (!id.isEmpty())
            Q_EMIT nodeActivated(id);
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_status->setContentsMargins(6, 2, 6, 0);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);
    updateStatus();
}

bool EventTailView::followsEnd() const
{
    const QScrollBar *bar = m_view->verticalScrollBar();
    return bar->value() >= bar->maximum();
}

void EventTailView::setSearch(const search::SearchState &state, const QList<SearchEvent> &events)
{
    m_model->setEvents(state, events);
    m_view->scrollToBottom();
    updateStatus();
}

void EventTailView::applyEvents(const search::SearchState &state, const QList<SearchEvent> &newEvents)
{
    if (newEvents.isEmpty())
        return;
    // Read before the rows change: removing old rows at the top moves the scroll bar on its own.
    const bool follow = followsEnd();
    QScrollBar *bar = m_view->verticalScrollBar();
    const int before = bar->value();
    const int rowsBefore = m_model->rowCount();
    m_model->appendEvents(state, newEvents);
    if (follow) {
        m_view->scrollToBottom();
    } else {
        // Keep the rows the user is reading in place: dropped rows at the top shift everything up.
        const int dropped = std::max(0, rowsBefore + int(newEvents.size()) - m_model->rowCount());
        bar->setValue(std::max(0, before - dropped));
    }
    updateStatus();
}

QString EventTailView::statusText() const { return m_status->text(); }

void EventTailView::updateStatus()
{
    const qint64 total = m_model->totalEvents();
    const int shown = m_model->rowCount();
    m_status->setText(total > shown ? tr("The newest %1 of %2 events").arg(shown).arg(total)
                                    : tr("%n event(s)", nullptr, int(total)));
}

} // namespace gpuf
