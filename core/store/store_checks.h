// What Store::open learns about a file before it trusts it: what kind of file it is, whether its place can be written,
// whether its disk is full, and whether an SQLite file is a whole gpuf store (the tables and columns its schema
// version has) that passes SQLite's own check. Each refusal is one sentence naming the file; SQLite's long report on a
// damaged file is read apart (damageReport), for those who ask for it.
#pragma once

#include "core/common/result.h"

#include <QSqlDatabase>
#include <QString>

namespace gpuf::store {

enum class FileState { Missing, Empty, Sqlite, NotSqlite, Unreadable };

FileState inspectFile(const QString &path);

// True when the file (or, for a missing file, its folder) cannot be written: a read-only mount, or no permission.
bool onReadOnlyLocation(const QString &path);
// The SQLite URI that reads the file without writing anything next to it (mode=ro; immutable when no write-ahead
// log waits beside it, since SQLite could not create the shared-memory file a WAL reader needs).
QString readOnlyUri(const QString &path);
// True when the file system holding `path` has (almost) no space left.
bool diskFull(const QString &path);
// "the disk holding PATH is full" as one sentence, for open and write failures.
QString diskFullSentence(const QString &path);

// The missing parts of a store at schema `version`: "" when every table and column that version has is there,
// else e.g. "the table 'measurements' is missing" or "the column 'forecasts.p3' is missing".
Result<QString> missingSchemaParts(QSqlDatabase &db, int version);

// Checks a store's structure (PRAGMA quick_check) without writing; the error is one sentence.
Status quickCheck(QSqlDatabase &db, const QString &path);
// What SQLite says is wrong with the store at `path`, one problem a line, read without writing (for "Show Details");
// empty when its structure check passes or the file is not an SQLite file.
QString damageReport(const QString &path);

// An SQLite failure of `path` in one sentence: a full disk, a damaged file, or SQLite's own words.
Error describeOpenFailure(const QString &path, const QString &sqliteMessage);

} // namespace gpuf::store
