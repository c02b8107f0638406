// The Searches dock running and steering real replay searches: a store with the corpus's recorded runtimes, the real
// SearchesPanel with a SearchController, offscreen. Start (New Search…), single step, resume, pause, each steering act
// and its event in the store, a settings change, selecting a node (the window's selection), and a search whose
// `gpuf search start` process was killed: shown as interrupted, resumed to completion from the dock.
#include "../search/search_fixture.h"
#include "core/search/certified_trust.h"
#include "core/search/search_host.h"
#include "core/search/search_setup.h"
#include "core/session/candidate_source.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_follower.h"
#include "core/session/store_session.h"
#include "core/store/search_repo.h"
#include "tests/support/session_open.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/search/lineage_canvas.h"
#include "widgets/search/lineage_view.h"
#include "widgets/search/new_search_dialog.h"
#include "widgets/search/progress_plot.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/search_follower.h"
#include "widgets/search/search_models.h"
#include "widgets/search/search_nodes_model.h"
#include "widgets/search/search_pace.h"
#include "widgets/search/search_steering.h"
#include "widgets/search/searches_panel.h"
#include "widgets/search/steering_dialogs.h"
#include "widgets/search/step_models.h"
#include "widgets/search/step_view.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace gpuf;
using namespace gpuf::search;

namespace {

SearchConfig replayConfig(Mode mode, int steps, quint64 seed = 7)
{
    SearchConfig c;
    c.mode = mode;
    c.problem = QStringLiteral("sgemm");
    c.steps = steps;
    c.parentsPerStep = 2;
    c.measurementsPerParent = 2;
    c.proposalsPerParent = mode == Mode::Standard ? 2 : 4;
    c.seed = seed;
    c.gpu = search::GpuSource::replay();
    c.forecaster = mode == Mode::Standard ? QString() : QStringLiteral("costmodel");
    return c;
}

// The kinds of a stored search's events, in order (read through a connection of the test's own).
QStringList storedKinds(const QString &path, const QString &name, QList<SearchEvent> *events = nullptr)
{
    auto store = Store::open(path, Store::Mode::ExistingOnly);
    if (!store)
        return {store.error()};
    SearchRepo repo(**store);
    auto search = repo.findByName(name);
    if (!search || !*search)
        return {};
    auto all = repo.events((*search)->id);
    QStringList kinds;
    for (const SearchEvent &e : *all)
        kinds << e.kind;
    if (events)
        *events = *all;
    return kinds;
}

// What New Search… offers for the store at `path` (the read the dock makes, on a connection of the test's own).
Result<NewSearchChoices> newSearchChoices(const QString &path)
{
    auto store = Store::open(path, Store::Mode::ReadOnly);
    if (!store)
        return store.failure();
    return readNewSearchChoices(**store, {});
}

QString cell(const QAbstractItemModel *model, int row, int column)
{
    return model->index(row, column).data().toString();
}

QAction *menuAction(QMenu *menu, const QString &text)
{
    for (QAction *a : menu->actions()) {
        if (a->text() == text)
            return a;
    }
    return nullptr;
}

} // namespace

