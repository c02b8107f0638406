// What the forecast dock and the endpoints dialog tell a first-time user, offscreen on a real temporary store: the
// candidate's teaching note above its forecasts; a held-out validation forecast's Explanation tab saying what it is
// and how to get an explanation (never "format ''"); a pair without forecasts saying what to press; the forecast row
// the detail describes kept in view, also when it was chosen while the dock was hidden; an unreachable endpoint's
// skipped checks said once; and every placeholder of the endpoint form shown whole.
#include "core/forecasters/forecast_queue.h"
#include "core/measure/measure_queue.h"
#include "core/session/candidate_source.h"
#include "core/session/forecast_pair_loader.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "tests/support/session_open.h"
#include "widgets/forecast/endpoint_form.h"
#include "widgets/forecast/endpoints_dialog.h"
#include "widgets/forecast/forecast_controller.h"
#include "widgets/forecast/forecast_detail.h"
#include "widgets/forecast/forecast_panel.h"
#include "widgets/forecast/forecast_rows_model.h"

#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

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
        panel.resize(900, 700);
        session.open(path);
    }

    bool showsPair(RowId candidate, RowId baseline, int rows)
    {
        selection.setPair(candidate, baseline);
        return QTest::qWaitFor(
            [&] { return session.isOpen() && !panel.loader()->isLoading() && panel.model()->rowCount() == rows; },
            10000);
    }
};

} // namespace

