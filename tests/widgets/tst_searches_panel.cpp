// The Searches view: summaries folded from event logs (a table of logs), and the panel on a real store with
// imported searches — what each row says, the event log of the chosen search with its filter and payload, the empty
// and unreadable stores' messages, and the models under QAbstractItemModelTester.
#include "core/interop/interop.h"
#include "core/search/search_setup.h"
#include "core/search/search_summary.h"
#include "core/session/store_session.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"
#include "tests/search/search_fixture.h"
#include "tests/support/session_open.h"
#include "widgets/search/search_models.h"
#include "widgets/search/searches_panel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;

namespace {

QString fixture(const char *name) { return QStringLiteral(GPUF_TEST_DATA_DIR "/interop/") + QLatin1StringView(name); }

SearchEvent searchEvent(const QString &kind, const QJsonObject &payload = {})
{
    SearchEvent e;
    e.kind = kind;
    e.payload = payload;
    return e;
}

QJsonObject evaluation(const QString &kind, double speedup = 0.0)
{
    QJsonObject feedback {{QStringLiteral("kind"), kind}};
    if (speedup > 0)
        feedback.insert(QStringLiteral("aggregated_speedup"), speedup);
    return {{QStringLiteral("feedback"), feedback}};
}

QJsonObject step(int n) { return {{QStringLiteral("step"), n}}; }

QString cell(const QTableView *view, int row, int column)
{
    return view->model()->index(row, column).data().toString();
}

int rowNamed(const QTableView *view, const QString &name)
{
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        if (cell(view, row, SearchListModel::NameColumn) == name)
            return row;
    }
    return -1;
}

} // namespace

