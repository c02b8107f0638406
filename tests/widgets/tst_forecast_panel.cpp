// The forecast panel and the endpoints dialog, offscreen, on a real temporary store and the scripted OpenAI-compatible
// server on loopback: a stored forecast's distribution, scores and hit/miss against a measurement; a live forecast
// streaming its reasoning into the panel before the result; parse failures with their reason; what the forecaster
// saw; several samples and their mean; the deferral state following τ; the cost model's explanation; "Test
// connection" against the fixture; a typed API key never reaching the store or the settings file; palettes and
// screenshots (saved when GPUF_SCREENSHOT_DIR is set).
#include "core/forecasters/forecast_queue.h"
#include "core/forecasters/forecaster_config.h"
#include "core/measure/measure_queue.h"
#include "core/session/candidate_source.h"
#include "core/session/forecast_pair_loader.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "tests/llm/llm_test_support.h"
#include "tests/support/session_open.h"
#include "widgets/common/color_scheme.h"
#include "widgets/forecast/distribution_plot.h"
#include "widgets/forecast/endpoint_form.h"
#include "widgets/forecast/endpoints_dialog.h"
#include "widgets/forecast/explanation_model.h"
#include "widgets/forecast/forecast_controller.h"
#include "widgets/forecast/forecast_detail.h"
#include "widgets/forecast/forecast_panel.h"
#include "widgets/forecast/forecast_rows_model.h"
#include "widgets/forecast/forecaster_input_view.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace gpuf;
using namespace gpuf::test;
using namespace Qt::StringLiterals;

namespace {

constexpr int kLiveWaitMs = 20000;

const QString kMessages = uR"([{"role":"system","content":"You simulate GPU execution."},)"
                          uR"({"role":"user","content":"Reference:\n```cuda\nk0\n```"}])"_s;

Measurement run(RowId kernel, RowId hardware, double medianNs)
{
    Measurement m;
    m.kernelId = kernel;
    m.hardwareId = hardware;
    m.caseName = u"n=4096"_s;
    m.runtime = RuntimeStats {medianNs, medianNs, medianNs, 1.0, 0.001, 50};
    m.source = MeasurementSource::Import;
    return m;
}

// Everything one panel needs, wired as the explorer wires it.
struct Rig
{
    Settings settings;
    StoreSession session;
    Selection selection;
    CandidateSource candidates {&session};
    ForecastQueue queue {ForecastEngineConfig {50, 20, {}}};
    MeasureQueue measureQueue {MeasureEngineConfig {}};
    ForecastController controller {&queue, &session, &selection, &candidates, &settings};
    ForecastPanel panel {&controller, &measureQueue, &session, &selection, &settings};

    explicit Rig(const QString &path)
    {
        panel.resize(1100, 760);
        session.open(path);
    }
};

} // namespace

class TestForecastPanel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    RowId m_reference = 0;
    QList<RowId> m_candidates;
    RowId m_hardware = 0;
    QString m_hardwareName;
    RowId m_storedForecaster = 0;
    QList<RowId> m_forecasts; // ok bin 6, ok bin 5, parse failure: all for (reference, candidate 0)
    std::unique_ptr<OpenAiServer> m_server;

    RowId addLlmForecaster(Store &store, const QString &name)
    {
        forecasters::LlmForecasterSettings s;
        s.endpoint.baseUrl = m_server->baseUrl();
        s.endpoint.model = u"test-model"_s;
        s.endpoint.maxRetries = 0;
        s.endpoint.idleTimeoutMs = 10000;
        Forecaster f;
        f.name = name;
        f.displayName = name;
        f.kind = ForecasterKind::Llm;
        f.config = forecasters::llmConfig(s);
        auto id = ForecasterRepo(store).ensure(f);
        return id ? *id : 0;
    }

    // Waits until the panel shows the pair (baseline, candidate) with `rows` rows.
    static bool showsPair(Rig &rig, RowId candidate, RowId baseline, int rows)
    {
        rig.selection.setPair(candidate, baseline);
        return QTest::qWaitFor(
            [&] {
                return rig.session.isOpen() && !rig.panel.loader()->isLoading()
                    && rig.panel.model()->rowCount() == rows;
            },
            10000);
    }

private Q_SLOTS:
    void initTestCase();
    void truthVerdicts_data();
    void truthVerdicts();
    void pairTruthsFromRuns();
    void pairTruthsMarkReplays();
    void storedForecastWithMeasurement();
    void classroomHidesTheForecasts();
    void parseFailureShowsItsReason();
    void whatTheForecasterSaw();
    void samplesSideBySide();
    void samplesOfDifferentGpusAreNotAveraged();
    void deferralFollowsThreshold();
    void liveForecastStreamsReasoning();
    void costModelExplanation();
    void testConnection_data();
    void testConnection();
    void typedKeyNeverStored();
    void editedProfileKeepsItsRow();
    void paletteAndScreenshots();
    void pythonTimingsBesideTheTruth();
};

