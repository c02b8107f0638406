// Shared by the measurement tests: a real store holding the shipped kernel corpus (specs included), and the paths
// of the real worker, the hung stand-in and the gpuf CLI.
#pragma once

#include "core/interop/corpus.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include "gpuf_config.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

namespace gpuf::testing {

// GPUF_TEST_WORKER and GPUF_TEST_CORPUS_DIR point the suite at a carried build on the GPU machine, where the
// paths compiled in here do not exist.
inline QString workerBinary()
{
    const QString override = qEnvironmentVariable("GPUF_TEST_WORKER");
    if (!override.isEmpty())
        return QFileInfo(override).isExecutable() ? override : QString();
    const QString path = QStringLiteral(GPUF_BINARY_DIR "/app/measure/gpuf-measure");
    return GPUF_HAVE_CUDA && QFileInfo(path).isExecutable() ? path : QString();
}

inline QString hungWorker() { return QStringLiteral(GPUF_MEASURE_TEST_DIR "/hung_worker.sh"); }

// A store with the corpus imported; kernels 1.. belong to its problems, each problem's reference among them.
struct CorpusStore
{
    QTemporaryDir dir;
    QString path;
    std::unique_ptr<Store> store;

    bool create()
    {
        if (!dir.isValid())
            return false;
        path = dir.filePath(QStringLiteral("measure.gpuf"));
        auto opened = Store::open(path);
        if (!opened)
            return false;
        store = std::move(opened.value());
        const QString corpus = qEnvironmentVariable("GPUF_TEST_CORPUS_DIR", QStringLiteral(GPUF_CORPUS_DIR));
        return interop::importCorpus(*store, corpus).ok();
    }

    // A kernel of `problem` that is not its reference.
    RowId candidateOf(const QString &problem)
    {
        auto p = ProblemRepo(*store).findByName(problem);
        if (!p || !p->has_value())
            return 0;
        auto kernels = KernelRepo(*store).list((*p)->id);
        for (const Kernel &k : *kernels) {
            if (k.id != (*p)->referenceKernelId)
                return k.id;
        }
        return 0;
    }

    // A kernel of `problem` that writes far out of bounds: the worker reports runtime_error and restarts.
    RowId addFaultyKernel(const QString &problem)
    {
        auto p = ProblemRepo(*store).findByName(problem);
        if (!p || !p->has_value())
            return 0;
        auto reference = KernelRepo(*store).find((*p)->referenceKernelId);
        if (!reference || !reference->has_value())
            return 0;
        Kernel bad = **reference;
        bad.parentId = bad.id;
        bad.id = 0;
        bad.name = QStringLiteral("out_of_bounds");
        bad.origin = QStringLiteral("manual");
        // Same entry name and parameters as the reference, so its launches and buffers still apply.
        const QString entry = bad.parameters.value(QStringLiteral("spec"))
                                  .toObject()
                                  .value(QStringLiteral("launches"))
                                  .toArray()
                                  .at(0)
                                  .toObject()
                                  .value(QStringLiteral("entry"))
                                  .toString();
        bad.source = QStringLiteral(
            "extern \"C\" __global__ void %1(const float* x, const float* y, float* out, float a, int n)\n"
            "{ out[(size_t)blockIdx.x * 1000000000ull + threadIdx.x] = x[0] + y[0]; }\n")
                         .arg(entry);
        QJsonObject spec = bad.parameters.value(QStringLiteral("spec")).toObject();
        spec.insert(QStringLiteral("source"), bad.source);
        spec.insert(QStringLiteral("name"), QString(problem + QStringLiteral("/out_of_bounds")));
        bad.parameters.insert(QStringLiteral("spec"), spec);
        auto id = KernelRepo(*store).insertOrGet(bad);
        return id ? *id : 0;
    }

    qint64 measurementCount()
    {
        auto all = MeasurementRepo(*store).list();
        return all ? all->size() : -1;
    }
};

} // namespace gpuf::testing
