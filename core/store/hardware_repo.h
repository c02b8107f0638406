// HardwareRepo: GPU descriptions, unique by name.
#pragma once

#include "core/common/result.h"
#include "core/domain/hardware.h"
#include "core/store/statement_cache.h"

namespace gpuf {

class HardwareRepo
{
public:
    explicit HardwareRepo(Store &store)
        : m_cache(store)
    { }
    Result<RowId> ensure(Hardware &hardware); // by name: the existing id, or insert
    Result<std::optional<Hardware>> find(RowId id);
    Result<std::optional<Hardware>> findByName(const QString &name);
    Result<QList<Hardware>> list();

private:
    store::StatementCache m_cache;
};

} // namespace gpuf
