// The window's one forecaster, one hardware and one τ, on the real MainWindow over the sample store: whichever view
// changes a choice (the Forecast menu, the candidate table's filter bar, the calibration plots), every view then shows
// it, new forecasts are made with it and stored for it, and opening a store that lacks the chosen forecaster resets
// the choice to one the store has.
#include "app/explorer/main_window.h"
#include "core/common/english_plurals.h"
#include "core/interop/case_file.h"
#include "core/interop/corpus.h"
#include "core/interop/interop.h"
#include "core/session/candidate_source.h"
#include "core/session/case_store.h"
#include "core/session/sample_store.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "gpuf_config.h"
#include "widgets/calibration/calibration_view.h"
#include "widgets/calibration/risk_coverage_plot.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_filter_bar.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/forecast/costmodel_retrainer.h"
#include "widgets/forecast/forecast_controller.h"
#include "widgets/forecast/forecast_panel.h"
#include "widgets/forecast/forecast_rows_model.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

// The menu-bar menu titled `title`, then its submenu titled `submenu` (empty: the menu itself).
QMenu *menuOf(QMainWindow &window, const QString &title, const QString &submenu = {})
{
    for (QAction *top : window.menuBar()->actions()) {
        if (top->text() != title || !top->menu())
            continue;
        if (submenu.isEmpty())
            return top->menu();
        for (QAction *a : top->menu()->actions()) {
            if (a->menu() && a->text() == submenu)
                return a->menu();
        }
    }
    return nullptr;
}

QAction *actionOf(QMenu *menu, const QString &text)
{
    for (QAction *a : menu->actions()) {
        if (a->text() == text)
            return a;
    }
    return nullptr;
}

QString checkedText(QMenu *menu)
{
    for (QAction *a : menu->actions()) {
        if (a->isCheckable() && a->isChecked())
            return a->text();
    }
    return {};
}

// The calibration view's first forecaster chooser, found by its label as a user finds it.
QComboBox *calibrationForecaster(CalibrationView *view)
{
    for (QLabel *label : view->findChildren<QLabel *>()) {
        if (label->text() == u"&Forecaster:"_s)
            return qobject_cast<QComboBox *>(label->buddy());
    }
    return nullptr;
}

} // namespace

