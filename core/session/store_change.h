// StoreChange: what one write did to the open store (its kind and the rows it touched), so views patch what changed
// instead of reloading everything.
#pragma once

#include "core/store/deletion.h"

#include <QList>
#include <QMap>
#include <QMetaType>

namespace gpuf {

struct StoreChange
{
    enum class Kind {
        Removed, // a deletion: `rows` by kind (the rows that depended on them among them)
        Restored, // its undo: `rows` by kind
        Measurements, // kernels measured: `ids` are the kernels
        Forecasts, // forecasts stored: `ids` are the candidate kernels forecast
        Forecasters, // a forecaster added (a retrained cost model): `ids` are the forecasters
        Kernels, // kernels (or problems with their reference) added: `ids` are the kernels
        Searches, // search events or searches stored: `ids` are the searches, `kernelIds` the kernels they added
        Import, // a bundle or files imported: anything may have changed (`ids` empty)
        Reload, // the user asked to read the store again (another program may have written it): anything
        Lessons, // lessons added or edited: `ids` are the lessons (no kernel's row, forecast or measurement changed)
    };
    Kind kind = Kind::Removed;
    QMap<RowKind, QList<RowId>> rows; // Removed, Restored
    QList<RowId> ids; // sorted, no duplicates
    QList<RowId> kernelIds; // Searches: the kernels it added (sorted, no duplicates)

    static StoreChange of(Kind kind, QList<RowId> ids = {}, QList<RowId> kernelIds = {});

    // The kernels whose candidate-table rows this change may alter; `all` is set when it may alter any row.
    QList<RowId> affectedKernels(bool *all) const;
    // True when this change may alter what a view shows of `kernelId` (its row, measurements or forecasts).
    bool mayAffectKernel(RowId kernelId) const;
    // Adds `other` (of the same kind) to this change: ids and rows united.
    void unite(const StoreChange &other);
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::StoreChange)
