// Reads and writes of the store's forecasters shared by the explorer's views and the CLI: the list, a forecaster by
// name (the built-in cost model's row made on first use), the hardware a forecast names, a saved endpoint profile.
#pragma once

#include "core/common/cancel.h"
#include "core/common/result.h"
#include "core/domain/forecast.h"
#include "core/domain/hardware.h"

#include <QList>

#include <optional>

namespace gpuf {

class Store;

// Every forecaster of the store (ordered by id); with `kind`, only those of that kind.
Result<QList<Forecaster>> listForecasters(
    Store &store, const CancelToken &cancel = {}, std::optional<ForecasterKind> kind = std::nullopt);

// The forecaster named `name`; for the built-in cost model's name its row is created on first use (from the model at
// `modelPath`, the built-in one when empty), which loads the model: not for the GUI thread. Empty when no forecaster
// has that name.
Result<std::optional<Forecaster>> resolveForecaster(Store &store, const QString &name, const QString &modelPath = {});

// The hardware named `name`: the store's description of it, else the preset of that name, else none.
Result<std::optional<Hardware>> resolveHardware(Store &store, const QString &name);

// Saves an endpoint profile: a new one (id 0) is inserted and its name must be free; an edited one is updated in
// place, so its forecasts keep pointing at it. Returns the row's id.
Result<RowId> saveForecasterProfile(Store &store, Forecaster forecaster);

} // namespace gpuf
