// Offscreen tests of retraining the cost model from the open store: the refusal rule on its own, a run started from
// the dialog's options on a tiny real store (progress per booster, the dialog's leave-one-operation-out metrics, the
// model saved under the app's data folder and added to the store as a cost-model forecaster of its own, the forecast
// engine then forecasting with it), the options (operations, name), "Use Built-in Cost Model", a store with too few
// measured pairs, cancelling, and the GUI thread turning freely while a retrain runs.
#include "../forecasters/costmodel/costmodel_fixture.h"
#include "core/forecasters/costmodel/costmodel_backend.h"
#include "core/forecasters/costmodel/costmodel_retrain.h"
#include "core/forecasters/forecast_queue.h"
#include "core/metrics/from_store.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"
#include "tests/support/session_open.h"
#include "widgets/forecast/costmodel_retrainer.h"
#include "widgets/forecast/retrain_dialog.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <optional>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

constexpr int kTimeoutMs = 120000; // training on a loaded two-core machine

// `operations` problems with `kernelsPerOperation` kernels each, every kernel measured ok on one GPU: each operation
// gives k·(k−1) ordered pairs.
costmodel::TrainingSet syntheticSet(int operations, int kernelsPerOperation)
{
    costmodel::TrainingSet set;
    RowId next = 1;
    for (RowId problem = 1; problem <= operations; ++problem) {
        set.problems.insert(problem, u"op%1"_s.arg(problem));
        for (int a = 0; a < kernelsPerOperation; ++a) {
            for (int b = 0; b < kernelsPerOperation; ++b) {
                if (a != b)
                    set.pairs.append({next + a, next + b, 1, problem, 1.5, 5});
            }
        }
        next += kernelsPerOperation;
    }
    return set;
}

// A store of one operation (three kernels measured on one GPU): six pairs, nothing to hold out.
void buildOneOperationStore(Store &store)
{
    Hardware gpu;
    gpu.name = u"GPU one"_s;
    const RowId hardware = *HardwareRepo(store).ensure(gpu);
    Problem p;
    p.name = u"copy"_s;
    const RowId problem = *ProblemRepo(store).insert(p);
    const double runtimes[] = {100.0, 40.0, 260.0};
    for (int k = 0; k < 3; ++k) {
        const RowId kernel = testing::tinyKernel(
            store, problem, u"k%1"_s.arg(k), testing::scalarKernel(u"copy_%1"_s.arg(k), u"x[i] + %1"_s.arg(k)));
        testing::tinyMeasurement(store, kernel, hardware, u"small"_s, runtimes[k]);
    }
}

} // namespace

class TestCostModelRetrain : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_tinyPath;
    QString m_smallPath;
    testing::TinyStore m_tiny;

    struct Fixture
    {
        Settings settings;
        StoreSession session;
        CostModelRetrainer retrainer {&session, &settings, nullptr};
    };

    std::unique_ptr<Fixture> openFixture(const QString &path)
    {
        auto f = std::make_unique<Fixture>();
        f->settings.setForecasterName(u"costmodel"_s);
        if (!test::openSession(f->session, path))
            qFatal("the store did not open");
        return f;
    }

private Q_SLOTS:
    void initTestCase();
    void refusal_data();
    void refusal();
    void retrainsFromTheActionInTheBackground();
    void optionsChooseWhatToLearnFrom();
    void engineForecastsWithTheRetrainedModel();
    void secondRunAddsAnotherForecaster();
    void refusesTooFewPairs();
    void cancelLeavesTheModelAlone();
    void guiThreadTurnsDuringRetrain();
};

namespace {

// The store's forecaster of that name (kind, configuration), if any.
std::optional<Forecaster> storedForecaster(const QString &storePath, const QString &name)
{
    auto store = Store::open(storePath, Store::Mode::ReadOnly);
    if (!store)
        return std::nullopt;
    auto found = ForecasterRepo(**store).findByName(name);
    return found && found->has_value() ? std::optional<Forecaster>(**found) : std::nullopt;
}

} // namespace

