// Search and SearchEvent: an append-only event log; the search state is a fold over it (DESIGN §7).
#pragma once

#include "core/domain/problem.h"

namespace gpuf {

struct Search
{
    RowId id = 0;
    QString name; // unique within a store (imported logs: their source_search)
    RowId problemId = 0; // 0: not tied to one problem
    QString mode; // "standard" | "surrogate" | "selective" | "imported"
    QJsonObject config;
    QDateTime createdAt;
};

struct SearchEvent
{
    RowId id = 0;
    RowId searchId = 0;
    qint64 sequence = 0; // 0-based position in the log
    QString kind; // as written on disk: SearchEventKind's name (search_event_kind.h), or one a later version wrote
    QJsonObject payload;
    QDateTime time; // UTC
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::Search)
Q_DECLARE_METATYPE(gpuf::SearchEvent)
