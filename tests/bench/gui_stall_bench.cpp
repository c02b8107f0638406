// gui_stall_bench: the explorer's main window with every dock shown (each floated, so each paints), a store of
// 100 000 candidates plus the corpus's recorded runtimes, and a replay search run from the Searches dock. A probe on
// the GUI thread (a 2 ms repeating timer) measures how late it fires: the longest gap beyond its interval is the
// longest GUI-thread stall. Figures: one reading of the whole store again (for comparison), while the search runs, and
// after it halts; for each, the longest single event delivery is named on stderr with the GUI thread's own CPU time in
// it (a stall much longer than its CPU time is the thread waiting: for a core on a loaded machine, or for a lock).
// Prints one line per figure: `<name> <value>`. Usage: gui_stall_bench [candidates] [steps].
#include "../search/search_fixture.h"
#include "app/explorer/main_window.h"
#include "candidate_store_generator.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/searches_panel.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>

using namespace gpuf;

namespace {

using bench::check;
using bench::die;
using bench::report;

// `count` generated kernels over 20 problems besides the corpus's, each forecast once, in one transaction.
void addCandidates(const QString &path, int count)
{
    auto store = check(Store::open(path, Store::Mode::ExistingOnly));
    Transaction transaction(*store);
    if (Status s = transaction.begin(); !s)
        die(s.error());
    ProblemRepo problems(*store);
    KernelRepo kernels(*store);
    ForecastRepo forecasts(*store);
    Forecaster costmodel;
    costmodel.name = QStringLiteral("imported-model");
    costmodel.kind = ForecasterKind::Import;
    const RowId forecaster = check(ForecasterRepo(*store).ensure(costmodel));
    QRandomGenerator random(7);
    QList<RowId> problemIds, references;
    for (int p = 0; p < 20; ++p) {
        Problem problem;
        problem.name = QStringLiteral("generated_%1").arg(p, 2, 10, QLatin1Char('0'));
        problemIds.append(check(problems.insert(problem)));
        Kernel reference;
        reference.problemId = problem.id;
        reference.language = QStringLiteral("cuda");
        reference.origin = QStringLiteral("seed");
        reference.source = QStringLiteral("// reference %1\nextern \"C\" __global__ void k() {}\n").arg(p);
        references.append(check(kernels.insertOrGet(reference)));
        if (Status s = problems.setReferenceKernel(problem.id, references.last()); !s)
            die(s.error());
    }
    for (int i = 0; i < count; ++i) {
        const int p = i % 20;
        Kernel k;
        k.problemId = problemIds[p];
        k.parentId = references[p];
        k.language = QStringLiteral("cuda");
        k.origin = QStringLiteral("param");
        k.source = QStringLiteral("// variant %1\nextern \"C\" __global__ void k(float* y) { y[%2] = %3.0f; }\n")
                       .arg(i)
                       .arg(i % 97)
                       .arg(i);
        const RowId id = check(kernels.insertOrGet(k));
        Forecast f;
        f.forecasterId = forecaster;
        f.referenceKernelId = references[p];
        f.candidateKernelId = id;
        double sum = 0.0;
        for (double &value : f.probabilities)
            sum += (value = random.generateDouble());
        for (double &value : f.probabilities)
            value /= sum;
        check(forecasts.insert(f));
    }
    if (Status s = transaction.commit(); !s)
        die(s.error());
}

// The GUI thread's lateness: a repeating timer that notes how far past its interval each tick came.
class StallProbe : public QObject
{
public:
    explicit StallProbe(int intervalMs)
        : m_interval(intervalMs)
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(intervalMs);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_timer.start();
    }
    void reset() { m_worst = 0.0, m_stalls.clear(), m_last = m_clock.nsecsElapsed(); }
    double worstMs() const { return m_worst; }
    double percentileMs(double q) const
    {
        if (m_stalls.isEmpty())
            return 0.0;
        QList<double> sorted = m_stalls;
        std::sort(sorted.begin(), sorted.end());
        return sorted[qsizetype(q * double(sorted.size() - 1))];
    }

private:
    void tick()
    {
        const qint64 now = m_clock.nsecsElapsed();
        const double late = std::max(0.0, double(now - m_last) / 1e6 - m_interval);
        m_last = now;
        m_worst = std::max(m_worst, late);
        m_stalls.append(late);
    }
    int m_interval;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    double m_worst = 0.0;
    QList<double> m_stalls;
};

