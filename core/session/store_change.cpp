// StoreChange; see store_change.h.
#include "core/session/store_change.h"

#include <algorithm>

namespace gpuf {
namespace {

QList<RowId> sortedUnique(QList<RowId> ids)
{
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

} // namespace

StoreChange StoreChange::of(Kind kind, QList<RowId> ids, QList<RowId> kernelIds)
{
    StoreChange change;
    change.kind = kind;
    change.ids = sortedUnique(std::move(ids));
    change.kernelIds = sortedUnique(std::move(kernelIds));
    return change;
}

QList<RowId> StoreChange::affectedKernels(bool *all) const
{
    *all = false;
    switch (kind) {
    case Kind::Measurements:
    case Kind::Forecasts:
    case Kind::Kernels:
        return ids;
    case Kind::Searches:
        return kernelIds;
    case Kind::Forecasters:
    case Kind::Lessons:
        return {};
    case Kind::Removed:
    case Kind::Restored:
    case Kind::Import:
    case Kind::Reload:
        break;
    }
    *all = true; // a deletion may change any row's baseline or problem; an import anything
    return {};
}

bool StoreChange::mayAffectKernel(RowId kernelId) const
{
    bool all = false;
    const QList<RowId> kernels = affectedKernels(&all);
    return all || std::binary_search(kernels.cbegin(), kernels.cend(), kernelId);
}

void StoreChange::unite(const StoreChange &other)
{
    ids = sortedUnique(ids + other.ids);
    kernelIds = sortedUnique(kernelIds + other.kernelIds);
    for (auto it = other.rows.cbegin(); it != other.rows.cend(); ++it)
        rows[it.key()] = sortedUnique(rows.value(it.key()) + it.value());
}

} // namespace gpuf
