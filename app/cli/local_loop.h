// The one way a command waits for an engine: a local event loop on this thread (the engine's own signals and its
// processes' I/O keep flowing; nothing blocks), left when a signal's arguments say the wait is over.
#pragma once

#include <QEventLoop>
#include <QObject>

#include <functional>
#include <type_traits>

namespace gpuf::cli {

// Calls `start` (when given), then runs a local event loop until `done`, given the arguments of an emission of
// `signal` by `sender` (or none), returns true. A signal emitted inside `start` counts, so a wait that is over at once
// does not run the loop at all.
template<typename Sender, typename... Args, typename Done>
void waitFor(Sender &sender, void (Sender::*signal)(Args...), Done done, const std::function<void()> &start = {})
{
    QEventLoop loop;
    bool over = false;
    const QMetaObject::Connection connection = QObject::connect(&sender, signal, &loop, [&](Args... args) {
        if (over)
            return;
        if constexpr (std::is_invocable_v<Done &, Args...>)
            over = done(args...);
        else
            over = done();
        if (over)
            loop.quit();
    });
    if (start)
        start();
    if (!over)
        loop.exec();
    QObject::disconnect(connection);
}

} // namespace gpuf::cli
