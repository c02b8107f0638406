// Forecaster reads and writes; see forecaster_reads.h.
#include "core/forecasters/forecaster_reads.h"

#include "core/forecasters/costmodel/costmodel_backend.h"
#include "core/forecasters/roofline_prior.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"

#include <QCoreApplication>

namespace gpuf {

Result<QList<Forecaster>> listForecasters(Store &store, const CancelToken &cancel, std::optional<ForecasterKind> kind)
{
    auto all = ForecasterRepo(store).list();
    if (!all)
        return all.failure();
    if (cancel.isCancelled())
        return Error::cancelled();
    if (kind)
        all->removeIf([&kind](const Forecaster &f) { return f.kind != *kind; });
    return std::move(*all);
}

Result<std::optional<Forecaster>> resolveForecaster(Store &store, const QString &name, const QString &modelPath)
{
    if (name == QLatin1StringView(costmodel::kForecasterName)) {
        auto ensured = ensureCostModelForecaster(store, modelPath);
        if (!ensured)
            return ensured.failure();
    }
    if (name == QLatin1StringView(kRooflineForecasterName)) {
        auto ensured = ensureRooflineForecaster(store);
        if (!ensured)
            return ensured.failure();
    }
    return ForecasterRepo(store).findByName(name);
}

Result<std::optional<Hardware>> resolveHardware(Store &store, const QString &name)
{
    auto known = HardwareRepo(store).findByName(name);
    if (!known)
        return known.failure();
    return known->has_value() ? *known : hardwarePreset(name);
}

Result<RowId> saveForecasterProfile(Store &store, Forecaster forecaster)
{
    ForecasterRepo repo(store);
    if (forecaster.id != 0) {
        if (Status s = repo.update(forecaster); !s)
            return s.failure();
        return forecaster.id;
    }
    auto existing = repo.findByName(forecaster.name);
    if (!existing)
        return existing.failure();
    if (existing->has_value()) {
        return Error {QCoreApplication::translate("gpuf::EndpointsDialog", "a forecaster named \"%1\" already exists")
                          .arg(forecaster.name)};
    }
    return repo.ensure(forecaster);
}

} // namespace gpuf
