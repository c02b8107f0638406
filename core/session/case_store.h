// Opening a case file (issue 28): the explorer imports it into a store of its own in the application data folder's
// cases/ — named by the file and the start of its SHA-256, so opening it again reuses that store and another file of
// the same name gets its own — opens that store, and shows the case's pair with the forecaster, GPU and trust
// threshold its view names. The user's own stores are not touched; File → Import… adds a case to one of them.
#pragma once

#include "core/common/result.h"
#include "core/domain/problem.h"

#include <QString>

#include <optional>

namespace gpuf {

class Selection;
class StoreSession;

// The case's pair in the store it was imported into, and the window's choices it names.
struct OpenedCase
{
    QString storePath;
    RowId problemId = 0;
    RowId referenceId = 0;
    RowId candidateId = 0;
    QString forecaster; // empty: none named
    QString hardware; // empty: none named
    std::optional<double> trustThreshold;
};

// The folder the explorer keeps case stores in: the application data folder's cases/.
QString caseStoreFolder();

// Reads `file`'s view, imports it into its store under `folder` (made when missing; a second import adds nothing) and
// finds the pair there. Blocking: run it off the GUI thread.
Result<OpenedCase> importCaseFile(const QString &file, const QString &folder);

// Imports `file` in the background, opens its store in `session` and, once it is open, sets `selection` to the case's
// pair and choices. A file that is no case file, or fails to import, is reported as an open failure.
void openCaseFile(StoreSession *session, Selection *selection, const QString &file);

// Applies an opened case's choices and pair to `selection` (the scope is the case's problem).
void showCase(Selection *selection, const OpenedCase &opened);

} // namespace gpuf
