// ULIDs for the event log (paper-facts §6): 26 Crockford base-32 characters, 48 bits of milliseconds then 80 bits
// that a search derives from its seed and the event's position, so a resumed search mints the ids it would have.
#pragma once

#include <QDateTime>
#include <QString>

namespace gpuf::search {

QString makeUlid(const QDateTime &time, quint64 high16, quint64 low64);
bool isUlid(const QString &text);

} // namespace gpuf::search
