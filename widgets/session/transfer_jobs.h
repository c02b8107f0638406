// Import and export jobs on the open store: run in the background, report the outcome in a message box.
#pragma once

#include <QStringList>

class QWidget;

namespace gpuf {

class StoreSession;

void startImport(QWidget *parent, StoreSession *session, const QStringList &files);
void startExport(QWidget *parent, StoreSession *session, const QString &file);

} // namespace gpuf
