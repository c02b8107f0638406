// table_bench: the candidate browser on a generated 100 000-candidate store (measurements on two GPUs, forecasts
// by two forecasters): time to a usable table, to the changed-line counts, and the wall and GUI-thread time of
// sorting and filtering it. Offscreen. Prints one line per figure: `<name> <value>`.
#include "candidate_store_generator.h"

#include "core/session/candidate_source.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_filter_bar.h"
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
using namespace gpuf::bench;

namespace {

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
