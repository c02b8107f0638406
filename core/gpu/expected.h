// Expected<T>: a value or an error message, for the Qt-free GPU worker (core/common/result.h needs QString).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace gpuf::gpu {

struct Failure
{
    std::string message;
};

template<typename T>
class [[nodiscard]] Expected
{
public:
    Expected(T value)
        : m_state(std::move(value))
    { }
    Expected(Failure failure)
        : m_state(std::move(failure))
    { }

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<T>(m_state); }
    T &value() & { return std::get<T>(m_state); }
    T &&value() && { return std::get<T>(std::move(m_state)); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }
    const T &operator*() const & { return value(); }

    const std::string &error() const { return std::get<Failure>(m_state).message; }

private:
    std::variant<T, Failure> m_state;
};

// A step that either worked or says why not.
class [[nodiscard]] Done
{
public:
    Done() = default;
    Done(Failure failure)
        : m_error(std::move(failure.message))
        , m_failed(true)
    { }

    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const std::string &error() const { return m_error; }

private:
    std::string m_error;
    bool m_failed = false;
};

} // namespace gpuf::gpu
