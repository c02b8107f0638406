// Import of Python problems (resources/problems/<name>/{problem.py,variants.json,variants/*.py};
// docs/python-problems.md): one problem per folder with problem.py as its reference kernel, one kernel per variant
// that gpuf-measure can measure as a gpuf-python/1 candidate, and the links from imported paper rows to them.
#pragma once

#include "core/common/result.h"
#include "core/domain/kernel.h"

#include <QString>

namespace gpuf {
class Store;
}

namespace gpuf::interop {

struct CorpusReport;

// True when `dir` holds a Python problem (problem.py and variants.json).
bool isPythonProblemDir(const QString &dir);
// Why `dir` is half a Python problem (problem.py without variants.json, or variants.json with neither problem.py nor
// a CUDA problem's problem.json), or an empty string.
QString halfAPythonProblem(const QString &dir);

// Imports one Python problem folder into the open transaction of `store`.
Status importPythonProblem(Store &store, const QString &dir, CorpusReport &report);

// The shipped Python problem that a paper pack (eval set / RL pool `pack`, discovery `problem_id`) reproduces with the
// same data layout, so that its candidates run against our reference unchanged; empty when there is none.
QString pythonProblemForPack(const QString &pack);

// Marks `kernel` as measurable against Python problem `problem` (kernel parameters `python_problem`), when its source
// defines custom_kernel.
void linkToPythonProblem(Kernel &kernel, const QString &problem);

} // namespace gpuf::interop
