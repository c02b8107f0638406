// Offscreen tests of the metrics table: CalibrationData loading a real store off the GUI thread (latest request
// wins), MetricsTableModel under QAbstractItemModelTester, the widget's filters, drill-down and CSV export.
// With GPUF_SCREENSHOT_DIR set, it also saves the table in a light and a dark palette.
#include "../metrics/tst_metrics_store_fixture.h"
#include "core/session/calibration_data.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "widgets/calibration/metrics_table.h"
#include "widgets/calibration/metrics_table_model.h"
#include "widgets/common/color_scheme.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

using M = MetricsTableModel;

int rowOf(const QAbstractItemModel *model, const QString &label)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, M::ForecasterColumn).data().toString() == label)
            return row;
    }
    return -1;
}

} // namespace

class TestMetricsTable : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    testing::MetricsStore m_s;

    struct Fixture
    {
        StoreSession session;
        Selection selection;
        CalibrationData data {&session};
        MetricsTable table {&data, &selection};
    };

    std::unique_ptr<Fixture> load()
    {
        auto f = std::make_unique<Fixture>();
        f->table.resize(1500, 260);
        f->table.show();
        f->session.open(m_path);
        return f;
    }

    static bool loaded(const Fixture &f) { return f.data.snapshot()->generation > 0 && !f.data.isLoading(); }

private Q_SLOTS:
    void initTestCase();
    void loadsOffTheGuiThread();
    void latestRequestWins();
    void modelUnderTester();
    void figuresAndBest_data();
    void figuresAndBest();
    void sortsByRawValues();
    void filtersReload();
    void drillDownFiltersCandidates();
    void csvExport();
    void unknownNameShowsError();
    void screenshots();
};

void TestMetricsTable::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_path = m_dir.filePath(u"table.gpuf"_s);
    auto store = Store::open(m_path);
    QVERIFY2(store.ok(), qPrintable(store.error()));
    m_s = testing::buildMetricsStore(**store);
}

void TestMetricsTable::loadsOffTheGuiThread()
{
    auto f = load();
    QTRY_VERIFY(loaded(*f));
    const auto snapshot = f->data.snapshot();
    QVERIFY2(snapshot->error.isEmpty(), qPrintable(snapshot->error));
    QCOMPARE(snapshot->storePath, m_path);
    QCOMPARE(snapshot->metrics.rows.size(), std::size_t(10));
    QCOMPARE(snapshot->metrics.samePairRows.size(), std::size_t(6));
    QCOMPARE(snapshot->metrics.reports.size(), std::size_t(3));
    QVERIFY(snapshot->metrics.reports[0].report.hasIntervals); // the GUI bootstraps by default
    QCOMPARE(f->table.model()->rowCount(), 3);
    f->session.close();
    QTRY_COMPARE(f->table.model()->rowCount(), 0);
    QVERIFY(f->data.snapshot()->storePath.isEmpty());
}

void TestMetricsTable::latestRequestWins()
{
    auto f = load();
    QTRY_VERIFY(loaded(*f));
    QSignalSpy changed(&f->data, &CalibrationData::changed);
    CalibrationRequest first = f->data.request();
    first.forecasters = {u"beta"_s};
    CalibrationRequest second = first;
    second.forecasters = {u"alpha"_s};
    second.bootstrapResamples = 0;
    f->data.setRequest(first);
    f->data.setRequest(second);
    QTRY_VERIFY(!f->data.isLoading());
    QCOMPARE(changed.count(), 1); // the first load's result was dropped
    QCOMPARE(f->data.snapshot()->request, second);
    QCOMPARE(f->data.snapshot()->pairs.forecasters.size(), 1);
    QCOMPARE(f->data.snapshot()->pairs.forecasters.first().name, u"alpha"_s);
    f->data.setRequest(second); // equal: nothing to do
    QVERIFY(!f->data.isLoading());
}

