// deletion_bench: planning, deleting and restoring a whole problem of 20 000 kernels with two forecasts and two
// measurements each, among other problems (what "Delete Problem…" and its undo cost, off the GUI thread).
// Prints one line per figure: `<name> <value> <unit>`.
#include "core/store/deletion.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>

using namespace gpuf;

namespace {

[[noreturn]] void die(const QString &message)
{
    std::fprintf(stderr, "deletion_bench: %s\n", qPrintable(message));
    std::exit(1);
}

template<typename T>
T check(Result<T> r)
{
    if (!r)
        die(r.error());
    return std::move(*r);
}

void check(const Status &s)
{
    if (!s)
        die(s.error());
}

void report(const char *name, double value, const char *unit)
{
    std::printf("%s %.1f %s\n", name, value, unit);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    auto store = check(Store::open(dir.filePath(QStringLiteral("bench.gpuf"))));
    constexpr int kProblems = 3;
    constexpr int kKernels = 20'000;
    QList<RowId> problems;
    {
        Transaction transaction(*store);
        check(transaction.begin());
        Hardware h;
        h.name = QStringLiteral("GPU");
        const RowId gpu = check(HardwareRepo(*store).ensure(h));
        QList<RowId> forecasters;
        for (const char *name : {"a", "b"}) {
            Forecaster f;
            f.name = QString::fromLatin1(name);
            forecasters.append(check(ForecasterRepo(*store).ensure(f)));
        }
        for (int p = 0; p < kProblems; ++p) {
            Problem problem;
            problem.name = QStringLiteral("problem %1").arg(p);
            problems.append(check(ProblemRepo(*store).insert(problem)));
            RowId reference = 0;
            for (int k = 0; k < kKernels; ++k) {
                Kernel kernel;
                kernel.problemId = problems.last();
                kernel.parentId = reference;
                kernel.language = QStringLiteral("cuda");
                kernel.origin = QStringLiteral("param");
                kernel.source = QStringLiteral("// problem %1 kernel %2\n__global__ void k() {}\n").arg(p).arg(k);
                const RowId id = check(KernelRepo(*store).insertOrGet(kernel));
                if (reference == 0) {
                    reference = id;
                    check(ProblemRepo(*store).setReferenceKernel(problems.last(), id));
                }
                for (const char *caseName : {"small", "large"}) {
                    Measurement m;
                    m.kernelId = id;
                    m.hardwareId = gpu;
                    m.caseName = QString::fromLatin1(caseName);
                    m.runtime = RuntimeStats {100.0, 100.0, 100.0, 0.0, 0.001, 10};
                    check(MeasurementRepo(*store).insert(m));
                }
                for (RowId forecaster : forecasters) {
                    Forecast f;
                    f.forecasterId = forecaster;
                    f.referenceKernelId = reference;
                    f.candidateKernelId = id;
                    f.hardwareId = gpu;
                    f.probabilities.fill(0.125);
                    check(ForecastRepo(*store).insert(f));
                }
            }
        }
        check(transaction.commit());
    }
    const DeletionRequest request = DeletionRequest::of(RowKind::Problem, {problems[1]});
    QElapsedTimer timer;
    timer.start();
    const DeletionPlan plan = check(planDeletion(*store, request));
    report("deletion_plan_problem_ms", timer.nsecsElapsed() / 1e6, "ms");
    report("deletion_rows", double(plan.total()), "rows");
    timer.restart();
    const DeletedRows deleted = check(deleteRows(*store, request));
    report("deletion_delete_problem_ms", timer.nsecsElapsed() / 1e6, "ms");
    timer.restart();
    check(restoreRows(*store, deleted));
    report("deletion_restore_problem_ms", timer.nsecsElapsed() / 1e6, "ms");
    timer.restart();
    check(deleteRows(*store, DeletionRequest::of(RowKind::Kernel, {deleted.ids(RowKind::Kernel).value(5)})));
    report("deletion_delete_one_kernel_ms", timer.nsecsElapsed() / 1e6, "ms");
    return 0;
}
