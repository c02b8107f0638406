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
#include <QTemporaryDir>
#include <QTest>

namespace gpuf::testing {

inline QString workerBinary()
{
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
        return interop::importCorpus(*store, QStringLiteral(GPUF_CORPUS_DIR)).ok();
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

    qint64 measurementCount()
    {
        auto all = MeasurementRepo(*store).list();
        return all ? all->size() : -1;
    }
};

} // namespace gpuf::testing
