// Shared data of the cost-model tests: a tiny real store of three operations whose measured speedups follow two
// features (16-byte loads are faster, strided loads slower), and an in-memory training set in which exactly one
// feature (the access width) separates the kernels, so a model trained on it must explain itself by that feature.
#pragma once

#include "core/features/pair_features.h"
#include "core/forecasters/costmodel/costmodel_dataset.h"
#include "core/forecasters/costmodel/costmodel_model.h"
#include "core/forecasters/costmodel/costmodel_training.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QString>

namespace gpuf::testing {

using namespace Qt::StringLiterals;

// A kernel with one scalar line per element (line 2 holds the pointer types).
inline QString scalarKernel(const QString &name, const QString &op)
{
    return uR"(extern "C" __global__ void %1(
    const float* x, float* y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = %2;
})"_s.arg(name, op);
}

inline QString vectorKernel(const QString &name, const QString &op)
{
    return uR"(extern "C" __global__ void %1(
    const float* x, float* y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        reinterpret_cast<float4*>(y)[i] = make_float4(%2, %2, %2, %2);
    }
})"_s.arg(name, op);
}

inline QString stridedKernel(const QString &name, const QString &op)
{
    return uR"(extern "C" __global__ void %1(
    const float* x, float* y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[(size_t)i * 33 % n] = %2;
})"_s.arg(name, op);
}

struct TinyStore
{
    RowId gpu = 0, otherGpu = 0;
    QList<RowId> problems; // copy, scale, square
    QList<QList<RowId>> kernels; // per problem: scalar, vector, strided (+ a failing one for copy)
    RowId failing = 0;
    RowId otherGpuOnly = 0; // measured on the other GPU only: in no pair with the others
};

inline RowId tinyKernel(Store &store, RowId problem, const QString &name, const QString &source)
{
    Kernel k;
    k.problemId = problem;
    k.name = name;
    k.source = source;
    k.language = u"cuda"_s;
    k.origin = u"corpus"_s;
    auto id = KernelRepo(store).insertOrGet(k);
    if (!id)
        qFatal("kernel: %s", qPrintable(id.error()));
    return *id;
}

inline void tinyMeasurement(Store &store, RowId kernel, RowId hardware, const QString &caseName, double medianNs,
    MeasurementStatus status = MeasurementStatus::Ok)
{
    Measurement m;
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

// Runtimes (ns) per case: scalar 100/400, vector 40/170 (≈2.4×), strided 260/1000 (≈0.39×), each operation scaled.
inline TinyStore buildTinyStore(Store &store)
{
    TinyStore s;
    Hardware gpu;
    gpu.name = u"GPU one"_s;
    gpu.computeCapability = u"9.0"_s;
    gpu.smCount = 132;
    gpu.clockGhz = 1.98;
    gpu.l2Bytes = 50 * 1024 * 1024;
    s.gpu = *HardwareRepo(store).ensure(gpu);
    Hardware other;
    other.name = u"GPU two"_s;
    s.otherGpu = *HardwareRepo(store).ensure(other);
    const struct
    {
        const char *name;
        const char *op;
        double scale;
    } ops[] = {{"copy", "x[i]", 1.0}, {"scale", "a * x[i]", 1.1}, {"square", "x[i] * x[i]", 1.3}};
    for (const auto &op : ops) {
        Problem p;
        p.name = QLatin1StringView(op.name);
        p.family = p.name;
        auto problem = ProblemRepo(store).insert(p);
        if (!problem)
            qFatal("problem: %s", qPrintable(problem.error()));
        s.problems.append(*problem);
        const QString name = QLatin1StringView(op.name);
        const QString expr = QLatin1StringView(op.op);
        const QList<RowId> kernels {tinyKernel(store, *problem, u"scalar"_s, scalarKernel(name + u"_s"_s, expr)),
            tinyKernel(store, *problem, u"vector"_s, vectorKernel(name + u"_v"_s, expr)),
            tinyKernel(store, *problem, u"strided"_s, stridedKernel(name + u"_t"_s, expr))};
        const double small[] = {100, 40, 260};
        const double large[] = {400, 170, 1000};
        for (int k = 0; k < kernels.size(); ++k) {
            tinyMeasurement(store, kernels[k], s.gpu, u"small"_s, small[k] * op.scale);
            tinyMeasurement(store, kernels[k], s.gpu, u"large"_s, large[k] * op.scale);
        }
        s.kernels.append(kernels);
        if (!ProblemRepo(store).setReferenceKernel(*problem, kernels.first()))
            qFatal("reference kernel");
    }
    // copy: a fourth kernel that fails its large case (a failure, never a bin, as a candidate).
    s.failing = tinyKernel(store, s.problems[0], u"failing"_s, scalarKernel(u"copy_f"_s, u"x[i] + 0.0f"_s));
    tinyMeasurement(store, s.failing, s.gpu, u"small"_s, 90);
    tinyMeasurement(store, s.failing, s.gpu, u"large"_s, 0, MeasurementStatus::RuntimeError);
    // scale: a kernel measured only on the other GPU pairs with nothing.
    s.otherGpuOnly = tinyKernel(store, s.problems[1], u"elsewhere"_s, scalarKernel(u"scale_o"_s, u"x[i] * a"_s));
    tinyMeasurement(store, s.otherGpuOnly, s.otherGpu, u"small"_s, 50);
    return s;
}

// Two kernels that differ only in their pointer types: 4-byte and 16-byte accesses, nothing else.
inline Kernel widthKernel(RowId id, RowId problem, bool wide, int variant)
{
    Kernel k;
    k.id = id;
    k.problemId = problem;
    k.language = u"cuda"_s;
    const QString type = wide ? u"float4"_s : u"float"_s;
    k.source = uR"(extern "C" __global__ void copy%1(
    const %2* x, %2* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i];
})"_s.arg(variant)
                   .arg(type);
    k.contentHash = contentHashOf(k.source);
    return k;
}