void TestForecastPanel::initTestCase()
{
    // A key typed in the dialog must never reach the user's own keychain from a test.
    qunsetenv("DBUS_SESSION_BUS_ADDRESS");
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"gpuf-tests"_s);
    QCoreApplication::setApplicationName(u"tst_forecast_panel"_s);
    QSettings().clear();
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    QVERIFY(m_dir.isValid());
    m_server = std::make_unique<OpenAiServer>();
    QVERIFY(m_server->listen());
    m_path = m_dir.filePath(u"panel.gpuf"_s);
    auto store = Store::open(m_path);
    QVERIFY2(store.ok(), qPrintable(store.error()));
    Problem p;
    p.name = u"row_softmax"_s;
    QVERIFY(ProblemRepo(**store).insert(p).ok());
    for (int i = 0; i < 4; ++i) {
        Kernel k;
        k.problemId = p.id;
        k.name = i == 0 ? u"reference"_s : u"candidate %1"_s.arg(i);
        k.language = u"cuda"_s;
        k.source = u"__global__ void k%1(float *x, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "  if (i < n) x[i] = %1.0f * x[i];\n}\n"_s.arg(i);
        k.origin = i == 0 ? u"seed"_s : u"manual"_s;
        auto id = KernelRepo(**store).insertOrGet(k);
        QVERIFY(id.ok());
        (i == 0 ? m_reference : m_candidates.emplace_back()) = *id;
    }
    QVERIFY(ProblemRepo(**store).setReferenceKernel(p.id, m_reference).ok());
    Hardware h = *hardwarePreset(u"H100"_s);
    QVERIFY(HardwareRepo(**store).ensure(h).ok());
    m_hardware = h.id;
    m_hardwareName = h.name;
    // Measured: candidate 1 runs in half the reference's time, a speedup of 2.00× (bin 6).
    for (Measurement m : {run(m_reference, m_hardware, 2000.0), run(m_candidates[0], m_hardware, 1000.0)})
        QVERIFY(MeasurementRepo(**store).insert(m).ok());

    m_storedForecaster = addLlmForecaster(**store, u"stored-llm"_s);
    QVERIFY(m_storedForecaster != 0);
    const QList<std::array<double, 8>> distributions {
        {0, 0, 0, 0.1, 0.2, 0.6, 0.1, 0}, {0, 0, 0, 0.2, 0.5, 0.3, 0, 0}, {}};
    for (int i = 0; i < 3; ++i) {
        Forecast f;
        f.referenceKernelId = m_reference;
        f.candidateKernelId = m_candidates[0];
        f.hardwareId = m_hardware;
        f.forecasterId = m_storedForecaster;
        f.repeat = i;
        f.probabilities = distributions[i];
        f.status = i < 2 ? ForecastStatus::Ok : ForecastStatus::ParseFailed;
        if (i < 2) {
            f.predictedBin = i == 0 ? 6 : 5;
            f.rawProbabilitySum = i == 0 ? 0.95 : 1.0;
        }
        f.errorText = i < 2 ? u""_s : u"predicted_bin is 9, outside 1..8"_s;
        f.reasoning = i == 0 ? u"Tiling halves the global traffic."_s : u"Fewer launches."_s;
        f.messages = kMessages;
        f.response = u"data: {\"choices\":[]} sample %1\n\n"_s.arg(i);
        f.cacheKey = u"test:%1"_s.arg(i);
        f.tokensIn = 1200;
        f.tokensOut = 300;
        f.latencySeconds = 2.5;
        auto id = ForecastRepo(**store).insert(f);
        QVERIFY2(id.ok(), qPrintable(id.error()));
        m_forecasts.append(*id);
    }
}

void TestForecastPanel::truthVerdicts_data()
{
    QTest::addColumn<int>("predicted");
    QTest::addColumn<int>("truth");
    QTest::addColumn<QString>("verdict");
    QTest::newRow("hit") << 6 << 6 << u"hit"_s;
    QTest::newRow("one too fast") << 6 << 5 << u"miss, off by 1 bin(s) (predicted faster than measured)"_s;
    QTest::newRow("three too slow") << 2 << 5 << u"miss, off by 3 bin(s) (predicted slower than measured)"_s;
}

void TestForecastPanel::truthVerdicts()
{
    QFETCH(int, predicted);
    QFETCH(int, truth);
    QFETCH(QString, verdict);
    QCOMPARE(truthVerdict(predicted, truth), verdict);
}

void TestForecastPanel::pairTruthsFromRuns()
{
    // Newest run per case wins; a failed candidate case makes a failure; no baseline run on a hardware: NoBaseline.
    QHash<RowId, Hardware> hardware {{1, Hardware {1, u"A"_s}}, {2, Hardware {2, u"B"_s}}};
    Measurement failed = run(10, 1, 0.0);
    failed.status = MeasurementStatus::RuntimeError;
    failed.runtime.reset();
    const QList<Measurement> candidate {failed, run(10, 1, 500.0), run(10, 2, 800.0)};
    const QList<Measurement> baseline {run(20, 1, 1000.0)};
    const QList<PairTruth> truths = pairTruths(candidate, baseline, hardware);
    QCOMPARE(truths.size(), 2);
    QCOMPARE(truths[0].measured.state, MeasuredSpeedup::State::Speedup);
    QCOMPARE(truths[0].measured.speedup, 2.0);
    QCOMPARE(truths[0].bin, std::optional<int>(6));
    QCOMPARE(truths[0].hardwareName, u"A"_s);
    QCOMPARE(truths[1].measured.state, MeasuredSpeedup::State::NoBaseline);
    PairForecasts pair;
    pair.truths = truths;
    QCOMPARE(pair.truthFor(2)->hardwareId, RowId(1)); // a speedup elsewhere beats no speedup here
    QCOMPARE(
        pairTruths(candidate.mid(0, 1), baseline, hardware).first().measured.state, MeasuredSpeedup::State::Failed);
}

