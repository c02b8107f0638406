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

// Whether Python candidates may run without a sandbox where none can be made (docs/python-problems.md): the setting
// kPythonUnsandboxedKey (the explorer's "Python without sandbox"), or --unsandboxed given to gpuf measure and gpuf
// search.
inline constexpr const char *kPythonUnsandboxedKey = "measure/python_unsandboxed";
inline constexpr const char *kUnsandboxedArgument = "--unsandboxed";

// `args` with --python added for pythonInterpreter() unless it is empty or args already choose one, and
// --unsandboxed where the setting allows unsandboxed Python candidates.
QStringList withPythonInterpreter(QStringList args);

} // namespace gpuf::measure
