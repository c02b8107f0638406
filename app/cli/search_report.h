// What `gpuf search` says about a stored search: its figures as JSON (status, list, and the end of start and resume)
// and as the lines a person reads, with the best kernel's readable name.
#pragma once

#include "core/search/search_state.h"

#include <QJsonObject>
#include <QTextStream>

namespace gpuf {
class Store;
}

namespace gpuf::cli {

QJsonObject searchStatusJson(const search::SearchState &state);
// The best node's readable name: its configuration, or its kernel's stored name; empty when it has neither.
QString bestNodeName(Store &store, const search::SearchState &state);
void printSearchStatus(QTextStream &out, const search::SearchState &state, const QString &bestName);

} // namespace gpuf::cli