void TestForecastPanel::pairTruthsMarkReplays()
{
    // A truth resting on a replayed runtime (the candidate's, or the baseline's) is marked, with the time the copied
    // runtime was recorded; runs made here, or imported, are not.
    QHash<RowId, Hardware> hardware {{1, Hardware {1, u"A"_s}}, {2, Hardware {2, u"B"_s}}};
    Measurement replay = run(10, 1, 500.0);
    replay.source = MeasurementSource::Replay;
    replay.provenance.insert(u"replay_of_time"_s, u"2026-01-05T09:00:00.000Z"_s);
    Measurement older = replay;
    older.provenance.insert(u"replay_of_time"_s, u"2025-12-01T09:00:00.000Z"_s);
    const QList<Measurement> candidate {older, replay, run(10, 2, 800.0)};
    const QList<Measurement> baseline {run(20, 1, 1000.0), run(20, 2, 1600.0)};
    QList<PairTruth> truths = pairTruths(candidate, baseline, hardware);
    QCOMPARE(truths.size(), 2);
    QVERIFY(truths[0].measured.replayed);
    QCOMPARE(truths[0].measured.speedup, 2.0);
    QCOMPARE(truths[0].replayRecordedAt, QDateTime(QDate(2026, 1, 5), QTime(9, 0), Qt::UTC));
    QVERIFY(!truths[1].measured.replayed);
    QVERIFY(!truths[1].replayRecordedAt.isValid());
    // A candidate measured here against a replayed baseline rests on a replay too.
    Measurement baseReplay = run(20, 2, 1600.0);
    baseReplay.source = MeasurementSource::Replay;
    truths = pairTruths({run(10, 2, 800.0)}, {baseReplay}, hardware);
    QVERIFY(truths.first().measured.replayed);
    QVERIFY(!truths.first().replayRecordedAt.isValid()); // its provenance names no time
}

// Classroom mode (issue 27, item 10): while a lesson's step is unrevealed, the dock shows no forecast and no truth of
// any pair, and says why; afterwards the pair's forecasts are back.
void TestForecastPanel::classroomHidesTheForecasts()
{
    Rig rig(m_path);
    rig.panel.show();
    QVERIFY(showsPair(rig, m_candidates[0], m_reference, 4));
    QVERIFY(rig.panel.showKey(u"s%1"_s.arg(m_forecasts[0])));
    QVERIFY(rig.panel.detail()->showsPlot());
    rig.selection.setAnswersHidden(true);
    QVERIFY(!rig.panel.view()->isVisible());
    QVERIFY(!rig.panel.detail()->showsPlot());
    QVERIFY2(rig.panel.detail()->messageText().startsWith(u"Hidden until the lesson's step is revealed"_s),
        qPrintable(rig.panel.detail()->messageText()));
    // A pair chosen meanwhile is not shown either.
    rig.selection.setPair(m_candidates[1], m_reference);
    QTest::qWait(200);
    QVERIFY(!rig.panel.detail()->showsPlot());
    rig.selection.setAnswersHidden(false);
    QVERIFY(rig.panel.view()->isVisible());
    QVERIFY(showsPair(rig, m_candidates[0], m_reference, 4));
    QVERIFY(rig.panel.showKey(u"s%1"_s.arg(m_forecasts[0])));
    QVERIFY(rig.panel.detail()->showsPlot());
}