void TestMetricsTable::modelUnderTester()
{
    auto f = load();
    QTRY_VERIFY(loaded(*f));
    MetricsTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(f->data.snapshot(), metrics::Comparison::AllPairs);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(M::ColumnCount));
    model.setComparison(metrics::Comparison::SamePairs);
    model.setSnapshot(std::make_shared<const CalibrationSnapshot>(), metrics::Comparison::SamePairs);
    QCOMPARE(model.rowCount(), 0);
    model.setSnapshot(f->data.snapshot(), metrics::Comparison::SamePairs);
    QCOMPARE(model.rowCount(), 3);
    // The headers are the figures of `gpuf metrics`, in the same order.
    for (int column = 1; column < M::ColumnCount; ++column)
        QCOMPARE(model.headerData(column, Qt::Horizontal).toString(), metrics::tableFigures()[column - 1].title);
}

void TestMetricsTable::figuresAndBest_data()
{
    QTest::addColumn<bool>("samePairs");
    QTest::addColumn<QString>("forecaster");
    QTest::addColumn<int>("column");
    QTest::addColumn<double>("value");
    QTest::addColumn<bool>("best");
    QTest::newRow("alpha pairs") << false << u"alpha"_s << int(M::PairsColumn) << 7.0 << false;
    QTest::newRow("alpha accuracy") << false << u"alpha"_s << int(M::AccuracyColumn) << 4.0 / 6.0 << true;
    QTest::newRow("beta accuracy") << false << u"beta"_s << int(M::AccuracyColumn) << 1.0 / 3.0 << false;
    QTest::newRow("alpha within one") << false << u"alpha"_s << int(M::WithinOneColumn) << 1.0 << true;
    QTest::newRow("beta within one") << false << u"beta"_s << int(M::WithinOneColumn) << 1.0 << true; // a tie
    QTest::newRow("same pairs: alpha") << true << u"alpha"_s << int(M::PairsColumn) << 3.0 << false;
    // Only 3 pairs in common, under metrics::kMinSharedPairs: too few to rank, so no best is marked (issue 27, item
    // 11).
    QTest::newRow("same pairs: accuracy") << true << u"alpha"_s << int(M::AccuracyColumn) << 2.0 / 3.0 << false;
}

void TestMetricsTable::figuresAndBest()
{
    QFETCH(bool, samePairs);
    QFETCH(QString, forecaster);
    QFETCH(int, column);
    QFETCH(double, value);
    QFETCH(bool, best);
    auto f = load();
    QTRY_VERIFY(loaded(*f));
    MetricsTableModel *model = f->table.model();
    model->setComparison(samePairs ? metrics::Comparison::SamePairs : metrics::Comparison::AllPairs);
    const int row = rowOf(model, forecaster);
    QVERIFY(row >= 0);
    const QModelIndex index = model->index(row, column);
    QCOMPARE(index.data(M::SortRole).toDouble(), value);
    QCOMPARE(index.data(M::BestRole).toBool(), best);
    QCOMPARE(index.data(Qt::FontRole).value<QFont>().bold(), best);
    const QString text = index.data().toString();
    if (column == M::PairsColumn) {
        QCOMPARE(text, QString::number(qint64(value)));
    } else {
        // "0.667 [0.500, 1.000]": the value, then the bootstrap interval around it.
        QVERIFY2(text.startsWith(QString::number(value, 'f', 3) + u" ["_s), qPrintable(text));
        QVERIFY(index.data(M::LowRole).toDouble() <= index.data(M::HighRole).toDouble());
    }
    // gamma forecast nothing: no value, never best.
    const QModelIndex gamma = model->index(rowOf(model, u"gamma"_s), M::AccuracyColumn);
    QCOMPARE(gamma.data().toString(), u"—"_s);
    QVERIFY(!gamma.data(M::SortRole).isValid());
    QVERIFY(!gamma.data(M::BestRole).toBool());
}

void TestMetricsTable::sortsByRawValues()
{
    auto f = load();
    QTRY_VERIFY(loaded(*f));
    QTableView *view = f->table.view();
    view->sortByColumn(M::AccuracyColumn, Qt::DescendingOrder);
    const QAbstractItemModel *shown = view->model();
    QCOMPARE(shown->index(0, M::ForecasterColumn).data().toString(), u"alpha"_s);
    QCOMPARE(shown->index(1, M::ForecasterColumn).data().toString(), u"beta"_s);
    QCOMPARE(shown->index(2, M::ForecasterColumn).data().toString(), u"gamma"_s); // no value: last
    view->sortByColumn(M::AccuracyColumn, Qt::AscendingOrder);
    QCOMPARE(shown->index(0, M::ForecasterColumn).data().toString(), u"beta"_s);
    QCOMPARE(shown->index(1, M::ForecasterColumn).data().toString(), u"alpha"_s);
    QCOMPARE(shown->index(2, M::ForecasterColumn).data().toString(), u"gamma"_s); // last in either order
}

