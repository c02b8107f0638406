// Import and export jobs on the open store: run in the background, report the outcome in a message box.
#pragma once

#include "core/domain/problem.h"
#include "core/interop/interop.h"

#include <QStringList>

class QWidget;

namespace gpuf {

class StoreSession;

void startImport(QWidget *parent, StoreSession *session, const QStringList &files);
void startExport(QWidget *parent, StoreSession *session, const QString &file);
// Writes the pair of `candidateId` and its problem's reference, with `view`, as the case file `file`.
void startCaseExport(QWidget *parent, StoreSession *session, const QString &file, RowId candidateId,
    const interop::CaseViewChoice &view);

} // namespace gpuf