class TestForecastGuidance : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    RowId m_reference = 0;
    RowId m_noted = 0; // a candidate with a teaching note and held-out forecasts
    RowId m_many = 0; // a candidate with many samples of one forecaster
    RowId m_bare = 0; // a candidate without forecasts
    static constexpr int kSamples = 14;

    RowId addForecaster(Store &store, const QString &name, ForecasterKind kind)
    {
        Forecaster f;
        f.name = name;
        f.displayName = name;
        f.kind = kind;
        auto id = ForecasterRepo(store).ensure(f);
        return id ? *id : 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"gpuf-tests"_s);
        QCoreApplication::setApplicationName(u"tst_forecast_guidance"_s);
        QSettings().clear();
        m_path = m_dir.filePath(u"guidance.gpuf"_s);
        auto store = Store::open(m_path);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        Problem p;
        p.name = u"axpy"_s;
        QVERIFY(ProblemRepo(**store).insert(p).ok());
        QList<RowId> ids;
        for (int i = 0; i < 4; ++i) {
            Kernel k;
            k.problemId = p.id;
            k.name = i == 0 ? u"v0_naive"_s : u"v%1"_s.arg(i);
            k.language = u"cuda"_s;
            k.source = u"__global__ void k(float *x) { x[threadIdx.x] *= %1.0f; }\n"_s.arg(i);
            if (i == 1)
                k.notes = u"Each thread loads one float4 instead of one float, so a warp moves 512 bytes per load."_s;
            k.origin = i == 0 ? u"seed"_s : u"manual"_s;
            auto id = KernelRepo(**store).insertOrGet(k);
            QVERIFY2(id.ok(), qPrintable(id.error()));
            ids.append(*id);
        }
        m_reference = ids[0];
        m_noted = ids[1];
        m_many = ids[2];
        m_bare = ids[3];
        QVERIFY(ProblemRepo(**store).setReferenceKernel(p.id, m_reference).ok());

        const RowId heldOut = addForecaster(**store, u"costmodel-heldout"_s, ForecasterKind::CostModel);
        const RowId sampler = addForecaster(**store, u"sampler"_s, ForecasterKind::Import);
        QVERIFY(heldOut && sampler);
        Forecast f;
        f.referenceKernelId = m_reference;
        f.candidateKernelId = m_noted;
        f.forecasterId = heldOut;
        f.probabilities = {0.05, 0.02, 0.18, 0.5, 0.07, 0.04, 0.06, 0.08};
        f.predictedBin = 4;
        f.status = ForecastStatus::Ok;
        f.reasoning = u"Held-out prediction: the model never saw the operation 'axpy' in training."_s;
        f.response = uR"({"fold_temperature":1.47,"operation":"axpy","training_data":"b0b69a66"})"_s;
        f.cacheKey = u"heldout:1"_s;
        QVERIFY(ForecastRepo(**store).insert(f).ok());
        for (int repeat = 0; repeat < kSamples; ++repeat) {
            Forecast s;
            s.referenceKernelId = m_reference;
            s.candidateKernelId = m_many;
            s.forecasterId = sampler;
            s.repeat = repeat;
            s.probabilities = {0, 0, 0.1, 0.6, 0.2, 0.1, 0, 0};
            s.predictedBin = 4;
            s.status = ForecastStatus::Ok;
            s.cacheKey = u"sampler:%1"_s.arg(repeat);
            QVERIFY(ForecastRepo(**store).insert(s).ok());
        }
    }

    void noteAndHeldOutExplanation()
    {
        Rig rig(m_path);
        rig.settings.setForecasterName(u"costmodel-heldout"_s);
        QVERIFY(rig.showsPair(m_noted, m_reference, 1));
        QVERIFY2(rig.panel.noteText().contains(u"Note on v1:"_s), qPrintable(rig.panel.noteText()));
        QVERIFY(rig.panel.noteText().contains(u"a warp moves 512 bytes per load"_s));
        const QString summary = rig.panel.explanationSummary();
        QVERIFY2(summary.startsWith(u"costmodel-heldout is a held-out validation forecast: the model that made it was "
                                    "trained without the operation \"axpy\""_s),
            qPrintable(summary));
        QVERIFY(summary.contains(u"choose the built-in cost model"_s));
        QVERIFY(!summary.contains(u"format"_s));
        // A candidate without a note shows none.
        QVERIFY(rig.showsPair(m_bare, m_reference, 0));
        QVERIFY(rig.panel.noteText().isEmpty());
    }

    void pairWithoutForecastSaysWhatToDo()
    {
        Rig rig(m_path);
        rig.settings.setForecasterName(u"costmodel"_s);
        QVERIFY(rig.showsPair(m_bare, m_reference, 0));
        const QString text = rig.panel.detail()->messageText();
        const QString keys = rig.controller.forecastSelectedAction()->shortcut().toString(QKeySequence::NativeText);
        QVERIFY(!keys.isEmpty());
        QVERIFY2(text.startsWith(u"No forecast of this pair yet. Press \"Forecast Selected\" above (%1) to ask "
                                 "costmodel"_s.arg(keys)),
            qPrintable(text));
        QVERIFY(text.contains(u"measure the pair on the GPU"_s));
    }

    // A student chosen as the window's forecaster: their forecasts are answers given in a lesson, so nothing offers to
    // run them — the forecast actions are off and say why, and the empty pair says the same instead of "press
    // Forecast Selected".
    void aStudentIsNotAskedOnDemand()
    {
        {
            auto store = Store::open(m_path, Store::Mode::ExistingOnly);
            Forecaster ada;
            ada.name = u"student:Ada"_s;
            ada.displayName = u"Ada"_s;
            ada.kind = ForecasterKind::Human;
            QVERIFY(ForecasterRepo(**store).ensure(ada).ok());
        }
        Rig rig(m_path);
        rig.selection.setForecasterName(u"student:Ada"_s);
        QVERIFY(rig.showsPair(m_bare, m_reference, 0));
        QAction *forecast = rig.controller.forecastSelectedAction();
        QTRY_VERIFY(forecast->toolTip().startsWith(u"Ada is a student"_s));
        QVERIFY(!forecast->isEnabled());
        QVERIFY(!rig.controller.forecastProblemAction()->isEnabled());
        QCOMPARE(rig.controller.forecastProblemAction()->toolTip(), forecast->toolTip());
        QVERIFY(!rig.controller.forecast({ForecastPair {m_reference, m_bare}}, false));
        const QString says = u"No forecast of this pair yet. Ada is a student: their forecasts are the answers they "
                             "give in the Lessons dock"_s;
        QTRY_VERIFY2(rig.panel.detail()->messageText().startsWith(says), qPrintable(rig.panel.detail()->messageText()));
        QVERIFY(!rig.panel.detail()->messageText().contains(u"Press"_s));
        // A runnable forecaster again: the actions come back.
        rig.selection.setForecasterName(u"costmodel"_s);
        QTRY_VERIFY(forecast->isEnabled());
    }

    // The detail describes the newest sample; the table row it describes is in view once the dock is shown, although
    // it was chosen while the dock was hidden and sits below the table's first rows.
    void describedRowStaysInView()
    {
        Rig rig(m_path);
        rig.settings.setForecasterName(u"sampler"_s);
        QVERIFY(!rig.panel.isVisible());
        QVERIFY(rig.showsPair(m_many, m_reference, kSamples + 1));
        const QModelIndex current = rig.panel.view()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.row(), kSamples); // the newest sample, the last row
        rig.panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&rig.panel));
        QTableView *view = rig.panel.view();
        QVERIFY2(view->viewport()->height() < view->verticalHeader()->length(), "the table must scroll for this test");
        const QRect shown = view->visualRect(view->currentIndex());
        QVERIFY2(view->viewport()->rect().contains(shown),
            qPrintable(u"row at y=%1 outside a viewport %2 high"_s.arg(shown.y()).arg(view->viewport()->height())));
        QVERIFY(rig.panel.detail()->titleText().contains(u"sample %1"_s.arg(kSamples)));

        // The same while the dock is on screen: another pair, then this one again, loaded while shown.
        QVERIFY(rig.showsPair(m_bare, m_reference, 0));
        QVERIFY(rig.showsPair(m_many, m_reference, kSamples + 1));
        QCOMPARE(view->currentIndex().row(), kSamples);
        QVERIFY2(view->viewport()->rect().contains(view->visualRect(view->currentIndex())),
            qPrintable(u"row at y=%1 outside a viewport %2 high"_s.arg(view->visualRect(view->currentIndex()).y())
                           .arg(view->viewport()->height())));
    }

    // "Test Connection" against a port nobody listens on: the later checks say "skipped" once, with the reason.
    void unreachableEndpointSaysSkippedOnce()
    {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close();
        StoreSession session;
        QVERIFY(test::openSession(session, m_path));
        EndpointsDialog dialog(&session);
        QTRY_VERIFY(!dialog.isBusy());
        QTest::mouseClick(dialog.newButton(), Qt::LeftButton);
        QTest::keyClicks(dialog.form()->nameEdit(), u"nowhere"_s);
        QTest::keyClicks(dialog.form()->urlEdit(), u"http://127.0.0.1:%1/v1"_s.arg(port));
        QTest::keyClicks(dialog.form()->modelEdit(), u"test-model"_s);
        QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isTesting(), 15000);
        using Step = llm::EndpointProbe::Step;
        QVERIFY2(
            dialog.checkText(Step::Reachable).startsWith(u"✗ no — "_s), qPrintable(dialog.checkText(Step::Reachable)));
        for (Step step : {Step::ModelListed, Step::ToolCalling, Step::Streaming}) {
            const QString text = dialog.checkText(step);
            QCOMPARE(text, u"– skipped: the endpoint cannot be reached"_s);
            QCOMPARE(text.count(u"skipped"_s), 1);
        }
    }

    // Each hint is shown whole at the dialog's own size (the key field's used to read "typed keys go to the keyc").
    void placeholdersFit()
    {
        StoreSession session;
        QVERIFY(test::openSession(session, m_path));
        EndpointsDialog dialog(&session);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTRY_VERIFY(!dialog.isBusy());
        QTest::mouseClick(dialog.newButton(), Qt::LeftButton);
        EndpointForm *form = dialog.form();
        form->keySourceBox()->setCurrentIndex(form->keySourceBox()->findData(int(EndpointForm::KeySource::Keychain)));
        const QList<QLineEdit *> edits = form->findChildren<QLineEdit *>();
        int checked = 0;
        for (QLineEdit *edit : edits) {
            if (edit->placeholderText().isEmpty() || !edit->isVisible())
                continue;
            ++checked;
            // The text area is the edit less its frame and text margins (QLineEdit's own layout: 2 px each side).
            const int room = edit->width() - 2 * edit->style()->pixelMetric(QStyle::PM_DefaultFrameWidth) - 4
                - edit->textMargins().left() - edit->textMargins().right();
            QVERIFY2(edit->fontMetrics().horizontalAdvance(edit->placeholderText()) <= room,
                qPrintable(u"\"%1\" in %2 px"_s.arg(edit->placeholderText()).arg(room)));
        }
        QVERIFY(checked >= 3);
        QCOMPARE(form->keyEdit()->placeholderText(), u"saved in the keychain only"_s);
    }
};

QTEST_MAIN(TestForecastGuidance)
#include "tst_forecast_guidance.moc"