void TestForecastPanel::storedForecastWithMeasurement()
{
    Rig rig(m_path);
    QAbstractItemModelTester tester(rig.panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(showsPair(rig, m_candidates[0], m_reference, 4));
    QVERIFY(rig.panel.showKey(u"s%1"_s.arg(m_forecasts[0])));
    const ForecastDetail *d = rig.panel.detail();
    QVERIFY(rig.panel.gapWarning().isEmpty()); // only the cost model reads launch features
    QVERIFY(d->showsPlot());
    QCOMPARE(d->predictedText(), u"6 — %1 (2.00×–2.83×)"_s.arg(bins::label(6)));
    QCOMPARE(d->confidenceText(),
        u"0.60 (max_prob) · neg_entropy %1 · top2_margin 0.40"_s.arg(
            1.0 - bins::entropy({0, 0, 0, 0.1, 0.2, 0.6, 0.1, 0}) / std::log(8.0), 0, 'f', 2));
    QCOMPARE(d->expectedText(),
        u"%1× (expected bin 5.70)"_s.arg(bins::expectedSpeedup({0, 0, 0, 0.1, 0.2, 0.6, 0.1, 0}), 0, 'f', 2));
    QCOMPARE(d->truthText(), u"2.00× on %1 (bin 6, 1 case(s)): hit"_s.arg(m_hardwareName));
    QCOMPARE(d->plot()->predictedBin(), 6);
    QCOMPARE(d->plot()->measuredBin(), std::optional<int>(6));
    QVERIFY(d->plot()->measuredBand()->visible());
    QCOMPARE(d->plot()->title(), u"Bin probabilities · measured 2.00× → bin 6 (shaded)"_s);
    QCOMPARE(d->plot()->predictedBars()->data()->size(), 1);
    QCOMPARE(d->plot()->predictedBars()->data()->at(0)->key, 6.0);
    QCOMPARE(d->plot()->predictedBars()->data()->at(0)->value, 0.6);
    QCOMPARE(d->plot()->otherBars()->data()->size(), 7);
    QCOMPARE(d->reasoningTitle(), u"Rationale"_s);
    QCOMPARE(d->reasoningView()->toPlainText(), u"Tiling halves the global traffic."_s);
    // The second sample predicted bin 5 against a measured bin 6.
    QVERIFY(rig.panel.showKey(u"s%1"_s.arg(m_forecasts[1])));
    QCOMPARE(d->truthText(),
        u"2.00× on %1 (bin 6, 1 case(s)): miss, off by 1 bin(s) (predicted slower than measured)"_s.arg(
            m_hardwareName));
    // A pair without any measurement says so.
    QVERIFY(showsPair(rig, m_candidates[1], m_reference, 0));
    QVERIFY(!d->showsPlot());
    QVERIFY2(d->messageText().startsWith(u"No forecast of this pair yet."_s), qPrintable(d->messageText()));
}

void TestForecastPanel::parseFailureShowsItsReason()
{
    Rig rig(m_path);
    QVERIFY(showsPair(rig, m_candidates[0], m_reference, 4));
    QVERIFY(rig.panel.showKey(u"s%1"_s.arg(m_forecasts[2])));
    const ForecastDetail *d = rig.panel.detail();
    QVERIFY(!d->showsPlot());
    QCOMPARE(d->messageText(), u"The answer could not be parsed: predicted_bin is 9, outside 1..8"_s);
    QCOMPARE(d->deferralText(), u"deferred to the GPU: the forecast gave no distribution (τ = 0.50)"_s);
    const int row = rig.panel.model()->rowOfKey(u"s%1"_s.arg(m_forecasts[2]));
    QCOMPARE(rig.panel.model()->index(row, ForecastRowsModel::StatusColumn).data().toString(),
        u"parse failed: predicted_bin is 9, outside 1..8"_s);
    QCOMPARE(rig.panel.model()->index(row, ForecastRowsModel::PredictedBinColumn).data().toString(), QString());
}

void TestForecastPanel::whatTheForecasterSaw()
{
    Rig rig(m_path);
    QVERIFY(showsPair(rig, m_candidates[0], m_reference, 4));
    QVERIFY(rig.panel.showKey(u"s%1"_s.arg(m_forecasts[0])));
    rig.panel.tabs()->setCurrentWidget(rig.panel.inputView());
    const ForecasterInputView *view = rig.panel.inputView();
    QCOMPARE(view->messagesView()->toPlainText(),
        u"━━━ system ━━━\nYou simulate GPU execution.\n\n━━━ user ━━━\nReference:\n```cuda\nk0\n```\n"_s);
    QVERIFY(view->messagesView()->isReadOnly());
    QTest::mouseClick(view->exactJsonBox(), Qt::LeftButton);
    QCOMPARE(view->messagesView()->toPlainText(), kMessages);
    QCOMPARE(view->responseView()->toPlainText(), u"data: {\"choices\":[]} sample 0\n\n"_s);
    QTest::mouseClick(view->copyMessagesButton(), Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), kMessages);
    QTest::mouseClick(view->copyResponseButton(), Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), u"data: {\"choices\":[]} sample 0\n\n"_s);
}

void TestForecastPanel::samplesOfDifferentGpusAreNotAveraged()
{
    PairForecasts pair;
    for (RowId hardware : {RowId(1), RowId(2)}) {
        Forecast f;
        f.id = hardware;
        f.forecasterId = 7;
        f.hardwareId = hardware;
        f.probabilities = {0, 0, 0, 0.2, 0.6, 0.2, 0, 0};
        f.predictedBin = 5;
        pair.forecasts.append(f);
    }
    const QList<ForecastRow> rows = forecastRows(pair, {});
    QCOMPARE(rows.size(), 2); // two single samples, no mean across GPUs
    QCOMPARE(rows[0].kind, ForecastRow::Kind::Stored);
    QCOMPARE(rows[0].hardwareId, RowId(1));
    QCOMPARE(rows[1].hardwareId, RowId(2));
}

void TestForecastPanel::samplesSideBySide()
{
    Rig rig(m_path);
    QVERIFY(showsPair(rig, m_candidates[0], m_reference, 4));
    const ForecastRowsModel *model = rig.panel.model();
    const auto text = [model](int row, int column) { return model->index(row, column).data().toString(); };
    QCOMPARE(text(0, ForecastRowsModel::ForecasterColumn), u"stored-llm"_s);
    QCOMPARE(text(0, ForecastRowsModel::RepeatColumn), u"all"_s);
    QCOMPARE(text(0, ForecastRowsModel::HardwareColumn), m_hardwareName);
    QCOMPARE(text(0, ForecastRowsModel::StatusColumn), u"mean of 2 parsed sample(s)"_s);
    // The mean of (… 0.1, 0.2, 0.6, 0.1 …) and (… 0.2, 0.5, 0.3, 0 …): its most probable bin is 6 at 0.45.
    QCOMPARE(text(0, ForecastRowsModel::PredictedBinColumn), u"6 (2.00×–2.83×)"_s);
    QCOMPARE(text(0, ForecastRowsModel::ConfidenceColumn), u"0.45"_s);
    for (int i = 1; i <= 3; ++i)
        QCOMPARE(text(i, ForecastRowsModel::RepeatColumn), QString::number(i));
    QCOMPARE(text(1, ForecastRowsModel::PredictedBinColumn), u"6 (2.00×–2.83×)"_s);
    QCOMPARE(text(2, ForecastRowsModel::PredictedBinColumn), u"5 (1.41×–2.00×)"_s);
    QCOMPARE(text(1, ForecastRowsModel::ExpectedSpeedupColumn),
        QString::number(bins::expectedSpeedup({0, 0, 0, 0.1, 0.2, 0.6, 0.1, 0}), 'f', 2) + u"×"_s);
    QCOMPARE(text(1, ForecastRowsModel::StatusColumn), u"ok"_s);
    // Choosing the combined row by hand shows the mean.
    rig.panel.view()->setFocus();
    QTest::mouseClick(rig.panel.view()->viewport(), Qt::LeftButton, {},
        rig.panel.view()->visualRect(model->index(0, ForecastRowsModel::StatusColumn)).center());
    QCOMPARE(rig.panel.currentKey(), u"c%1-%2"_s.arg(m_storedForecaster).arg(m_hardware));
    QVERIFY(rig.panel.detail()->confidenceText().startsWith(u"0.45 (max_prob)"_s));
    QCOMPARE(rig.panel.detail()->plot()->predictedBars()->data()->at(0)->value, 0.45);
}

