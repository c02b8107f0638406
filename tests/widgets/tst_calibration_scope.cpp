// What the Calibration and Metrics docks say of their scope, on the shipped sample (with its demo student) plus a
// search that names one of its kernels and one imported candidate: "on the pairs both forecast" means the two
// forecasters compared, not every forecaster ticked in the Metrics dock; too few pairs in common are said, not ranked;
// the Origin box filters corpus, imported and search pairs; the title names the scope and says that the problem chosen
// in the Problems tree does not scope it.
#include "core/interop/interop.h"
#include "core/session/calibration_data.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/scored_pairs.h"
#include "core/store/search_repo.h"
#include "core/store/store.h"
#include "widgets/calibration/calibration_view.h"
#include "widgets/calibration/metrics_table.h"
#include "widgets/calibration/metrics_table_model.h"
#include "widgets/calibration/reliability_plot.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

const QString kCostModel = u"costmodel"_s;
const QString kHeldOut = u"costmodel-heldout"_s;
const QString kStudent = u"student:Demo Student (made up)"_s;

RowId forecasterId(const CalibrationSnapshot &snapshot, const QString &name)
{
    for (const ScoredPairsForecaster &f : snapshot.pairs.forecasters) {
        if (f.name == name)
            return f.id;
    }
    return 0;
}

// The pairs (reference, candidate, hardware, repeat) both forecasters have a scored row for, counted from the rows
// themselves.
qint64 pairsInCommon(const CalibrationSnapshot &snapshot, RowId a, RowId b)
{
    std::set<std::tuple<qint64, qint64, qint64, int>> ofA;
    std::set<std::tuple<qint64, qint64, qint64, int>> both;
    for (const metrics::ScoredRow &row : snapshot.metrics.rows) {
        if (row.forecasterId == a)
            ofA.insert({row.poolKey, row.pairId, row.hardwareId, row.repeat});
    }
    for (const metrics::ScoredRow &row : snapshot.metrics.rows) {
        if (row.forecasterId == b && ofA.contains({row.poolKey, row.pairId, row.hardwareId, row.repeat}))
            both.insert({row.poolKey, row.pairId, row.hardwareId, row.repeat});
    }
    return qint64(both.size());
}

QComboBox *comboLabelled(const QWidget *view, const QString &text)
{
    for (QLabel *label : view->findChildren<QLabel *>()) {
        if (label->text() == text)
            return qobject_cast<QComboBox *>(label->buddy());
    }
    return nullptr;
}

} // namespace

class TestCalibrationScope : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    RowId m_searched = 0; // the corpus kernel a search names
    RowId m_imported = 0; // a candidate with origin import:…

    struct Fixture
    {
        StoreSession session;
        Selection selection;
        CalibrationData data {&session};
        CalibrationView view {&data, &selection};
        MetricsTable table {&data, &selection};
    };

    std::unique_ptr<Fixture> load()
    {
        auto f = std::make_unique<Fixture>();
        CalibrationRequest request;
        request.bootstrapResamples = 0;
        f->data.setRequest(request);
        f->view.resize(1200, 700);
        f->session.open(m_path);
        return f;
    }

    static bool settled(const Fixture &f) { return f.data.snapshot()->generation > 0 && !f.data.isLoading(); }

private Q_SLOTS:
    void initTestCase();
    void bothMeansTheTwoCompared();
    void tooFewPairsInCommonAreNotRanked();
    void originFilter();
    void treeProblemDoesNotScope();
};

