// The store files this process holds, and reading a file's header without breaking SQLite's locks on it.
//
// POSIX locks belong to a process and a file: closing any descriptor of the file drops every lock the process holds
// on it, those of its SQLite connections included. A connection that lost its shared lock unknowingly lets another
// program (a gpuf search in a terminal) take the exclusive lock when it closes, checkpoint the write-ahead log and
// delete it and the shared-memory index under this process, whose next reads then find "the store is damaged". So a
// file's header is read only while no connection of this process is open on it, and the check and the claim happen
// under one lock: two threads opening a store at once cannot read its header while the other's connection is
// already open.
#pragma once

#include "core/store/store_checks.h"

#include <QString>

namespace gpuf::store {

// One Store's hold on its file, from before its first SQLite connection until after its last one closed.
class FileClaim
{
public:
    explicit FileClaim(const QString &path);
    ~FileClaim();
    FileClaim(FileClaim &&other) noexcept;
    FileClaim &operator=(FileClaim &&) = delete;
    FileClaim(const FileClaim &) = delete;
    FileClaim &operator=(const FileClaim &) = delete;

    // What the file is: its header as read by the first claim; Sqlite when another claim here already held it.
    FileState state() const { return m_state; }
    // True when another Store of this process already held the file (its header was not read again).
    bool heldBefore() const { return m_heldBefore; }

private:
    QString m_key; // the canonical path at claim time (a missing file has none yet)
    FileState m_state = FileState::Missing;
    bool m_heldBefore = false;
};

} // namespace gpuf::store
