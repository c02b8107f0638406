// Result<T>: a value or an error message; errors are data, never exceptions across Qt boundaries.
#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace gpuf {

struct Error
{
    QString message;
};

template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_state(std::move(value))
    { }
    Result(Error error)
        : m_state(std::move(error))
    { }

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<T>(m_state); }
    T &value() & { return std::get<T>(m_state); }
    T &&value() && { return std::get<T>(std::move(m_state)); }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }

    // Empty when ok(), so messages can be built unconditionally (QVERIFY2 evaluates its message eagerly).
    const QString &error() const
    {
        static const QString none;
        const Error *e = std::get_if<Error>(&m_state);
        return e ? e->message : none;
    }

private:
    std::variant<T, Error> m_state;
};

template<>
class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error)
        : m_error(std::move(error.message))
    { }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const QString &error() const
    {
        static const QString none;
        return m_error ? *m_error : none;
    }

private:
    std::optional<QString> m_error;
};

using Status = Result<void>;

} // namespace gpuf