// Six operations, each a narrow and a wide kernel: wide over narrow is 3× faster (bin 7), narrow over wide 1/3 (bin 2).
inline costmodel::TrainingSet widthTrainingSet()
{
    costmodel::TrainingSet set;
    Hardware h;
    h.id = 1;
    h.name = u"GPU one"_s;
    set.hardware.insert(1, h);
    RowId next = 1;
    for (RowId problem = 1; problem <= 6; ++problem) {
        set.problems.insert(problem, u"op%1"_s.arg(problem));
        const Kernel narrow = widthKernel(next++, problem, false, int(problem));
        const Kernel wide = widthKernel(next++, problem, true, int(problem));
        set.kernels.insert(narrow.id, narrow);
        set.kernels.insert(wide.id, wide);
        set.pairs.append({narrow.id, wide.id, 1, problem, 3.0, 7});
        set.pairs.append({wide.id, narrow.id, 1, problem, 1.0 / 3.0, 2});
    }
    return set;
}

// A model trained on every pair of `set` with a fixed temperature (no validation), for tests that need one quickly.
inline std::shared_ptr<const costmodel::CostModel> trainPlain(
    const costmodel::TrainingSet &set, double temperature = 1.0, int rounds = 30)
{
    const auto features = costmodel::trainingFeatures(set);
    std::vector<int> all(std::size_t(set.pairs.size()));
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = int(i);
    std::vector<float> labels;
    const costmodel::Matrix data = costmodel::pairMatrix(set, features, all, &labels);
    costmodel::BoosterParameters parameters;
    parameters.rounds = rounds;
    parameters.subsample = 1.0;
    parameters.columnSample = 1.0;
    auto booster = costmodel::Booster::train(data, labels, {}, features::pairColumnNames(), parameters);
    if (!booster)
        qFatal("train: %s", qPrintable(booster.error()));
    costmodel::Manifest manifest;
    manifest.features = features::pairColumnNames();
    manifest.temperature = temperature;
    manifest.parameters = parameters;
    auto model = costmodel::CostModel::fromParts(std::move(*booster), manifest);
    if (!model)
        qFatal("model: %s", qPrintable(model.error()));
    return *model;
}

} // namespace gpuf::testing
