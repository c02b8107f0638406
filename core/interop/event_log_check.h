// The checks an imported search event log passes before anything is written: a log gpuf wrote must fold (the same
// fold that shows and resumes a search), any other log must at least start with search_initialized, number its steps
// in order, answer only requests it made and report positive speedups. A refused log names its line and the reason.
#pragma once

#include "core/common/result.h"
#include "core/domain/search.h"

#include <QList>

namespace gpuf::interop {

// An event as read from a file, with the FILE:LINE it came from.
struct ReadEvent
{
    SearchEvent event;
    QString location;
};

// The newest search_initialized format_version gpuf reads (2: standard searches, 3: the forecasting modes).
inline constexpr int kNewestEventLogFormat = 3;
// A step number beyond this is not a step any search took (a search of a million steps is already absurd).
inline constexpr qint64 kLargestStep = 1000000;

// Ok when gpuf can show (and, for its own logs, resume) the search `events` record; else "FILE:LINE: why".
Status checkEventLog(const QList<ReadEvent> &events);

} // namespace gpuf::interop