void TestForecastPanel::deferralFollowsThreshold()
{
    Rig rig(m_path);
    rig.settings.setMeasureConfidenceThreshold(0.5);
    QVERIFY(showsPair(rig, m_candidates[0], m_reference, 4));
    QVERIFY(rig.panel.showKey(u"s%1"_s.arg(m_forecasts[0])));
    QCOMPARE(rig.panel.detail()->deferralText(), u"trusted: confidence 0.60 ≥ τ = 0.50"_s);
    rig.settings.setMeasureConfidenceThreshold(0.7);
    QCOMPARE(rig.panel.detail()->deferralText(), u"deferred to the GPU: confidence 0.60 < τ = 0.70"_s);
    rig.settings.setMeasureConfidenceThreshold(0.6); // strict: equal to τ is trusted
    QCOMPARE(rig.panel.detail()->deferralText(), u"trusted: confidence 0.60 ≥ τ = 0.60"_s);
    rig.settings.setMeasureConfidenceThreshold(0.5);
}

void TestForecastPanel::liveForecastStreamsReasoning()
{
    {
        auto store = Store::open(m_path);
        QVERIFY(store.ok());
        QVERIFY(addLlmForecaster(**store, u"live-llm"_s) != 0);
    }
    m_server->setResponder([](const RecordedRequest &) {
        ScriptedResponse r = toolCallAnswer(forecastArguments(7, {0, 0, 0, 0, 0.1, 0.2, 0.7, 0}, u"Final rationale."_s),
            true, kForecastTool, u"Thinking about coalesced loads."_s);
        // The reasoning arrives at once; the tool call only after a pause, so the panel shows it streaming first.
        for (HttpChunk &chunk : r.chunks) {
            if (chunk.data.contains("\"tool_calls\"")) {
                chunk.delayMs = 1500;
                break;
            }
        }
        return r;
    });
    Rig rig(m_path);
    rig.settings.setForecasterName(u"live-llm"_s);
    QVERIFY(showsPair(rig, m_candidates[2], m_reference, 0));
    QTRY_COMPARE(rig.controller.forecastSelectedAction()->isEnabled(), true);
    rig.controller.forecastSelectedAction()->trigger();
    const ForecastDetail *d = rig.panel.detail();
    QTRY_VERIFY_WITH_TIMEOUT(
        d->reasoningView()->toPlainText().contains(u"Thinking about coalesced loads."_s), kLiveWaitMs);
    // Seen while the request runs: its row is live, nothing is stored yet, the plot waits.
    QVERIFY2(rig.panel.currentKey().startsWith(u'l'), qPrintable(rig.panel.currentKey()));
    QCOMPARE(rig.panel.model()->rowAt(0)->kind, ForecastRow::Kind::Live);
    QCOMPARE(d->reasoningTitle(), u"Reasoning (streaming as it arrives)"_s);
    QVERIFY(!d->showsPlot());
    QVERIFY2(d->messageText().startsWith(u"live-llm is forecasting this pair"_s), qPrintable(d->messageText()));
    // Then the stored forecast replaces it, with the final rationale and what streamed.
    QTRY_VERIFY_WITH_TIMEOUT(rig.panel.currentKey().startsWith(u's'), kLiveWaitMs);
    QVERIFY(d->showsPlot());
    QCOMPARE(d->reasoningTitle(), u"Rationale"_s);
    QVERIFY2(d->reasoningView()->toPlainText().startsWith(u"Final rationale.\n\n— Reasoning as it streamed —\n"
                                                          "Thinking about coalesced loads."_s),
        qPrintable(d->reasoningView()->toPlainText()));
    QCOMPARE(d->plot()->predictedBin(), 7);
    QVERIFY2(d->titleText().startsWith(u"live-llm · sample 1 · no GPU named"_s), qPrintable(d->titleText()));
    rig.panel.tabs()->setCurrentWidget(rig.panel.inputView());
    QVERIFY(rig.panel.inputView()->messagesView()->toPlainText().startsWith(u"━━━ system ━━━\n"_s));
    QVERIFY(rig.panel.inputView()->responseView()->toPlainText().contains(u"data: "_s));
    m_server->setResponder({});
}