void TestCalibrationScope::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLocale::setDefault(QLocale::c());
    m_path = m_dir.filePath(u"sample.gpuf"_s);
    auto store = Store::open(m_path);
    QVERIFY2(store, qPrintable(store.error()));
    auto report
        = interop::importFiles(**store, {QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl")});
    QVERIFY2(report, qPrintable(report.error()));

    // A search whose log names one sgemm kernel: its pairs are search pairs.
    auto sgemm = ProblemRepo(**store).findByName(u"sgemm"_s);
    QVERIFY(sgemm && sgemm->has_value());
    auto kernels = KernelRepo(**store).list();
    QVERIFY(kernels);
    for (const Kernel &k : std::as_const(*kernels)) {
        if (k.problemId == (*sgemm)->id && k.name == u"v2_smem_tile"_s)
            m_searched = k.id;
    }
    QVERIFY(m_searched != 0);
    Search search;
    search.name = u"scope-search"_s;
    search.mode = u"standard"_s;
    search.problemId = (*sgemm)->id;
    QVERIFY(SearchRepo(**store).ensure(search));
    SearchEvent event;
    event.searchId = search.id;
    event.kind = u"proposal"_s;
    event.payload = QJsonObject {{u"kernel_id"_s, m_searched}};
    event.time = QDateTime::currentDateTimeUtc();
    QVERIFY(SearchRepo(**store).append(event));

    // An imported candidate of sgemm with a published label (2.5×) and a cost-model forecast of it.
    Kernel imported;
    imported.problemId = (*sgemm)->id;
    imported.name = u"paper_row_1"_s;
    imported.language = u"cuda"_s;
    imported.source = u"// imported from a published dataset row\n__global__ void k() {}\n"_s;
    imported.origin = u"import:paper"_s;
    QVERIFY(KernelRepo(**store).insertOrGet(imported));
    m_imported = imported.id;
    PairLabel label;
    label.referenceKernelId = (*sgemm)->referenceKernelId;
    label.candidateKernelId = m_imported;
    label.speedup = 2.5;
    label.kind = u"eval"_s;
    label.source = u"import:eval"_s;
    QVERIFY(PairLabelRepo(**store).insert(label));
    auto costModel = ForecasterRepo(**store).findByName(kCostModel);
    QVERIFY(costModel && costModel->has_value());
    Forecast forecast;
    forecast.forecasterId = (*costModel)->id;
    forecast.referenceKernelId = (*sgemm)->referenceKernelId;
    forecast.candidateKernelId = m_imported;
    forecast.probabilities = {0, 0, 0, 0, 0.2, 0.7, 0.1, 0};
    forecast.predictedBin = 6;
    QVERIFY(ForecastRepo(**store).insert(forecast));
}

void TestCalibrationScope::bothMeansTheTwoCompared()
{
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f), 30000);
    auto snapshot = f->data.snapshot();
    const RowId costModel = forecasterId(*snapshot, kCostModel);
    const RowId heldOut = forecasterId(*snapshot, kHeldOut);
    QVERIFY(costModel != 0 && heldOut != 0 && forecasterId(*snapshot, kStudent) != 0);
    const qint64 inCommon = pairsInCommon(*snapshot, costModel, heldOut);
    // The student answered few steps: the pairs every forecaster forecast are few, the two cost models' are many.
    const qint64 everyone = snapshot->metrics.sharedPairs(metrics::Comparison::SamePairs);
    QVERIFY2(everyone < metrics::kMinSharedPairs, qPrintable(QString::number(everyone)));
    QVERIFY2(inCommon >= 100, qPrintable(QString::number(inCommon)));

    f->view.setForecasters(costModel, heldOut);
    f->view.setComparison(metrics::Comparison::ComparedPairs);
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f) && f->data.snapshot()->request.compared.size() == 2, 30000);
    snapshot = f->data.snapshot();
    QCOMPARE(snapshot->metrics.sharedPairs(metrics::Comparison::ComparedPairs), inCommon);
    // Each plotted series holds exactly those pairs, one row each.
    const PlotInput &input = f->view.reliabilityPlot()->input();
    QCOMPARE(input.series.size(), 2);
    for (const PlotSeries &series : input.series)
        QCOMPARE(qint64(series.rows->size()), inCommon);
    // The title names them and the scope (all of the sample's pairs are corpus pairs but the searched kernel's).
    const QString scope = f->view.scopeText();
    QVERIFY2(scope.startsWith(u"costmodel vs costmodel-heldout · on the %1 pairs both forecast · all problems · every "
                              "GPU · every origin: "_s.arg(inCommon)),
        qPrintable(scope));
    QVERIFY2(scope.contains(u" search"_s), qPrintable(scope));

    // The Metrics dock's "Same pairs only" (its default) compares every forecaster ticked, the student included: too
    // few pairs in common, so no cell is marked best, and the status says why.
    MetricsTableModel *model = f->table.model();
    QCOMPARE(model->comparison(), metrics::Comparison::SamePairs);
    QVERIFY(model->tooFewSharedPairs());
    for (int row = 0; row < model->rowCount(); ++row) {
        for (int column = 0; column < model->columnCount(); ++column)
            QVERIFY(!model->index(row, column).data(MetricsTableModel::BestRole).toBool());
    }
    QVERIFY2(f->table.statusText().contains(u"on the %1 pair(s) every forecaster shown forecast"_s.arg(everyone)),
        qPrintable(f->table.statusText()));
    QVERIFY2(f->table.statusText().contains(u"too few pairs in common (under 30) to rank the forecasters: no best is "
                                            "marked"_s),
        qPrintable(f->table.statusText()));
    // Each on all its pairs, a best is marked again.
    model->setComparison(metrics::Comparison::AllPairs);
    QVERIFY(!model->tooFewSharedPairs());
    bool anyBest = false;
    for (int row = 0; row < model->rowCount(); ++row) {
        for (int column = 0; column < model->columnCount(); ++column)
            anyBest = anyBest || model->index(row, column).data(MetricsTableModel::BestRole).toBool();
    }
    QVERIFY(anyBest);
}

