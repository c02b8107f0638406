// A small real store for the lessons' tests: one problem, its reference and four corpus kernels measured on one GPU
// with known speedups, and a lesson through them.
#pragma once

#include "core/domain/lesson.h"
#include "tests/metrics/tst_metrics_store_fixture.h"

namespace gpuf::testing {

using namespace Qt::StringLiterals;

// A problem with a reference R and four candidates measured on one GPU against it: K1 2.2× (bin 6), K2 0.9× (bin 3),
// K3 1.2× (bin 4), K4 4.5× (bin 8); K1..K4 are corpus kernels derived from R, K3 from K2.
struct Fixture
{
    RowId gpu = 0, problem = 0, r = 0, k1 = 0, k2 = 0, k3 = 0, k4 = 0;
};

inline RowId corpusKernel(Store &store, RowId problem, const QString &name, RowId parent, const QString &notes)
{
    Kernel k;
    k.problemId = problem;
    k.parentId = parent;
    k.name = name;
    k.source = u"// "_s + name + u"\n"_s;
    k.language = u"cuda"_s;
    k.origin = u"corpus"_s;
    k.notes = notes;
    auto id = KernelRepo(store).insertOrGet(k);
    if (!id)
        qFatal("kernel: %s", qPrintable(id.error()));
    return *id;
}

inline Fixture buildFixture(Store &store)
{
    Fixture f;
    Hardware h;
    h.name = u"GPU one"_s;
    f.gpu = *HardwareRepo(store).ensure(h);
    Problem p;
    p.name = u"scale"_s;
    f.problem = *ProblemRepo(store).insert(p);
    f.r = corpusKernel(store, f.problem, u"v0_naive"_s, 0, u"the reference"_s);
    if (!ProblemRepo(store).setReferenceKernel(f.problem, f.r))
        qFatal("reference");
    f.k1 = corpusKernel(store, f.problem, u"v1"_s, f.r, u"note one"_s);
    f.k2 = corpusKernel(store, f.problem, u"v2"_s, f.r, u"note two"_s);
    f.k3 = corpusKernel(store, f.problem, u"v3"_s, f.k2, u"note three"_s);
    f.k4 = corpusKernel(store, f.problem, u"v4"_s, f.r, u"note four"_s);
    insertMeasurement(store, f.r, f.gpu, u"c"_s, 1000.0);
    insertMeasurement(store, f.k1, f.gpu, u"c"_s, 1000.0 / 2.2);
    insertMeasurement(store, f.k2, f.gpu, u"c"_s, 1000.0 / 0.9);
    insertMeasurement(store, f.k3, f.gpu, u"c"_s, 1000.0 / 1.2);
    insertMeasurement(store, f.k4, f.gpu, u"c"_s, 1000.0 / 4.5);
    return f;
}

inline Lesson fixedLesson(const Fixture &f)
{
    Lesson l;
    l.name = u"custom/scale"_s;
    l.title = u"Scale, four ways"_s;
    l.steps
        = {{0, f.r, f.k1, u"one"_s}, {0, f.r, f.k2, u"two"_s}, {0, f.r, f.k3, u"three"_s}, {0, f.r, f.k4, u"four"_s}};
    return l;
}

} // namespace gpuf::testing
