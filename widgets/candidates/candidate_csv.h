// The candidate table as CSV: the rows it shows, in their order, every column as the table shows it (a Python
// kernel's device and call time with the speedup's figure in brackets included), a header line first.
#pragma once

#include "core/common/result.h"

#include <QString>

class QWidget;

namespace gpuf {

class CandidateTableModel;

// The shown rows as CSV text (RFC 4180: fields with a comma, quote or line break quoted, quotes doubled).
QString candidateTableCsv(const CandidateTableModel &model);
// Writes candidateTableCsv() to `path`; fails with the reason when the file cannot be written.
Status writeCandidateTableCsv(const CandidateTableModel &model, const QString &path);
// Asks for a file and writes the table there; a failure is shown in a message box over `parent`.
void exportCandidateTableInteractively(const CandidateTableModel &model, QWidget *parent);

} // namespace gpuf
