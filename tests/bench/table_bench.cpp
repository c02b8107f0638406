// table_bench: the candidate browser on a generated 100 000-candidate store (measurements on two GPUs, forecasts
// by two forecasters): time to a usable table, to the changed-line counts, and the wall and GUI-thread time of
// sorting and filtering it. Offscreen. Prints one line per figure: `<name> <value>`.
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_filter_bar.h"
#include "widgets/candidates/candidate_source.h"
#include "widgets/candidates/candidate_table_model.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QRandomGenerator>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

using namespace gpuf;

namespace {

[[noreturn]] void die(const QString &message)
{
    std::fprintf(stderr, "table_bench: %s\n", qPrintable(message));
    std::exit(1);
}

template<typename T>
T check(Result<T> r)
{
    if (!r)
        die(r.error());
    return std::move(*r);
}

void report(const char *name, double value)
{
    std::printf("%s %.1f\n", name, value);
    std::fflush(stdout);
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? 0.0 : values[values.size() / 2];
}

// A ~30-line kernel; variant v changes a few lines so the changed-line counts are real diffs.
QString kernelSource(int problem, int variant)
{
    QString source
        = QStringLiteral("// problem %1\nextern \"C\" __global__ void k(const float* x, float* y, int n)\n{\n")
              .arg(problem);
    for (int line = 0; line < 24; ++line) {
        const bool changed = variant > 0 && (line * 7 + variant) % 11 == 0;
        source += changed ? QStringLiteral("    float t%1 = x[(i + %2) %% n] * %3.0f; // variant %4\n")
                                .arg(line)
                                .arg(variant % 97)
                                .arg(line)
                                .arg(variant)
                          : QStringLiteral("    float t%1 = x[i %% n] * %1.0f;\n").arg(line);
    }
    return source + QStringLiteral("    y[i] = t0 + t1;\n}\n");
}

struct Ids
{
    QList<RowId> hardware;
    QList<RowId> forecasters;
};

Ids makeSlots(Store &store)
{
    Ids ids;
    for (const char *name : {"NVIDIA H200", "NVIDIA A100-SXM4-80GB"}) {
        Hardware h;
        h.name = QString::fromLatin1(name);
        ids.hardware.append(check(HardwareRepo(store).ensure(h)));
    }
    for (const char *name : {"costmodel", "gpt-oss-20b"}) {
        Forecaster f;
        f.name = QString::fromLatin1(name);
        f.kind = ForecasterKind::Import;
        ids.forecasters.append(check(ForecasterRepo(store).ensure(f)));
    }
    return ids;
}

void measureKernel(MeasurementRepo &repo, RowId kernel, RowId hardware, const QString &caseName, double ns, bool ok)
{
    Measurement m;
    m.kernelId = kernel;
    m.hardwareId = hardware;
    m.caseName = caseName;
    m.status = ok ? MeasurementStatus::Ok : MeasurementStatus::RuntimeError;
    if (ok)
        m.runtime = RuntimeStats {ns, ns, ns, 0.0, 0.002, 20};
    check(repo.insert(m));
}

// 20 problems × 5 000 kernels; 60 % measured on the first GPU (2 cases), 20 % on the second, every kernel forecast
// by both forecasters. Everything through the repositories, in one transaction.
void generateStore(const QString &path, int kernelCount)
{
    auto store = check(Store::open(path));
    Transaction transaction(*store);
    if (Status s = transaction.begin(); !s)
        die(s.error());
    const Ids ids = makeSlots(*store);
    ProblemRepo problems(*store);
    KernelRepo kernels(*store);
    MeasurementRepo measurements(*store);
    ForecastRepo forecasts(*store);
    QRandomGenerator random(42);
    constexpr int kProblems = 20;
    const QStringList origins {QStringLiteral("param"), QStringLiteral("llm:qwen3"), QStringLiteral("manual")};
    QList<RowId> references, problemIds;
    for (int p = 0; p < kProblems; ++p) {
        Problem problem;
        problem.name = QStringLiteral("problem_%1").arg(p, 2, 10, QLatin1Char('0'));
        problemIds.append(check(problems.insert(problem)));
        Kernel reference;
        reference.problemId = problem.id;
        reference.language = QStringLiteral("cuda");
        reference.origin = QStringLiteral("seed");
        reference.source = kernelSource(p, 0);
        references.append(check(kernels.insertOrGet(reference)));
        if (Status s = problems.setReferenceKernel(problem.id, references.last()); !s)
            die(s.error());
        for (int h = 0; h < 2; ++h) {
            for (const char *c : {"small", "large"})
                measureKernel(measurements, references.last(), ids.hardware[h], QString::fromLatin1(c), 1000.0, true);
        }
    }
    QList<RowId> previous(kProblems, 0);
    for (int i = 0; i < kernelCount - kProblems; ++i) {
        const int p = i % kProblems;
        Kernel k;
        k.problemId = problemIds[p];
        k.parentId = previous[p] != 0 && random.bounded(4) != 0 ? previous[p] : references[p];
        k.name = i % 10 == 0 ? QStringLiteral("variant %1").arg(i) : QString();
        k.language = QStringLiteral("cuda");
        k.origin = origins[i % origins.size()];
        k.source = kernelSource(p, i + 1);
        const RowId id = check(kernels.insertOrGet(k));
        previous[p] = id;
        const int draw = int(random.bounded(10));
        if (draw < 6) {
            const bool ok = draw != 0 || random.bounded(5) != 0;
            for (const char *c : {"small", "large"})
                measureKernel(measurements, id, ids.hardware[0], QString::fromLatin1(c),
                    1000.0 * std::pow(2.0, random.generateDouble() * 4.0 - 2.0), ok);
        } else if (draw < 8) {
            measureKernel(measurements, id, ids.hardware[1], QStringLiteral("small"),
                1000.0 * std::pow(2.0, random.generateDouble() * 4.0 - 2.0), true);
        }
        for (RowId forecaster : ids.forecasters) {
            Forecast f;
            f.forecasterId = forecaster;
            f.referenceKernelId = references[p];
            f.candidateKernelId = id;
            f.hardwareId = ids.hardware[0];
            double sum = 0.0;
            for (double &value : f.probabilities)
                sum += (value = random.generateDouble() * random.generateDouble());
            for (double &value : f.probabilities)
                value /= sum;
            check(forecasts.insert(f));
        }
    }
    if (Status s = transaction.commit(); !s)
        die(s.error());
}

// Runs the event loop until `done` holds (checked whenever the model applies an order, or the source reports).
template<typename Done>
void waitFor(CandidateBrowser &browser, CandidateSource &source, Done done)
{
    QEventLoop loop;
    auto check = [&]() {
        if (done())
            loop.quit();
    };
    const auto a = QObject::connect(browser.model(), &CandidateTableModel::orderApplied, &loop, check);
    const auto b = QObject::connect(&source, &CandidateSource::tableUpdated, &loop, check);
    QTimer::singleShot(60000, &loop, [&]() { die(QStringLiteral("timed out")); });
    if (!done())
        loop.exec();
    QObject::disconnect(a);
    QObject::disconnect(b);
}

// GUI-thread time of applying a result: from the model's first layout/reset signal to the repaint after it.
struct GuiClock
{
    QElapsedTimer timer;
    double busyMs = 0.0;
};

struct Timing
{
    double wallMs = 0.0;
    double guiMs = 0.0;
};

template<typename Start>
Timing timeUpdate(CandidateBrowser &browser, CandidateSource &source, Start start)
{
    CandidateTableModel *model = browser.model();
    GuiClock clock;
    const auto begin = [&clock]() { clock.timer.start(); };
    const auto c1 = QObject::connect(model, &CandidateTableModel::layoutAboutToBeChanged, model, begin);
    const auto c2 = QObject::connect(model, &CandidateTableModel::modelAboutToBeReset, model, begin);
    bool applied = false;
    const auto c3 = QObject::connect(model, &CandidateTableModel::orderApplied, model, [&]() {
        browser.tableView()->viewport()->repaint();
        clock.busyMs += clock.timer.nsecsElapsed() / 1e6;
        applied = true;
    });
    QElapsedTimer wall;
    wall.start();
    QElapsedTimer call;
    call.start();
    start();
    const double callMs = call.nsecsElapsed() / 1e6;
    waitFor(browser, source, [&]() { return applied && !model->isUpdating(); });
    const Timing timing {wall.nsecsElapsed() / 1e6, callMs + clock.busyMs};
    for (const auto &c : {c1, c2, c3})
        QObject::disconnect(c);
    return timing;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int kernelCount = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 100000;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("table.gpuf"));
    QElapsedTimer generation;
    generation.start();
    generateStore(path, kernelCount);
    std::fprintf(stderr, "generated %d kernels in %.1f s\n", kernelCount, generation.nsecsElapsed() / 1e9);