class TestSearchesPanel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString storeWith(const QString &name, const QStringList &files)
    {
        QString path = m_dir.filePath(name);
        auto store = Store::open(path, Store::Mode::CreateIfMissing);
        if (!store)
            return {};
        if (!files.isEmpty() && !interop::importFiles(**store, files))
            return {};
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    // The counts mean what the engine's mean (search_summary.h): completed steps, evaluations that ran (failures to run
    // apart), completed forecasts (failed ones apart).
    void summaries_data()
    {
        QTest::addColumn<QList<SearchEvent>>("events");
        QTest::addColumn<qint64>("steps");
        QTest::addColumn<qint64>("gpu");
        QTest::addColumn<qint64>("unsuccessful");
        QTest::addColumn<qint64>("couldNotRun");
        QTest::addColumn<qint64>("forecasts");
        QTest::addColumn<qint64>("forecastFailures");
        QTest::addColumn<double>("best"); // -1: none

        QTest::newRow("empty") << QList<SearchEvent> {} << 0ll << 0ll << 0ll << 0ll << 0ll << 0ll << -1.0;
        QTest::newRow("a step running is not yet a step")
            << QList<SearchEvent> {searchEvent(QStringLiteral("step_started"), step(0)),
                   searchEvent(QStringLiteral("evaluation_completed"), evaluation(QStringLiteral("success"), 1.31))}
            << 0ll << 1ll << 0ll << 0ll << 0ll << 0ll << 1.31;
        QTest::newRow("best of several; failures to run are no GPU evaluations")
            << QList<SearchEvent> {searchEvent(QStringLiteral("step_started"), step(0)),
                   searchEvent(QStringLiteral("evaluation_completed"), evaluation(QStringLiteral("success"), 0.8)),
                   searchEvent(QStringLiteral("evaluation_completed"), evaluation(QStringLiteral("incorrect"))),
                   searchEvent(QStringLiteral("evaluation_failed")),
                   searchEvent(QStringLiteral("step_completed"), step(0)),
                   searchEvent(QStringLiteral("step_started"), step(1)),
                   searchEvent(QStringLiteral("evaluation_completed"), evaluation(QStringLiteral("success"), 2.5)),
                   searchEvent(QStringLiteral("step_completed"), step(1))}
            << 2ll << 3ll << 1ll << 1ll << 0ll << 0ll << 2.5;
        QTest::newRow("a step restarted after a resume counts once")
            << QList<SearchEvent> {searchEvent(QStringLiteral("step_started"), step(3)),
                   searchEvent(QStringLiteral("step_started"), step(3)),
                   searchEvent(QStringLiteral("step_completed"), step(3))}
            << 1ll << 0ll << 0ll << 0ll << 0ll << 0ll << -1.0;
        QTest::newRow("surrogate forecasts") << QList<SearchEvent> {searchEvent(QStringLiteral("forecast_completed")),
            searchEvent(QStringLiteral("forecast_failed")), searchEvent(QStringLiteral("forecast_requested")),
            searchEvent(QStringLiteral("candidate_deferred"))}
                                             << 0ll << 0ll << 0ll << 0ll << 1ll << 1ll << -1.0;
        QTest::newRow("a success without a speedup is no best") << QList<SearchEvent> {searchEvent(
            QStringLiteral("evaluation_completed"), evaluation(QStringLiteral("success")))}
                                                                << 0ll << 1ll << 1ll << 0ll << 0ll << 0ll << -1.0;
    }
    void summaries()
    {
        QFETCH(QList<SearchEvent>, events);
        QFETCH(double, best);
        const SearchSummary s = summarizeSearch(Search {}, events);
        QCOMPARE(s.events, qint64(events.size()));
        QTEST(s.steps, "steps");
        QTEST(s.gpuEvaluations, "gpu");
        QTEST(s.unsuccessfulEvaluations, "unsuccessful");
        QTEST(s.evaluationFailures, "couldNotRun");
        QTEST(s.forecasts, "forecasts");
        QTEST(s.forecastFailures, "forecastFailures");
        QCOMPARE(s.bestSpeedup.value_or(-1.0), best);
    }

    // An evaluation that took the same binary's measurement (`reused_from`) is no GPU evaluation: the list's GPU
    // evaluations column leaves it out and its tooltip counts it apart.
    void reusedEvaluationsCountedApart()
    {
        QJsonObject reused = evaluation(QStringLiteral("success"), 1.5);
        reused.insert(QStringLiteral("binary_sha256"), QString(64, QLatin1Char('b')));
        reused.insert(QStringLiteral("reused_from"), QJsonObject {{QStringLiteral("kernel_id"), 7}});
        const QList<SearchEvent> events {searchEvent(QStringLiteral("step_started"), step(0)),
            searchEvent(QStringLiteral("evaluation_completed"), evaluation(QStringLiteral("success"), 1.5)),
            searchEvent(QStringLiteral("evaluation_completed"), reused),
            searchEvent(QStringLiteral("evaluation_completed"), reused),
            searchEvent(QStringLiteral("step_completed"), step(0))};
        Search search;
        search.id = 1;
        search.name = QStringLiteral("free");
        const SearchSummary s = summarizeSearch(search, events);
        QCOMPARE(s.gpuEvaluations, 1);
        QCOMPARE(s.reusedEvaluations, 2);
        SearchListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSummaries({s});
        const QModelIndex gpu = model.index(0, SearchListModel::GpuEvaluationsColumn);
        QCOMPARE(gpu.data().toString(), QStringLiteral("1"));
        const QString tip = gpu.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("1 evaluation(s) ran on the GPU")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("2 more reused the measurement of the same binary on this GPU (not "
                                             "counted)")),
            qPrintable(tip));
    }

    // A search just started here whose engine has not reported yet (it reads a large store for seconds) reads
    // "running" in the list, not "interrupted — resumable", and keeps the log's figures until the engine reports.
    void startingEngineIsRunning()
    {
        QJsonObject initialized;
        initialized.insert(QStringLiteral("engine"), QStringLiteral("gpuf"));
        Search search;
        search.id = 1;
        search.name = QStringLiteral("new");
        const SearchSummary s
            = summarizeSearch(search, {searchEvent(QStringLiteral("search_initialized"), initialized)});
        SearchListModel model;
        model.setSummaries({s});
        QCOMPARE(model.statusTextAt(0), QStringLiteral("interrupted — resumable"));
        search::SearchSnapshot starting; // what the host holds before the engine's first report
        starting.name = QStringLiteral("new");
        model.markLive(starting.name, starting.status);
        QCOMPARE(model.index(0, SearchListModel::StatusColumn).data().toString(), QStringLiteral("running"));
        QCOMPARE(model.index(0, SearchListModel::EventsColumn).data().toString(), QStringLiteral("1"));
        // Without an engine the log's status is back; once an engine has reported, its status wins over the mark.
        model.clearLive(starting.name);
        QCOMPARE(model.statusTextAt(0), QStringLiteral("interrupted — resumable"));
        starting.status = search::RunStatus::Paused;
        starting.events = 2;
        model.applySnapshot(starting);
        model.markLive(starting.name, search::RunStatus::Running);
        QCOMPARE(model.statusTextAt(0), QStringLiteral("paused"));
    }

    // A search whose recorded pool ran out says so where the user looks: its row's status and tooltip, and the line
    // under the list when it is chosen.
    void aSearchWhosePoolRanOut()
    {
        const QString path = m_dir.filePath(QStringLiteral("pool.gpuf"));
        QVERIFY(testing::makeWorldStore(path).isEmpty());
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(store);
            search::SearchConfig config;
            config.problem = QStringLiteral("transpose");
            config.steps = 20;
            config.seed = 5;
            config.hardware = QStringLiteral("NVIDIA H100 80GB HBM3");
            auto made = search::createSearch(**store, QStringLiteral("drained"), config);
            QVERIFY2(made, qPrintable(made ? QString() : made.error()));
            const Status ran = testing::runToEnd(**store, QStringLiteral("drained"));
            QVERIFY2(ran, qPrintable(ran ? QString() : ran.error()));
        }
        StoreSession session;
        SearchesPanel panel(&session);
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(test::openSession(session, path));
        QTRY_VERIFY(!panel.isLoading());
        QTableView *searches = panel.searchView();
        const int row = rowNamed(searches, QStringLiteral("drained"));
        QVERIFY(row >= 0);
        QCOMPARE(cell(searches, row, SearchListModel::StatusColumn), QStringLiteral("finished — proposals ran out"));
        const QString tip
            = searches->model()->index(row, SearchListModel::StatusColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.startsWith(QStringLiteral("It ended: the recorded pool is exhausted: its ")), qPrintable(tip));
        const int steps = cell(searches, row, SearchListModel::StepsColumn).toInt();
        QVERIFY2(steps >= 1 && steps < 20, qPrintable(QString::number(steps)));
        searches->selectRow(row);
        QTRY_VERIFY(panel.liveLabel()->text().startsWith(
            QStringLiteral("drained — finished — proposals ran out · %1 of 20 steps done").arg(steps)));
    }

    void gistNamesTheFieldsFirst()
    {
        SearchEvent e
            = searchEvent(QStringLiteral("evaluation_completed"), evaluation(QStringLiteral("success"), 1.31));
        e.payload.insert(QStringLiteral("request_id"), QStringLiteral("01HZX31"));
        e.payload.insert(QStringLiteral("code"), QString(200, QLatin1Char('x')));
        const QString gist = eventGist(e);
        QVERIFY2(gist.startsWith(QStringLiteral("request_id=01HZX31 · feedback success 1.310×")), qPrintable(gist));
        QVERIFY2(gist.size() < 120, qPrintable(gist)); // long values are cut short
    }

    void showsImportedSearches()
    {
        const QString path = storeWith(
            QStringLiteral("searches.gpuf"), {fixture("events_standard.jsonl"), fixture("hf_search_events.jsonl")});
        QVERIFY(!path.isEmpty());
        StoreSession session;
        SearchesPanel panel(&session);
        QAbstractItemModelTester listTester(
            panel.searchModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester eventTester(
            panel.eventModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.resize(1200, 700);
        panel.show();
        QCOMPARE(panel.statusText(), QStringLiteral("No store is open."));
        QVERIFY(test::openSession(session, path));
        QTRY_VERIFY(!panel.isLoading());

        QTableView *searches = panel.searchView();
        QCOMPARE(searches->model()->rowCount(), 3);
        QCOMPARE(panel.statusText(), QStringLiteral("3 search(es) · 13 event(s) in all; read-only"));
        const int run = rowNamed(searches, QStringLiteral("run-std-1"));
        QVERIFY(run >= 0);
        QCOMPARE(
            cell(searches, run, SearchListModel::SourceColumn), QStringLiteral("events.jsonl: events_standard.jsonl"));
        QCOMPARE(cell(searches, run, SearchListModel::ModeColumn), QStringLiteral("standard"));
        QCOMPARE(cell(searches, run, SearchListModel::EventsColumn), QStringLiteral("8"));
        QCOMPARE(cell(searches, run, SearchListModel::StepsColumn), QStringLiteral("1"));
        QCOMPARE(cell(searches, run, SearchListModel::GpuEvaluationsColumn), QStringLiteral("1"));
        QCOMPARE(cell(searches, run, SearchListModel::BestSpeedupColumn), QStringLiteral("1.310×"));
        const int trimul = rowNamed(searches, QStringLiteral("trimul_s1"));
        QVERIFY(trimul >= 0);
        QCOMPARE(
            cell(searches, trimul, SearchListModel::SourceColumn), QStringLiteral("published search events (exp1)"));
        QCOMPARE(cell(searches, trimul, SearchListModel::ModeColumn), QStringLiteral("surrogate"));
        QCOMPARE(cell(searches, trimul, SearchListModel::EventsColumn), QStringLiteral("3"));
        QCOMPARE(cell(searches, trimul, SearchListModel::ForecastsColumn), QStringLiteral("1"));
        QCOMPARE(cell(searches, trimul, SearchListModel::BestSpeedupColumn), QStringLiteral("—"));
        QCOMPARE(cell(searches, trimul, SearchListModel::ProblemColumn), QStringLiteral("—"));

        // The first search's log is shown at once; choosing another row shows its own, in sequence order.
        QTRY_COMPARE(panel.eventModel()->rowCount(), 8);
        QTest::mouseClick(searches->viewport(), Qt::LeftButton, {},
            searches->visualRect(searches->model()->index(trimul, 0)).center());
        QTRY_VERIFY(!panel.isLoading() && panel.eventModel()->rowCount() == 3);
        QCOMPARE(panel.eventsTitle(), QStringLiteral("Event log of trimul_s1: 3 event(s)"));
        QTableView *events = panel.eventView();
        QCOMPARE(cell(events, 0, SearchEventsModel::KindColumn), QStringLiteral("search_initialized"));
        QCOMPARE(cell(events, 1, SearchEventsModel::KindColumn), QStringLiteral("step_started"));
        QCOMPARE(cell(events, 1, SearchEventsModel::StepColumn), QStringLiteral("0"));
        QCOMPARE(cell(events, 2, SearchEventsModel::KindColumn), QStringLiteral("forecast_completed"));
        QCOMPARE(cell(events, 2, SearchEventsModel::TimeColumn), QStringLiteral("2026-03-01 10:00:02"));

        // Choosing an event shows its payload in full; the filter narrows the log and says so.
        QTest::mouseClick(
            events->viewport(), Qt::LeftButton, {}, events->visualRect(events->model()->index(2, 0)).center());
        QVERIFY2(panel.payloadView()->toPlainText().contains(
                     QStringLiteral("\"request_id\": \"01HZX0000000000000000000F2\"")),
            qPrintable(panel.payloadView()->toPlainText()));
        panel.eventFilter()->setText(QStringLiteral("step_"));
        QCOMPARE(events->model()->rowCount(), 1);
        QCOMPARE(panel.eventsTitle(), QStringLiteral("Event log of trimul_s1: 1 of 3 event(s) match the filter"));
        panel.eventFilter()->clear();

        // A refresh (another import) reloads the list and keeps the chosen search in view.
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(store);
            QVERIFY(interop::importFiles(**store, {fixture("surrogate_run_events.jsonl")}));
        }
        session.refresh();
        QTRY_VERIFY(searches->model()->rowCount() == 4 && !panel.isLoading());
        QCOMPARE(panel.eventsTitle(), QStringLiteral("Event log of trimul_s1: 3 event(s)"));

        session.close();
        QCOMPARE(searches->model()->rowCount(), 0);
        QCOMPARE(panel.eventModel()->rowCount(), 0);
    }

    void emptyStoreSaysWhatToDo()
    {
        const QString path = storeWith(QStringLiteral("empty.gpuf"), {});
        StoreSession session;
        SearchesPanel panel(&session);
        QVERIFY(test::openSession(session, path));
        QTRY_VERIFY(!panel.isLoading());
        QCOMPARE(panel.searchModel()->rowCount(), 0);
        QVERIFY2(panel.statusText().contains(QStringLiteral("holds no searches yet"))
                && panel.statusText().contains(QStringLiteral("File → Import…")),
            qPrintable(panel.statusText()));
    }

    void unreadableStoreSaysWhy()
    {
        // The session opened the store, then the file was replaced by something that is not a store.
        const QString path = storeWith(QStringLiteral("gone.gpuf"), {fixture("events_standard.jsonl")});
        StoreSession session;
        SearchesPanel panel(&session);
        QVERIFY(test::openSession(session, path));
        QTRY_VERIFY(!panel.isLoading());
        QCOMPARE(panel.searchModel()->rowCount(), 1);
        QVERIFY(QFile::remove(path));
        QFile junk(path);
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(4096, 'x'));
        junk.close();
        Q_EMIT session.opened(session.snapshot()); // what a refresh that still had the old counts would announce
        QTRY_VERIFY(!panel.isLoading());
        QCOMPARE(panel.searchModel()->rowCount(), 0);
        QVERIFY2(panel.statusText().startsWith(QStringLiteral("Cannot read the searches: ")),
            qPrintable(panel.statusText()));
        QVERIFY(!panel.statusText().contains(QStringLiteral("SELECT")));
    }
};

QTEST_MAIN(TestSearchesPanel)
#include "tst_searches_panel.moc"
