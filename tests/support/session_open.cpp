#include "tests/support/session_open.h"

#include "core/session/store_session.h"

#include <QObject>
#include <QString>
#include <QTest>

namespace gpuf::test {

bool openSession(StoreSession &session, const QString &path, int timeoutMs)
{
    bool opened = false;
    bool failed = false;
    QString why;
    QObject receiver; // both connections end with it, when this returns
    QObject::connect(&session, &StoreSession::opened, &receiver, [&] { opened = true; });
    QObject::connect(&session, &StoreSession::openFailed, &receiver, [&](const QString &, const QString &message) {
        failed = true;
        why = message;
    });
    session.open(path);
    if (!QTest::qWaitFor([&] { return opened || failed; }, timeoutMs))
        why = QStringLiteral("no answer within %1 ms").arg(timeoutMs);
    if (opened)
        return true;
    qWarning("the store %s did not open: %s", qPrintable(path), qPrintable(why));
    return false;
}

} // namespace gpuf::test
