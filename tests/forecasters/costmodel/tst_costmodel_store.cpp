// Tests of the cost model against a real SQLite store: the training pairs read from measurements (both directions,
// geometric means, failures left out), the training-data hash, leave-one-operation-out training on a tiny store,
// held-out forecasts stored and scored by the same code as `gpuf metrics`, and the backend answering requests.
#include "core/forecasters/costmodel/costmodel_backend.h"
#include "core/forecasters/costmodel/costmodel_heldout.h"
#include "core/forecasters/explanation.h"
#include "core/metrics/from_store.h"
#include "core/store/forecast_repo.h"
#include "core/store/scored_pairs.h"
#include "costmodel_fixture.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace gpuf::costmodel;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;

class TestCostModelStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    TinyStore m_s;
    TrainingSet m_set;

    const MeasuredPair *pair(RowId reference, RowId candidate) const
    {
        for (const MeasuredPair &p : m_set.pairs) {
            if (p.referenceId == reference && p.candidateId == candidate)
                return &p;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase();
    void pairsFromMeasurements_data();
    void pairsFromMeasurements();
    void failuresAndOtherHardwareAreLeftOut();
    void bothDirections();
    void hashIgnoresRowIds();
    void looOnTinyStore();
    void trainingIsDeterministic();
    void heldOutForecastsScoreAsValidation();
    void needsTwoOperations();
    void backendAnswersInsideStart();
    void ensureForecaster();
};

void TestCostModelStore::initTestCase()
{
    auto store = Store::open(m_dir.filePath(u"tiny.gpuf"_s));
    QVERIFY2(store, qPrintable(store.error()));
    m_store = std::move(*store);
    m_s = buildTinyStore(*m_store);
    auto set = loadTrainingSet(*m_store);
    QVERIFY2(set, qPrintable(set.error()));
    m_set = *set;
}

void TestCostModelStore::pairsFromMeasurements_data()
{
    QTest::addColumn<int>("problem");
    QTest::addColumn<int>("reference"); // index into the problem's kernels; -1: the failing kernel
    QTest::addColumn<int>("candidate");
    QTest::addColumn<double>("speedup");
    QTest::addColumn<int>("bin");
    const double vectorOverScalar = std::sqrt((100.0 / 40.0) * (400.0 / 170.0));
    QTest::newRow("vector over scalar") << 0 << 0 << 1 << vectorOverScalar << 6;
    QTest::newRow("scalar over vector") << 0 << 1 << 0 << 1.0 / vectorOverScalar << 1;
    QTest::newRow("strided over scalar") << 1 << 0 << 2 << std::sqrt(100.0 / 260.0 * 400.0 / 1000.0) << 1;
    QTest::newRow("vector over strided") << 2 << 2 << 1 << std::sqrt(260.0 / 40.0 * 1000.0 / 170.0) << 8;
    // A reference that failed a case: the speedup over the cases it ran ok (90 / 100).
    QTest::newRow("scalar over failing") << 0 << -1 << 0 << 0.9 << 3;
}

void TestCostModelStore::pairsFromMeasurements()
{
    QFETCH(int, problem);
    QFETCH(int, reference);
    QFETCH(int, candidate);
    QFETCH(double, speedup);
    QFETCH(int, bin);
    const QList<RowId> &kernels = m_s.kernels[problem];
    const RowId ref = reference < 0 ? m_s.failing : kernels[reference];
    const MeasuredPair *p = pair(ref, kernels[candidate]);
    QVERIFY(p);
    QVERIFY2(std::abs(p->speedup - speedup) < 1e-9, qPrintable(QString::number(p->speedup)));
    QCOMPARE(p->trueBin, bin);
    QCOMPARE(p->problemId, m_s.problems[problem]);
    QCOMPARE(p->hardwareId, m_s.gpu);
}

void TestCostModelStore::failuresAndOtherHardwareAreLeftOut()
{
    // copy: 3 × 2 among the ok kernels + 3 with the failing kernel as reference; scale and square: 3 × 2 each.
    QCOMPARE(m_set.pairs.size(), 9 + 6 + 6);
    for (const MeasuredPair &p : std::as_const(m_set.pairs)) {
        QVERIFY(p.candidateId != m_s.failing);
        QVERIFY(p.candidateId != m_s.otherGpuOnly && p.referenceId != m_s.otherGpuOnly);
        QVERIFY(p.referenceId != p.candidateId);
    }
    QCOMPARE(m_set.problemIds(), m_s.problems);
}

void TestCostModelStore::bothDirections()
{
    for (const MeasuredPair &p : std::as_const(m_set.pairs)) {
        if (p.referenceId == m_s.failing)
            continue;
        const MeasuredPair *back = pair(p.candidateId, p.referenceId);
        QVERIFY(back);
        QVERIFY(std::abs(back->speedup * p.speedup - 1.0) < 1e-12);
    }
}

void TestCostModelStore::hashIgnoresRowIds()
{
    // The same measurements in a store whose ids are shifted by an unrelated problem and kernel.
    auto other = Store::open(m_dir.filePath(u"shifted.gpuf"_s));
    QVERIFY(other);
    Problem unrelated;
    unrelated.name = u"unrelated"_s;
    const RowId p = *ProblemRepo(**other).insert(unrelated);
    tinyKernel(**other, p, u"u"_s, u"// nothing"_s);
    buildTinyStore(**other);
    auto set = loadTrainingSet(**other);
    QVERIFY(set);
    QCOMPARE(set->pairs.size(), m_set.pairs.size());
    QVERIFY(set->pairs.first().referenceId != m_set.pairs.first().referenceId);
    QCOMPARE(set->hash(), m_set.hash());
    QCOMPARE(m_set.hash().size(), 64);
}

void TestCostModelStore::looOnTinyStore()
{
    TrainingOptions options;
    options.parameters.rounds = 20;
    auto outcome = trainWithValidation(m_set, options);
    QVERIFY2(outcome, qPrintable(outcome.error()));
    QCOMPARE(outcome->folds.size(), std::size_t(3));
    QCOMPARE(outcome->heldOut.size(), std::size_t(m_set.pairs.size()));
    QCOMPARE(outcome->validation.nTotal, qint64(m_set.pairs.size()));
    qint64 perFold = 0;
    for (const FoldSummary &f : outcome->folds) {
        QCOMPARE(f.report.nTotal, qint64(f.heldOutPairs));
        QCOMPARE(f.trainPairs + f.heldOutPairs, int(m_set.pairs.size()));
        QVERIFY(f.temperature > 0);
        perFold += f.heldOutPairs;
        // Every held-out prediction of this fold is of this fold's operation.
        for (const HeldOutPrediction &h : outcome->heldOut) {
            if (h.pair.problemId == f.problemId)
                QCOMPARE(m_set.problems.value(h.pair.problemId), f.operation);
        }
    }
    QCOMPARE(perFold, qint64(m_set.pairs.size()));
    const Manifest &m = outcome->model->manifest();
    QCOMPARE(m.trainingData.value(u"pairs"_s).toInt(), int(m_set.pairs.size()));
    QCOMPARE(m.trainingData.value(u"sha256"_s).toString(), m_set.hash());
    QCOMPARE(m.trainingData.value(u"operations"_s).toArray().size(), 3);
    QCOMPARE(m.validation.value(u"method"_s).toString(), u"leave-one-operation-out"_s);
    QCOMPARE(
        m.validation.value(u"per_operation"_s).toObject().keys(), (QStringList {u"copy"_s, u"scale"_s, u"square"_s}));
    QCOMPARE(m.validation.value(u"pooled"_s).toObject().value(u"accuracy"_s).toDouble(),
        outcome->validation.scalar(metrics::Scalar::Accuracy));
    QCOMPARE(m.features, features::pairColumnNames());
    QCOMPARE(m.pairPolicy, QLatin1StringView(kPairPolicy));
}

void TestCostModelStore::trainingIsDeterministic()
{
    TrainingOptions parallel;
    parallel.parameters.rounds = 15;
    TrainingOptions serial = parallel;
    serial.parallel = false;
    auto a = trainWithValidation(m_set, parallel);
    auto b = trainWithValidation(m_set, serial);
    QVERIFY(a && b);
    QCOMPARE(a->model->identity(), b->model->identity());
    QCOMPARE(a->model->manifest().temperature, b->model->manifest().temperature);
    for (std::size_t i = 0; i < a->heldOut.size(); ++i)
        QCOMPARE(a->heldOut[i].calibrated, b->heldOut[i].calibrated);
    // Another seed samples other rows and columns: another model.
    TrainingOptions seeded = serial;
    seeded.parameters.seed = 1;
    auto c = trainWithValidation(m_set, seeded);
    QVERIFY(c);
    QVERIFY(c->model->identity() != a->model->identity());
}

void TestCostModelStore::heldOutForecastsScoreAsValidation()
{
    TrainingOptions options;
    options.parameters.rounds = 20;
    auto outcome = trainWithValidation(m_set, options);
    QVERIFY(outcome);
    auto written = storeHeldOutForecasts(*m_store, *outcome);
    QVERIFY2(written, qPrintable(written.error()));
    QCOMPARE(*written, int(m_set.pairs.size()));
    auto forecaster = ForecasterRepo(*m_store).findByName(QLatin1StringView(kHeldOutForecasterName));
    QVERIFY(forecaster && forecaster->has_value());
    QCOMPARE((*forecaster)->kind, ForecasterKind::CostModel);

    ScoredPairFilter filter;
    filter.forecasters = {QLatin1StringView(kHeldOutForecasterName)};
    auto pairs = loadScoredPairs(*m_store, filter);
    QVERIFY2(pairs, qPrintable(pairs.error()));
    QCOMPARE(pairs->pairs.size(), m_set.pairs.size());
    const metrics::MetricsReport fromStore = metrics::computeReport(metrics::toScoredRows(*pairs));
    for (metrics::Scalar s : {metrics::Scalar::Accuracy, metrics::Scalar::WithinOne, metrics::Scalar::Ece,
             metrics::Scalar::BrierHalf, metrics::Scalar::Nll, metrics::Scalar::UtilityAt10Pct}) {
        const double a = fromStore.scalar(s), b = outcome->validation.scalar(s);
        QVERIFY2(std::abs(a - b) < 1e-12, qPrintable(u"%1: %2 vs %3"_s.arg(metrics::scalarName(s)).arg(a).arg(b)));
    }
}

void TestCostModelStore::needsTwoOperations()
{
    TrainingSet one = m_set;
    one.pairs.removeIf([this](const MeasuredPair &p) { return p.problemId != m_s.problems[0]; });
    auto outcome = trainWithValidation(one);
    QVERIFY(!outcome);
    QVERIFY2(outcome.error().contains(u"at least two operations"_s), qPrintable(outcome.error()));
}

void TestCostModelStore::backendAnswersInsideStart()
{
    auto backend = CostModelBackend::create(*m_store);
    QVERIFY2(backend, qPrintable(backend.error()));
    auto kernel = [this](RowId id) { return **KernelRepo(*m_store).find(id); };
    ForecastRequest request;
    request.id = 42;
    request.reference = kernel(m_s.kernels[0][0]);
    request.candidate = kernel(m_s.kernels[0][1]);
    request.hardware = **HardwareRepo(*m_store).find(m_s.gpu);
    QSignalSpy finished(backend->get(), &ForecastBackend::finished);
    (*backend)->start(request);
    QCOMPARE(finished.size(), 1); // synchronous: answered before start() returned
    QCOMPARE(finished.first().at(0).toULongLong(), quint64(42));
    const Forecast f = finished.first().at(1).value<Forecast>();
    QCOMPARE(f.status, ForecastStatus::Ok);
    QCOMPARE(f.forecasterId, (*backend)->forecasterId());
    QCOMPARE(f.referenceKernelId, request.reference.id);
    QCOMPARE(f.candidateKernelId, request.candidate.id);
    QCOMPARE(f.hardwareId, m_s.gpu);
    QCOMPARE(f.cacheKey, (*backend)->cacheKey(request));
    QVERIFY(f.predictedBin && *f.predictedBin >= 1 && *f.predictedBin <= 8);
    QCOMPARE(*f.predictedBin, bins::argmaxBin(f.probabilities));
    QVERIFY(!f.reasoning.isEmpty());
    auto e = parseExplanation(f.response);
    QVERIFY2(e, qPrintable(e.error()));
    QCOMPARE(e->model, (*backend)->forecaster().model().identity());
    QCOMPARE(e->predictedBin, *f.predictedBin);
    // Every line span points into the kernel it names.
    for (const ExplanationItem &item : e->items) {
        for (const features::LineSpan &s : item.candidateLines)
            QVERIFY(s.last <= request.candidate.source.count(u'\n') + 1);
    }
    // The cache key follows the model and the question.
    ForecastRequest other = request;
    other.repeat = 1;
    QVERIFY((*backend)->cacheKey(other) != f.cacheKey);
    (*backend)->cancel(42); // nothing pending: a no-op
    QCOMPARE(finished.size(), 1);
}

void TestCostModelStore::ensureForecaster()
{
    auto first = ensureCostModelForecaster(*m_store);
    QVERIFY2(first, qPrintable(first.error()));
    QCOMPARE(first->name, QLatin1StringView(kForecasterName));
    QCOMPARE(first->kind, ForecasterKind::CostModel);
    QVERIFY(!first->config.value(u"model"_s).toString().isEmpty());
    auto again = ensureCostModelForecaster(*m_store);
    QVERIFY(again);
    QCOMPARE(again->id, first->id);
    // A name taken by another kind of forecaster is not silently reused.
    Forecaster llm;
    llm.name = u"mine"_s;
    llm.kind = ForecasterKind::Import;
    QVERIFY(ForecasterRepo(*m_store).ensure(llm));
    QVERIFY(!ensureCostModelForecaster(*m_store, {}, u"mine"_s));
}

QTEST_GUILESS_MAIN(TestCostModelStore)
#include "tst_costmodel_store.moc"
