// The one way a command waits for an engine: a local event loop on this thread (the engine's own signals and its
// processes' I/O keep flowing; nothing blocks), left when a signal's arguments say the wait is over.
#pragma once

#include <QEventLoop>
#include <QObject>

#include <functional>
#include <type_traits>

namespace gpuf::cli {

// A wait that ends on the first of several signals whose `done` says so: endOn() each, then run().
class LocalLoop
{
public:
    LocalLoop() = default;
    LocalLoop(const LocalLoop &) = delete;
    LocalLoop &operator=(const LocalLoop &) = delete;

    // The wait is over when `sender` emits `signal` and `done`, given its arguments (or none), returns true.
    template<typename Sender, typename... Args, typename Done>
    void endOn(Sender &sender, void (Sender::*signal)(Args...), Done done)
    {
        // The loop is the connection's context: the connection goes with it.
        QObject::connect(&sender, signal, &m_loop, [this, done](Args... args) mutable {
            if (m_over)
                return;
            if constexpr (std::is_invocable_v<Done &, Args...>)
                m_over = done(args...);
            else
                m_over = done();
            if (m_over)
                m_loop.quit();
        });
    }

    // Calls `start` (when given), then runs the loop until the wait is over. A signal emitted inside `start` counts,
    // so a wait that is over at once does not run the loop at all.
    void run(const std::function<void()> &start = {})
    {
        if (start)
            start();
        if (!m_over)
            m_loop.exec();
    }

private:
    QEventLoop m_loop;
    bool m_over = false;
};

// Calls `start` (when given), then waits until `done`, given the arguments of an emission of `signal` by `sender`
// (or none), returns true.
template<typename Sender, typename... Args, typename Done>
void waitFor(Sender &sender, void (Sender::*signal)(Args...), Done done, const std::function<void()> &start = {})
{
    LocalLoop loop;
    loop.endOn(sender, signal, std::move(done));
    loop.run(start);
}

} // namespace gpuf::cli
