// store_change_bench: one measurement stored in a generated 100 000-candidate store, and the time until the candidate
// browser shows the kernel's new speedup: through the session's change (the rows patched) and through reading the
// whole table again (what every stored measurement cost before). Offscreen. Prints one line per figure.
#include "candidate_store_generator.h"

#include "core/session/candidate_source.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_table_model.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <cmath>
#include <ctime>

using namespace gpuf;
using namespace gpuf::bench;

namespace {

// Runs the event loop until `done` holds, checked whenever the model or the source reports anything.
template<typename Done>
void waitFor(CandidateTableModel *model, CandidateSource &source, Done done)
{
    QEventLoop loop;
    auto check = [&]() {
        if (done())
            loop.quit();
    };
    const QList<QMetaObject::Connection> connections {
        QObject::connect(model, &CandidateTableModel::orderApplied, &loop, check),
        QObject::connect(model, &CandidateTableModel::dataChanged, &loop, check),
        QObject::connect(model, &CandidateTableModel::modelReset, &loop, check),
        QObject::connect(&source, &CandidateSource::tableUpdated, &loop, check),
        QObject::connect(&source, &CandidateSource::rowsPatched, &loop, check),
    };
    QTimer::singleShot(120000, &loop, [&]() { die(QStringLiteral("timed out")); });
    if (!done())
        loop.exec();
    for (const auto &c : connections)
        QObject::disconnect(c);
}

// The row of `kernel` shows a measured speedup on the hardware the table shows, and no reordering is pending.
bool showsSpeedup(CandidateTableModel *model, RowId kernel)
{
    const int row = model->viewRowOf(kernel);
    if (row < 0 || model->isUpdating())
        return false;
    const double key = model->data(model->index(row, SpeedupColumn), CandidateTableModel::SortRole).toDouble();
    return !std::isnan(key);
}

// Kernels (not references) with neither a measurement nor a label on the shown hardware, to measure one at a time.
QList<RowId> unmeasured(const CandidateTable &table, int hardware, int count)
{
    QList<RowId> ids;
    for (int row = 0; row < table.rows.size() && ids.size() < count; ++row) {
        if (!table.rows[row].isReference && !table.measuredCell(row, hardware).isKnown())
            ids.append(table.rows[row].id);
    }
    return ids;
}

// What the measurement engine stores for one kernel: its newest run of each case, on the shown hardware.
void storeMeasurement(const QString &path, RowId kernel, RowId hardware)
{
    auto store = check(Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header));
    MeasurementRepo repo(*store);
    for (const char *c : {"small", "large"})
        measureKernel(repo, kernel, hardware, QString::fromLatin1(c), 700.0, true);
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int kernelCount = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 100000;
    constexpr int kRounds = 5;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("changes.gpuf"));
    generateStore(path, kernelCount);

    StoreSession session;
    Selection selection;
    CandidateSource source(&session);
    CandidateBrowser browser(&source, &selection);
    browser.resize(1400, 900);
    browser.show();
    CandidateTableModel *model = browser.model();
    session.open(path);
    waitFor(model, source, [&]() {
        return model->rowCount() == kernelCount && !source.isLoading() && !source.changedLinesPending()
            && !model->isUpdating();
    });
    // Sorted by speedup, as a user watching measurements arrive would have it: the measured row also moves.
    browser.tableView()->sortByColumn(SpeedupColumn, Qt::DescendingOrder);
    waitFor(model, source, [&]() { return !model->isUpdating(); });

    const CandidateTable &table = *model->table();
    const int hardware = model->view().hardware;
    const RowId hardwareId = table.hardware[hardware].id;
    const QList<RowId> kernels = unmeasured(table, hardware, 2 * kRounds);
    if (kernels.size() < 2 * kRounds)
        die(QStringLiteral("not enough unmeasured kernels"));
    int resets = 0;
    QObject::connect(model, &CandidateTableModel::modelReset, model, [&resets]() { ++resets; });

    // When the row first shows the new value (the patch reached the model and the view repainted), before the
    // background sort moves it, and when it is in its sorted place.
    QElapsedTimer timer;
    double shownMs = -1.0;
    QList<double> patched, patchedShown, patchedCpu, reloaded, reloadedCpu;
    int patchResets = 0;
    for (int round = 0; round < kRounds; ++round) {
        const RowId kernel = kernels[round];
        storeMeasurement(path, kernel, hardwareId);
        resets = 0;
        shownMs = -1.0;
        bool countsRead = false;
        const auto counts
            = QObject::connect(&session, &StoreSession::snapshotChanged, model, [&countsRead]() { countsRead = true; });
        const auto shown = QObject::connect(&source, &CandidateSource::rowsPatched, model, [&]() {
            browser.tableView()->viewport()->repaint();
            if (shownMs < 0.0)
                shownMs = timer.nsecsElapsed() / 1e6;
        });
        const std::clock_t cpu = std::clock();
        timer.start();
        session.announceMeasurements({}, {kernel});
        waitFor(model, source, [&]() { return showsSpeedup(model, kernel) && !source.isPatching(); });
        browser.tableView()->viewport()->repaint();
        patched.append(timer.nsecsElapsed() / 1e6);
        patchedShown.append(shownMs);
        patchedCpu.append(1000.0 * double(std::clock() - cpu) / CLOCKS_PER_SEC);
        QObject::disconnect(shown);
        patchResets += resets;
        waitFor(model, source, [&]() { return !source.changedLinesPending(); });
        // Let the change's interval pass and its counts be read, so each round is a first change, not a burst.
        QEventLoop settled;
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, &settled, [&]() {
            if (countsRead)
                settled.quit();
        });
        poll.start(50);
        QTimer::singleShot(60000, &settled, [&]() { die(QStringLiteral("the counts were not read again")); });
        settled.exec();
        QObject::disconnect(counts);
    }
    int reloadResets = 0;
    for (int round = 0; round < kRounds; ++round) {
        const RowId kernel = kernels[kRounds + round];
        storeMeasurement(path, kernel, hardwareId);
        resets = 0;
        const std::clock_t cpu = std::clock();
        timer.start();
        source.load(path); // the old path: every stored measurement read the whole table again
        waitFor(model, source, [&]() { return !source.isLoading() && showsSpeedup(model, kernel); });
        browser.tableView()->viewport()->repaint();
        reloaded.append(timer.nsecsElapsed() / 1e6);
        reloadedCpu.append(1000.0 * double(std::clock() - cpu) / CLOCKS_PER_SEC);
        reloadResets += resets;
        waitFor(model, source, [&]() { return !source.changedLinesPending() && !model->isUpdating(); });
    }
    report("store_change_patch_100k_row_shown_ms", median(patchedShown));
    report("store_change_patch_100k_ms", median(patched));
    report("store_change_patch_100k_max_ms", *std::max_element(patched.cbegin(), patched.cend()));
    report("store_change_patch_100k_cpu_ms", median(patchedCpu));
    report("store_change_patch_100k_resets", patchResets);
    report("store_change_full_reload_100k_ms", median(reloaded));
    report("store_change_full_reload_100k_max_ms", *std::max_element(reloaded.cbegin(), reloaded.cend()));
    report("store_change_full_reload_100k_cpu_ms", median(reloadedCpu));
    report("store_change_full_reload_100k_resets", reloadResets);
    return 0;
}