void TestCostModelRetrain::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"gpuf-tests"_s);
    QCoreApplication::setApplicationName(u"tst_costmodel_retrain"_s);
    QDir(CostModelRetrainer::modelFolder()).removeRecursively(); // test-mode data: left over by an earlier run
    QSettings().clear();
    m_tinyPath = m_dir.filePath(u"tiny.gpuf"_s);
    {
        auto store = Store::open(m_tinyPath);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        m_tiny = testing::buildTinyStore(**store);
    }
    m_smallPath = m_dir.filePath(u"small.gpuf"_s);
    auto store = Store::open(m_smallPath);
    QVERIFY2(store.ok(), qPrintable(store.error()));
    buildOneOperationStore(**store);
}

void TestCostModelRetrain::refusal_data()
{
    QTest::addColumn<int>("operations");
    QTest::addColumn<int>("kernels");
    QTest::addColumn<bool>("refused");
    QTest::newRow("empty store") << 0 << 0 << true;
    QTest::newRow("one operation, many pairs") << 1 << 6 << true; // 30 pairs, nothing to hold out
    QTest::newRow("two operations, 4 pairs") << 2 << 2 << true;
    QTest::newRow("two operations, 12 pairs") << 2 << 3 << false; // exactly the minimum
    QTest::newRow("six operations, 12 pairs") << 6 << 2 << false;
    QTest::newRow("five operations, 10 pairs") << 5 << 2 << true;
}

void TestCostModelRetrain::refusal()
{
    QFETCH(int, operations);
    QFETCH(int, kernels);
    QFETCH(bool, refused);
    const costmodel::TrainingSet set = syntheticSet(operations, kernels);
    const QString message = costmodel::retrainRefusal(set);
    QCOMPARE(!message.isEmpty(), refused);
    if (refused) {
        // The counts found and the counts needed, so the user knows how far off the store is.
        QVERIFY2(message.contains(u"%1 measured pair"_s.arg(set.pairs.size())), qPrintable(message));
        QVERIFY2(message.contains(u"at least %1 pairs in at least %2 operations"_s.arg(costmodel::kMinRetrainPairs)
                                      .arg(costmodel::kMinRetrainOperations)),
            qPrintable(message));
    }
}

