// CancelToken: a copyable handle on one shared "stop" flag, so a background job and whoever started it agree on
// when the job should give up; checked in loops, never waited on.
#pragma once

#include <atomic>
#include <memory>

namespace gpuf {

class CancelToken
{
public:
    // A token that is never cancelled (for callers that do not cancel: the CLI, tests).
    CancelToken() = default;

    // A fresh token that cancel() can stop; copies share its flag.
    static CancelToken create()
    {
        CancelToken token;
        token.m_flag = std::make_shared<std::atomic_bool>(false);
        return token;
    }

    // Asks every holder of this token to stop; does nothing on a token that cannot be cancelled.
    void cancel() const
    {
        if (m_flag)
            m_flag->store(true, std::memory_order_relaxed);
    }

    bool isCancelled() const { return m_flag && m_flag->load(std::memory_order_relaxed); }
    bool canBeCancelled() const { return m_flag != nullptr; }

private:
    std::shared_ptr<std::atomic_bool> m_flag;
};

} // namespace gpuf