void TestMetricsTable::filtersReload()
{
    auto f = load();
    QTRY_VERIFY(loaded(*f));
    auto *problem = f->table.findChildren<QComboBox *>().value(0);
    QVERIFY(problem);
    QCOMPARE(problem->count(), 3); // all, scale, other
    problem->setCurrentIndex(problem->findData(u"other"_s));
    QTRY_COMPARE(f->data.snapshot()->request.problem, u"other"_s);
    QTRY_VERIFY(!f->data.isLoading());
    QCOMPARE(f->data.snapshot()->metrics.rows.size(), std::size_t(1)); // X, by alpha
    QCOMPARE(problem->currentData().toString(), u"other"_s); // kept across the reload
}

void TestMetricsTable::drillDownFiltersCandidates()
{
    auto f = load();
    QTRY_VERIFY(loaded(*f));
    QSignalSpy filtered(&f->selection, &Selection::filterChanged);
    QTableView *view = f->table.view();
    const int row = rowOf(view->model(), u"alpha"_s);
    const QRect rect = view->visualRect(view->model()->index(row, M::AccuracyColumn));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::keyClick(view, Qt::Key_Return); // activates the current row
    QTRY_COMPARE(filtered.count(), 1);
    // Same pairs only (the default): the pairs alpha and beta both forecast.
    QCOMPARE(f->selection.filterIds(), (QList<RowId> {m_s.a, m_s.b, m_s.e}));
    QVERIFY(f->selection.filterDescription().contains(u"alpha"_s));
}

void TestMetricsTable::csvExport()
{
    auto f = load();
    QTRY_VERIFY(loaded(*f));
    f->table.model()->setComparison(metrics::Comparison::AllPairs);
    const QString path = m_dir.filePath(u"metrics.csv"_s);
    const Status status = f->table.exportCsv(path);
    QVERIFY2(status.ok(), qPrintable(status.error()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.size(), 5); // header, three forecasters, the final newline
    QVERIFY(lines[0].startsWith("forecaster,display_name,n_total,n_parsed,accuracy,accuracy_low,accuracy_high,"));
    const QList<QByteArray> alpha = lines[1].split(',');
    QCOMPARE(alpha.value(0), QByteArray("alpha"));
    QCOMPARE(alpha.value(1), QByteArray("Alpha model"));
    QCOMPARE(alpha.value(2), QByteArray("7"));
    QCOMPARE(alpha.value(3), QByteArray("6"));
    QCOMPARE(alpha.value(4).toDouble(), 4.0 / 6.0);
    QVERIFY(lines[3].startsWith("gamma,gamma,0,0,,")); // no values: empty cells
    const Status bad = writeMetricsCsv(m_dir.filePath(u"no/such/folder/metrics.csv"_s), f->table.model()->reports());
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().contains(u"cannot write"_s));
}

void TestMetricsTable::unknownNameShowsError()
{
    auto f = load();
    QTRY_VERIFY(loaded(*f));
    CalibrationRequest request = f->data.request();
    request.forecasters = {u"nobody"_s};
    f->data.setRequest(request);
    QTRY_VERIFY(!f->data.isLoading() && !f->data.snapshot()->error.isEmpty());
    QVERIFY(f->data.snapshot()->error.contains(u"unknown forecaster 'nobody'"_s));
    QCOMPARE(f->table.model()->rowCount(), 0);
}

void TestMetricsTable::screenshots()
{
    const QString folder = qEnvironmentVariable("GPUF_SCREENSHOT_DIR");
    if (folder.isEmpty())
        QSKIP("set GPUF_SCREENSHOT_DIR to save screenshots of the metrics table");
    auto f = load();
    QTRY_VERIFY(loaded(*f));
    f->table.view()->resizeColumnsToContents();
    QVERIFY(f->table.grab().save(folder + u"/metrics_table_light.png"_s));
    f->table.setPalette(darkPalette());
    QVERIFY(f->table.grab().save(folder + u"/metrics_table_dark.png"_s));
}

QTEST_MAIN(TestMetricsTable)
#include "tst_metrics_table.moc"