void TestCostModelRetrain::retrainsFromTheActionInTheBackground()
{
    auto f = openFixture(m_tinyPath);
    QAction *retrain = f->retrainer.retrainAction();
    QAction *builtIn = f->retrainer.useBuiltInAction();
    QVERIFY(retrain->isEnabled());
    QVERIFY(!builtIn->isEnabled()); // the built-in model is the window's forecaster already
    QSignalSpy progressed(&f->retrainer, &CostModelRetrainer::progressed);
    QSignalSpy finished(&f->retrainer, &CostModelRetrainer::finished);
    QSignalSpy failed(&f->retrainer, &CostModelRetrainer::failed);

    // The action offers the options first: nothing runs until the user starts it.
    retrain->trigger();
    RetrainDialog *dialog = f->retrainer.dialog();
    QVERIFY(dialog && dialog->isVisible());
    QVERIFY(!f->retrainer.isRunning());
    QCOMPARE(dialog->operationsList()->count(), 3); // copy, scale, square: every operation with measurements
    QCOMPARE(dialog->hardwareList()->count(), 2);
    const QString name = dialog->nameEdit()->text();
    QVERIFY2(name.startsWith(u"costmodel (retrained from tiny, "_s), qPrintable(name));
    QVERIFY(dialog->startButton()->isEnabled());
    QVERIFY(!dialog->cancelButton()->isEnabled());

    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    // The click returns at once: the run goes on in the background while the event loop turns.
    QVERIFY(f->retrainer.isRunning());
    QVERIFY(retrain->isEnabled()); // it shows the run's progress again
    QVERIFY(!dialog->startButton()->isEnabled());
    QVERIFY(dialog->cancelButton()->isEnabled());
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(failed.count(), 0);
    QVERIFY(!f->retrainer.isRunning());
    QVERIFY(retrain->isEnabled());

    const auto outcome = finished.first().first().value<costmodel::RetrainOutcome>();
    // Saved under the app's data folder, and added to the store as a forecaster of its own.
    QCOMPARE(QFileInfo(outcome.modelPath).absolutePath(), QDir(CostModelRetrainer::modelFolder()).absolutePath());
    QVERIFY(QFileInfo::exists(outcome.modelPath));
    QVERIFY(QFileInfo::exists(outcome.manifestPath));
    QCOMPARE(outcome.forecasterName, name);
    const std::optional<Forecaster> row = storedForecaster(m_tinyPath, name);
    QVERIFY(row.has_value());
    QCOMPARE(row->id, outcome.forecasterId);
    QCOMPARE(row->kind, ForecasterKind::CostModel);
    QCOMPARE(row->displayName, name); // one name, wherever it shows
    QCOMPARE(row->config.value(u"model_source"_s).toString(), outcome.modelPath);
    QCOMPARE(row->config.value(u"model"_s).toString(), outcome.identity);
    QVERIFY(!storedForecaster(m_tinyPath, u"costmodel"_s).has_value()); // the built-in one is left as it was
    auto loaded = costmodel::CostModel::load(outcome.modelPath);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
    QCOMPARE((*loaded)->identity(), outcome.identity);
    QVERIFY(outcome.identity != (*costmodel::CostModel::builtIn())->identity());

    // The same training as `gpuf train`: every operation held out once, every pair predicted once.
    QCOMPARE(int(outcome.folds.size()), 3);
    int heldOut = 0;
    for (const costmodel::FoldSummary &fold : outcome.folds)
        heldOut += fold.heldOutPairs;
    QCOMPARE(heldOut, outcome.pairs);
    QCOMPARE(outcome.validation.nTotal, qint64(outcome.pairs));

    // Progress: a step per booster fitted (3 operations: 3 × 3 + the final model, then saving), never backwards,
    // the held-out lines among them.
    const int total = costmodel::trainingSteps(3) + 1;
    QVERIFY(progressed.count() >= total);
    int lastDone = 0, heldOutLines = 0;
    for (const QList<QVariant> &signal : std::as_const(progressed)) {
        const auto p = signal.first().value<costmodel::RetrainProgress>();
        QVERIFY(p.done >= lastDone);
        if (p.total > 0)
            QCOMPARE(p.total, total);
        lastDone = p.done;
        heldOutLines += p.text.startsWith(u"held out "_s);
    }
    QCOMPARE(heldOutLines, 3);
    QCOMPARE(lastDone, total);

    // The dialog: a full bar, the log, and the metrics per operation plus the pooled row.
    QCOMPARE(dialog->progressBar()->value(), dialog->progressBar()->maximum());
    QVERIFY(dialog->logText().contains(u"held out copy"_s));
    QVERIFY2(dialog->statusText().contains(outcome.modelPath), qPrintable(dialog->statusText()));
    QVERIFY2(dialog->statusText().contains(name), qPrintable(dialog->statusText()));
    QVERIFY(!dialog->cancelButton()->isEnabled());
    QTableWidget *table = dialog->metricsTable();
    QVERIFY(table->isVisible());
    QCOMPARE(table->rowCount(), 4);
    QStringList operations;
    for (int row = 0; row < table->rowCount(); ++row)
        operations.append(table->item(row, 0)->text());
    QCOMPARE(operations, (QStringList {u"copy"_s, u"scale"_s, u"square"_s, u"pooled"_s}));
    QCOMPARE(table->item(3, 1)->text(), QString::number(outcome.pairs));
    QCOMPARE(table->item(3, 2)->text(), metrics::formatValue(outcome.validation.scalar(metrics::Scalar::Accuracy)));
    // Ready for another run, under another name.
    QVERIFY(dialog->startButton()->isEnabled() || dialog->nameEdit()->text() == name);

    // "Use Built-in Cost Model" makes the built-in model the window's forecaster again; the retrained file stays.
    f->settings.setForecasterName(name);
    QVERIFY(builtIn->isEnabled());
    builtIn->trigger();
    QCOMPARE(f->settings.forecasterName(), u"costmodel"_s);
    QVERIFY(!builtIn->isEnabled());
    QVERIFY(QFileInfo::exists(outcome.modelPath));
    dialog->close();
}