// The GUI thread's own CPU time: a stall longer than it is the thread waiting for a core (a loaded machine).
double threadCpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Which delivery took longest on the GUI thread (outermost deliveries only): named on stderr, to say where a stall
// comes from.
class TimingApplication : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override
    {
        if (m_depth > 0 || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        ++m_depth;
        QElapsedTimer clock;
        clock.start();
        const double cpuBefore = threadCpuMs();
        const int type = event->type();
        const QByteArray who
            = receiver->metaObject()->className() + QByteArrayLiteral(" ") + receiver->objectName().toUtf8();
        const bool result = QApplication::notify(receiver, event);
        --m_depth;
        const qint64 ms = clock.elapsed();
        if (m_recording && ms > m_worst) {
            m_worst = ms;
            m_worstCpu = threadCpuMs() - cpuBefore;
            m_worstWhat = who + QByteArrayLiteral(" event ") + QByteArray::number(type);
        }
        if (m_recording) {
            // The costliest deliveries by the GUI thread's own CPU time: what to make cheaper, load or not.
            const double cpu = threadCpuMs() - cpuBefore;
            if (m_costliest.size() < kCostliest || cpu > m_costliest.last().cpu) {
                m_costliest.append({cpu, ms, who + QByteArrayLiteral(" event ") + QByteArray::number(type)});
                std::sort(m_costliest.begin(), m_costliest.end(),
                    [](const Delivery &a, const Delivery &b) { return a.cpu > b.cpu; });
                if (m_costliest.size() > kCostliest)
                    m_costliest.removeLast();
            }
        }
        return result;
    }
    void record(bool on)
    {
        m_recording = on;
        m_worst = 0;
        m_worstWhat.clear();
        m_costliest.clear();
    }
    void tell(const char *phase, const char *figure) const
    {
        report(figure, m_worstCpu);
        std::fprintf(stderr, "gui_stall_bench: longest delivery %s: %lld ms (%.1f ms of CPU) to %s\n", phase, m_worst,
            m_worstCpu, m_worstWhat.constData());
        for (const Delivery &d : m_costliest)
            std::fprintf(stderr, "gui_stall_bench:   costly %s: %.1f ms of CPU (%lld ms) to %s\n", phase, d.cpu, d.ms,
                d.what.constData());
    }

private:
    struct Delivery
    {
        double cpu = 0.0;
        qint64 ms = 0;
        QByteArray what;
    };
    static constexpr qsizetype kCostliest = 5;
    QList<Delivery> m_costliest;
    int m_depth = 0;
    bool m_recording = false;
    qint64 m_worst = 0;
    double m_worstCpu = 0.0;
    QByteArray m_worstWhat;
};

template<typename Done>
void waitUntil(Done done, int timeoutMs, const char *what)
{
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    poll.start(20);
    QTimer::singleShot(
        timeoutMs, &loop, [what] { die(QStringLiteral("timed out waiting for %1").arg(QLatin1StringView(what))); });
    if (!done())
        loop.exec();
}

} // namespace

int main(int argc, char **argv)
{
    QStandardPaths::setTestModeEnabled(true);
    TimingApplication app(argc, argv);
    const int candidates = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 100000;
    const int steps = argc > 2 ? QString::fromLatin1(argv[2]).toInt() : 1000;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("stall.gpuf"));
    QElapsedTimer setup;
    setup.start();
    if (const QString error = testing::makeWorldStore(path); !error.isEmpty())
        die(error);
    addCandidates(path, candidates);
    report("store_candidates", candidates);
    report("store_setup_s", double(setup.elapsed()) / 1000.0);

    Settings settings;
    StoreSession session;
    MainWindow window(&settings, &session);
    window.resize(1600, 1000);
    window.show();
    // Every dock on screen at once: tabbed docks would hide all but one.
    const QList<QDockWidget *> docks = window.findChildren<QDockWidget *>();
    int x = 0;
    for (QDockWidget *dock : docks) {
        dock->setFloating(true);
        dock->setGeometry(40 + (x % 4) * 380, 60 + (x / 4) * 320, 560, 420);
        dock->show();
        ++x;
    }
    report("docks_visible", double(docks.size()));
    session.open(path);
    auto *panel = window.context().panels.searches;
    auto *controller = window.context().searches;
    if (!panel || !controller)
        die(QStringLiteral("the window has no Searches dock"));
    waitUntil([&] { return session.isOpen() && !panel->isLoading() && !session.isBusy(); }, 120000, "the store");
    // Let the window's own loaders (the candidate table of 100 000 rows) settle before measuring.
    QEventLoop settle;
    QTimer::singleShot(3000, &settle, &QEventLoop::quit);
    settle.exec();

    // For comparison: what one reading of the whole store again costs the GUI thread (what an import or a measurement
    // batch triggers), without any search.
    StallProbe probe(2);
    probe.start();
    app.record(true);
    session.refresh();
    QEventLoop refreshed;
    QTimer::singleShot(5000, &refreshed, &QEventLoop::quit);
    refreshed.exec();
    report("gui_stall_max_ms_store_refresh", probe.worstMs());
    app.tell("during the refresh", "gui_worst_delivery_cpu_ms_store_refresh");

    search::SearchConfig config;
    config.mode = search::Mode::Selective;
    config.problem = QStringLiteral("sgemm");
    config.steps = steps;
    config.parentsPerStep = 2;
    config.measurementsPerParent = 2;
    config.proposalsPerParent = 8;
    config.seed = 11;
    config.forecaster = QStringLiteral("costmodel");
    QElapsedTimer run;
    bool halted = false;
    qint64 events = 0;
    QObject::connect(controller, &SearchController::searchHalted, &app, [&](const search::SearchSnapshot &s) {
        halted = true;
        events = s.events;
    });
    controller->create(QStringLiteral("stall"), config);
    waitUntil([&] { return controller->isRunning(QStringLiteral("stall")); }, 120000, "the search to start");
    probe.reset();
    app.record(true);
    run.start();
    waitUntil([&] { return halted; }, 600000, "the search to finish");
    const double seconds = double(run.elapsed()) / 1000.0;
    report("search_events", double(events));
    report("search_events_per_s", double(events) / seconds);
    report("gui_stall_max_ms_while_running", probe.worstMs());
    report("gui_stall_p99_ms_while_running", probe.percentileMs(0.99));
    app.tell("while running", "gui_worst_delivery_cpu_ms_while_running");
    app.record(true);
    // The window reads the store again once (new kernels and measurements for the other docks).
    probe.reset();
    QEventLoop after;
    QTimer::singleShot(5000, &after, &QEventLoop::quit);
    after.exec();
    report("gui_stall_max_ms_after_halt", probe.worstMs());
    app.tell("after the halt", "gui_worst_delivery_cpu_ms_after_halt");
    report("dock_shows_search", panel->shownName() == QLatin1StringView("stall") ? 1.0 : 0.0);
    return 0;
}