void TestCalibrationScope::tooFewPairsInCommonAreNotRanked()
{
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f), 30000);
    auto snapshot = f->data.snapshot();
    const RowId costModel = forecasterId(*snapshot, kCostModel);
    const RowId student = forecasterId(*snapshot, kStudent);
    const qint64 inCommon = pairsInCommon(*snapshot, costModel, student);
    QVERIFY2(inCommon > 0 && inCommon < metrics::kMinSharedPairs, qPrintable(QString::number(inCommon)));
    f->view.setForecasters(costModel, student);
    f->view.setComparison(metrics::Comparison::ComparedPairs);
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f) && f->data.snapshot()->request.compared.size() == 2
            && f->data.snapshot()->request.compared.contains(student),
        30000);
    QCOMPARE(f->data.snapshot()->metrics.sharedPairs(metrics::Comparison::ComparedPairs), inCommon);
    QVERIFY2(f->view.scopeText().startsWith(
                 u"costmodel vs %1 · on the only %2 pair(s) both forecast: too few (under 30) to tell which is "
                 "better, so neither is ranked · "_s.arg(kStudent)
                     .arg(inCommon)),
        qPrintable(f->view.scopeText()));
}

void TestCalibrationScope::originFilter()
{
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f), 30000);
    const RowId costModel = forecasterId(*f->data.snapshot(), kCostModel);
    f->view.setForecasters(costModel);
    QComboBox *origin = comboLabelled(&f->view, u"&Origin:"_s);
    QVERIFY(origin);
    QCOMPARE(origin->count(), 5);
    QCOMPARE(origin->itemText(0), u"every origin"_s);
    const auto candidates = [&f] {
        QSet<qint64> ids;
        for (const metrics::ScoredRow &row : f->data.snapshot()->metrics.rows)
            ids.insert(row.pairId);
        return ids;
    };
    const qint64 all = qint64(f->data.snapshot()->metrics.rows.size());
    QVERIFY(candidates().contains(m_imported) && candidates().contains(m_searched));

    // Search pairs: only the kernel the search names (one pair per GPU it was measured on).
    origin->setCurrentIndex(origin->findText(u"search pairs"_s));
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f) && f->data.snapshot()->request.origin == PairOrigin::Search, 30000);
    QCOMPARE(candidates(), QSet<qint64> {m_searched});
    QVERIFY2(f->view.scopeText().endsWith(u" · search pairs only"_s), qPrintable(f->view.scopeText()));
    QVERIFY2(f->table.statusText().contains(u"only search pairs (Calibration ▸ Origin)"_s),
        qPrintable(f->table.statusText()));
    // Imported pairs: the one imported candidate, scored by its label.
    origin->setCurrentIndex(origin->findText(u"imported pairs"_s));
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f) && f->data.snapshot()->request.origin == PairOrigin::Imported, 30000);
    QCOMPARE(candidates(), QSet<qint64> {m_imported});
    QCOMPARE(f->data.snapshot()->metrics.rows.size(), std::size_t(1));
    QVERIFY2(
        f->view.scopeText().startsWith(u"costmodel · on its 1 scored pairs · "_s), qPrintable(f->view.scopeText()));
    // Other pairs: none in this store, and the status says it is the origin that leaves nothing.
    origin->setCurrentIndex(origin->findText(u"other pairs"_s));
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f) && f->data.snapshot()->request.origin == PairOrigin::Other, 30000);
    QVERIFY(f->data.snapshot()->metrics.rows.empty());
    QCOMPARE(f->view.statusText(),
        u"No forecast of other pairs has a measured truth: choose every origin to see the others."_s);
    // Corpus pairs: neither of them.
    origin->setCurrentIndex(origin->findText(u"corpus pairs"_s));
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f) && f->data.snapshot()->request.origin == PairOrigin::Corpus, 30000);
    QVERIFY(!candidates().contains(m_imported) && !candidates().contains(m_searched));
    // Every origin again: the title counts what the pairs are made of.
    origin->setCurrentIndex(0);
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f) && !f->data.snapshot()->request.origin, 30000);
    QCOMPARE(qint64(f->data.snapshot()->metrics.rows.size()), all);
    QVERIFY2(f->view.scopeText().contains(u"every origin: "_s) && f->view.scopeText().contains(u", 1 imported"_s),
        qPrintable(f->view.scopeText()));
}

void TestCalibrationScope::treeProblemDoesNotScope()
{
    auto f = load();
    QTRY_VERIFY_WITH_TIMEOUT(settled(*f), 30000);
    QVERIFY(!f->view.scopeText().contains(u'\n'));
    auto store = Store::open(m_path, Store::Mode::ReadOnly);
    QVERIFY(store);
    auto sgemm = ProblemRepo(**store).findByName(u"sgemm"_s);
    QVERIFY(sgemm && sgemm->has_value());
    f->selection.setScope((*sgemm)->id);
    QVERIFY2(f->view.scopeText().endsWith(u"\nThe problem chosen in the Problems tree (sgemm) does not scope these "
                                          "plots: choose it in the Metrics dock's problem box."_s),
        qPrintable(f->view.scopeText()));
    QVERIFY(f->view.scopeText().contains(u" · all problems · "_s));
}

QTEST_MAIN(TestCalibrationScope)
#include "tst_calibration_scope.moc"