void TestCostModelRetrain::optionsChooseWhatToLearnFrom()
{
    auto f = openFixture(m_tinyPath);
    f->retrainer.retrainAction()->trigger();
    RetrainDialog *dialog = f->retrainer.dialog();
    QVERIFY(dialog);
    QListWidget *operations = dialog->operationsList();
    QCOMPARE(operations->count(), 3);

    // One operation cannot be held out against another: Start is off, and the dialog says why.
    operations->item(1)->setCheckState(Qt::Unchecked);
    operations->item(2)->setCheckState(Qt::Unchecked);
    QVERIFY(!dialog->startButton()->isEnabled());
    // A name the store uses is refused, the built-in one's too.
    operations->item(2)->setCheckState(Qt::Checked);
    QVERIFY(dialog->startButton()->isEnabled());
    dialog->nameEdit()->setText(u"costmodel"_s);
    QVERIFY(!dialog->startButton()->isEnabled());
    dialog->nameEdit()->setText(u"  "_s);
    QVERIFY(!dialog->startButton()->isEnabled());
    dialog->nameEdit()->setText(u"two operations"_s);
    QVERIFY(dialog->startButton()->isEnabled());
    const costmodel::RetrainOptions chosen = dialog->options();
    QCOMPARE(chosen.operations, (QStringList {u"copy"_s, u"square"_s}));
    QVERIFY(chosen.hardware.isEmpty()); // every GPU
    QCOMPARE(chosen.forecasterName, u"two operations"_s);
    QVERIFY(!chosen.compileFeatures);

    QSignalSpy finished(&f->retrainer, &CostModelRetrainer::finished);
    QTest::mouseClick(dialog->startButton(), Qt::LeftButton);
    QVERIFY(finished.wait(kTimeoutMs));
    const auto outcome = finished.first().first().value<costmodel::RetrainOutcome>();
    QCOMPARE(outcome.operations, (QStringList {u"copy"_s, u"square"_s}));
    QCOMPARE(int(outcome.folds.size()), 2);
    {
        // Exactly the chosen operations' measured pairs.
        auto store = Store::open(m_tinyPath, Store::Mode::ReadOnly);
        QVERIFY(store.ok());
        const auto all = costmodel::loadTrainingSet(**store);
        QVERIFY(all.ok());
        const costmodel::TrainingSet chosenSet = costmodel::restrictTrainingSet(*all, {u"copy"_s, u"square"_s}, {});
        QCOMPARE(outcome.pairs, int(chosenSet.pairs.size()));
        QVERIFY(outcome.pairs < int(all->pairs.size()));
    }
    QVERIFY(storedForecaster(m_tinyPath, u"two operations"_s).has_value());

    // The same name again is refused before anything is trained (the core checks it too).
    costmodel::RetrainOptions again;
    again.forecasterName = u"two operations"_s;
    QSignalSpy failed(&f->retrainer, &CostModelRetrainer::failed);
    QVERIFY(f->retrainer.start(again));
    QVERIFY(failed.wait(kTimeoutMs));
    QVERIFY2(failed.first().first().toString().contains(u"already has a forecaster named"_s),
        qPrintable(failed.first().first().toString()));
    dialog->close();
}