    Selection selection;
    CandidateSource source(nullptr);
    CandidateBrowser browser(&source, &selection);
    browser.resize(1400, 900);
    browser.show();
    CandidateTableModel *model = browser.model();

    QElapsedTimer open;
    open.start();
    const std::clock_t openCpu = std::clock(); // all threads: what the open costs on a machine shared with others
    source.load(path);
    waitFor(browser, source, [&]() { return model->rowCount() == kernelCount && !model->isUpdating(); });
    browser.tableView()->viewport()->repaint();
    report("table_open_100k_ms", open.nsecsElapsed() / 1e6);
    report("table_open_100k_cpu_ms", 1000.0 * double(std::clock() - openCpu) / CLOCKS_PER_SEC);
    waitFor(browser, source, [&]() { return !source.changedLinesPending(); });
    report("table_changed_lines_100k_ms", open.nsecsElapsed() / 1e6);

    QList<double> sortWall, sortGui;
    for (int column : {NameColumn, SpeedupColumn, ConfidenceColumn, ChangedLinesColumn, StatusColumn, CreatedColumn}) {
        for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            const Timing t = timeUpdate(browser, source, [&]() { browser.tableView()->sortByColumn(column, order); });
            sortWall.append(t.wallMs);
            sortGui.append(t.guiMs);
        }
    }
    report("table_sort_100k_ms", median(sortWall));
    report("table_sort_100k_max_ms", *std::max_element(sortWall.cbegin(), sortWall.cend()));
    report("table_sort_100k_gui_ms", *std::max_element(sortGui.cbegin(), sortGui.cend()));

    QList<double> filterWall, filterGui;
    CandidateFilterBar *bar = browser.filterBar();
    const RowId problem7 = model->table()->problems[7].id;
    const QList<std::function<void()>> filters {
        [&]() { bar->setText(QStringLiteral("variant 1")); },
        [&]() { bar->setText({}); },
        [&]() { selection.setScope(problem7); },
        [&]() { selection.setScope(0); },
        [&]() { bar->binBox()->setCurrentIndex(5); }, // measured bin 5
        [&]() { bar->statusBox()->setCurrentIndex(1); }, // trusted
        [&]() { bar->binBox()->setCurrentIndex(0); },
        [&]() { bar->statusBox()->setCurrentIndex(0); },
    };
    for (const auto &apply : filters) {
        const Timing t = timeUpdate(browser, source, apply);
        filterWall.append(t.wallMs);
        filterGui.append(t.guiMs);
    }
    report("table_filter_100k_ms", median(filterWall));
    report("table_filter_100k_max_ms", *std::max_element(filterWall.cbegin(), filterWall.cend()));
    report("table_filter_100k_gui_ms", *std::max_element(filterGui.cbegin(), filterGui.cend()));
    return 0;
}
