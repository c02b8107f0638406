// The measurement queue panel and the device panel, offscreen, on a real store and the real gpuf-measure (or no
// worker at all where CUDA was missing at build time): disabled actions show the exact reason, the threshold is the
// one in Settings, items show their status (replays marked), and screenshots in light and dark palettes when
// GPUF_SCREENSHOT_DIR is set.
#include "core/interop/corpus.h"
#include "core/measure/cluster_profile.h"
#include "core/measure/measure_queue.h"
#include "core/measure/worker_locator.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "tests/support/session_open.h"
#include "widgets/measure/device_panel.h"
#include "widgets/measure/measure_controller.h"
#include "widgets/measure/measure_panel.h"
#include "widgets/measure/measure_queue_model.h"

#include "gpuf_config.h"
#include "widgets/common/color_scheme.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace gpuf;

namespace {

QString builtWorker()
{
    const QString path = QStringLiteral(GPUF_BINARY_DIR "/app/measure/gpuf-measure");
    return GPUF_HAVE_CUDA && QFileInfo(path).isExecutable() ? path : QString();
}

} // namespace

class TestMeasurePanels : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    RowId m_candidate = 0;
    RowId m_noSpec = 0;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("gpuf-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_measure_panels"));
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("panels.gpuf"));
        auto store = Store::open(m_path);
        QVERIFY(store.ok());
        QVERIFY(interop::importCorpus(**store, QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus")).ok());
        auto problem = ProblemRepo(**store).findByName(QStringLiteral("axpy"));
        const auto kernels = KernelRepo(**store).list((*problem)->id);
        QVERIFY(kernels.ok());
        for (const Kernel &k : *kernels) {
            if (k.id != (*problem)->referenceKernelId && m_candidate == 0)
                m_candidate = k.id;
        }
        Hardware h;
        h.name = QStringLiteral("NVIDIA H200");
        QVERIFY(HardwareRepo(**store).ensure(h).ok());
        Measurement m;
        m.kernelId = m_candidate;
        m.hardwareId = h.id;
        m.caseName = QStringLiteral("1M");
        m.runtime = RuntimeStats {8580.0, 8600.0, 8500.0, 20.0, 0.001, 200};
        m.source = MeasurementSource::Import;
        QVERIFY(MeasurementRepo(**store).insert(m).ok());
        Kernel pasted;
        pasted.problemId = (*problem)->id;
        pasted.name = QStringLiteral("pasted by hand");
        pasted.language = QStringLiteral("cuda");
        pasted.source = QStringLiteral("extern \"C\" __global__ void pasted() {}");
        pasted.origin = QStringLiteral("manual");
        QVERIFY(KernelRepo(**store).insertOrGet(pasted).ok());
        m_noSpec = pasted.id;
    }

    void panelsWithoutGpu()
    {
        Settings settings;
        settings.setMeasureConfidenceThreshold(0.5);
        StoreSession session;
        Selection selection;
        MeasureEngineConfig config;
        config.workerPath = builtWorker(); // empty: the locator decides, and says why there is none
        config.workerArguments = {QStringLiteral("--no-cache")};
        config.snapshotIntervalMs = 20;
        MeasureQueue queue(config);
        QVERIFY(test::openSession(session, m_path));
        MeasureController controller(&queue, &session, &selection, &settings);
        MeasurePanel panel(&controller, &settings);
        DevicePanel device(&queue);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.resize(980, 340);
        device.resize(520, 340);
        panel.show();
        device.show();

        QTRY_VERIFY_WITH_TIMEOUT(queue.snapshot().device.availability == DeviceState::Availability::Unavailable
                || queue.snapshot().device.availability == DeviceState::Availability::Available,
            30000);
        if (queue.snapshot().device.isAvailable())
            QSKIP("this machine has a GPU: the disabled state cannot be observed here");
        const QString reason = queue.snapshot().device.reason;
        if (config.workerPath.isEmpty())
            QCOMPARE(reason, measure::locateMeasureWorker().error());
        QVERIFY(!reason.isEmpty());
        QTRY_COMPARE(controller.unavailableReason(), reason);

        selection.setSelectedIds({m_candidate});
        QAction *measure = controller.measureSelectedAction();
        QVERIFY(!measure->isEnabled());
        QCOMPARE(measure->toolTip(), reason);
        QVERIFY(!controller.measureLowConfidenceAction()->isEnabled());
        QCOMPARE(controller.measureLowConfidenceAction()->toolTip(), reason);
        QCOMPARE(controller.measureLowConfidenceAction()->text(), QStringLiteral("Measure low-confidence (< 0.50)"));
        auto *banner = panel.findChild<QLabel *>(QStringLiteral("measureUnavailable"));
        QVERIFY(banner && banner->isVisible());
        QCOMPARE(banner->text(), QStringLiteral("Measuring on the GPU is unavailable: ") + reason);

        QCOMPARE(device.reasonText(), QStringLiteral("No GPU to measure on: ") + reason);
        QCOMPARE(device.fieldText(QStringLiteral("Device")), QStringLiteral("—"));
        if (!config.workerPath.isEmpty())
            QVERIFY(device.fieldText(QStringLiteral("Worker")).startsWith(config.workerPath));

        // The threshold is the one in Settings, both ways.
        auto *spin = panel.findChild<QDoubleSpinBox *>();
        QVERIFY(spin);
        QCOMPARE(spin->value(), 0.5);
        spin->setValue(0.3);
        QCOMPARE(settings.measureConfidenceThreshold(), 0.3);
        QCOMPARE(controller.measureLowConfidenceAction()->text(), QStringLiteral("Measure low-confidence (< 0.30)"));
        settings.setMeasureConfidenceThreshold(0.45);
        QCOMPARE(spin->value(), 0.45);

        // Items through the engine's API: a replay (marked as such), a kernel without spec, and (with a worker) a
        // local measurement the worker refuses for lack of a GPU.
        QList<MeasureJob> jobs {MeasureJob {m_candidate, 0, MeasureMode::Replay, {}, 0},
            MeasureJob {m_noSpec, 0, MeasureMode::Local, {}, 0},
            MeasureJob {m_candidate, 2, MeasureMode::Local, {}, 0}};
        queue.enqueue(jobs);
        QTRY_COMPARE_WITH_TIMEOUT(queue.snapshot().finished, 3, 30000);
        QTRY_COMPARE(panel.model()->rowCount(), 3);
        auto status
            = [&](int row) { return panel.model()->index(row, MeasureQueueModel::StatusColumn).data().toString(); };
        QCOMPARE(status(0), QStringLiteral("replayed: ok"));
        QCOMPARE(panel.model()->index(0, MeasureQueueModel::SourceColumn).data().toString(), QStringLiteral("replay"));
        QCOMPARE(panel.model()->index(0, MeasureQueueModel::MedianColumn).data().toString(), QStringLiteral("8.58 µs"));
        QCOMPARE(status(1), QStringLiteral("failed"));
        QVERIFY(panel.model()
                    ->index(1, MeasureQueueModel::MessageColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("has no kernel spec")));
        QCOMPARE(status(2), QStringLiteral("failed: infrastructure_failure"));
        QCOMPARE(panel.model()->index(2, MeasureQueueModel::MessageColumn).data().toString(), reason);

        panel.view()->selectRow(2);
        QVERIFY(!controller.cancelAction()->isEnabled()); // finished
        QVERIFY(!controller.remeasureAction()->isEnabled()); // no GPU
        QCOMPARE(controller.remeasureAction()->toolTip(), reason);
        QVERIFY(controller.clearFinishedAction()->isEnabled());
        QVERIFY(!controller.cancelAllAction()->isEnabled());
        panel.view()->resizeColumnsToContents();

        const QString shots = qEnvironmentVariable("GPUF_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            for (const bool dark : {false, true}) {
                const QPalette palette = dark ? darkPalette() : QApplication::style()->standardPalette();
                QApplication::setPalette(palette); // the model's status colours read the application palette
                panel.setPalette(palette); // propagates to the children at once, no event loop needed
                device.setPalette(palette);
                const QString suffix = dark ? QStringLiteral("dark") : QStringLiteral("light");
                QVERIFY(panel.grab().save(shots + QStringLiteral("/measure_panel_") + suffix + QStringLiteral(".png")));
                QVERIFY(device.grab().save(shots + QStringLiteral("/device_panel_") + suffix + QStringLiteral(".png")));
            }
            QApplication::setPalette(QApplication::style()->standardPalette());
        }

        // The panel's buttons are the controller's actions: "Clear finished" empties the table and the progress.
        auto *progress = panel.findChild<QProgressBar *>();
        QVERIFY(progress);
        QCOMPARE(progress->text(), QStringLiteral("3 of 3 finished (0 running, 0 queued)"));
        QToolButton *clear = nullptr;
        for (QToolButton *button : panel.findChildren<QToolButton *>()) {
            if (button->defaultAction() == controller.clearFinishedAction())
                clear = button;
        }
        QVERIFY(clear && clear->isEnabled());
        QTest::mouseClick(clear, Qt::LeftButton);
        QTRY_COMPARE(panel.model()->rowCount(), 0);
        QCOMPARE(progress->text(), QStringLiteral("queue empty"));
        QVERIFY(!controller.clearFinishedAction()->isEnabled());
        QVERIFY(!clear->isEnabled());
    }

    // What the candidate table marks as pending: the kernels of the items not finished yet, each once.
    void pendingKernels_data()
    {
        QTest::addColumn<QList<int>>("states"); // MeasureItemState per item, kernels 1, 2, 3, …
        QTest::addColumn<QList<RowId>>("kernels"); // the kernel of each item
        QTest::addColumn<QList<RowId>>("pending");
        const auto s = [](MeasureItemState state) { return int(state); };
        QTest::newRow("empty") << QList<int> {} << QList<RowId> {} << QList<RowId> {};
        QTest::newRow("queued and running") << QList<int> {s(MeasureItemState::Queued), s(MeasureItemState::Running)}
                                            << QList<RowId> {4, 7} << QList<RowId> {4, 7};
        QTest::newRow("finished ones are not pending")
            << QList<int> {s(MeasureItemState::Done), s(MeasureItemState::Failed), s(MeasureItemState::TimedOut),
                   s(MeasureItemState::Cancelled), s(MeasureItemState::Queued)}
            << QList<RowId> {1, 2, 3, 4, 5} << QList<RowId> {5};
        QTest::newRow("a kernel queued twice, once finished")
            << QList<int> {s(MeasureItemState::Done), s(MeasureItemState::Queued)} << QList<RowId> {9, 9}
            << QList<RowId> {9};
    }

    void pendingKernels()
    {
        QFETCH(QList<int>, states);
        QFETCH(QList<RowId>, kernels);
        QFETCH(QList<RowId>, pending);
        QList<MeasureItem> items;
        for (qsizetype i = 0; i < states.size(); ++i) {
            MeasureItem item;
            item.id = quint64(i + 1);
            item.job.kernelId = kernels[i];
            item.state = MeasureItemState(states[i]);
            items.append(item);
        }
        QCOMPARE(MeasureController::pendingKernels(items), QSet<RowId>(pending.cbegin(), pending.cend()));
    }

    // A profile added while the explorer runs (`gpuf cluster set-profile` in a terminal) is offered after "Reload
    // Store"; until then only the local GPU is, and the target box stays hidden.
    void profileAddedWhileOpen()
    {
        Settings settings;
        StoreSession session;
        Selection selection;
        MeasureEngineConfig config;
        config.workerPath = QStringLiteral("/nonexistent/gpuf-measure");
        MeasureQueue queue(config);
        QVERIFY(test::openSession(session, m_path));
        MeasureController controller(&queue, &session, &selection, &settings);
        MeasurePanel panel(&controller, &settings);
        panel.show();
        QComboBox *target = panel.targetBox();
        QCOMPARE(target->count(), 1);
        QVERIFY(!target->isVisible());

        ClusterProfile profile;
        profile.name = QStringLiteral("added-later");
        profile.sharedDirectory = m_dir.filePath(QStringLiteral("shared-later"));
        QVERIFY(saveClusterProfile(profile).ok());
        session.refresh();
        QTRY_COMPARE(target->count(), 2);
        QVERIFY(target->isVisible());
        QCOMPARE(target->itemText(1), QStringLiteral("cluster (added-later)"));
        QCOMPARE(controller.targetCluster(), QString()); // still the local GPU until the user picks the cluster
        QVERIFY(removeClusterProfile(profile.name));
    }

    // "Python without sandbox" is off until the user ticks it; ticked, it is kept in the settings and the queue's
    // worker, already running, is restarted with --unsandboxed (gpuf-measure then runs Python candidates where
    // bubblewrap cannot make their sandbox). The stand-in worker's hello, shown in the dock's banner, names its
    // arguments.
    void unsandboxedSetting()
    {
        Settings settings;
        settings.setPythonUnsandboxed(false);
        StoreSession session;
        Selection selection;
        MeasureEngineConfig config;
        config.workerPath = QStringLiteral(GPUF_SOURCE_DIR "/tests/measure/env_worker.sh");
        config.snapshotIntervalMs = 20;
        MeasureQueue queue(config);
        QVERIFY(test::openSession(session, m_path));
        MeasureController controller(&queue, &session, &selection, &settings);
        MeasurePanel panel(&controller, &settings);
        panel.show();
        auto *box = panel.findChild<QCheckBox *>(QStringLiteral("measureUnsandboxed"));
        QVERIFY(box);
        QVERIFY(!box->isChecked());
        const QString flag = QString::fromLatin1(measure::kUnsandboxedArgument);
        QVERIFY(!measure::withPythonInterpreter({}).contains(flag));
        auto *banner = panel.findChild<QLabel *>(QStringLiteral("measureUnavailable"));
        QVERIFY(banner);
        queue.probeDevice();
        QTRY_VERIFY(banner->text().contains(QStringLiteral("; args: ")));
        QVERIFY2(!banner->text().contains(flag), qPrintable(banner->text()));
        QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
        QVERIFY(settings.pythonUnsandboxed());
        QVERIFY(Settings().pythonUnsandboxed()); // kept for the next session
        QCOMPARE(measure::withPythonInterpreter({}).count(flag), 1);
        QCOMPARE(measure::withPythonInterpreter({flag}).count(flag), 1);
        QTRY_VERIFY2(banner->text().contains(flag), qPrintable(banner->text()));
        QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
        QVERIFY(!settings.pythonUnsandboxed());
        QVERIFY(!measure::withPythonInterpreter({}).contains(flag));
        QTRY_VERIFY2(!banner->text().contains(flag), qPrintable(banner->text()));
    }

    // A cluster profile in the settings is offered beside the local GPU; its items show the job, Slurm's state and
    // the node. sbatch and squeue are stand-ins here (tests/widgets/fake_*.sh); tst_measure_cluster uses a real Slurm.
    void clusterTarget()
    {
        ClusterProfile profile;
        profile.name = QStringLiteral("panel-test-cluster");
        profile.sharedDirectory = m_dir.filePath(QStringLiteral("shared"));
        profile.pollIntervalMs = 100;
        QVERIFY(saveClusterProfile(profile).ok());
        Settings settings;
        StoreSession session;
        Selection selection;
        MeasureEngineConfig config;
        config.workerPath = QStringLiteral("/nonexistent/gpuf-measure"); // no local GPU
        config.snapshotIntervalMs = 20;
        config.clusterCommands.sbatch = QStringLiteral(GPUF_SOURCE_DIR "/tests/widgets/fake_sbatch.sh");
        config.clusterCommands.squeue = QStringLiteral(GPUF_SOURCE_DIR "/tests/widgets/fake_squeue.sh");
        config.clusterCommands.sacct = QStringLiteral("/nonexistent/sacct");
        MeasureQueue queue(config);
        QVERIFY(test::openSession(session, m_path));
        MeasureController controller(&queue, &session, &selection, &settings);
        MeasurePanel panel(&controller, &settings);
        panel.resize(1100, 300);
        panel.show();
        QComboBox *target = panel.targetBox();
        QVERIFY(target->isVisible());
        QCOMPARE(target->itemText(0), QStringLiteral("local GPU"));
        const int index = target->findText(QStringLiteral("cluster (panel-test-cluster)"));
        QVERIFY(index > 0);
        QTRY_VERIFY(!controller.unavailableReason().isEmpty()); // the local worker is missing
        selection.setSelectedIds({m_candidate});
        QVERIFY(!controller.measureSelectedAction()->isEnabled());
        target->setCurrentIndex(index);
        QVERIFY(controller.unavailableReason().isEmpty()); // the cluster's nodes have the GPUs
        QVERIFY(controller.measureSelectedAction()->isEnabled());
        QCOMPARE(controller.measureSelectedAction()->toolTip(),
            QStringLiteral("Measure 1 selected candidate(s) on cluster panel-test-cluster"));
        controller.measureSelectedAction()->trigger();

        QTRY_COMPARE(panel.model()->rowCount(), 1);
        const auto cell = [&](int column) { return panel.model()->index(0, column).data().toString(); };
        QTRY_COMPARE(cell(MeasureQueueModel::NodeColumn), QStringLiteral("gpu-node-7"));
        QCOMPARE(cell(MeasureQueueModel::JobColumn), QStringLiteral("4242_0"));
        QCOMPARE(cell(MeasureQueueModel::StatusColumn), QStringLiteral("running"));
        QCOMPARE(cell(MeasureQueueModel::SourceColumn), QStringLiteral("cluster (panel-test-cluster)"));
        QCOMPARE(
            panel.model()->headerData(MeasureQueueModel::JobColumn, Qt::Horizontal).toString(), QStringLiteral("Job"));
        panel.view()->resizeColumnsToContents();
        const QString shots = qEnvironmentVariable("GPUF_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QDir().mkpath(shots);
            QVERIFY(panel.grab().save(shots + QStringLiteral("/measure_panel_cluster.png")));
        }
        QVERIFY(removeClusterProfile(profile.name));
    }
};

QTEST_MAIN(TestMeasurePanels)
#include "tst_measure_panels.moc"