void TestForecastPanel::costModelExplanation()
{
    Rig rig(m_path);
    rig.settings.setForecasterName(u"costmodel"_s);
    QVERIFY(showsPair(rig, m_candidates[1], m_reference, 0));
    QTRY_COMPARE(rig.controller.forecastSelectedAction()->isEnabled(), true);
    rig.controller.forecastSelectedAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(rig.panel.currentKey().startsWith(u's'), kLiveWaitMs);
    QVERIFY(rig.panel.detail()->showsPlot());
    QVERIFY(rig.panel.explanationModel()->rowCount() > 0);
    QVERIFY2(rig.panel.explanationSummary().contains(u"Top contributions toward bin"_s),
        qPrintable(rig.panel.explanationSummary()));
    // Neither kernel has a launch spec: the panel says the forecast rests on unknown launch features.
    QVERIFY2(rig.panel.gapWarning().startsWith(u"Forecast from unknown features: kernel 'reference' has no launch "
                                               "spec, so its threads per block"_s),
        qPrintable(rig.panel.gapWarning()));
    QVERIFY(rig.panel.gapWarning().contains(u"kernel 'candidate 2' has no launch spec"_s));
    const ExplanationModel *m = rig.panel.explanationModel();
    const ExplanationItem &first = m->explanation().items.first();
    QCOMPARE(m->index(0, ExplanationModel::ContributionColumn).data().toString(),
        QString::asprintf("%+.2f", first.contribution));
    QVERIFY(!m->index(0, ExplanationModel::FeatureColumn).data().toString().isEmpty());
    QVERIFY(!m->index(0, ExplanationModel::FeatureColumn, {}).data(Qt::ToolTipRole).toString().isEmpty());
    // Differences first, the baseline (equal in both kernels) after them and named so; correlates, not causes.
    QVERIFY2(rig.panel.explanationSummary().contains(u"correlates the model learned from measured pairs, not causes"_s),
        qPrintable(rig.panel.explanationSummary()));
    bool baselineSeen = false;
    for (int row = 0; row < m->rowCount(); ++row) {
        const ExplanationItem &item = m->explanation().items.at(row);
        const QString feature = m->index(row, ExplanationModel::FeatureColumn).data().toString();
        if (ExplanationModel::isBaseline(item)) {
            baselineSeen = true;
            QVERIFY2(feature.endsWith(u"(same in both: baseline)"_s), qPrintable(feature));
        } else if (item.kind == ExplanationItem::Kind::Kernel) {
            QVERIFY2(!baselineSeen, qPrintable(feature)); // no difference below the baseline
        }
    }
    rig.panel.tabs()->setCurrentWidget(rig.panel.inputView());
    QVERIFY(rig.panel.inputView()->messagesView()->toPlainText().isEmpty());
    rig.settings.setForecasterName(u"costmodel"_s);
}

void TestForecastPanel::testConnection_data()
{
    QTest::addColumn<bool>("tools");
    QTest::addColumn<bool>("streaming");
    QTest::newRow("everything") << true << true;
    QTest::newRow("no tools, no streaming") << false << false;
}

void TestForecastPanel::testConnection()
{
    QFETCH(bool, tools);
    QFETCH(bool, streaming);
    OpenAiServer server;
    QVERIFY(server.listen());
    server.setResponder(llm::testing::capableServer(tools, streaming));
    StoreSession session;
    QVERIFY(test::openSession(session, m_path));
    EndpointsDialog dialog(&session);
    QTRY_VERIFY(!dialog.isBusy());
    QTest::mouseClick(dialog.newButton(), Qt::LeftButton);
    EndpointForm *form = dialog.form();
    QTest::keyClicks(form->nameEdit(), u"probe"_s);
    QTest::keyClicks(form->urlEdit(), server.baseUrl());
    QTest::keyClicks(form->modelEdit(), u"test-model"_s);
    QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
    using Step = llm::EndpointProbe::Step;
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isTesting(), 10000);
    QVERIFY2(
        dialog.checkText(Step::Reachable).startsWith(u"✓ yes — HTTP 200 from 127.0.0.1:%1 in "_s.arg(server.port())),
        qPrintable(dialog.checkText(Step::Reachable)));
    QCOMPARE(dialog.checkText(Step::ModelListed), u"✓ yes — \"test-model\" is listed (1 model(s) in all)"_s);
    if (tools)
        QVERIFY2(dialog.checkText(Step::ToolCalling).startsWith(u"✓ yes — the model called report_number("_s),
            qPrintable(dialog.checkText(Step::ToolCalling)));
    else
        QCOMPARE(dialog.checkText(Step::ToolCalling),
            u"✗ no — the model answered without calling the tool (finish reason \"stop\"): OK"_s);
    if (streaming)
        QVERIFY2(
            dialog.checkText(Step::Streaming).startsWith(u"✓ yes"_s), qPrintable(dialog.checkText(Step::Streaming)));
    else
        QCOMPARE(dialog.checkText(Step::Streaming),
            u"✗ no — the server answered with one JSON body instead of server-sent events"_s);
    QCOMPARE(server.requests().first().path, QByteArray("/v1/models"));
}