class TestWindowChoices : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_sample;
    QString m_corpus;
    QString m_paper;

    struct Window
    {
        Settings settings;
        StoreSession session;
        MainWindow window {&settings, &session};
        Selection *selection = nullptr;
        CandidateBrowser *browser = nullptr;
        CalibrationView *calibration = nullptr;
    };

    std::unique_ptr<Window> open(const QString &path)
    {
        auto w = std::make_unique<Window>();
        w->window.show();
        w->selection = w->window.context().selection;
        w->browser = w->window.context().panels.candidates;
        w->calibration = w->window.context().panels.calibration;
        w->session.open(path);
        return w;
    }

    static bool tableShown(const Window &w, const QString &path)
    {
        const CandidateTablePtr table = w.browser->model()->table();
        return table && w.session.path() == path && w.browser->model()->rowCount() > 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        installEnglishPlurals(); // as gpuf-explorer does at start (app_translations): "(1 forecast)", "(0 forecasts)"
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        m_sample = m_dir.filePath(u"sample.gpuf"_s);
        {
            auto store = Store::open(m_sample);
            QVERIFY2(store.ok(), qPrintable(store.error()));
            auto report = interop::importFiles(**store, {sampleBundleResource()});
            QVERIFY2(report.ok(), qPrintable(report.error()));
        }
        m_paper = m_dir.filePath(u"paper.gpuf"_s);
        {
            auto store = Store::open(m_paper);
            QVERIFY2(store.ok(), qPrintable(store.error()));
            auto report = interop::importFiles(**store,
                {QStringLiteral(GPUF_SOURCE_DIR "/tests/data/interop/eval_set.jsonl"),
                    QStringLiteral(GPUF_SOURCE_DIR "/tests/data/interop/discovery_pairs.jsonl")});
            QVERIFY2(report.ok(), qPrintable(report.error()));
        }
        m_corpus = m_dir.filePath(u"corpus.gpuf"_s);
        auto store = Store::open(m_corpus);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        auto report = interop::importCorpus(**store, QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"));
        QVERIFY2(report.ok(), qPrintable(report.error()));
    }

    void forecasterIsOneChoice()
    {
        auto w = open(m_sample);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_sample), 30000);
        QMenu *forecasters = menuOf(w->window, u"F&orecast"_s, u"Fore&caster"_s);
        QVERIFY(forecasters);
        QComboBox *table = w->browser->filterBar()->forecasterBox();
        QComboBox *plots = calibrationForecaster(w->calibration);
        QVERIFY(plots);

        // From the menu: the table's prediction columns and the calibration plots follow.
        QTRY_VERIFY(actionOf(forecasters, u"costmodel"_s) != nullptr);
        actionOf(forecasters, u"costmodel"_s)->trigger();
        QCOMPARE(w->selection->forecasterName(), u"costmodel"_s);
        QVERIFY2(table->currentText().startsWith(u"costmodel ("_s), qPrintable(table->currentText()));
        QTRY_COMPARE(plots->currentText(), u"costmodel"_s);
        QCOMPARE(w->settings.forecasterName(), u"costmodel"_s); // remembered for the next start

        // From the table's filter bar: the menu and the plots follow.
        const int heldOut = table->findText(u"costmodel-heldout ("_s, Qt::MatchStartsWith);
        QVERIFY(heldOut >= 0);
        table->setCurrentIndex(heldOut);
        QCOMPARE(w->selection->forecasterName(), u"costmodel-heldout"_s);
        QCOMPARE(plots->currentText(), u"costmodel-heldout"_s);
        // Imported predictions cannot be rerun: the menu shows the choice, the forecast actions say why they are off.
        QVERIFY2(checkedText(forecasters).startsWith(u"costmodel-heldout"_s), qPrintable(checkedText(forecasters)));
        QAction *forecastSelected = w->window.context().forecasts->forecastSelectedAction();
        QVERIFY(forecastSelected);

        // From the calibration plots: the table and the menu follow.
        plots->setCurrentIndex(plots->findText(u"costmodel"_s));
        Q_EMIT plots->activated(plots->currentIndex());
        QCOMPARE(w->selection->forecasterName(), u"costmodel"_s);
        QVERIFY(table->currentText().startsWith(u"costmodel ("_s));
        QCOMPARE(checkedText(forecasters), u"costmodel"_s);
        QCOMPARE(w->browser->filterBar()->forecasterIndex(), table->currentIndex());
    }

    void hardwareIsOneChoiceForTableAndNewForecasts()
    {
        auto w = open(m_sample);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_sample), 30000);
        actionOf(menuOf(w->window, u"F&orecast"_s, u"Fore&caster"_s), u"costmodel"_s)->trigger();
        QMenu *hardware = menuOf(w->window, u"F&orecast"_s, u"&Hardware Shown to Forecasters"_s);
        QVERIFY(hardware);
        QComboBox *table = w->browser->filterBar()->hardwareBox();
        // The sample store's GPUs: the window shows one of them, in the table and in the menu.
        QVERIFY2(
            table->currentText().startsWith(w->selection->hardwareName() + u" ("_s), qPrintable(table->currentText()));
        QCOMPARE(checkedText(hardware), w->selection->hardwareName());

        QAction *h200 = actionOf(hardware, u"NVIDIA H200"_s);
        QVERIFY(h200);
        h200->trigger();
        QCOMPARE(w->selection->hardwareName(), u"NVIDIA H200"_s);
        QVERIFY2(table->currentText().startsWith(u"NVIDIA H200 ("_s), qPrintable(table->currentText()));

        // A candidate forecast now is stored for the H200 the table shows, not for "no GPU".
        QTableView *view = w->browser->tableView();
        int row = -1;
        for (int r = 0; r < view->model()->rowCount() && row < 0; ++r) {
            const RowId id = w->browser->model()->kernelIdAt(r);
            const CandidateTablePtr t = w->browser->model()->table();
            if (!t->rows[t->rowOf(id)].isReference && t->rows[t->rowOf(id)].baselineId != 0)
                row = r;
        }
        QVERIFY(row >= 0);
        view->selectRow(row);
        const RowId candidate = w->selection->candidateId();
        QVERIFY(candidate != 0);
        QAction *reforecast = w->window.context().forecasts->reforecastSelectedAction();
        QTRY_VERIFY(reforecast && reforecast->isEnabled());
        reforecast->trigger();
        RowId h200Id = 0;
        {
            auto store = Store::open(m_sample, Store::Mode::ReadOnly);
            h200Id = (*HardwareRepo(**store).findByName(u"NVIDIA H200"_s))->id;
        }
        const auto newestHardware = [&]() -> RowId {
            auto store = Store::open(m_sample, Store::Mode::ReadOnly);
            if (!store)
                return 0;
            auto forecasts = ForecastRepo(**store).forCandidate(candidate);
            RowId hw = 0, newest = 0;
            for (const Forecast &f : *forecasts) {
                if (f.id > newest) {
                    newest = f.id;
                    hw = f.hardwareId;
                }
            }
            return hw;
        };
        QTRY_COMPARE_WITH_TIMEOUT(newestHardware(), h200Id, 30000);
    }

    // The forecast shown in full beside the table is the window's forecaster's for the window's GPU, when the pair has
    // one; the other GPU's forecast of the same pair stays listed beside it.
    void forecastDockShowsTheWindowsGpu()
    {
        auto w = open(m_sample);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_sample), 30000);
        auto *panel = w->window.context().panels.forecast;
        QVERIFY(panel);
        w->selection->setForecasterName(u"costmodel"_s);
        QTableView *view = w->browser->tableView();
        int row = -1;
        for (int r = 0; r < view->model()->rowCount() && row < 0; ++r) {
            const CandidateTablePtr t = w->browser->model()->table();
            const CandidateRow &c = t->rows[t->rowOf(w->browser->model()->kernelIdAt(r))];
            if (c.name == u"v2_float4"_s && c.problemIndex >= 0 && t->problems[c.problemIndex].name == u"axpy"_s)
                row = r;
        }
        QVERIFY(row >= 0);
        for (const QString &gpu : {u"NVIDIA H100 80GB HBM3"_s, u"NVIDIA H200"_s}) {
            w->selection->setHardwareName(gpu);
            view->clearSelection();
            view->selectRow(row);
            const auto shownGpu = [&] {
                const QModelIndex current = panel->view()->currentIndex();
                return current.isValid() ? current.siblingAtColumn(ForecastRowsModel::HardwareColumn).data().toString()
                                         : QString();
            };
            QTRY_COMPARE_WITH_TIMEOUT(shownGpu(), gpu, 15000);
            QVERIFY(panel->model()->rowCount() >= 2); // both GPUs' forecasts of the pair are listed
        }
    }

    void tauIsOneChoice()
    {
        auto w = open(m_sample);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_sample), 30000);
        QDoubleSpinBox *tableTau = nullptr;
        for (QDoubleSpinBox *spin : w->browser->filterBar()->findChildren<QDoubleSpinBox *>()) {
            if (spin->toolTip().startsWith(u"τ"_s))
                tableTau = spin;
        }
        QVERIFY(tableTau);
        QSlider *slider = w->calibration->riskCoveragePlot()->thresholdSlider();

        slider->setValue(700); // the calibration plots' τ slider
        QCOMPARE(w->selection->trustThreshold(), 0.7);
        QCOMPARE(tableTau->value(), 0.7);
        QCOMPARE(w->settings.measureConfidenceThreshold(), 0.7); // "Measure Low-Confidence" uses it too

        tableTau->setValue(0.35); // the candidate table's τ
        QCOMPARE(w->selection->trustThreshold(), 0.35);
        QCOMPARE(slider->value(), 350);
        QCOMPARE(w->calibration->riskCoveragePlot()->threshold(), 0.35);
    }

    // A retrained model is a forecaster of its own and becomes the window's choice — and stays it once the table,
    // read again, holds it.
    void retrainedModelBecomesTheWindowsForecaster()
    {
        auto w = open(m_sample);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_sample), 30000);
        auto *retrainer = w->window.findChild<CostModelRetrainer *>();
        QVERIFY(retrainer);
        costmodel::RetrainOptions options;
        options.parameters.rounds = 20;
        options.operations = {u"axpy"_s, u"reduce_sum"_s};
        options.hardware = {u"NVIDIA H100 80GB HBM3"_s};
        options.forecasterName = u"costmodel (retrained, two operations)"_s;
        QSignalSpy finished(retrainer, &CostModelRetrainer::finished);
        QVERIFY(retrainer->start(options));
        QVERIFY(finished.wait(120000));
        QTRY_COMPARE(w->selection->forecasterName(), options.forecasterName);
        QComboBox *table = w->browser->filterBar()->forecasterBox();
        QTRY_VERIFY2(table->currentText().startsWith(options.forecasterName + u" (0 forecasts)"_s),
            qPrintable(table->currentText()));
        QVERIFY(w->browser->filterBar()->forecasterIndex() >= 0); // the store's row, read again
        QCOMPARE(w->selection->forecasterName(), options.forecasterName);
        QCOMPARE(checkedText(menuOf(w->window, u"F&orecast"_s, u"Fore&caster"_s)), options.forecasterName);
    }

    // Imported paper rows name no reference: "Forecast Problem" forecasts the problem's labelled pairs (an eval set's
    // anchor/candidate) on the window's GPU instead of finding nothing.
    void forecastProblemTakesLabelledPairs()
    {
        auto w = open(m_paper);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_paper), 30000);
        const CandidateTablePtr table = w->browser->model()->table();
        const int problem = table->problemIndexOf(table->rows.first().problemId);
        QVERIFY(problem >= 0);
        w->selection->setScope(table->problems[problem].id);
        auto *controller = w->window.context().forecasts;
        QVERIFY(controller);
        // The labelled pairs of that problem on the window's GPU (or on none), as the store holds them.
        QSet<std::pair<RowId, RowId>> expected;
        {
            auto store = Store::open(m_paper, Store::Mode::ReadOnly);
            auto hardware = HardwareRepo(**store).findByName(w->selection->hardwareName());
            const RowId gpu = hardware.ok() && hardware->has_value() ? (**hardware).id : 0;
            const auto labels = PairLabelRepo(**store).list(); // kept: a range over the temporary would dangle
            QVERIFY(labels.ok());
            for (const PairLabel &l : *labels) {
                const int row = table->rowOf(l.candidateKernelId);
                if (row >= 0 && table->rows[row].problemId == table->problems[problem].id
                    && (l.hardwareId == gpu || l.hardwareId == 0))
                    expected.insert({l.referenceKernelId, l.candidateKernelId});
            }
        }
        QVERIFY(!expected.isEmpty());
        // And each kernel against its baseline (the problem's reference, else its newest label's reference).
        for (const CandidateRow &row : table->rows) {
            if (row.problemId == table->problems[problem].id && !row.isReference && row.baselineId != 0)
                expected.insert({row.baselineId, row.id});
        }
        QSet<std::pair<RowId, RowId>> got;
        for (const ForecastPair &p : controller->problemPairs())
            got.insert({p.referenceKernelId, p.candidateKernelId});
        QCOMPARE(got, expected);
        QAction *forecastProblem = w->window.context().forecasts->forecastProblemAction();
        QTRY_VERIFY(forecastProblem && forecastProblem->isEnabled());
    }

    void anotherStoreResetsWhatItLacks()
    {
        auto w = open(m_sample);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_sample), 30000);
        w->selection->setForecasterName(u"costmodel-heldout"_s);
        QMenu *forecasters = menuOf(w->window, u"F&orecast"_s, u"Fore&caster"_s);

        w->session.open(m_corpus); // no forecaster, no forecast
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_corpus), 30000);
        QTRY_COMPARE(w->selection->forecasterName(), u"costmodel"_s); // every store's built-in forecaster
        QComboBox *table = w->browser->filterBar()->forecasterBox();
        QVERIFY2(table->currentText().startsWith(u"costmodel"_s), qPrintable(table->currentText()));
        QCOMPARE(w->browser->filterBar()->forecasterIndex(), -1); // nothing of it in this store yet
        QTRY_COMPARE(checkedText(forecasters), u"costmodel"_s);
        // The hardware is one the table can show, or none when the store measured nothing.
        const CandidateTablePtr t = w->browser->model()->table();
        if (t->defaultHardware >= 0)
            QCOMPARE(w->selection->hardwareName(), t->hardware[t->defaultHardware].name);
    }

    // A case file (issue 28) opens, as a double-click opens it, in a store of its own on the case's pair, with the
    // forecaster, GPU and τ the window had when it was written; opened again, it reuses that store and adds nothing.
    void caseFileOpensOnItsPair()
    {
        // A pair the held-out cost model forecast on a GPU: the view names a forecaster that is not the default.
        RowId candidate = 0;
        QString hardware;
        QString kernelName;
        const QString caseFile = m_dir.filePath(u"pair.gpufcase"_s);
        {
            auto store = Store::open(m_sample);
            QVERIFY(store);
            auto heldOut = ForecasterRepo(**store).findByName(u"costmodel-heldout"_s);
            QVERIFY(heldOut && heldOut->has_value());
            auto forecasts = ForecastRepo(**store).list();
            QVERIFY(forecasts);
            for (const Forecast &f : std::as_const(*forecasts)) {
                if (f.forecasterId == (*heldOut)->id && f.hardwareId > 0) {
                    candidate = f.candidateKernelId;
                    auto h = HardwareRepo(**store).list();
                    QVERIFY(h);
                    for (const Hardware &one : std::as_const(*h)) {
                        if (one.id == f.hardwareId)
                            hardware = one.name;
                    }
                    break;
                }
            }
            QVERIFY(candidate > 0 && !hardware.isEmpty());
            auto kernel = KernelRepo(**store).find(candidate);
            QVERIFY(kernel && kernel->has_value());
            kernelName = (*kernel)->name;
            QVERIFY(interop::exportCase(**store, caseFile, candidate, {u"costmodel-heldout"_s, hardware, 0.7}));
        }
        auto view = interop::readCaseView(caseFile);
        QVERIFY2(view, qPrintable(view.error()));
        QCOMPARE(view->forecaster, u"costmodel-heldout"_s);

        auto w = open(m_sample);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_sample), 30000);
        w->window.openPath(caseFile);
        QTRY_VERIFY_WITH_TIMEOUT(w->session.path().startsWith(caseStoreFolder()), 30000);
        const QString caseStore = w->session.path();
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, caseStore), 30000);

        // What the user sees: the case's problem (its reference and the candidate), the candidate focused and
        // selected, the case's forecaster in the table's box, its GPU and τ, and the case's store in the title.
        CandidateTableModel *model = w->browser->model();
        QTRY_COMPARE(model->rowCount(), 2);
        QTRY_VERIFY(w->selection->candidateId() > 0);
        const QModelIndex current = w->browser->tableView()->selectionModel()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.data(CandidateTableModel::KernelIdRole).toLongLong(), w->selection->candidateId());
        QCOMPARE(model->index(current.row(), CandidateColumn::NameColumn).data().toString(), kernelName);
        QCOMPARE(w->selection->selectedIds(), QList<RowId> {w->selection->candidateId()});
        QVERIFY2(w->browser->filterBar()->forecasterBox()->currentText().startsWith(u"costmodel-heldout ("_s),
            qPrintable(w->browser->filterBar()->forecasterBox()->currentText()));
        QCOMPARE(w->selection->hardwareName(), hardware);
        QCOMPARE(w->selection->trustThreshold(), 0.7);
        QVERIFY2(
            w->window.windowTitle().startsWith(QFileInfo(caseStore).fileName()), qPrintable(w->window.windowTitle()));

        // The export action is offered for the focused candidate and refused for a reference, saying why.
        auto *exportCase = w->window.findChild<QAction *>(u"exportCase"_s);
        QVERIFY(exportCase);
        QTRY_VERIFY(exportCase->isEnabled());

        // Opened again: the same store, nothing twice.
        qint64 measurements = 0;
        {
            auto store = Store::open(caseStore, Store::Mode::ReadOnly);
            QVERIFY(store);
            measurements = (*store)->counts()->measurements;
            QVERIFY(measurements > 0);
        }
        w->session.open(m_sample);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_sample), 30000);
        w->window.openPath(caseFile);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, caseStore), 30000);
        auto store = Store::open(caseStore, Store::Mode::ReadOnly);
        QVERIFY(store);
        QCOMPARE((*store)->counts()->measurements, measurements);
    }

    // A file named as a case that is a whole bundle is refused with a sentence; the open store stays open.
    void bundleIsNoCaseFile()
    {
        const QString file = m_dir.filePath(u"whole.gpufcase"_s);
        QVERIFY(QFile::copy(sampleBundleResource(), file));
        auto w = open(m_sample);
        QTRY_VERIFY_WITH_TIMEOUT(tableShown(*w, m_sample), 30000);
        QSignalSpy failed(&w->session, &StoreSession::openFailed);
        w->window.openPath(file);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
        QVERIFY2(failed.first().at(1).toString().contains(u"not a case file"_s),
            qPrintable(failed.first().at(1).toString()));
        QCOMPARE(w->session.path(), m_sample);
    }
};

QTEST_MAIN(TestWindowChoices)
#include "tst_window_choices.moc"
