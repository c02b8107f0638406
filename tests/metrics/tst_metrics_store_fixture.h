// A small real store for the calibration tests (scored pairs, `gpuf metrics`, the metrics table): forecasts whose
// truths are known by hand — measured speedups, a pair label kept as published, a failed candidate, a forecast with
// no truth, a parse failure, an error and a replaced forecast.
#pragma once

#include "core/bins/bins.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QString>

#include <optional>

namespace gpuf::testing {

struct MetricsStore
{
    RowId h1 = 0, h2 = 0;
    RowId scale = 0, other = 0; // problems
    RowId reference = 0, otherReference = 0;
    // Truth on "GPU one" against the reference: A √5 (bin 6), B 4 (bin 8), C 0.5 (bin 2), D a failed case,
    // E a label 1.2 / bin 4, F nothing, G a label 0.6 published as bin 3 (the formula says 2), X (other problem) 2.
    RowId a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, x = 0;
    RowId alpha = 0, beta = 0, gamma = 0; // forecasters; gamma has only an error
    RowId search = 0;
};

inline RowId insertKernel(Store &store, RowId problem, const QString &source, const QString &origin)
{
    Kernel k;
    k.problemId = problem;
    k.source = source;
    k.language = QStringLiteral("cuda");
    k.origin = origin;
    auto id = KernelRepo(store).insertOrGet(k);
    if (!id)
        qFatal("kernel: %s", qPrintable(id.error()));
    return *id;
}

inline void insertMeasurement(Store &store, RowId kernel, RowId hardware, const QString &caseName, double medianNs,
    MeasurementStatus status = MeasurementStatus::Ok, MeasurementSource source = MeasurementSource::Local)
{
    Measurement m;
    m.source = source;
    m.kernelId = kernel;
    m.hardwareId = hardware;
    m.caseName = caseName;
    m.status = status;
    if (status == MeasurementStatus::Ok)
        m.runtime = RuntimeStats {medianNs, medianNs, medianNs, 0.0, 0.001, 10};
    auto id = MeasurementRepo(store).insert(m);
    if (!id)
        qFatal("measurement: %s", qPrintable(id.error()));
}

inline void insertLabel(Store &store, RowId reference, RowId candidate, RowId hardware, std::optional<double> speedup,
    std::optional<int> bin, const QString &search = {})
{
    PairLabel l;
    l.referenceKernelId = reference;
    l.candidateKernelId = candidate;
    l.hardwareId = hardware;
    l.speedup = speedup;
    l.trueBin = bin;
    l.kind = QStringLiteral("eval");
    l.externalId = QString::number(candidate);
    if (!search.isEmpty())
        l.extra.insert(QStringLiteral("source_search"), search);
    auto id = PairLabelRepo(store).insert(l);
    if (!id)
        qFatal("label: %s", qPrintable(id.error()));
}

inline RowId insertForecast(Store &store, RowId forecaster, RowId reference, RowId candidate, RowId hardware,
    const bins::Distribution &p, std::optional<int> predicted, int repeat = 0,
    ForecastStatus status = ForecastStatus::Ok)
{
    Forecast f;
    f.forecasterId = forecaster;
    f.referenceKernelId = reference;
    f.candidateKernelId = candidate;
    f.hardwareId = hardware;
    f.repeat = repeat;
    f.probabilities = p;
    f.predictedBin = predicted;
    f.status = status;
    auto id = ForecastRepo(store).insert(f);
    if (!id)
        qFatal("forecast: %s", qPrintable(id.error()));
    return *id;
}

inline RowId insertForecaster(Store &store, const QString &name, const QString &displayName = {})
{
    Forecaster f;
    f.name = name;
    f.displayName = displayName;
    f.kind = ForecasterKind::Import;
    auto id = ForecasterRepo(store).ensure(f);
    if (!id)
        qFatal("forecaster: %s", qPrintable(id.error()));
    return *id;
}

// A distribution with `mass` on bin `bin` and the rest spread evenly.
inline bins::Distribution peaked(int bin, double mass)
{
    bins::Distribution p;
    p.fill((1.0 - mass) / (bins::kBinCount - 1));
    p[bin - 1] = mass;
    return p;
}

inline MetricsStore buildMetricsStore(Store &store)
{
    MetricsStore s;
    Hardware h1;
    h1.name = QStringLiteral("GPU one");
    s.h1 = *HardwareRepo(store).ensure(h1);
    Hardware h2;
    h2.name = QStringLiteral("GPU two");
    s.h2 = *HardwareRepo(store).ensure(h2);

    Problem scale;
    scale.name = QStringLiteral("scale");
    s.scale = *ProblemRepo(store).insert(scale);
    s.reference = insertKernel(store, s.scale, QStringLiteral("// reference\n"), QStringLiteral("seed"));
    if (!ProblemRepo(store).setReferenceKernel(s.scale, s.reference))
        qFatal("reference");
    const auto candidate = [&](const char *name) {
        return insertKernel(store, s.scale, QStringLiteral("// ") + QLatin1StringView(name) + QLatin1Char('\n'),
            QStringLiteral("manual"));
    };
    s.a = candidate("a");
    s.b = candidate("b");
    s.c = candidate("c");
    s.d = candidate("d");
    s.e = candidate("e");
    s.f = candidate("f");
    s.g = candidate("g");

    const QString small = QStringLiteral("small"), large = QStringLiteral("large");
    insertMeasurement(store, s.reference, s.h1, small, 100.0);
    insertMeasurement(store, s.reference, s.h1, large, 200.0);
    insertMeasurement(store, s.a, s.h1, small, 400.0); // replaced by the newer run below
    insertMeasurement(store, s.a, s.h1, small, 50.0);
    insertMeasurement(store, s.a, s.h1, large, 80.0);
    // B's runtimes on GPU one are replays of stored ones: its truth is the same, marked as resting on a replay.
    insertMeasurement(store, s.b, s.h1, small, 25.0, MeasurementStatus::Ok, MeasurementSource::Replay);
    insertMeasurement(store, s.b, s.h1, large, 50.0, MeasurementStatus::Ok, MeasurementSource::Replay);
    insertMeasurement(store, s.c, s.h1, small, 200.0);
    insertMeasurement(store, s.c, s.h1, large, 400.0);
    insertMeasurement(store, s.d, s.h1, small, 10.0);
    insertMeasurement(store, s.d, s.h1, large, 0.0, MeasurementStatus::Incorrect);
    insertMeasurement(store, s.a, s.h2, small, 10.0); // the reference has no run on GPU two
    insertLabel(store, s.reference, s.e, s.h1, 1.2, 4);
    insertLabel(store, s.reference, s.g, s.h1, 0.6, 3, QStringLiteral("run-7"));

    Problem other;
    other.name = QStringLiteral("other");
    s.other = *ProblemRepo(store).insert(other);
    s.otherReference = insertKernel(store, s.other, QStringLiteral("// other reference\n"), QStringLiteral("seed"));
    if (!ProblemRepo(store).setReferenceKernel(s.other, s.otherReference))
        qFatal("reference");
    s.x = insertKernel(store, s.other, QStringLiteral("// x\n"), QStringLiteral("manual"));
    insertMeasurement(store, s.otherReference, s.h1, small, 100.0);
    insertMeasurement(store, s.x, s.h1, small, 50.0);

    Search search;
    search.name = QStringLiteral("run-7");
    search.mode = QStringLiteral("imported");
    s.search = *SearchRepo(store).ensure(search);

    s.alpha = insertForecaster(store, QStringLiteral("alpha"), QStringLiteral("Alpha model"));
    s.beta = insertForecaster(store, QStringLiteral("beta"));
    s.gamma = insertForecaster(store, QStringLiteral("gamma"));
    const RowId r = s.reference;
    insertForecast(store, s.alpha, r, s.a, s.h1, peaked(1, 0.9), 1); // replaced by the next one
    insertForecast(store, s.alpha, r, s.a, s.h1, peaked(6, 0.6), 6);
    insertForecast(store, s.alpha, r, s.b, s.h1, peaked(7, 0.5), 7);
    insertForecast(store, s.alpha, r, s.c, s.h1, peaked(2, 0.8), 2);
    insertForecast(store, s.alpha, r, s.c, s.h1, {}, std::nullopt, 1, ForecastStatus::ParseFailed);
    insertForecast(store, s.alpha, r, s.d, s.h1, peaked(5, 0.5), 5);
    insertForecast(store, s.alpha, r, s.e, s.h1, peaked(4, 0.7), 4);
    insertForecast(store, s.alpha, r, s.f, s.h1, peaked(4, 0.7), 4);
    insertForecast(store, s.alpha, r, s.g, s.h1, peaked(2, 0.4), 2);
    insertForecast(store, s.alpha, s.otherReference, s.x, s.h1, peaked(6, 0.9), 6);
    insertForecast(store, s.beta, r, s.a, s.h1, peaked(5, 0.5), 5);
    insertForecast(store, s.beta, r, s.b, s.h1, peaked(8, 0.9), 8);
    insertForecast(store, s.beta, r, s.e, s.h1, peaked(3, 0.3), std::nullopt); // the most probable bin stands in
    insertForecast(store, s.beta, r, s.e, s.h1, {}, std::nullopt, 0, ForecastStatus::Error); // newest: an error
    insertForecast(store, s.gamma, r, s.a, s.h1, {}, std::nullopt, 0, ForecastStatus::Error);
    return s;
}

} // namespace gpuf::testing