void TestForecastPanel::typedKeyNeverStored()
{
    const QString key = u"sk-gpuf-typed-5f3a9c1e7b2d4a60"_s;
    StoreSession session;
    QVERIFY(test::openSession(session, m_path));
    {
        EndpointsDialog dialog(&session);
        QTRY_VERIFY(!dialog.isBusy());
        QTest::mouseClick(dialog.newButton(), Qt::LeftButton);
        EndpointForm *form = dialog.form();
        QTest::keyClicks(form->nameEdit(), u"keyed"_s);
        QTest::keyClicks(form->urlEdit(), m_server->baseUrl());
        QTest::keyClicks(form->modelEdit(), u"test-model"_s);
        QTest::keyClicks(form->headersEdit(), u"X-Title: gpuf tests"_s);
        form->keySourceBox()->setCurrentIndex(form->keySourceBox()->findData(int(EndpointForm::KeySource::Keychain)));
        QVERIFY(form->keyEdit()->isEnabled());
        QCOMPARE(form->keyEdit()->echoMode(), QLineEdit::Password);
        QTest::keyClicks(form->keyEdit(), key);
        QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().startsWith(u"Saved \"keyed\"."_s), 10000);
        // No keychain reachable here (no session bus): the dialog says so, and nothing else keeps the key.
        QVERIFY2(dialog.statusText().contains(u"The API key was not stored: keychain entry \"keyed\": "_s),
            qPrintable(dialog.statusText()));
        QTRY_VERIFY(!dialog.isBusy());
        // A credential in the extra headers is refused before anything is written.
        form->headersEdit()->setPlainText(u"X-Api-Key: "_s + key);
        QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
        QVERIFY2(dialog.statusText().startsWith(u"Not saved: extra headers, line 1: \"X-Api-Key\" looks like a "
                                                "credential"_s),
            qPrintable(dialog.statusText()));
    }
    auto store = Store::open(m_path);
    QVERIFY(store.ok());
    auto saved = ForecasterRepo(**store).findByName(u"keyed"_s);
    QVERIFY(saved.ok() && saved->has_value());
    auto settings = forecasters::llmSettings((**saved).config, u"keyed"_s);
    QVERIFY2(settings.ok(), qPrintable(settings.error()));
    QCOMPARE(settings->endpoint.keychainEntry, u"keyed"_s);
    QCOMPARE(settings->endpoint.extraHeaders.size(), 1);
    QCOMPARE(settings->endpoint.extraHeaders.first().first, QByteArray("X-Title"));
    store->reset();

    Settings().setForecasterName(u"keyed"_s); // the settings file exists and is written
    QSettings qsettings;
    qsettings.sync();
    const QStringList files {m_path, m_path + u"-wal"_s, qsettings.fileName()};
    for (const QString &file : files) {
        QFile f(file);
        if (!f.exists())
            continue;
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(file));
        const QByteArray bytes = f.readAll();
        QVERIFY2(!bytes.contains(key.toUtf8()), qPrintable(file));
        QVERIFY2(
            !bytes.contains(QByteArray(reinterpret_cast<const char *>(key.utf16()), key.size() * 2)), qPrintable(file));
    }
    QVERIFY(QFile::exists(qsettings.fileName()));
    Settings().setForecasterName(u"costmodel"_s);
}

void TestForecastPanel::editedProfileKeepsItsRow()
{
    StoreSession session;
    QVERIFY(test::openSession(session, m_path));
    EndpointsDialog dialog(&session);
    QTRY_VERIFY(!dialog.isBusy());
    const QList<QListWidgetItem *> items = dialog.list()->findItems(u"stored-llm"_s, Qt::MatchExactly);
    QCOMPARE(items.size(), 1);
    dialog.list()->setCurrentItem(items.first());
    EndpointForm *form = dialog.form();
    QCOMPARE(form->forecasterId(), m_storedForecaster);
    QVERIFY(form->nameEdit()->isReadOnly());
    form->modelEdit()->setText(u"edited-model"_s);
    form->keySourceBox()->setCurrentIndex(form->keySourceBox()->findData(int(EndpointForm::KeySource::Environment)));
    // A key pasted where the variable's name goes: refused, with the reason shown and the key nowhere in it.
    const QString pasted = u"sk-proj-Zk3q9XbT0aLmWn7Rt2"_s;
    QTest::keyClicks(form->keyEnvEdit(), pasted);
    QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
    QTRY_VERIFY(dialog.statusText().contains(u"looks like an API key itself"_s));
    QVERIFY(!dialog.statusText().contains(pasted));
    form->keyEnvEdit()->clear();
    QTest::keyClicks(form->keyEnvEdit(), u"GPUF_TEST_KEY"_s);
    QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
    QTRY_COMPARE(dialog.statusText(), u"Saved \"stored-llm\"."_s);
    QTRY_VERIFY(!dialog.isBusy());
    auto store = Store::open(m_path);
    QVERIFY(store.ok());
    auto saved = ForecasterRepo(**store).find(m_storedForecaster);
    QVERIFY(saved.ok() && saved->has_value());
    auto settings = forecasters::llmSettings((**saved).config);
    QVERIFY2(settings.ok(), qPrintable(settings.error()));
    QCOMPARE(settings->endpoint.model, u"edited-model"_s);
    QCOMPARE(settings->endpoint.apiKeyEnv, u"GPUF_TEST_KEY"_s);
    QCOMPARE(ForecastRepo(**store).forCandidate(m_candidates[0])->size(), 3); // its forecasts stay with it
    QVERIFY(!ForecasterRepo(**store).update(Forecaster {9999, u"ghost"_s, ForecasterKind::Llm, {}, {}}).ok());
}

