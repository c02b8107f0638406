// tr() for the lessons' own texts, in the one translation context they share ("gpuf::Lessons").
#pragma once

#include <QCoreApplication>
#include <QString>

namespace gpuf::lessons {

inline QString tr(const char *text) { return QCoreApplication::translate("gpuf::Lessons", text); }

} // namespace gpuf::lessons