void TestCostModelRetrain::engineForecastsWithTheRetrainedModel()
{
    auto f = openFixture(m_tinyPath);
    costmodel::RetrainOptions options;
    options.parameters.rounds = 30;
    QSignalSpy finished(&f->retrainer, &CostModelRetrainer::finished);
    options.forecasterName = u"engine test"_s;
    QVERIFY(f->retrainer.start(options));
    QVERIFY(finished.wait(kTimeoutMs));
    const auto outcome = finished.first().first().value<costmodel::RetrainOutcome>();
    const QString modelPath = outcome.modelPath;
    QVERIFY(!modelPath.isEmpty());

    // The forecast engine as the application runs it: the retrained forecaster's row (its configuration names the
    // model file; no path is handed over), then one pair forecast.
    const RowId forecasterId = outcome.forecasterId;
    QVERIFY(forecasterId != 0);
    Kernel reference, candidate;
    {
        auto store = Store::open(m_tinyPath, Store::Mode::ExistingOnly);
        QVERIFY(store.ok());
        reference = **KernelRepo(**store).find(m_tiny.kernels[2][0]);
        candidate = **KernelRepo(**store).find(m_tiny.kernels[2][1]);
    }
    ForecastQueue queue;
    queue.setStorePath(m_tinyPath);
    QSignalSpy batches(&queue, &ForecastQueue::batchFinished);
    ForecastBatch batch;
    batch.forecasterId = forecasterId;
    batch.pairs = {{reference.id, candidate.id}};
    batch.refresh = true;
    queue.enqueue(batch);
    QVERIFY(batches.wait(30000));
    QCOMPARE(batches.first().at(1).value<ForecastSummary>().ok, 1);

    auto store = Store::open(m_tinyPath, Store::Mode::ReadOnly);
    auto stored = ForecastRepo(**store).forCandidate(candidate.id);
    QVERIFY(stored.ok() && !stored->isEmpty());
    const auto mine = std::find_if(stored->crbegin(), stored->crend(),
        [forecasterId](const Forecast &f) { return f.forecasterId == forecasterId; });
    QVERIFY(mine != stored->crend());
    const Forecast &forecast = *mine;
    // Exactly the retrained model's distribution, not the built-in one's.
    const auto retrained = makeCostModelForecaster(*costmodel::CostModel::load(modelPath), modelPath);
    const auto builtIn = makeCostModelForecaster(*costmodel::CostModel::builtIn(), u"built-in"_s);
    const Forecast expected = retrained->forecast(reference, candidate, std::nullopt, forecast, false);
    const Forecast other = builtIn->forecast(reference, candidate, std::nullopt, forecast, false);
    QVERIFY(expected.probabilities != other.probabilities);
    for (int b = 0; b < bins::kBinCount; ++b)
        QVERIFY(std::abs(forecast.probabilities[std::size_t(b)] - expected.probabilities[std::size_t(b)]) < 1e-6);
}

void TestCostModelRetrain::secondRunAddsAnotherForecaster()
{
    auto f = openFixture(m_tinyPath);
    costmodel::RetrainOptions options;
    options.parameters.rounds = 20;
    QSignalSpy finished(&f->retrainer, &CostModelRetrainer::finished);
    options.forecasterName = u"first run"_s;
    QVERIFY(f->retrainer.start(options));
    QVERIFY(finished.wait(kTimeoutMs));
    options.forecasterName = u"second run"_s;
    QVERIFY(f->retrainer.start(options));
    QVERIFY(finished.wait(kTimeoutMs));
    const auto first = finished.at(0).first().value<costmodel::RetrainOutcome>();
    const auto second = finished.at(1).first().value<costmodel::RetrainOutcome>();
    QVERIFY(second.modelPath != first.modelPath);
    // Each forecaster keeps its own model: nothing is replaced behind the user's back.
    for (const auto &outcome : {first, second}) {
        QVERIFY(QFileInfo::exists(outcome.modelPath));
        const std::optional<Forecaster> row = storedForecaster(m_tinyPath, outcome.forecasterName);
        QVERIFY(row.has_value());
        QCOMPARE(row->config.value(u"model_source"_s).toString(), outcome.modelPath);
    }
}

void TestCostModelRetrain::refusesTooFewPairs()
{
    auto f = openFixture(m_smallPath);
    const QStringList before = QDir(CostModelRetrainer::modelFolder()).entryList(QDir::Files);
    QSignalSpy failed(&f->retrainer, &CostModelRetrainer::failed);
    QSignalSpy notices(&f->retrainer, &CostModelRetrainer::notice);
    f->retrainer.retrainAction()->trigger();
    // One operation: the dialog's Start is off before anything runs.
    RetrainDialog *dialog = f->retrainer.dialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->operationsList()->count(), 1);
    QVERIFY(!dialog->startButton()->isEnabled());
    // Started anyway (as a script would): refused with the counts found and needed.
    QVERIFY(f->retrainer.start());
    QVERIFY(failed.wait(kTimeoutMs));
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains(u"has 6 measured pair"_s) && message.contains(u" in 1 operation"_s), qPrintable(message));
    QVERIFY2(message.contains(u"at least 12 pairs in at least 2 operations"_s), qPrintable(message));
    QVERIFY(dialog->statusText().contains(message));
    QVERIFY(notices.count() == 1 && notices.first().first().toString().contains(message));
    QCOMPARE(QDir(CostModelRetrainer::modelFolder()).entryList(QDir::Files), before); // nothing written
    QVERIFY(f->retrainer.retrainAction()->isEnabled());
    dialog->close();
}

