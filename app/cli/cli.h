// Entry point of the `gpuf` command-line tool, callable in-process (tests) or from main().
#pragma once

#include <QStringList>
#include <QTextStream>

namespace gpuf::cli {

// arguments[0] is the program name. Returns the process exit code.
int run(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace gpuf::cli
