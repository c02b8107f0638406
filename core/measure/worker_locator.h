// Where gpuf-measure is: next to the running program, then (never when installed) in the build tree this program was
// built in, then on PATH; when it is nowhere, exactly why ("gpuf-measure not built: CUDA toolkit missing", or where
// it was looked for).
#pragma once

#include "core/common/result.h"

#include <QStringList>

namespace gpuf::measure {

// The folders looked in, in order (PATH is searched after them).
QStringList workerSearchFolders();

// The path of an executable gpuf-measure, or the reason there is none.
Result<QString> locateMeasureWorker();

// The Python interpreter gpuf-measure starts for Python candidates (docs/python-problems.md): the environment's
// GPUF_PYTHON, else the setting kPythonInterpreterKey, else empty (the worker's default, python3 on PATH).
inline constexpr const char *kPythonInterpreterKey = "measure/python_interpreter";
QString pythonInterpreter();

// `args` with --python added for pythonInterpreter() unless it is empty or args already choose one.
QStringList withPythonInterpreter(QStringList args);

} // namespace gpuf::measure
