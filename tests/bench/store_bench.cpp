// store_bench: batched insert rates (kernels, forecasts, events), durable event appends, and the time to load
// 100 000 candidate rows for the table. Prints one line per figure: `<name> <value>`.
#include "core/store/forecast_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>
#include <ctime>

using namespace gpuf;

namespace {

void report(const char *name, double value, const char *unit)
{
    std::printf("%s %.1f %s\n", name, value, unit);
    std::fflush(stdout);
}

// Wall time and this process's CPU time since construction: on a busy shared machine the CPU-time rate says what
// the code costs, the wall-time rate what the user waits.
class Stopwatch
{
public:
    Stopwatch() { restart(); }
    void restart()
    {
        m_wall.start();
        m_cpu = std::clock();
    }
    double wallSeconds() const { return m_wall.nsecsElapsed() / 1e9; }
    double cpuSeconds() const { return double(std::clock() - m_cpu) / CLOCKS_PER_SEC; }

private:
    QElapsedTimer m_wall;
    std::clock_t m_cpu;
};

void reportRate(const char *name, int count, const Stopwatch &watch, const char *unit)
{
    std::printf("%s %.1f %s (wall)\n", name, count / watch.wallSeconds(), unit);
    std::printf("%s_cpu %.1f %s (per CPU second)\n", name, count / watch.cpuSeconds(), unit);
    std::fflush(stdout);
}

[[noreturn]] void die(const QString &message)
{
    std::fprintf(stderr, "store_bench: %s\n", qPrintable(message));
    std::exit(1);
}

template<typename T>
T check(Result<T> r)
{
    if (!r)
        die(r.error());
    return std::move(*r);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int kernels = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 100000;
    QTemporaryDir dir;
    auto store = check(Store::open(dir.filePath(QStringLiteral("bench.gpuf"))));

    Problem problem;
    problem.name = QStringLiteral("bench");
    check(ProblemRepo(*store).insert(problem));

    // Kernels: realistic ~1.5 KB sources, one transaction.
    const QString body
        = QStringLiteral("extern \"C\" __global__ void k(const float* x, float* y, int n) {\n"
                         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = x[i];\n}\n")
              .repeated(8);
    Stopwatch timer;
    {
        Transaction tx(*store);
        if (Status s = tx.begin(); !s)
            die(s.error());
        KernelRepo repo(*store);
        RowId parent = 0;
        for (int i = 0; i < kernels; ++i) {
            Kernel k;
            k.problemId = problem.id;
            k.parentId = i % 10 == 0 ? 0 : parent;
            k.source = body + QStringLiteral("// variant %1\n").arg(i);
            k.language = QStringLiteral("cuda");
            k.origin = QStringLiteral("param");
            parent = check(repo.insertOrGet(k));
        }
        if (Status s = tx.commit(); !s)
            die(s.error());
    }
    reportRate("store_kernel_insert_rows_per_s", kernels, timer, "rows/s");

    Forecaster forecaster;
    forecaster.name = QStringLiteral("bench");
    check(ForecasterRepo(*store).ensure(forecaster));
    timer.restart();
    {
        Transaction tx(*store);
        if (Status s = tx.begin(); !s)
            die(s.error());
        ForecastRepo repo(*store);
        for (int i = 0; i < kernels; ++i) {
            Forecast f;
            f.referenceKernelId = 1;
            f.candidateKernelId = 1 + i;
            f.forecasterId = forecaster.id;
            f.probabilities = {0.0, 0.05, 0.1, 0.2, 0.4, 0.2, 0.05, 0.0};
            f.predictedBin = 5;
            f.reasoning = QStringLiteral("Coalesced loads and fewer launches should help.");
            check(repo.insert(f));
        }
        if (Status s = tx.commit(); !s)
            die(s.error());
    }
    reportRate("store_forecast_insert_rows_per_s", kernels, timer, "rows/s");

    Search search;
    search.name = QStringLiteral("bench");
    search.mode = QStringLiteral("standard");
    check(SearchRepo(*store).ensure(search));
    const int batchedEvents = 50000;
    timer.restart();
    {
        Transaction tx(*store);
        if (Status s = tx.begin(); !s)
            die(s.error());
        SearchRepo repo(*store);
        for (int i = 0; i < batchedEvents; ++i) {
            SearchEvent e;
            e.searchId = search.id;
            e.kind = QStringLiteral("evaluation_completed");
            e.payload = QJsonObject {{QStringLiteral("node"), i}, {QStringLiteral("speedup"), 1.25}};
            check(repo.append(e));
        }
        if (Status s = tx.commit(); !s)
            die(s.error());
    }
    reportRate("store_event_insert_batched_rows_per_s", batchedEvents, timer, "rows/s");

    // Durable appends: each event is its own committed WAL transaction, as the search engine writes them.
    const int durableEvents = 5000;
    timer.restart();
    {
        SearchRepo repo(*store);
        for (int i = 0; i < durableEvents; ++i) {
            SearchEvent e;
            e.searchId = search.id;
            e.kind = QStringLiteral("mutation_completed");
            e.payload = QJsonObject {{QStringLiteral("i"), i}};
            check(repo.append(e));
        }
    }
    reportRate("store_event_append_committed_per_s", durableEvents, timer, "events/s");

    // Loading the candidate table from a fresh connection (as a background job does).
    store.reset();
    timer.restart();
    auto reader = check(
        Store::open(dir.filePath(QStringLiteral("bench.gpuf")), Store::Mode::ExistingOnly, Store::Check::Header));
    const auto rows = check(KernelRepo(*reader).summaries());
    report("store_load_candidate_rows_ms", timer.wallSeconds() * 1e3, "ms");
    report("store_load_candidate_rows_cpu_ms", timer.cpuSeconds() * 1e3, "ms");
    std::printf("store_loaded_rows %lld rows\n", static_cast<long long>(rows.size()));
    timer.restart();
    auto checked = check(Store::open(dir.filePath(QStringLiteral("bench.gpuf")), Store::Mode::ExistingOnly));
    report("store_open_full_check_ms", timer.wallSeconds() * 1e3, "ms");
    return 0;
}
