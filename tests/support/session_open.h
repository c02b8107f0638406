// Opening a StoreSession from a test and waiting until it is open: the one way suites get a session to work on
// (suites that test the opening itself, its failures and its signals, open by hand).
#pragma once

class QString;

namespace gpuf {
class StoreSession;
}

namespace gpuf::test {

// Opens the store at `path` in `session` and waits for its opened() signal. False when it failed (openFailed()) or did
// not open within `timeoutMs`; the reason is logged as a warning, which Qt Test prints with the failing test function:
//     QVERIFY(test::openSession(session, path));
[[nodiscard]] bool openSession(StoreSession &session, const QString &path, int timeoutMs = 30000);

} // namespace gpuf::test
