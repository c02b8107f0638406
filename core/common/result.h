// Result<T>: a value or an error (a message and a code); errors are data, never exceptions across Qt boundaries.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace gpuf {

struct Error
{
    // Cancelled: the caller asked the work to stop (a CancelToken); not a failure to show to anyone.
    enum class Code { Failed, Cancelled };

    QString message;
    Code code = Code::Failed;

    static Error cancelled()
    {
        return Error {QCoreApplication::translate("gpuf::Error", "cancelled"), Code::Cancelled};
    }
    bool isCancelled() const { return code == Code::Cancelled; }
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
    // True when the work was cancelled rather than failed.
    bool isCancelled() const
    {
        const Error *e = std::get_if<Error>(&m_state);
        return e && e->isCancelled();
    }
    // The error with its code, for passing a failure on unchanged (a default Error when ok()).
    Error failure() const
    {
        const Error *e = std::get_if<Error>(&m_state);
        return e ? *e : Error {};
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
        : m_error(std::move(error))
    { }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const QString &error() const
    {
        static const QString none;
        return m_error ? m_error->message : none;
    }
    bool isCancelled() const { return m_error && m_error->isCancelled(); }
    Error failure() const { return m_error ? *m_error : Error {}; }

private:
    std::optional<Error> m_error;
};

using Status = Result<void>;

} // namespace gpuf
