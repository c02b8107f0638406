// Offscreen tests of retraining the cost model from the open store: the refusal rule on its own, a run started from
// the action on a tiny real store (progress, the dialog's leave-one-operation-out metrics, the model saved under the
// app's data folder and made the `costmodel` forecaster's through Settings, the forecast engine then forecasting with
// it), "Use Built-in Cost Model", a store with too few measured pairs, and cancelling.
#include "../costmodel/costmodel_fixture.h"
#include "core/forecasters/costmodel_backend.h"
#include "core/forecasters/costmodel_retrain.h"
#include "core/forecasters/forecast_queue.h"
#include "core/metrics/from_store.h"
#include "core/store/forecast_repo.h"
#include "widgets/forecast/costmodel_retrainer.h"
#include "widgets/forecast/retrain_dialog.h"
#include "widgets/session/store_session.h"
#include "widgets/settings/settings.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

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
        f->settings.setCostModelPath({});
        QSignalSpy opened(&f->session, &StoreSession::opened);
        f->session.open(path);
        if (!opened.wait(30000))
            qFatal("the store did not open");
        return f;
    }

private Q_SLOTS:
    void initTestCase();
    void refusal_data();
    void refusal();
    void retrainsFromTheActionInTheBackground();
    void engineForecastsWithTheRetrainedModel();
    void secondRunReplacesTheFirstModel();
    void refusesTooFewPairs();
    void cancelLeavesTheModelAlone();
};

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
    QVERIFY(!builtIn->isEnabled()); // the built-in model is in use already
    QSignalSpy progressed(&f->retrainer, &CostModelRetrainer::progressed);
    QSignalSpy finished(&f->retrainer, &CostModelRetrainer::finished);
    QSignalSpy failed(&f->retrainer, &CostModelRetrainer::failed);

    retrain->trigger();
    // The action returns at once: the run goes on in the background while the event loop turns.
    QVERIFY(f->retrainer.isRunning());
    QVERIFY(!retrain->isEnabled());
    RetrainDialog *dialog = f->retrainer.dialog();
    QVERIFY(dialog && dialog->isVisible());
    QVERIFY(dialog->cancelButton()->isEnabled());
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(failed.count(), 0);
    QVERIFY(!f->retrainer.isRunning());
    QVERIFY(retrain->isEnabled());

    const auto outcome = finished.first().first().value<costmodel::RetrainOutcome>();
    // Saved under the app's data folder, and the costmodel forecaster's model is now this file.
    QCOMPARE(QFileInfo(outcome.modelPath).absolutePath(), QDir(CostModelRetrainer::modelFolder()).absolutePath());
    QVERIFY(QFileInfo::exists(outcome.modelPath));
    QVERIFY(QFileInfo::exists(outcome.manifestPath));
    QCOMPARE(f->settings.costModelPath(), outcome.modelPath);
    QCOMPARE(Settings().costModelPath(), outcome.modelPath); // persisted, for the next start
    QVERIFY(builtIn->isEnabled());
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

    // Progress: steps counted up to the total, the held-out lines among them, in order.
    QVERIFY(progressed.count() >= 3 + 2);
    int lastDone = 0, heldOutLines = 0;
    for (const QList<QVariant> &signal : std::as_const(progressed)) {
        const auto p = signal.first().value<costmodel::RetrainProgress>();
        QVERIFY(p.done >= lastDone);
        lastDone = p.done;
        heldOutLines += p.text.startsWith(u"held out "_s);
    }
    QCOMPARE(heldOutLines, 3);
    QCOMPARE(lastDone, 3 + 1);

    // The dialog: a full bar, the log, and the metrics per operation plus the pooled row.
    QCOMPARE(dialog->progressBar()->value(), dialog->progressBar()->maximum());
    QVERIFY(dialog->logText().contains(u"held out copy"_s));
    QVERIFY2(dialog->statusText().contains(outcome.modelPath), qPrintable(dialog->statusText()));
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

    // "Use Built-in Cost Model" switches back; the retrained file stays where it is.
    builtIn->trigger();
    QVERIFY(f->settings.costModelPath().isEmpty());
    QVERIFY(!builtIn->isEnabled());
    QVERIFY(QFileInfo::exists(outcome.modelPath));
    dialog->close();
}

