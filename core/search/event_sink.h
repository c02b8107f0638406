// Where a running search's events go: a store (every event committed before the engine acts on it, together with
// the rows it names) or memory (comparisons and benchmarks that must not touch a store).
#pragma once

#include "core/common/result.h"
#include "core/domain/search.h"

#include <functional>
#include <memory>

namespace gpuf {
class Store;
}

namespace gpuf::search {

class EventSink
{
public:
    using Build = std::function<Status(QList<SearchEvent> &events)>;
    virtual ~EventSink() = default;
    // Runs `build` (which may write rows through store() when there is one) and appends the events it produced, all
    // in one transaction: after a crash either all of them are in the log or none is.
    virtual Status transact(const Build &build) = 0;
    // The log from position `sequence` on.
    virtual Result<QList<SearchEvent>> since(qint64 sequence) = 0;
    virtual Store *store() = 0;
    virtual RowId searchId() const = 0;
};

class StoreSink : public EventSink
{
public:
    StoreSink(Store &store, RowId searchId);
    // A sink that owns its connection (an engine thread's own).
    StoreSink(std::unique_ptr<Store> store, RowId searchId);
    ~StoreSink() override;
    Status transact(const Build &build) override;
    Result<QList<SearchEvent>> since(qint64 sequence) override;
    Store *store() override { return &m_store; }
    RowId searchId() const override { return m_searchId; }

private:
    std::unique_ptr<Store> m_owned;
    Store &m_store;
    RowId m_searchId;
};

class MemorySink : public EventSink
{
public:
    Status transact(const Build &build) override;
    Result<QList<SearchEvent>> since(qint64 sequence) override;
    Store *store() override { return nullptr; }
    RowId searchId() const override { return 0; }
    const QList<SearchEvent> &events() const { return m_events; }

private:
    QList<SearchEvent> m_events;
};

} // namespace gpuf::search
