// A stored search's log as the paper's events.jsonl (paper-facts §6): one event per line, "id", "ts" and "kind" first,
// then the payload; format version 2 for standard searches and 3 for the others (search_initialized says which).
// `gpuf import` reads the file back to the same log, and so to the same state.
#pragma once

#include "core/common/result.h"
#include "core/domain/search.h"

namespace gpuf {
class Store;
}

namespace gpuf::search {

QByteArray eventLine(const SearchEvent &event); // without the line break
Status exportEventLog(Store &store, const QString &searchName, const QString &file);

} // namespace gpuf::search