void TestCostModelRetrain::engineForecastsWithTheRetrainedModel()
{
    auto f = openFixture(m_tinyPath);
    costmodel::RetrainOptions options;
    options.parameters.rounds = 30;
    QSignalSpy finished(&f->retrainer, &CostModelRetrainer::finished);
    QVERIFY(f->retrainer.start(options));
    QVERIFY(finished.wait(kTimeoutMs));
    const QString modelPath = f->settings.costModelPath();
    QVERIFY(!modelPath.isEmpty());

    // The forecast engine as the application runs it: the path from Settings, then one pair forecast.
    RowId forecasterId = 0;
    Kernel reference, candidate;
    {
        auto store = Store::open(m_tinyPath, Store::Mode::ExistingOnly);
        QVERIFY(store.ok());
        auto forecaster = ensureCostModelForecaster(**store);
        QVERIFY2(forecaster.ok(), qPrintable(forecaster.error()));
        forecasterId = forecaster->id;
        reference = **KernelRepo(**store).find(m_tiny.kernels[2][0]);
        candidate = **KernelRepo(**store).find(m_tiny.kernels[2][1]);
    }
    ForecastQueue queue;
    queue.setStorePath(m_tinyPath);
    queue.setCostModelPath(f->settings.costModelPath());
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
    const Forecast &forecast = stored->last();
    // Exactly the retrained model's distribution, not the built-in one's.
    const auto retrained = makeCostModelForecaster(*costmodel::CostModel::load(modelPath), modelPath);
    const auto builtIn = makeCostModelForecaster(*costmodel::CostModel::builtIn(), u"built-in"_s);
    const Forecast expected = retrained->forecast(reference, candidate, std::nullopt, forecast, false);
    const Forecast other = builtIn->forecast(reference, candidate, std::nullopt, forecast, false);
    QVERIFY(expected.probabilities != other.probabilities);
    for (int b = 0; b < bins::kBinCount; ++b)
        QVERIFY(std::abs(forecast.probabilities[std::size_t(b)] - expected.probabilities[std::size_t(b)]) < 1e-6);
}

void TestCostModelRetrain::secondRunReplacesTheFirstModel()
{
    auto f = openFixture(m_tinyPath);
    costmodel::RetrainOptions options;
    options.parameters.rounds = 20;
    QSignalSpy finished(&f->retrainer, &CostModelRetrainer::finished);
    QVERIFY(f->retrainer.start(options));
    QVERIFY(finished.wait(kTimeoutMs));
    const QString first = f->settings.costModelPath();
    QVERIFY(f->retrainer.start(options));
    QVERIFY(finished.wait(kTimeoutMs));
    const QString second = f->settings.costModelPath();
    QVERIFY(second != first);
    QVERIFY(QFileInfo::exists(second));
    // The model it replaced was one of ours: removed with its manifest, so retraining does not pile up files.
    QVERIFY(!QFileInfo::exists(first));
    QVERIFY(!QFileInfo::exists(costmodel::manifestPathFor(first)));
}

void TestCostModelRetrain::refusesTooFewPairs()
{
    auto f = openFixture(m_smallPath);
    const QStringList before = QDir(CostModelRetrainer::modelFolder()).entryList(QDir::Files);
    f->settings.setCostModelPath({});
    QSignalSpy failed(&f->retrainer, &CostModelRetrainer::failed);
    QSignalSpy notices(&f->retrainer, &CostModelRetrainer::notice);
    f->retrainer.retrainAction()->trigger();
    QVERIFY(failed.wait(kTimeoutMs));
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains(u"has 6 measured pair"_s) && message.contains(u" in 1 operation"_s), qPrintable(message));
    QVERIFY2(message.contains(u"at least 12 pairs in at least 2 operations"_s), qPrintable(message));
    QVERIFY(f->retrainer.dialog()->statusText().contains(message));
    QVERIFY(notices.count() == 1 && notices.first().first().toString().contains(message));
    QVERIFY(f->settings.costModelPath().isEmpty());
    QCOMPARE(QDir(CostModelRetrainer::modelFolder()).entryList(QDir::Files), before); // nothing written
    QVERIFY(f->retrainer.retrainAction()->isEnabled());
    f->retrainer.dialog()->close();
}

void TestCostModelRetrain::cancelLeavesTheModelAlone()
{
    auto f = openFixture(m_tinyPath);
    f->settings.setCostModelPath({});
    QSignalSpy failed(&f->retrainer, &CostModelRetrainer::failed);
    QVERIFY(f->retrainer.start());
    QVERIFY(!f->retrainer.start()); // one run at a time
    f->retrainer.cancel();
    QVERIFY(failed.wait(kTimeoutMs));
    QVERIFY2(failed.first().first().toString().contains(u"cancelled"_s), qPrintable(failed.first().first().toString()));
    QVERIFY(f->settings.costModelPath().isEmpty());
    QVERIFY(!f->retrainer.isRunning());
}

QTEST_MAIN(TestCostModelRetrain)
#include "tst_costmodel_retrain.moc"