void TestCostModelRetrain::cancelLeavesTheModelAlone()
{
    auto f = openFixture(m_tinyPath);
    const QStringList before = QDir(CostModelRetrainer::modelFolder()).entryList(QDir::Files);
    QSignalSpy failed(&f->retrainer, &CostModelRetrainer::failed);
    costmodel::RetrainOptions options;
    options.forecasterName = u"cancelled run"_s;
    QVERIFY(f->retrainer.start(options));
    QVERIFY(!f->retrainer.start()); // one run at a time
    f->retrainer.cancel();
    QVERIFY(failed.wait(kTimeoutMs));
    QVERIFY2(failed.first().first().toString().contains(u"cancelled"_s), qPrintable(failed.first().first().toString()));
    QVERIFY(!f->retrainer.isRunning());
    QVERIFY(!storedForecaster(m_tinyPath, u"cancelled run"_s).has_value());
    QCOMPARE(QDir(CostModelRetrainer::modelFolder()).entryList(QDir::Files), before);
}

// The GUI thread must keep turning while a retrain runs: a heartbeat timer on it records the largest gap between its
// ticks (measured by the event loop itself), and a job on the global thread pool — where the views load tables,
// diffs and metrics — started mid-training runs at once instead of queueing behind the training's folds.
void TestCostModelRetrain::guiThreadTurnsDuringRetrain()
{
    auto f = openFixture(m_tinyPath);
    QVERIFY(f->retrainer.trainingThreads() < std::max(2, QThread::idealThreadCount())); // a core stays free
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0, maxGap = 0;
    int ticks = 0;
    QTimer heartbeat;
    heartbeat.setInterval(5);
    connect(&heartbeat, &QTimer::timeout, this, [&] {
        const qint64 now = clock.elapsed();
        maxGap = std::max(maxGap, now - last);
        last = now;
        ++ticks;
    });

    costmodel::RetrainOptions options;
    options.parameters.rounds = 400; // long enough for the view's job to arrive mid-training
    options.forecasterName = u"heartbeat"_s;
    // The global pool as small as on a two-core machine: training there would take every one of its threads.
    QThreadPool *global = QThreadPool::globalInstance();
    const int globalThreads = global->maxThreadCount();
    global->setMaxThreadCount(2);
    const auto restore = qScopeGuard([global, globalThreads] { global->setMaxThreadCount(globalThreads); });
    QSignalSpy finished(&f->retrainer, &CostModelRetrainer::finished);
    int heldOutBeforeViewJob = -1; // held-out operations finished when the view's job had run
    int heldOutLines = 0;
    QFutureWatcher<int> viewJob;
    connect(&viewJob, &QFutureWatcher<int>::finished, this, [&] { heldOutBeforeViewJob = heldOutLines; });
    connect(&f->retrainer, &CostModelRetrainer::progressed, this, [&](const costmodel::RetrainProgress &p) {
        heldOutLines += p.text.startsWith(u"held out "_s);
        if (p.done >= 1 && !viewJob.future().isValid())
            viewJob.setFuture(QtConcurrent::run([] { return 1; }));
    });
    last = clock.elapsed();
    heartbeat.start();
    QVERIFY(f->retrainer.start(options));
    QVERIFY(finished.wait(kTimeoutMs));
    heartbeat.stop();
    QTRY_VERIFY(heldOutBeforeViewJob >= 0);

    QVERIFY2(ticks > 20, qPrintable(QString::number(ticks)));
    // Generous: a frame is 16 ms; a second without an event turn is a frozen window.
    QVERIFY2(maxGap < 1000, qPrintable(u"the GUI thread stalled for %1 ms"_s.arg(maxGap)));
    // The view's job ran while the first held-out operation was still being trained, not after the training let go of
    // the pool's threads.
    QVERIFY2(heldOutBeforeViewJob == 0,
        qPrintable(u"the global pool's job waited for %1 held-out operation(s)"_s.arg(heldOutBeforeViewJob)));
}

QTEST_MAIN(TestCostModelRetrain)
#include "tst_costmodel_retrain.moc"