void TestForecastPanel::paletteAndScreenshots()
{
    Rig rig(m_path);
    QVERIFY(showsPair(rig, m_candidates[0], m_reference, 4));
    QVERIFY(rig.panel.showKey(u"s%1"_s.arg(m_forecasts[0])));
    rig.panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&rig.panel));
    const QString shots = qEnvironmentVariable("GPUF_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        QDir().mkpath(shots);
    QImage previous;
    for (const bool dark : {false, true}) {
        const QPalette palette = dark ? darkPalette() : QApplication::style()->standardPalette();
        rig.panel.setPalette(palette); // propagates to the children at once: PaletteChange recolours the plot
        const DistributionPlot *plot = rig.panel.detail()->plot();
        QCOMPARE(plot->colors().dark, dark);
        QCOMPARE(plot->plot()->xAxis->basePen().color(), palette.color(QPalette::Active, QPalette::Text));
        QCOMPARE(plot->predictedBars()->brush().color().rgb(), plot->colors().seriesColor(0).rgb());
        plot->plot()->replot();
        const QImage image = rig.panel.grab().toImage();
        QVERIFY(!image.isNull());
        if (!previous.isNull())
            QVERIFY(image != previous);
        previous = image;
        if (!shots.isEmpty()) {
            const QString suffix = dark ? u"dark"_s : u"light"_s;
            QVERIFY(image.save(shots + u"/forecast_panel_"_s + suffix + u".png"_s));
            rig.panel.tabs()->setCurrentWidget(rig.panel.inputView());
            QVERIFY(rig.panel.grab().save(shots + u"/forecast_input_"_s + suffix + u".png"_s));
            rig.panel.tabs()->setCurrentIndex(0);
            QVERIFY(rig.panel.showKey(u"s%1"_s.arg(m_forecasts[2])));
            QVERIFY(rig.panel.grab().save(shots + u"/forecast_parse_failed_"_s + suffix + u".png"_s));
            QVERIFY(rig.panel.showKey(u"s%1"_s.arg(m_forecasts[0])));
            StoreSession session;
            QVERIFY(test::openSession(session, m_path));
            EndpointsDialog dialog(&session);
            dialog.setPalette(palette);
            QTRY_VERIFY(!dialog.isBusy());
            dialog.list()->setCurrentRow(0);
            QVERIFY(dialog.grab().save(shots + u"/endpoints_dialog_"_s + suffix + u".png"_s));
        }
    }
}

QTEST_MAIN(TestForecastPanel)
#include "tst_forecast_panel.moc"

namespace {

// A Python case's two figures as the measurement mapping stores them (counters.timings).
QJsonObject twoFigures(double deviceUs, double callUs, bool launchBound, double overheadUs)
{
    const auto figure = [](const char *kind, double median) {
        return QJsonObject {{u"kind"_s, QString::fromLatin1(kind)}, {u"median_us"_s, median},
            {u"mean_us"_s, median * 1.1}, {u"noisy"_s, false}};
    };
    return QJsonObject {{u"speedup_time"_s, u"device"_s}, {u"device"_s, figure("device", deviceUs)},
        {u"call"_s, figure("call", callUs)}, {u"launch_bound"_s, launchBound}, {u"host_overhead_us"_s, overheadUs},
        {u"launch_bound_margin"_s, 0.1}};
}

} // namespace

// A Python candidate measured with device and call time: the truth says which figure its speedup is from, the
// speedup by the other one and where it is launch-bound; the tooltip holds each case's means beside its medians.
void TestForecastPanel::pythonTimingsBesideTheTruth()
{
    RowId candidate = 0;
    {
        auto store = Store::open(m_path);
        QVERIFY(store.ok());
        Kernel k;
        auto problem = ProblemRepo(**store).findByName(u"row_softmax"_s);
        QVERIFY(problem.ok() && problem->has_value());
        k.problemId = (*problem)->id;
        k.name = u"python launcher"_s;
        k.language = u"triton"_s;
        k.source = u"def custom_kernel(data):\n    return data\n"_s;
        k.origin = u"manual"_s;
        auto id = KernelRepo(**store).insertOrGet(k);
        QVERIFY(id.ok());
        candidate = *id;
        // Device time 1 µs against the reference's 2 µs (2.00×); call time 4 µs against 3 µs (0.75×).
        Measurement ref = run(m_reference, m_hardware, 2000.0);
        ref.counters.insert(u"timings"_s, twoFigures(2.0, 3.0, true, 1.0));
        Measurement cand = run(candidate, m_hardware, 1000.0);
        cand.counters.insert(u"timings"_s, twoFigures(1.0, 4.0, true, 3.0));
        for (Measurement m : {ref, cand})
            QVERIFY(MeasurementRepo(**store).insert(m).ok());
        Forecast f;
        f.referenceKernelId = m_reference;
        f.candidateKernelId = candidate;
        f.hardwareId = m_hardware;
        f.forecasterId = m_storedForecaster;
        f.probabilities = {0, 0, 0, 0.1, 0.2, 0.6, 0.1, 0};
        f.predictedBin = 6;
        f.rawProbabilitySum = 1.0;
        f.messages = kMessages;
        f.cacheKey = u"test:python"_s;
        auto fid = ForecastRepo(**store).insert(f);
        QVERIFY2(fid.ok(), qPrintable(fid.error()));
    }
    Rig rig(m_path);
    QVERIFY(showsPair(rig, candidate, m_reference, 1));
    QVERIFY(rig.panel.showKey(rig.panel.model()->index(0, 0).data(ForecastRowsModel::KeyRole).toString()));
    const ForecastDetail *d = rig.panel.detail();
    QCOMPARE(d->truthText(),
        u"2.00× on %1 (bin 6, 1 case(s)): hit\nspeedup by device time (launch work hidden); by call time 0.75× · "
        "launch-bound on n=4096 (up to +3.0 µs on the host per call)"_s.arg(m_hardwareName));
    const QString tip = d->truthDetails();
    QVERIFY2(tip.contains(u"n=4096: device 1.1 µs mean, 1.0 median; call 4.4 µs mean, 4.0 median; launch-bound, "
                          "+3.0 µs on the host"_s),
        qPrintable(tip));
    QVERIFY(tip.contains(u"call time over device time by more than 10 %"_s));
}