class TestSearchWorkspace : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_world;

    QString freshStore(const QString &name)
    {
        QString path = m_dir.filePath(name);
        QFile::remove(path);
        QFile::copy(m_world, path);
        return path;
    }

    struct Dock
    {
        StoreSession session;
        Selection selection;
        SearchController controller {&session};
        SearchesPanel panel {&session, &controller, &selection};
    };

    // Opens `path` in a fresh dock and waits for its list.
    static bool openIn(Dock &dock, const QString &path)
    {
        return test::openSession(dock.session, path)
            && QTest::qWaitFor(
                [&] { return !dock.panel.isLoading() && dock.panel.searchModel()->rowCount() > 0; }, 20000);
    }

    static QString status(Dock &dock, const QString &name)
    {
        const int row = dock.panel.searchModel()->rowOfName(name);
        return row < 0 ? QString() : cell(dock.panel.searchModel(), row, SearchListModel::StatusColumn);
    }

    // The figures of one search as the user reads them, three ways: the list's row (patched from the engine), the live
    // line above the tree, and a fresh fold of the stored log (what the list shows after a reload, or in another
    // window). Returns what differs, empty when they agree.
    static QString figuresDisagree(Dock &dock, const QString &path, const QString &name)
    {
        QList<SearchEvent> events;
        storedKinds(path, name, &events);
        const SearchSummary stored = summarizeSearch(Search {}, events);
        const SearchListModel *list = dock.panel.searchModel();
        const int row = list->rowOfName(name);
        if (row < 0)
            return QStringLiteral("no row for %1").arg(name);
        const QString live = dock.panel.liveLabel()->text();
        QStringList wrong;
        auto check = [&](const char *what, int column, qint64 expected, const QString &phrase) {
            const QString shown = cell(list, row, column);
            if (shown != QLocale().toString(expected))
                wrong << QStringLiteral("%1: list %2, log %3").arg(QLatin1StringView(what), shown).arg(expected);
            if (!live.contains(phrase))
                wrong << QStringLiteral("%1: live line lacks \"%2\"").arg(QLatin1StringView(what), phrase);
        };
        check("steps", SearchListModel::StepsColumn, stored.steps, QStringLiteral("· %1 of ").arg(stored.steps));
        check("GPU evaluations", SearchListModel::GpuEvaluationsColumn, stored.gpuEvaluations,
            QStringLiteral("%1 GPU evaluation").arg(stored.gpuEvaluations));
        check("forecasts", SearchListModel::ForecastsColumn, stored.forecasts,
            QStringLiteral("%1 forecast").arg(stored.forecasts));
        if (stored.evaluationFailures > 0
            && !live.contains(QStringLiteral("%1 could not run").arg(stored.evaluationFailures)))
            wrong << QStringLiteral("live line lacks %1 failures to run").arg(stored.evaluationFailures);
        return wrong.isEmpty() ? QString() : wrong.join(QStringLiteral("; ")) + QStringLiteral(" — live: ") + live;
    }

    static const SearchState *state(Dock &dock) { return dock.panel.follower()->state(); }
    // Steps completed as the dock shows them; -1 while it reads the log.
    static int steps(Dock &dock) { return state(dock) ? state(dock)->completedSteps() : -1; }
    static bool isPaused(Dock &dock) { return state(dock) && state(dock)->paused; }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_world = m_dir.filePath(QStringLiteral("world.gpuf"));
        const QString error = testing::makeWorldStore(m_world);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void statusOfALog_data()
    {
        QTest::addColumn<bool>("own");
        QTest::addColumn<bool>("finished");
        QTest::addColumn<bool>("stopped");
        QTest::addColumn<bool>("paused");
        QTest::addColumn<QString>("live");
        QTest::addColumn<QString>("expected");
        QTest::newRow("log ends mid-search") << true << false << false << false << ""
                                             << "interrupted — resumable";
        QTest::newRow("running here") << true << false << false << false << "waiting"
                                      << "running";
        QTest::newRow("paused in the log") << true << false << false << true << ""
                                           << "paused";
        QTest::newRow("finished") << true << true << false << false << ""
                                  << "finished";
        QTest::newRow("stopped wins") << true << true << true << false << ""
                                      << "stopped";
        QTest::newRow("imported") << false << false << false << false << ""
                                  << "recorded";
        QTest::newRow("engine failed") << true << false << false << false << "failed"
                                       << "failed";
    }

    void statusOfALog()
    {
        QFETCH(bool, own);
        QFETCH(bool, finished);
        QFETCH(bool, stopped);
        QFETCH(bool, paused);
        QFETCH(QString, live);
        SearchSummary s;
        s.ownEngine = own;
        s.finished = finished;
        s.stopped = stopped;
        s.paused = paused;
        QTEST(searchStatusText(searchStatus(s, runStatusFromName(live))), "expected"); // "": no engine runs it
    }

    // The form follows its target: a family proposes with its own mutator, standard proposes what it measures, and an
    // impossible budget says why instead of starting.
    void newSearchForm()
    {
        NewSearchChoices choices;
        choices.targets = {{QStringLiteral("sgemm"), {}, QStringLiteral("sgemm")},
            {QStringLiteral("transpose"), QStringLiteral("transpose"), QStringLiteral("Tiled transpose")}};
        choices.forecasters = {QStringLiteral("costmodel"), QStringLiteral("qwen")};
        choices.llmForecasters = {QStringLiteral("qwen")};
        choices.searches = {QStringLiteral("earlier")};
        choices.hardware = {QStringLiteral("NVIDIA H100 80GB HBM3")};
        NewSearchDialog dialog(choices);
        QCOMPARE(dialog.mutatorBox()->currentData().toString(), QStringLiteral("pool"));
        dialog.targetBox()->setCurrentIndex(1);
        QCOMPARE(dialog.mutatorBox()->currentData().toString(), QStringLiteral("family"));
        auto config = dialog.config();
        QVERIFY(config);
        QCOMPARE(config->mutatorConfig.value(QStringLiteral("family")).toString(), QStringLiteral("transpose"));
        QCOMPARE(config->problem, QStringLiteral("transpose"));
        // Replayed without a recorded sweep of the family on that GPU, nothing could answer: the form says so and
        // does not offer to start.
        QCOMPARE(config->gpu.name(), QStringLiteral("replay"));
        QVERIFY2(dialog.costLabel()->text().contains(
                     QStringLiteral("The store has no recorded sweep of transpose, so a replay has nothing to answer "
                                    "with. Import one (File → Import…")),
            qPrintable(dialog.costLabel()->text()));
        QVERIFY(!dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
        dialog.targetBox()->setCurrentIndex(0);
        QVERIFY(!dialog.costLabel()->text().contains(QLatin1StringView("recorded sweep")));
        QVERIFY(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
        // With the sweep in the store (as in the sample store), the family replays from it.
        choices.recorded = {
            {QStringLiteral("transpose"), QStringLiteral("transpose"), QStringLiteral("NVIDIA H100 80GB HBM3"), 216}};
        NewSearchDialog swept(choices);
        swept.targetBox()->setCurrentIndex(1);
        QVERIFY2(swept.costLabel()->text().contains(
                     QLatin1StringView("Replay answers from the store's recorded sweep of transpose on NVIDIA H100 "
                                       "80GB HBM3 (216 configurations)")),
            qPrintable(swept.costLabel()->text()));
        QVERIFY(swept.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
        // Another GPU chosen, one without that sweep: said, and not offered.
        choices.hardware.append(QStringLiteral("NVIDIA H200"));
        NewSearchDialog other(choices);
        other.targetBox()->setCurrentIndex(1);
        for (QComboBox *box : other.findChildren<QComboBox *>()) {
            if (const int at = box->findData(QStringLiteral("NVIDIA H200")); at >= 0)
                box->setCurrentIndex(at);
        }
        QVERIFY2(other.costLabel()->text().contains(QLatin1StringView(
                     "The store has no recorded sweep of transpose on NVIDIA H200, so a replay has nothing to answer")),
            qPrintable(other.costLabel()->text()));
        QVERIFY(!other.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
        dialog.targetBox()->setCurrentIndex(1);
        QVERIFY(!dialog.proposalsBox()->isEnabled()); // standard
        QCOMPARE(config->proposalsPerParent, config->measurementsPerParent);
        // Selective looks at 4× what it measures, and the user's figure stays while typed (through 1 to 12).
        dialog.modeBox()->setCurrentIndex(dialog.modeBox()->findData(QStringLiteral("selective")));
        QCOMPARE(dialog.proposalsBox()->value(), 4 * dialog.measureBox()->value());
        dialog.proposalsBox()->setValue(1);
        QCOMPARE(dialog.proposalsBox()->value(), 1);
        QVERIFY(!dialog.config()); // fewer proposals than measurements: said, not started
        dialog.proposalsBox()->setValue(12);
        QVERIFY(dialog.config());
        // With the LLM forecaster every forecast is an LLM call.
        for (QComboBox *box : dialog.findChildren<QComboBox *>()) {
            if (box->findText(QStringLiteral("qwen")) >= 0 && box->isEnabled() && box != dialog.mutatorBox())
                box->setCurrentIndex(box->findText(QStringLiteral("qwen")));
        }
        QVERIFY(dialog.cost().llmCalls > 0);
        QCOMPARE(dialog.cost().llmCalls, dialog.cost().forecasts);
        QVERIFY2(dialog.costLabel()->text().contains(QLatin1StringView("LLM calls")),
            qPrintable(dialog.costLabel()->text()));
        dialog.setSearchName(QString());
        QVERIFY(!dialog.config());
        QCOMPARE(dialog.costLabel()->text(), QStringLiteral("Give the search a name."));
    }

    // The policy and the certified setting in the form: what the user reads in the boxes, which ones apply to the mode,
    // and the configuration they make (--policy, --alpha).
    void newSearchTrustFields()
    {
        NewSearchChoices choices;
        choices.targets = {{QStringLiteral("sgemm"), {}, QStringLiteral("sgemm")}};
        choices.forecasters = {QStringLiteral("costmodel")};
        NewSearchDialog dialog(choices);
        const auto *form = dialog.findChild<QFormLayout *>();
        QVERIFY(form);
        const auto labelOf = [form](QWidget *field) -> QString {
            const auto *label = qobject_cast<QLabel *>(form->labelForField(field));
            return label ? label->text() : QString();
        };
        QCOMPARE(labelOf(dialog.policyBox()), QStringLiteral("Policy:"));
        QCOMPARE(labelOf(dialog.alphaBox()), QStringLiteral("Acceptable error α:"));
        QCOMPARE(
            dialog.policyBox()->itemText(0), QStringLiteral("probability — measure what is likely to beat the best"));
        QCOMPARE(dialog.policyBox()->itemText(1), QStringLiteral("paper — rank by expected bin, trust by confidence"));
        QCOMPARE(dialog.alphaBox()->text(), QStringLiteral("off — τ as given"));
        // Standard forecasts nothing: neither applies, and the configuration carries none.
        QVERIFY(!dialog.policyBox()->isEnabled());
        QVERIFY(!dialog.alphaBox()->isEnabled());
        QCOMPARE(dialog.config()->alpha, 0.0);
        dialog.modeBox()->setCurrentIndex(dialog.modeBox()->findData(QStringLiteral("selective")));
        // The probability policy trusts no forecast by τ: the box is off until the paper's policy is chosen.
        QVERIFY(dialog.policyBox()->isEnabled() && dialog.alphaBox()->isEnabled() && !dialog.tauBox()->isEnabled());
        QCOMPARE(dialog.config()->policy, Policy::Probability);
        dialog.policyBox()->setCurrentIndex(1);
        QVERIFY(dialog.tauBox()->isEnabled());
        dialog.alphaBox()->setValue(0.1);
        QCOMPARE(dialog.alphaBox()->text(), QLocale().toString(0.1, 'f', 2));
        QVERIFY(!dialog.tauBox()->isEnabled()); // α sets τ before each step
        auto config = dialog.config();
        QVERIFY(config);
        QCOMPARE(config->policy, Policy::Paper);
        QCOMPARE(config->alpha, 0.1);
        dialog.alphaBox()->setValue(0.0);
        QVERIFY(dialog.tauBox()->isEnabled());
        QCOMPARE(dialog.config()->alpha, 0.0);
    }

    // A problem's recorded pool: the form says how many kernels it holds, promises no more GPU evaluations than that
    // and allows only the steps it can feed; GUI and CLI share their defaults (40 steps, seed 0).
    void newSearchPoolCap()
    {
        NewSearchChoices choices;
        choices.targets = {{QStringLiteral("sgemm"), {}, QStringLiteral("sgemm")}};
        choices.forecasters = {QStringLiteral("costmodel")};
        choices.hardware = {QStringLiteral("NVIDIA H100 80GB HBM3"), QStringLiteral("NVIDIA H200")};
        choices.searches = {QStringLiteral("earlier")};
        choices.pools
            = {{QStringLiteral("sgemm"), QStringLiteral("sgemm"), QStringLiteral("NVIDIA H100 80GB HBM3"), 10, true},
                {QStringLiteral("sgemm"), QStringLiteral("sgemm"), QStringLiteral("NVIDIA H200"), 6, true}};
        NewSearchDialog dialog(choices);
        QCOMPARE(dialog.mutatorBox()->currentData().toString(), QStringLiteral("pool"));
        auto config = dialog.config();
        QVERIFY(config);
        QCOMPARE(config->seed, quint64(0));
        // 4 proposals per parent: 10 kernels are all proposed within 3 steps, so 40 is capped there.
        QCOMPARE(dialog.stepsBox()->maximum(), 3);
        QCOMPARE(dialog.stepsBox()->value(), 3);
        const QString text = dialog.costLabel()->text();
        QVERIFY2(text.contains(QLatin1StringView("at most 10 GPU evaluations")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1StringView("The recorded pool of sgemm on NVIDIA H100 80GB HBM3 holds 10 "
                                                 "kernels: each is proposed once, and the search ends when all are "
                                                 "(after 3 steps at most).")),
            qPrintable(text));
        // The other GPU's pool is smaller.
        for (QComboBox *box : dialog.findChildren<QComboBox *>()) {
            if (const int at = box->findData(QStringLiteral("NVIDIA H200")); at >= 0)
                box->setCurrentIndex(at);
        }
        QVERIFY2(dialog.costLabel()->text().contains(QLatin1StringView("at most 6 GPU evaluations")),
            qPrintable(dialog.costLabel()->text()));
        QCOMPARE(dialog.stepsBox()->maximum(), 2);
        // On this machine's GPU the pool is the GPU's with most runs; a recorded search's proposals are not capped.
        dialog.gpuBox()->setCurrentIndex(dialog.gpuBox()->findData(QStringLiteral("local")));
        QCOMPARE(dialog.stepsBox()->maximum(), 3);
        dialog.mutatorBox()->setCurrentIndex(dialog.mutatorBox()->findData(QStringLiteral("log")));
        QVERIFY(dialog.stepsBox()->maximum() > 1000);
        // Every field says what it is.
        for (QWidget *field : dialog.findChildren<QWidget *>()) {
            if (qobject_cast<QComboBox *>(field) || qobject_cast<QAbstractSpinBox *>(field)
                || qobject_cast<QLineEdit *>(field)) {
                if (field->parentWidget() == &dialog)
                    QVERIFY2(!field->toolTip().isEmpty(), qPrintable(field->objectName()));
            }
        }
    }

    // A replay at a pace a person can watch: New Search… offers the pace and "start paused"; the search waits before
    // its first step, runs at most that many steps a second once resumed (the live line says so), and the toolbar's
    // pace changes it while it runs.
    void paceAndStartPaused()
    {
        const QString path = freshStore(QStringLiteral("paced.gpuf"));
        Dock dock;
        QVERIFY(test::openSession(dock.session, path));
        QTRY_VERIFY_WITH_TIMEOUT(!dock.panel.isLoading(), 20000);
        auto choices = newSearchChoices(path);
        QVERIFY2(choices, qPrintable(choices ? QString() : choices.error()));
        NewSearchDialog *dialog = dock.panel.openNewSearchDialog(*choices);
        dialog->targetBox()->setCurrentIndex(dialog->targetBox()->findData(QStringLiteral("sgemm")));
        dialog->measureBox()->setValue(2);
        dialog->stepsBox()->setValue(30);
        // A replay is offered at two steps a second; this machine's GPU sets its own pace.
        QCOMPARE(dialog->paceBox()->value(), kWatchablePace);
        QCOMPARE(dialog->paceBox()->text(), QLocale().toString(2.0, 'f', 1) + QStringLiteral(" steps/s"));
        dialog->gpuBox()->setCurrentIndex(dialog->gpuBox()->findData(QStringLiteral("local")));
        QVERIFY(!dialog->paceBox()->isEnabled());
        QCOMPARE(dialog->pace(), 0.0);
        dialog->gpuBox()->setCurrentIndex(dialog->gpuBox()->findData(QStringLiteral("replay")));
        QVERIFY(dialog->paceBox()->isEnabled());
        dialog->paceBox()->setValue(0.0);
        QCOMPARE(dialog->paceBox()->text(), QStringLiteral("full speed"));
        dialog->paceBox()->setValue(4.0);
        dialog->startPausedBox()->setChecked(true);
        dialog->setSearchName(QStringLiteral("watched"));
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();

        // Paused before its first step: nothing ran, and the log says so.
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("watched")), QStringLiteral("paused"), 30000);
        QTRY_VERIFY(state(dock) && state(dock)->paused);
        QCOMPARE(steps(dock), 0);
        QStringList kinds = storedKinds(path, QStringLiteral("watched"));
        QVERIFY2(kinds.contains(QStringLiteral("search_paused")) && !kinds.contains(QStringLiteral("step_started")),
            qPrintable(kinds.join(QLatin1Char(' '))));
        QVERIFY(dock.panel.paceBox()->isEnabled());
        QCOMPARE(dock.panel.paceBox()->pace(), 4.0);

        // Resumed: four steps a second at most, which the live line says.
        QElapsedTimer clock;
        clock.start();
        dock.panel.resumeAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(steps(dock) >= 3, 30000);
        QVERIFY2(clock.elapsed() >= 450, qPrintable(QString::number(clock.elapsed()))); // two waits of 250 ms
        {
            // In the log: each of those steps began at least 250 ms after the one before it ended.
            QList<SearchEvent> events;
            storedKinds(path, QStringLiteral("watched"), &events);
            QDateTime ended;
            int waits = 0;
            for (const SearchEvent &e : std::as_const(events)) {
                if (e.kind == QLatin1StringView("step_completed"))
                    ended = e.time;
                if (e.kind == QLatin1StringView("step_started") && ended.isValid() && waits < 2) {
                    QVERIFY2(ended.msecsTo(e.time) >= 245, qPrintable(QString::number(ended.msecsTo(e.time))));
                    ++waits;
                }
            }
            QCOMPARE(waits, 2);
        }
        QTRY_VERIFY2(dock.panel.liveLabel()->text().contains(QStringLiteral("· at most 4 steps/s")),
            qPrintable(dock.panel.liveLabel()->text()));
        QVERIFY(steps(dock) < 30);
        // Full speed from the toolbar while it runs: the rest (at least 6 s at four a second) runs at once.
        clock.restart();
        dock.panel.paceBox()->box()->setValue(0.0);
        QCOMPARE(dock.panel.paceBox()->box()->text(), QStringLiteral("full speed"));
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("watched")), QStringLiteral("finished"), 30000);
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QTRY_VERIFY(!dock.panel.liveLabel()->text().contains(QLatin1StringView("steps/s")));
    }

    // New Search… opens with what it was last started with (kept in Settings), and every field has a tooltip.
    void newSearchRemembersChoices()
    {
        QStandardPaths::setTestModeEnabled(true);
        Settings settings;
        settings.setNewSearchChoices({});
        const QString path = freshStore(QStringLiteral("remembered.gpuf"));
        Dock dock;
        dock.panel.setSettings(&settings);
        QVERIFY(test::openSession(dock.session, path));
        QTRY_VERIFY_WITH_TIMEOUT(!dock.panel.isLoading(), 20000);
        auto choices = newSearchChoices(path);
        QVERIFY(choices);
        NewSearchDialog *first = dock.panel.openNewSearchDialog(*choices);
        first->targetBox()->setCurrentIndex(first->targetBox()->findData(QStringLiteral("sgemm")));
        QCOMPARE(first->stepsBox()->value(), SearchConfig {}.steps); // nothing remembered yet
        for (QWidget *field : first->findChildren<QWidget *>()) {
            if (qobject_cast<QComboBox *>(field) || qobject_cast<QAbstractSpinBox *>(field)
                || qobject_cast<QLineEdit *>(field) || qobject_cast<QCheckBox *>(field)) {
                if (field->parentWidget() == first)
                    QVERIFY2(!field->toolTip().isEmpty(), field->metaObject()->className());
            }
        }
        first->modeBox()->setCurrentIndex(first->modeBox()->findData(QStringLiteral("selective")));
        first->measureBox()->setValue(3);
        first->proposalsBox()->setValue(9);
        first->stepsBox()->setValue(7);
        first->tauBox()->setValue(0.35);
        first->policyBox()->setCurrentIndex(first->policyBox()->findData(QStringLiteral("paper")));
        first->seedBox()->setValue(11);
        first->paceBox()->setValue(1.5);
        first->startPausedBox()->setChecked(true);
        first->setSearchName(QStringLiteral("first"));
        first->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("first")), QStringLiteral("paused"), 30000);

        // The next New Search… shows the same choices (a name of its own).
        NewSearchDialog *again = dock.panel.openNewSearchDialog(*choices);
        QVERIFY(again->searchName() != QLatin1StringView("first"));
        QCOMPARE(again->modeBox()->currentData().toString(), QStringLiteral("selective"));
        QCOMPARE(again->measureBox()->value(), 3);
        QCOMPARE(again->proposalsBox()->value(), 9);
        QCOMPARE(again->stepsBox()->value(), 7);
        QCOMPARE(again->tauBox()->value(), 0.35);
        QCOMPARE(again->policyBox()->currentData().toString(), QStringLiteral("paper"));
        QCOMPARE(again->seedBox()->value(), 11);
        QCOMPARE(again->paceBox()->value(), 1.5);
        QVERIFY(again->startPausedBox()->isChecked());
        QCOMPARE(again->targetBox()->currentData().toString(), QStringLiteral("sgemm"));
        again->reject();
        // Another window (a later start) reads them from the settings too.
        Settings later;
        QCOMPARE(later.newSearchChoices().value(QStringLiteral("pace")).toDouble(), 1.5);
        settings.setNewSearchChoices({});
    }

    // One set of defaults: what `gpuf search start` stores when given no budget or seed is what New Search… starts
    // with, and what gpuf search --help says.
    void defaultsAgreeWithTheCli()
    {
        const QString path = freshStore(QStringLiteral("defaults.gpuf"));
        QProcess cli;
        cli.start(QStringLiteral(GPUF_CLI_PATH),
            {QStringLiteral("search"), QStringLiteral("start"), path, QStringLiteral("--name"), QStringLiteral("cli"),
                QStringLiteral("--problem"), QStringLiteral("sgemm"), QStringLiteral("--paused"),
                QStringLiteral("--quiet")});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        auto store = Store::open(path, Store::Mode::ReadOnly);
        QVERIFY(store);
        auto stored = foldStoredSearch(**store, QStringLiteral("cli"));
        QVERIFY2(stored, qPrintable(stored ? QString() : stored.error()));
        auto choices = newSearchChoices(path);
        QVERIFY(choices);
        NewSearchDialog dialog(*choices);
        dialog.targetBox()->setCurrentIndex(dialog.targetBox()->findData(QStringLiteral("sgemm")));
        auto shown = dialog.config();
        QVERIFY(shown);
        const SearchConfig &cliConfig = stored->config;
        QCOMPARE(shown->steps, cliConfig.steps);
        QCOMPARE(shown->seed, cliConfig.seed);
        QCOMPARE(shown->parentsPerStep, cliConfig.parentsPerStep);
        QCOMPARE(shown->measurementsPerParent, cliConfig.measurementsPerParent);
        QCOMPARE(shown->proposalsPerParent, cliConfig.proposalsPerParent);
        QCOMPARE(shown->keepPerParent, cliConfig.keepPerParent);
        QCOMPARE(shown->tau, cliConfig.tau);
        QCOMPARE(search::modeName(shown->mode), search::modeName(cliConfig.mode));
        QCOMPARE(shown->gpu.name(), cliConfig.gpu.name());
        QCOMPARE(search::mutatorName(shown->mutator), search::mutatorName(cliConfig.mutator));
        // Both are SearchConfig's own, and the help and the tooltips name the same figures.
        QCOMPARE(cliConfig.steps, SearchConfig {}.steps);
        QCOMPARE(cliConfig.seed, SearchConfig {}.seed);
        cli.start(QStringLiteral(GPUF_CLI_PATH), {QStringLiteral("search"), QStringLiteral("--help")});
        QVERIFY(cli.waitForFinished(60000));
        const QString help = QString::fromUtf8(cli.readAllStandardOutput()).simplified();
        QVERIFY2(help.contains(QStringLiteral("Steps (default %1).").arg(shown->steps)), qPrintable(help));
        QVERIFY2(help.contains(QStringLiteral("Seed (default %1).").arg(shown->seed)), qPrintable(help));
        QVERIFY(dialog.stepsBox()->toolTip().contains(QStringLiteral("--steps; %1 unless changed").arg(shown->steps)));
        QVERIFY(dialog.seedBox()->toolTip().contains(QStringLiteral("--seed; %1 unless changed").arg(shown->seed)));
    }

    // New Search… shows the cost before anything starts, creates the search and runs it; single step pauses after
    // one step; resume runs on; pause halts.
    void startStepResumePause()
    {
        const QString path = freshStore(QStringLiteral("run.gpuf"));
        Dock dock;
        QVERIFY(test::openSession(dock.session, path));
        QTRY_VERIFY_WITH_TIMEOUT(!dock.panel.isLoading(), 20000);
        QVERIFY(dock.panel.newSearchAction()->isEnabled());

        auto choices = newSearchChoices(path);
        QVERIFY2(choices, qPrintable(choices ? QString() : choices.error()));
        NewSearchDialog *dialog = dock.panel.openNewSearchDialog(*choices);
        dialog->targetBox()->setCurrentIndex(dialog->targetBox()->findData(QStringLiteral("sgemm")));
        dialog->modeBox()->setCurrentIndex(dialog->modeBox()->findData(QStringLiteral("surrogate")));
        dialog->measureBox()->setValue(2);
        dialog->proposalsBox()->setValue(8);
        dialog->stepsBox()->setValue(400);
        // sgemm's pool holds 268 kernels: 8 proposals a step spend it within 34 steps, so 400 is capped there. Step 0
        // expands the seed, then 2 parents a step: 1 + 2·33 = 67 expansions, 2 measured and 8 forecast each, no more
        // forecasts than the pool and the seed.
        QCOMPARE(dialog->stepsBox()->value(), 34);
        QVERIFY2(dialog->costLabel()->text().contains(QLatin1StringView("at most 134 GPU evaluations")),
            qPrintable(dialog->costLabel()->text()));
        QVERIFY2(dialog->costLabel()->text().contains(QLatin1StringView("269 forecasts")),
            qPrintable(dialog->costLabel()->text()));
        dialog->setSearchName(QStringLiteral("live"));
        // Pause as soon as the engine reports, to step by hand from there.
        bool paused = false;
        connect(&dock.controller, &SearchController::snapshotChanged, this, [&](const SearchSnapshot &s) {
            if (!paused && s.name == QLatin1StringView("live")) {
                paused = true;
                dock.controller.pause(s.name);
            }
        });
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("live")), QStringLiteral("paused"), 30000);
        QCOMPARE(dock.panel.shownName(), QStringLiteral("live"));
        QTRY_VERIFY(state(dock) && state(dock)->paused);
        const int before = state(dock)->completedSteps();

        QVERIFY(dock.panel.stepAction()->isEnabled());
        dock.panel.stepAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(steps(dock) == before + 1 && isPaused(dock)
                && status(dock, QStringLiteral("live")) == QLatin1StringView("paused"),
            30000);
        // What the user sees: the nodes of the steps so far, and the row's figures from the engine.
        QVERIFY(dock.panel.nodesModel()->rowCount() > 1);
        const int row = dock.panel.searchModel()->rowOfName(QStringLiteral("live"));
        QCOMPARE(cell(dock.panel.searchModel(), row, SearchListModel::ForecasterColumn), QStringLiteral("costmodel"));
        QVERIFY(dock.panel.liveLabel()->text().contains(QStringLiteral("%1 of 34 steps done").arg(before + 1)));
        QTRY_VERIFY2(figuresDisagree(dock, path, QStringLiteral("live")).isEmpty(),
            qPrintable(figuresDisagree(dock, path, QStringLiteral("live"))));

        dock.panel.resumeAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(steps(dock) >= before + 3, 30000);
        QVERIFY(dock.panel.pauseAction()->isEnabled());
        dock.panel.pauseAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("live")), QStringLiteral("paused"), 30000);
        const QStringList kinds = storedKinds(path, QStringLiteral("live"));
        QVERIFY(kinds.count(QStringLiteral("search_paused")) >= 3);
        QVERIFY(kinds.count(QStringLiteral("search_resumed")) >= 2);
        // The dock followed the log without a reload: every stored event is in its table, in order.
        QTRY_COMPARE(dock.panel.eventModel()->rowCount(), kinds.size());

        // Stop asks first: Cancel keeps the search, Stop ends it.
        dock.panel.stopAction()->trigger();
        QMessageBox *confirm = nullptr;
        QTRY_VERIFY((confirm = dock.panel.findChild<QMessageBox *>(QStringLiteral("stopConfirmation"))));
        QVERIFY(confirm->text().contains(QLatin1StringView("cannot be resumed")));
        confirm->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(!dock.panel.findChild<QMessageBox *>(QStringLiteral("stopConfirmation")));
        QCOMPARE(status(dock, QStringLiteral("live")), QStringLiteral("paused"));
        dock.panel.stopAction()->trigger();
        QTRY_VERIFY((confirm = dock.panel.findChild<QMessageBox *>(QStringLiteral("stopConfirmation"))));
        for (QAbstractButton *button : confirm->buttons()) {
            if (confirm->buttonRole(button) == QMessageBox::DestructiveRole)
                button->click();
        }
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("live")), QStringLiteral("stopped"), 30000);
        QVERIFY(!dock.panel.resumeAction()->isEnabled());
        QTRY_VERIFY2(figuresDisagree(dock, path, QStringLiteral("live")).isEmpty(),
            qPrintable(figuresDisagree(dock, path, QStringLiteral("live"))));
        // The same figures in a second window that only reads the log.
        Dock other;
        QVERIFY(openIn(other, path));
        QVERIFY(other.panel.showSearchNamed(QStringLiteral("live")));
        QTRY_VERIFY(state(other));
        QTRY_VERIFY2(figuresDisagree(other, path, QStringLiteral("live")).isEmpty(),
            qPrintable(figuresDisagree(other, path, QStringLiteral("live"))));
    }

    // Each steering act from a node's menu becomes its event in the store, and a later act undoes an earlier one.
    // A free evaluation (the same binary's measurement on this GPU taken, no GPU ran) says so in its row, naming the
    // kernel measured; a measured and a replayed one read as before.
    void reusedEvaluationSaysSo()
    {
        search::Candidate c;
        c.status = search::CandidateStatus::Evaluated;
        c.feedback.kind = search::EvaluationFeedback::Kind::Success;
        QCOMPARE(SearchNodesModel::statusText(c), QStringLiteral("measured"));
        c.feedback.replayed = true;
        QCOMPARE(SearchNodesModel::statusText(c), QStringLiteral("measured (replay)"));
        c.feedback.replayed = false;
        c.reusedFromKernel = 42;
        QCOMPARE(SearchNodesModel::statusText(c), QStringLiteral("reused (same binary as kernel 42)"));
        c.feedback.kind = search::EvaluationFeedback::Kind::CompileFailed; // a failure is never a reuse
        QCOMPARE(SearchNodesModel::statusText(c), QStringLiteral("did not compile"));
    }

    void steeringActs()
    {
        const QString path = freshStore(QStringLiteral("steer.gpuf"));
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(createSearch(**store, QStringLiteral("steer"), replayConfig(Mode::Surrogate, 50)));
        }
        Dock dock;
        QVERIFY(openIn(dock, path));
        QVERIFY(dock.panel.showSearchNamed(QStringLiteral("steer")));
        QTRY_VERIFY(state(dock));
        QCOMPARE(status(dock, QStringLiteral("steer")), QStringLiteral("interrupted — resumable"));
        dock.panel.stepAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(
            steps(dock) == 1 && isPaused(dock) && status(dock, QStringLiteral("steer")) == QLatin1StringView("paused"),
            30000);
        dock.panel.stepAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(
            steps(dock) == 2 && isPaused(dock) && status(dock, QStringLiteral("steer")) == QLatin1StringView("paused"),
            30000);

        const SearchState &s = *state(dock);
        const QString seed = s.archive.nodes.front().id;
        QString child; // an archive node below the seed
        for (const ArchiveNode &n : s.archive.nodes) {
            if (!n.seed)
                child = n.id;
        }
        QVERIFY(!child.isEmpty());
        QString deferred;
        for (const Candidate &c : s.candidates) {
            // "ranked below the GPU budget" (the paper's rules) or "expected gain below the GPU budget" (the default)
            if (c.status == search::CandidateStatus::Deferred
                && c.decision.contains(QLatin1StringView("below the GPU budget")))
                deferred = c.nodeId;
        }
        QVERIFY(!deferred.isEmpty());

        SearchSteering *steering = dock.panel.steering();
        auto act = [&](const QString &node, const char *text) {
            std::unique_ptr<QMenu> menu(steering->menuFor(node, &dock.panel));
            QAction *a = menuAction(menu.get(), QString::fromUtf8(text));
            if (!a || !a->isEnabled())
                return false;
            a->trigger();
            return true;
        };
        auto lastKind = [&](const QString &kind, QJsonObject *payload = nullptr) {
            QList<SearchEvent> events;
            storedKinds(path, QStringLiteral("steer"), &events);
            const auto last = std::find_if(
                events.crbegin(), events.crend(), [&kind](const SearchEvent &e) { return e.kind == kind; });
            if (last == events.crend())
                return false;
            if (payload)
                *payload = last->payload;
            return true;
        };
        const auto marks = [&](const QString &node) {
            const int row = dock.panel.nodesModel()->rowOfNode(node);
            return cell(dock.panel.nodesModel(), row, SearchNodesModel::MarksColumn);
        };

        // A node outside the archive cannot be pinned, and its menu says why when the act is hovered.
        const auto pinTip = [&](const QString &node) {
            std::unique_ptr<QMenu> menu(steering->menuFor(node, &dock.panel));
            QAction *pin = menuAction(menu.get(), QStringLiteral("Pin as a Parent for the Next Step"));
            return menu->toolTipsVisible() && pin && !pin->isEnabled() ? pin->toolTip() : QString();
        };
        QVERIFY2(pinTip(deferred).startsWith(QLatin1StringView("Only nodes of the archive can be parents, and this one "
                                                               "is not in it")),
            qPrintable(pinTip(deferred)));
        // Pinned: the flag beside its name in the Nodes table (its tooltip says so), the mark in its row, and the flag
        // on its node in the lineage; unpinned, all three go.
        const auto pinShown = [&](const QString &node) {
            const QModelIndex name = dock.panel.nodesModel()->index(
                dock.panel.nodesModel()->rowOfNode(node), SearchNodesModel::NodeColumn);
            const search::LineageNode *drawn = dock.panel.lineageView()->canvas()->lineage().find(node);
            return !name.data(Qt::DecorationRole).value<QIcon>().isNull()
                && name.data(Qt::ToolTipRole).toString().contains(QLatin1StringView("Pinned (the flag"))
                && marks(node).contains(QLatin1StringView("pinned")) && drawn && drawn->pinned;
        };
        QVERIFY(!pinShown(child));
        QVERIFY(act(child, "Pin as a Parent for the Next Step"));
        QTRY_VERIFY(lastKind(QStringLiteral("node_pinned")));
        QTRY_VERIFY(pinShown(child));
        QVERIFY(dock.panel.nodesModel()
                    ->index(dock.panel.nodesModel()->rowOfNode(seed), SearchNodesModel::NodeColumn)
                    .data(Qt::DecorationRole)
                    .value<QIcon>()
                    .isNull());
        QVERIFY(act(child, "Unpin"));
        QTRY_VERIFY(lastKind(QStringLiteral("node_unpinned")));
        QTRY_VERIFY(!marks(child).contains(QLatin1StringView("pinned")));
        QVERIFY(dock.panel.nodesModel()
                    ->index(dock.panel.nodesModel()->rowOfNode(child), SearchNodesModel::NodeColumn)
                    .data(Qt::DecorationRole)
                    .value<QIcon>()
                    .isNull());
        QTRY_VERIFY(!dock.panel.lineageView()->canvas()->lineage().find(child)->pinned);

        QVERIFY(act(seed, "Veto this Node and its Whole Branch"));
        QJsonObject payload;
        QTRY_VERIFY(lastKind(QStringLiteral("node_vetoed"), &payload));
        QCOMPARE(payload.value(QStringLiteral("branch")).toBool(), true);
        QTRY_VERIFY(marks(child).contains(QLatin1StringView("in a vetoed branch")));
        QVERIFY(!act(child, "Pin as a Parent for the Next Step")); // a vetoed branch cannot be pinned
        QVERIFY2(
            pinTip(child).startsWith(QLatin1StringView("The node lies in a vetoed branch")), qPrintable(pinTip(child)));
        QVERIFY(act(seed, "Lift the Branch Veto"));
        QTRY_VERIFY(lastKind(QStringLiteral("node_unvetoed")));
        QTRY_VERIFY(!marks(child).contains(QLatin1StringView("veto")));

        QVERIFY(act(deferred, "Force a Measurement"));
        QTRY_VERIFY(lastKind(QStringLiteral("measure_forced")));

        // Edit and inject: the editor opens on the node's code; the edit becomes its child.
        steering->editAndInject(child);
        InjectDialog *inject = nullptr;
        QTRY_VERIFY((inject = dock.panel.findChild<InjectDialog *>()));
        QVERIFY(inject->editor()->toPlainText().contains(QLatin1StringView("__global__")));
        // A replay cannot run new code: the dialog says so before the user injects.
        QVERIFY(inject->warningLabel()->isVisibleTo(inject));
        QVERIFY2(inject->warningLabel()->text().contains(QLatin1StringView("This search replays recorded runtimes: an "
                                                                           "edited kernel has none")),
            qPrintable(inject->warningLabel()->text()));
        inject->editor()->appendPlainText(QStringLiteral("// tried by hand\n"));
        inject->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_VERIFY(lastKind(QStringLiteral("kernel_injected"), &payload));
        QCOMPARE(payload.value(QStringLiteral("parent_id")).toString(), child);
        const QString injected = payload.value(QStringLiteral("node_id")).toString();

        // τ, proposals and measurements while it runs.
        dock.panel.settingsAction()->trigger();
        SearchSettingsDialog *settings = nullptr;
        QTRY_VERIFY((settings = dock.panel.findChild<SearchSettingsDialog *>()));
        settings->proposalsBox()->setValue(6);
        settings->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_VERIFY(lastKind(QStringLiteral("config_changed"), &payload));
        QCOMPARE(payload.value(QStringLiteral("changes")).toObject(),
            (QJsonObject {{QStringLiteral("proposals_per_parent"), 6}}));

        // The next step measures the forced and the injected node, and proposes 6 per parent.
        dock.panel.stepAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(steps(dock) == 3 && isPaused(dock), 30000);
        const Candidate *forced = state(dock)->candidate(deferred);
        QCOMPARE(forced->decision, QStringLiteral("measurement forced by the user"));
        QVERIFY(forced->status == search::CandidateStatus::Evaluated);
        QCOMPARE(state(dock)->candidate(injected)->decision, QStringLiteral("injected by the user"));
        // Replay measures nothing new: the hand-edited kernel could not run, and is no GPU evaluation — the list, the
        // live line and the stored log all say so alike.
        QCOMPARE(state(dock)->candidate(injected)->status, search::CandidateStatus::EvaluationFailed);
        QVERIFY2(dock.panel.liveLabel()->text().contains(QStringLiteral("· 1 could not run")),
            qPrintable(dock.panel.liveLabel()->text()));
        QTRY_VERIFY2(figuresDisagree(dock, path, QStringLiteral("steer")).isEmpty(),
            qPrintable(figuresDisagree(dock, path, QStringLiteral("steer"))));
        QCOMPARE(state(dock)->config.proposalsPerParent, 6);
        QCOMPARE(
            cell(dock.panel.nodesModel(), dock.panel.nodesModel()->rowOfNode(injected), SearchNodesModel::MarksColumn)
                .contains(QLatin1StringView("injected")),
            true);
        // The row itself says why it failed, and the live line counts what the user forced and injected.
        const QString why = state(dock)->candidate(injected)->feedback.message.section(QLatin1Char('\n'), 0, 0);
        QVERIFY(!why.isEmpty());
        const QString status = cell(
            dock.panel.nodesModel(), dock.panel.nodesModel()->rowOfNode(injected), SearchNodesModel::StatusColumn);
        QVERIFY2(status.startsWith(QStringLiteral("measurement failed: ") + why.left(40)), qPrintable(status));
        QVERIFY2(dock.panel.liveLabel()->text().contains(QStringLiteral("· forced 1 · injected 1")),
            qPrintable(dock.panel.liveLabel()->text()));
        // The fold of the stored log equals what the dock shows.
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        auto folded = foldStoredSearch(**store, QStringLiteral("steer"));
        QVERIFY(folded);
        QCOMPARE(canonicalArchive(*folded), canonicalArchive(*state(dock)));
    }

    // What a running search writes reaches the store's other views as the session's typed changes: the candidate table
    // gains the kernel it adds (an injected edit) as an inserted row and patches the rows it forecasts, never reset.
    void candidateTableFollows()
    {
        const QString path = freshStore(QStringLiteral("follow.gpuf"));
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(createSearch(**store, QStringLiteral("grow"), replayConfig(Mode::Selective, 3)));
        }
        Dock dock;
        CandidateSource source(&dock.session);
        CandidateTableModel table;
        connect(&source, &CandidateSource::tableLoaded, &table, &CandidateTableModel::setTable);
        connect(&source, &CandidateSource::tableUpdated, &table, &CandidateTableModel::updateTable);
        connect(&source, &CandidateSource::rowsPatched, &table, &CandidateTableModel::patchRows);
        new QAbstractItemModelTester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest, this);
        QVERIFY(openIn(dock, path));
        QTRY_VERIFY_WITH_TIMEOUT(source.table() && !source.isLoading() && !source.changedLinesPending()
                && !table.isUpdating() && table.rowCount() == source.table()->rows.size(),
            20000);
        const int before = table.rowCount();
        QSignalSpy resets(&table, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&table, &QAbstractItemModel::rowsInserted);
        QSignalSpy loads(&source, &CandidateSource::tableLoaded);
        QSignalSpy patches(&source, &CandidateSource::rowsPatched);

        QVERIFY(dock.panel.showSearchNamed(QStringLiteral("grow")));
        QTRY_VERIFY(state(dock));
        dock.panel.stepAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(
            steps(dock) == 1 && isPaused(dock) && status(dock, QStringLiteral("grow")) == QLatin1StringView("paused"),
            30000);
        QString child;
        for (const ArchiveNode &n : state(dock)->archive.nodes) {
            if (!n.seed)
                child = n.id;
        }
        QVERIFY(!child.isEmpty());
        Proposal edit;
        edit.source = QStringLiteral("// edited by hand\nextern \"C\" __global__ void k(float *y) { y[0] = 2.0f; }\n");
        edit.language = QStringLiteral("cuda");
        edit.name = QStringLiteral("hand_edit");
        dock.controller.inject(QStringLiteral("grow"), edit, child);
        dock.panel.resumeAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("grow")), QStringLiteral("finished"), 30000);
        QTRY_VERIFY(state(dock) && state(dock)->finished);
        dock.session.flushChanges();

        const Candidate *injected = nullptr;
        const Candidate *forecast = nullptr;
        for (const Candidate &c : state(dock)->candidates) {
            if (c.injected)
                injected = &c;
            else if (c.forecastId > 0 && c.kernelId > 0)
                forecast = &c;
        }
        QVERIFY(injected && injected->kernelId > 0);
        QVERIFY(forecast);
        // The new kernel is a row inserted into the table; nothing was read whole, nothing reset.
        QTRY_VERIFY_WITH_TIMEOUT(table.viewRowOf(injected->kernelId) >= 0 && !table.isUpdating(), 20000);
        QVERIFY(patches.count() > 0);
        QCOMPARE(loads.count(), 0);
        QCOMPARE(resets.count(), 0);
        QVERIFY(inserted.count() >= 1);
        QCOMPARE(table.rowCount(), before + 1);
        QCOMPARE(table.rowCount(), source.table()->rows.size());
        const int row = table.viewRowOf(injected->kernelId);
        QCOMPARE(table.index(row, NameColumn).data().toString(), QStringLiteral("hand_edit"));
        QCOMPARE(table.index(row, OriginColumn).data().toString(), QStringLiteral("manual"));
        QCOMPARE(table.index(row, ParentColumn).data().toString(),
            table.index(table.viewRowOf(state(dock)->candidate(child)->kernelId), NameColumn).data().toString());
        // The search's forecasts show in their kernels' rows (under the forecaster that made them).
        // The forecast's change may still be on its way (the session unites changes for a moment): wait for its patch.
        int forecaster = -1;
        const auto forecastShown = [&] {
            const CandidateTablePtr t = source.table();
            const int r = t->rowOf(forecast->kernelId);
            for (int f = 0; r >= 0 && f < t->forecasters.size(); ++f) {
                if (t->forecastCell(r, f).forecastId == forecast->forecastId)
                    forecaster = f;
            }
            return forecaster >= 0;
        };
        QTRY_VERIFY2(forecastShown(), "the forecast the search stored is in its kernel's row");
        const CandidateTablePtr now = source.table();
        const int tableRow = now->rowOf(forecast->kernelId);
        table.setForecasterIndex(forecaster);
        const int shown = table.viewRowOf(forecast->kernelId);
        QCOMPARE(table.index(shown, ConfidenceColumn).data().toString(), QString::number(forecast->confidence, 'f', 2));
        QCOMPARE(now->forecastCell(tableRow, forecaster).predictedBin, forecast->predictedBin);
        // The search's kernels belong to it in the table (the filter by search).
        const int search = now->searchIndexOf(dock.panel.follower()->searchId());
        QVERIFY(search >= 0);
        QVERIFY(now->searches[search].kernelIds.contains(injected->kernelId));
        QVERIFY(now->searches[search].kernelIds.contains(forecast->kernelId));
    }

    // Choosing a node makes its kernel the window's selection: against the reference, or its parent.
    void selectingANode()
    {
        const QString path = freshStore(QStringLiteral("select.gpuf"));
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(createSearch(**store, QStringLiteral("sel"), replayConfig(Mode::Standard, 3)));
            auto parts = buildParts(**store, replayConfig(Mode::Standard, 3));
            QVERIFY(parts);
        }
        Dock dock;
        QVERIFY(openIn(dock, path));
        QVERIFY(dock.panel.showSearchNamed(QStringLiteral("sel")));
        QTRY_VERIFY(state(dock));
        dock.controller.run(QStringLiteral("sel"));
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("sel")), QStringLiteral("finished"), 30000);
        QTRY_VERIFY(state(dock) && state(dock)->finished);
        new QAbstractItemModelTester(
            dock.panel.nodesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest, this);
        // A measured child of a child: its parent is not the reference.
        const Candidate *grandchild = nullptr;
        for (const Candidate &c : state(dock)->candidates) {
            const Candidate *parent = state(dock)->candidate(c.parentId);
            if (c.kernelId > 0 && parent && !parent->seedNode)
                grandchild = &c;
        }
        QVERIFY(grandchild);
        const RowId reference = dock.panel.follower()->referenceKernelId();
        QVERIFY(reference > 0);
        QTableView *view = dock.panel.nodeView();
        const int row = dock.panel.nodesModel()->rowOfNode(grandchild->nodeId);
        view->setCurrentIndex(view->model()->index(row, 0)); // unsorted: proxy rows are the model's
        QCOMPARE(dock.selection.candidateId(), grandchild->kernelId);
        QCOMPARE(dock.selection.baselineId(), reference);
        dock.selection.setBaselineKind(Selection::Baseline::Parent);
        dock.panel.steering()->selectNode(grandchild->nodeId);
        QCOMPARE(dock.selection.baselineId(), state(dock)->candidate(grandchild->parentId)->kernelId);
        // A finished search cannot be steered: its acts are disabled, with why.
        std::unique_ptr<QMenu> menu(dock.panel.steering()->menuFor(grandchild->nodeId, &dock.panel));
        QVERIFY(!menuAction(menu.get(), QStringLiteral("Veto this Node"))->isEnabled());
        QVERIFY(dock.panel.replayAction()->isEnabled());
    }

    // The lineage tree is wired to the window's selection and to the steering menu; Replay with… makes a new search
    // over the original's proposals under another τ, overlaid on the original in the progress plot.
    void lineageAndReplay()
    {
        const QString path = freshStore(QStringLiteral("replay.gpuf"));
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(createSearch(**store, QStringLiteral("orig"), replayConfig(Mode::Selective, 4)));
        }
        Dock dock;
        QVERIFY(openIn(dock, path));
        QVERIFY(dock.panel.showSearchNamed(QStringLiteral("orig")));
        QTRY_VERIFY(state(dock));
        dock.panel.resumeAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("orig")), QStringLiteral("finished"), 30000);
        QTRY_VERIFY(state(dock) && state(dock)->finished);

        const Candidate *measured = nullptr;
        for (const Candidate &c : state(dock)->candidates) {
            if (c.reward && !c.seedNode)
                measured = &c;
        }
        QVERIFY(measured);
        Q_EMIT dock.panel.lineageView()->nodeActivated(measured->nodeId);
        QCOMPARE(dock.selection.candidateId(), measured->kernelId);
        QCOMPARE(dock.panel.nodeView()->currentIndex().data(SearchNodesModel::NodeIdRole).toString(), measured->nodeId);
        Q_EMIT dock.panel.lineageView()->nodeContextMenuRequested(measured->nodeId, QPoint(10, 10));
        QMenu *menu = nullptr;
        QTRY_VERIFY((menu = dock.panel.findChild<QMenu *>(QStringLiteral("searchNodeMenu"))));
        QVERIFY(menuAction(menu, QStringLiteral("Force a Measurement")));
        menu->close();

        auto choices = newSearchChoices(path);
        QVERIFY(choices);
        NewSearchDialog *dialog = dock.panel.openNewSearchDialog(*choices, QStringLiteral("orig"));
        QCOMPARE(dialog->searchName(), QStringLiteral("orig-replay"));
        QCOMPARE(dialog->mutatorBox()->currentData().toString(), QStringLiteral("log"));
        dialog->tauBox()->setValue(0.2);
        auto config = dialog->config();
        QVERIFY(config);
        QCOMPARE(config->mutatorConfig.value(QStringLiteral("search")).toString(), QStringLiteral("orig"));
        QCOMPARE(config->steps, 4);
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("orig-replay")), QStringLiteral("finished"), 30000);
        QTRY_COMPARE(dock.panel.shownName(), QStringLiteral("orig-replay"));
        QTRY_COMPARE_WITH_TIMEOUT(dock.panel.progressPlot()->series().size(), 2, 30000);
        QStringList labels;
        for (const ProgressSeries &s : dock.panel.progressPlot()->series())
            labels << s.name;
        QVERIFY2(labels.contains(QStringLiteral("orig (the original)")), qPrintable(labels.join(QLatin1Char('|'))));
        QCOMPARE(state(dock)->config.tau, 0.2);
    }

    // `gpuf search start` killed mid-run: the dock shows the search as interrupted and resumes it to the end.
    // Nodes are named as a person knows them: a family configuration by its tunables in the Nodes and Steps tables,
    // the lineage's tooltips and the status line, and the command line's status names the best one the same way.
    void readableNames()
    {
        const QString path = freshStore(QStringLiteral("names.gpuf"));
        QProcess cli;
        cli.start(QStringLiteral(GPUF_CLI_PATH),
            {QStringLiteral("search"), QStringLiteral("start"), path, QStringLiteral("--name"), QStringLiteral("fam"),
                QStringLiteral("--family"), QStringLiteral("sgemm_tiled"), QStringLiteral("--steps"),
                QStringLiteral("3"), QStringLiteral("--quiet")});
        QVERIFY(cli.waitForFinished(120000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        cli.start(QStringLiteral(GPUF_CLI_PATH),
            {QStringLiteral("search"), QStringLiteral("status"), path, QStringLiteral("fam")});
        QVERIFY(cli.waitForFinished(60000));
        const QString status = QString::fromUtf8(cli.readAllStandardOutput());
        static const QRegularExpression best(
            QStringLiteral("best [0-9.]+× \\(replay\\): BM=\\d+ BN=\\d+ .* \\(kernel \\d+, node "));
        QVERIFY2(best.match(status).hasMatch(), qPrintable(status));

        Dock dock;
        QVERIFY(openIn(dock, path));
        QVERIFY(dock.panel.showSearchNamed(QStringLiteral("fam")));
        QTRY_VERIFY(state(dock) && dock.panel.nodesModel()->rowCount() > 2);
        const SearchNodesModel *nodes = dock.panel.nodesModel();
        QCOMPARE(cell(nodes, 0, SearchNodesModel::NodeColumn), QStringLiteral("reference (seed)"));
        int named = 0;
        for (int row = 1; row < nodes->rowCount(); ++row) {
            const QString node = cell(nodes, row, SearchNodesModel::NodeColumn);
            QVERIFY2(!node.startsWith(QChar(0x2026)), qPrintable(node)); // no ULID tail
            named += node.startsWith(QLatin1StringView("BM=")) ? 1 : 0;
        }
        QVERIFY(named > 0);
        // Parents read as their rows do: the seed's children name it as the seed's row does, never by an id's tail.
        int ofSeed = 0;
        for (int row = 1; row < nodes->rowCount(); ++row) {
            const QString parent = cell(nodes, row, SearchNodesModel::ParentColumn);
            QVERIFY2(!parent.startsWith(QChar(0x2026)), qPrintable(parent));
            ofSeed += parent == QLatin1StringView("reference (seed)") ? 1 : 0;
        }
        QVERIFY(ofSeed > 0);
        const QString id = nodes->index(1, 0).data(SearchNodesModel::NodeIdRole).toString();
        QVERIFY(nodes->index(1, SearchNodesModel::NodeColumn).data(Qt::ToolTipRole).toString().endsWith(id));
        auto *steps = dock.panel.findChild<StepView *>();
        QVERIFY(steps);
        steps->showStep(1);
        QTRY_VERIFY(steps->proposalsModel()->rowCount() > 0);
        QVERIFY2(cell(steps->proposalsModel(), 0, StepProposalsModel::NodeColumn).startsWith(QLatin1StringView("BM=")),
            qPrintable(cell(steps->proposalsModel(), 0, StepProposalsModel::NodeColumn)));
        QTRY_VERIFY2(
            dock.panel.liveLabel()->text().contains(QRegularExpression(QStringLiteral("best [0-9.]+× \\(BM="))),
            qPrintable(dock.panel.liveLabel()->text()));
    }

    // A search another program runs on the open store (gpuf search start) appears in the list and its shown log grows
    // without View → Reload: the store follower announces what the other connection wrote.
    // The certified setting in the search view, not only in `gpuf search status`: the live line says the τ in force
    // and, once the log holds a drift alarm, the alarm in the user's words.
    void driftAlarmInTheView()
    {
        const QString path = freshStore(QStringLiteral("drift.gpuf"));
        QProcess cli;
        cli.start(QStringLiteral(GPUF_CLI_PATH),
            {QStringLiteral("search"), QStringLiteral("start"), path, QStringLiteral("--name"), QStringLiteral("drift"),
                QStringLiteral("--problem"), QStringLiteral("sgemm"), QStringLiteral("--family"),
                QStringLiteral("sgemm_tiled"), QStringLiteral("--mode"), QStringLiteral("selective"),
                QStringLiteral("--alpha"), QStringLiteral("0.1"), QStringLiteral("--steps"), QStringLiteral("3"),
                QStringLiteral("--quiet")});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
            QVERIFY(store);
            auto search = SearchRepo(**store).findByName(QStringLiteral("drift"));
            QVERIFY(search && search->has_value());
            QVERIFY(appendControlEvent(**store, (*search)->id, SearchEventKind::DriftAlarm,
                {{QStringLiteral("step"), 2}, {QStringLiteral("alpha"), 0.1}, {QStringLiteral("trusted"), 9},
                    {QStringLiteral("wrong"), 5}, {QStringLiteral("rate"), 5.0 / 9.0},
                    {QStringLiteral("allowed"), 1.8}}));
        }
        Dock dock;
        QVERIFY(openIn(dock, path));
        QVERIFY(dock.panel.showSearchNamed(QStringLiteral("drift")));
        QTRY_VERIFY_WITH_TIMEOUT(state(dock) && state(dock)->completedSteps() == 3, 20000);
        const QString live = dock.panel.liveLabel()->text();
        QVERIFY2(live.contains(QStringLiteral("(α = 0.1)")), qPrintable(live));
        QVERIFY2(live.contains(QStringLiteral("drift alarm at step 2: 5 of 9 trusted forecasts wrong (55.6%), more "
                                              "than α = 0.1 allows (1.8)")),
            qPrintable(live));
    }

    void followsAnotherProgram()
    {
        const QString path = freshStore(QStringLiteral("followed.gpuf"));
        Dock dock;
        const StoreFollower follower(&dock.session);
        QVERIFY(test::openSession(dock.session, path));
        QTRY_VERIFY_WITH_TIMEOUT(!dock.panel.isLoading(), 20000);
        QCOMPARE(dock.panel.searchModel()->rowCount(), 0);
        QSignalSpy changes(&dock.session, &StoreSession::changed);
        QProcess cli;
        cli.start(QStringLiteral(GPUF_CLI_PATH),
            {QStringLiteral("search"), QStringLiteral("start"), path, QStringLiteral("--name"),
                QStringLiteral("elsewhere"), QStringLiteral("--problem"), QStringLiteral("sgemm"),
                QStringLiteral("--steps"), QStringLiteral("3000"), QStringLiteral("--measure"), QStringLiteral("2"),
                QStringLiteral("--seed"), QStringLiteral("3"), QStringLiteral("--quiet")});
        QVERIFY(cli.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(dock.panel.searchModel()->rowOfName(QStringLiteral("elsewhere")) >= 0, 20000);
        QVERIFY(dock.panel.showSearchNamed(QStringLiteral("elsewhere")));
        QTRY_VERIFY_WITH_TIMEOUT(state(dock), 20000);
        const int seen = steps(dock);
        QTRY_VERIFY_WITH_TIMEOUT(steps(dock) >= seen + 2 || cli.state() != QProcess::Running, 30000);
        if (cli.state() != QProcess::NotRunning) { // it may have spent sgemm's pool already
            cli.kill();
            QVERIFY(cli.waitForFinished());
        }
        // What it wrote last reaches the dock shortly after.
        const int stored = int(storedKinds(path, QStringLiteral("elsewhere")).count(QStringLiteral("step_completed")));
        QElapsedTimer caughtUp;
        caughtUp.start();
        QTRY_COMPARE_WITH_TIMEOUT(steps(dock), stored, 10000);
        qInfo("the dock showed the other program's last step %lld ms after it ended", caughtUp.elapsed());
        QVERIFY2(caughtUp.elapsed() < 3000, qPrintable(QString::number(caughtUp.elapsed())));
        // The live line and the list say the same of the search once the other program has ended.
        const auto *live = dock.panel.findChild<QLabel *>(QStringLiteral("searchLive"));
        QVERIFY(live);
        const auto listed = [&dock] {
            const auto *model = dock.panel.searchModel();
            return model->statusTextAt(model->rowOfName(QStringLiteral("elsewhere")));
        };
        QTRY_VERIFY2_WITH_TIMEOUT(live->text().startsWith(QStringLiteral("elsewhere — ") + listed()),
            qPrintable(live->text() + QStringLiteral(" | list: ") + listed()), 10000);
        // Run by gpuf from a terminal: its source says gpuf, not "this application".
        const auto *model = dock.panel.searchModel();
        QCOMPARE(model->index(model->rowOfName(QStringLiteral("elsewhere")), SearchListModel::SourceColumn)
                     .data()
                     .toString(),
            QStringLiteral("gpuf"));
        // Through the session's typed changes: the search's id, not "reload everything".
        const int row = dock.panel.searchModel()->rowOfName(QStringLiteral("elsewhere"));
        const RowId id = dock.panel.searchModel()->summaryAt(row)->search.id;
        bool named = false;
        for (const QList<QVariant> &args : std::as_const(changes)) {
            const auto change = args.at(0).value<StoreChange>();
            QVERIFY(change.kind != StoreChange::Kind::Reload && change.kind != StoreChange::Kind::Import);
            named = named || (change.kind == StoreChange::Kind::Searches && change.ids.contains(id));
        }
        QVERIFY(named);
    }

    void resumeAfterKill()
    {
        const QString path = freshStore(QStringLiteral("killed.gpuf"));
        QProcess cli;
        cli.start(QStringLiteral(GPUF_CLI_PATH),
            {QStringLiteral("search"), QStringLiteral("start"), path, QStringLiteral("--name"),
                QStringLiteral("killed"), QStringLiteral("--problem"), QStringLiteral("sgemm"),
                QStringLiteral("--steps"), QStringLiteral("3000"), QStringLiteral("--measure"), QStringLiteral("2"),
                QStringLiteral("--seed"), QStringLiteral("3"), QStringLiteral("--quiet")});
        QVERIFY(cli.waitForStarted());
        // Kill it once it has written a few steps.
        QTRY_VERIFY_WITH_TIMEOUT(
            storedKinds(path, QStringLiteral("killed")).count(QStringLiteral("step_completed")) >= 3, 60000);
        QCOMPARE(cli.state(), QProcess::Running);
        cli.kill(); // SIGKILL: no chance to write anything more
        QVERIFY(cli.waitForFinished());
        const QStringList before = storedKinds(path, QStringLiteral("killed"));
        QVERIFY(!before.contains(QStringLiteral("search_completed")));

        Dock dock;
        QVERIFY(openIn(dock, path));
        QCOMPARE(status(dock, QStringLiteral("killed")), QStringLiteral("interrupted — resumable"));
        QVERIFY(dock.panel.showSearchNamed(QStringLiteral("killed")));
        QTRY_VERIFY(state(dock));
        QCOMPARE(dock.panel.resumeAction()->text(), QStringLiteral("Resume (interrupted)"));
        QVERIFY(dock.panel.resumeAction()->isEnabled());
        // The rest of the budget in one go: lower the steps so the test stays short.
        dock.controller.run(QStringLiteral("killed"));
        dock.controller.changeConfig(
            QStringLiteral("killed"), {{QStringLiteral("steps"), state(dock)->completedSteps() + 5}});
        QTRY_COMPARE_WITH_TIMEOUT(status(dock, QStringLiteral("killed")), QStringLiteral("finished"), 60000);
        const QStringList after = storedKinds(path, QStringLiteral("killed"));
        QVERIFY(after.contains(QStringLiteral("search_completed")));
        QCOMPARE(after.mid(0, before.size()), before); // nothing rewritten
        QTRY_COMPARE(dock.panel.eventModel()->rowCount(), after.size());
        QVERIFY(!dock.panel.resumeAction()->isEnabled());
    }
};

QTEST_MAIN(TestSearchWorkspace)
#include "tst_search_workspace.moc"
