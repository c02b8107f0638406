// Integration tests of `gpuf train` and `gpuf forecast --forecaster costmodel`: the real executable on real stores,
// no network and no GPU. Training prints and writes what core computes (the held-out forecasts score in
// `gpuf metrics` exactly as the training run reported); forecasting works on a store that has never seen a
// forecaster, with the built-in model or a trained one, and stores explained forecasts.
#include "core/forecasters/costmodel/costmodel_forecaster.h"
#include "core/forecasters/explanation.h"
#include "core/measure/worker_locator.h"
#include "core/store/forecast_repo.h"
#include "costmodel_fixture.h"
#include "tests/support/cli_run.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;

namespace {

using Run = gpuf::test::CliText;

// How long each gpuf run may take.
constexpr int kGpufTimeoutMs = 300000;

QJsonObject jsonOf(const Run &r)
{
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8());
    return doc.isObject() ? doc.object() : QJsonObject {};
}

} // namespace

class TestCostModelCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_store; // the tiny store: measured
    QString m_model; // trained from it in trainWritesModelAndManifest

    QString freshStore(const QString &name)
    {
        QString path = m_dir.filePath(name);
        auto store = Store::open(path);
        if (!store)
            qFatal("store: %s", qPrintable(store.error()));
        buildTinyStore(**store);
        return path;
    }

    QList<Forecast> forecastsOf(const QString &path, const QString &forecaster)
    {
        auto store = Store::open(path, Store::Mode::ReadOnly);
        if (!store)
            return {};
        auto f = ForecasterRepo(**store).findByName(forecaster);
        auto all = ForecastRepo(**store).list();
        if (!f || !f->has_value() || !all)
            return {};
        QList<Forecast> out;
        for (const Forecast &x : std::as_const(*all)) {
            if (x.forecasterId == (*f)->id)
                out.append(x);
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase();
    void trainWritesModelAndManifest();
    void trainPrintsValidation();
    void heldOutForecastsMatchMetrics();
    void trainErrors_data();
    void trainErrors();
    void forecastOnFreshStore();
    void forecastWithTrainedModel();
    void forecastModelErrors();
    void compileFeatures();
    void forecastWarnsOfUnknownFeatures();
};

void TestCostModelCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_store = freshStore(u"tiny.gpuf"_s);
    m_model = m_dir.filePath(u"models/tiny.json"_s);
}

void TestCostModelCli::trainWritesModelAndManifest()
{
    const Run r = test::runGpuf(
        {u"train"_s, m_store, u"--out"_s, m_model, u"--rounds"_s, u"20"_s, u"--json"_s}, kGpufTimeoutMs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = jsonOf(r);
    QCOMPARE(json.value(u"model"_s).toString(), m_model);
    QCOMPARE(json.value(u"training_data"_s).toObject().value(u"pairs"_s).toInt(), 21);
    const QJsonObject pooled = json.value(u"validation"_s).toObject().value(u"pooled"_s).toObject();
    QCOMPARE(pooled.value(u"n"_s).toInt(), 21);
    for (const char *key : {"accuracy", "within_one", "ece", "brier_half", "utility_at_10pct"})
        QVERIFY2(pooled.value(QLatin1StringView(key)).isDouble(), key);
    QCOMPARE(json.value(u"hyper_parameters"_s).toObject().value(u"rounds"_s).toInt(), 20);
    QVERIFY(QFile::exists(m_model));
    QVERIFY(QFile::exists(m_dir.filePath(u"models/tiny.manifest.json"_s)));
    auto model = costmodel::CostModel::load(m_model);
    QVERIFY2(model, qPrintable(model.error()));
    QCOMPARE((*model)->manifest().validation, json.value(u"validation"_s).toObject());
    QCOMPARE((*model)->manifest().temperature, json.value(u"temperature"_s).toDouble());
    QCOMPARE((*model)->manifest().modelFile, u"tiny.json"_s);
}

void TestCostModelCli::trainPrintsValidation()
{
    const Run r = test::runGpuf(
        {u"train"_s, m_store, u"--out"_s, m_dir.filePath(u"text.json"_s), u"--rounds"_s, u"10"_s, u"--quiet"_s},
        kGpufTimeoutMs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString &out = r.out;
    for (const QString &expected : {u"leave-one-operation-out"_s, u"copy "_s, u"scale "_s, u"square "_s, u"pooled "_s,
             u"utility_at_10pct"_s, u"21 measured pairs"_s, u"wrote "_s})
        QVERIFY2(out.contains(expected), qPrintable(expected + u" in:\n"_s + out));
    QVERIFY(r.err.isEmpty()); // --quiet: no progress lines
}

void TestCostModelCli::heldOutForecastsMatchMetrics()
{
    const QString path = freshStore(u"heldout.gpuf"_s);
    const Run train = test::runGpuf({u"train"_s, path, u"--out"_s, m_dir.filePath(u"h.json"_s), u"--rounds"_s, u"20"_s,
                                        u"--write-heldout"_s, u"--json"_s},
        kGpufTimeoutMs);
    QVERIFY2(train.exitCode == 0, qPrintable(train.err));
    QCOMPARE(jsonOf(train).value(u"heldout_forecasts"_s).toInt(), 21);
    QCOMPARE(forecastsOf(path, u"costmodel-heldout"_s).size(), 21);
    const Run metrics
        = test::runGpuf({u"metrics"_s, path, u"--forecaster"_s, u"costmodel-heldout"_s, u"--json"_s}, kGpufTimeoutMs);
    QVERIFY2(metrics.exitCode == 0, qPrintable(metrics.err));
    const QJsonObject scored = jsonOf(metrics).value(u"costmodel-heldout"_s).toObject();
    const QJsonObject pooled = jsonOf(train).value(u"validation"_s).toObject().value(u"pooled"_s).toObject();
    for (const char *key : {"accuracy", "within_one", "ece", "brier_half", "nll", "utility_at_10pct"}) {
        const double a = scored.value(QLatin1StringView(key)).toDouble(),
                     b = pooled.value(QLatin1StringView(key)).toDouble();
        QVERIFY2(std::abs(a - b) < 1e-9, qPrintable(u"%1: %2 vs %3"_s.arg(QLatin1StringView(key)).arg(a).arg(b)));
    }
}

void TestCostModelCli::trainErrors_data()
{
    QTest::addColumn<QStringList>("arguments"); // STORE is replaced by the tiny store
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("no --out") << QStringList {u"train"_s, u"STORE"_s} << 2 << u"--out MODEL is required"_s;
    QTest::newRow("bad seed") << QStringList {u"train"_s, u"STORE"_s, u"--out"_s, u"x.json"_s, u"--seed"_s, u"-1"_s}
                              << 2 << u"--seed"_s;
    QTest::newRow("bad rounds") << QStringList {u"train"_s, u"STORE"_s, u"--out"_s, u"x.json"_s, u"--rounds"_s, u"0"_s}
                                << 2 << u"--rounds"_s;
    QTest::newRow("two stores") << QStringList {u"train"_s, u"STORE"_s, u"STORE"_s, u"--out"_s, u"x.json"_s} << 2
                                << u"exactly one STORE"_s;
    QTest::newRow("no such store") << QStringList {u"train"_s, u"/nonexistent/s.gpuf"_s, u"--out"_s, u"x.json"_s} << 1
                                   << u"train: "_s;
}

void TestCostModelCli::trainErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    arguments.replaceInStrings(u"STORE"_s, m_store);
    const Run r = test::runGpuf(arguments, kGpufTimeoutMs);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
}

void TestCostModelCli::forecastOnFreshStore()
{
    // A store that has kernels but has never had a forecaster.
    const QString path = freshStore(u"fresh.gpuf"_s);
    const Run r = test::runGpuf({u"forecast"_s, path, u"--forecaster"_s, u"costmodel"_s, u"--json"_s}, kGpufTimeoutMs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // Each problem's reference against each of its other kernels: copy 3, scale 3, square 2.
    QCOMPARE(jsonOf(r).value(u"ok"_s).toInt(), 8);
    const QList<Forecast> forecasts = forecastsOf(path, u"costmodel"_s);
    QCOMPARE(forecasts.size(), 8);
    auto builtIn = costmodel::CostModel::builtIn();
    QVERIFY(builtIn);
    for (const Forecast &f : forecasts) {
        QCOMPARE(f.status, ForecastStatus::Ok);
        QVERIFY(f.predictedBin.has_value());
        QVERIFY(f.reasoning.startsWith(u"Predicted "_s));
        auto e = parseExplanation(f.response);
        QVERIFY2(e, qPrintable(e.error()));
        QCOMPARE(e->model, (*builtIn)->identity());
    }
    // Again: every answer comes from the cache.
    const Run again
        = test::runGpuf({u"forecast"_s, path, u"--forecaster"_s, u"costmodel"_s, u"--json"_s}, kGpufTimeoutMs);
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(jsonOf(again).value(u"cached"_s).toInt(), 8);
    auto store = Store::open(path, Store::Mode::ReadOnly);
    QVERIFY(store);
    auto row = ForecasterRepo(**store).findByName(u"costmodel"_s);
    QVERIFY(row && row->has_value());
    QCOMPARE((*row)->kind, ForecasterKind::CostModel);
}

void TestCostModelCli::forecastWithTrainedModel()
{
    QVERIFY(QFile::exists(m_model)); // trained by trainWritesModelAndManifest
    const QString path = freshStore(u"trained.gpuf"_s);
    const Run r = test::runGpuf(
        {u"forecast"_s, path, u"--forecaster"_s, u"costmodel"_s, u"--model"_s, m_model, u"--hardware"_s, u"H200"_s},
        kGpufTimeoutMs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    auto model = costmodel::CostModel::load(m_model);
    QVERIFY(model);
    const QList<Forecast> forecasts = forecastsOf(path, u"costmodel"_s);
    QCOMPARE(forecasts.size(), 8);
    for (const Forecast &f : forecasts) {
        auto e = parseExplanation(f.response);
        QVERIFY(e);
        QCOMPARE(e->model, (*model)->identity());
        QVERIFY(f.hardwareId != 0);
    }
}

void TestCostModelCli::forecastModelErrors()
{
    const QString path = freshStore(u"errors.gpuf"_s);
    const Run missing = test::runGpuf(
        {u"forecast"_s, path, u"--forecaster"_s, u"costmodel"_s, u"--model"_s, m_dir.filePath(u"none.json"_s)},
        kGpufTimeoutMs);
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains(u"none.json"_s), qPrintable(missing.err));
    // --model names a cost model; another kind of forecaster refuses it.
    {
        auto store = Store::open(path);
        QVERIFY(store);
        Forecaster imported;
        imported.name = u"paper"_s;
        imported.kind = ForecasterKind::Import;
        QVERIFY(ForecasterRepo(**store).ensure(imported));
    }
    const Run wrongKind
        = test::runGpuf({u"forecast"_s, path, u"--forecaster"_s, u"paper"_s, u"--model"_s, m_model}, kGpufTimeoutMs);
    QCOMPARE(wrongKind.exitCode, 2);
    QVERIFY2(wrongKind.err.contains(u"cost-model forecasters only"_s), qPrintable(wrongKind.err));
}

void TestCostModelCli::compileFeatures()
{
    // gpuf-measure compiles for an explicit arch without a GPU; it is only built with the CUDA toolkit.
    if (auto worker = measure::locateMeasureWorker(); !worker)
        QSKIP(qPrintable(u"no gpuf-measure: "_s + worker.error()));
    const QString model = m_dir.filePath(u"compiled/model.json"_s);
    const Run train = test::runGpuf({u"train"_s, m_store, u"--out"_s, model, u"--rounds"_s, u"15"_s,
                                        u"--compile-features"_s, u"--arch"_s, u"sm_90"_s, u"--json"_s},
        kGpufTimeoutMs);
    QVERIFY2(train.exitCode == 0, qPrintable(train.err));
    const QJsonObject json = jsonOf(train);
    QCOMPARE(json.value(u"training_data"_s).toObject().value(u"compile_arch"_s).toString(), u"sm_90"_s);
    QCOMPARE(json.value(u"training_data"_s).toObject().value(u"compile_failures"_s).toInt(), 0);
    const QJsonObject sourceOnly = json.value(u"validation"_s).toObject().value(u"pooled_source_only"_s).toObject();
    QCOMPARE(sourceOnly.value(u"n"_s).toInt(), 21);
    auto loaded = costmodel::CostModel::load(model);
    QVERIFY2(loaded, qPrintable(loaded.error()));
    QVERIFY((*loaded)->manifest().compileFeatures);

    // Forecasting with it compiles the kernels too, and says so in the forecaster's configuration.
    const QString path = freshStore(u"compiled.gpuf"_s);
    const Run r = test::runGpuf(
        {u"forecast"_s, path, u"--forecaster"_s, u"costmodel"_s, u"--model"_s, model, u"--json"_s}, kGpufTimeoutMs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(jsonOf(r).value(u"ok"_s).toInt(), 8);
    auto store = Store::open(path, Store::Mode::ReadOnly);
    QVERIFY(store);
    auto row = ForecasterRepo(**store).findByName(u"costmodel"_s);
    QVERIFY(row && row->has_value());
    QVERIFY((*row)->config.value(u"compile_features"_s).toBool());
}

void TestCostModelCli::forecastWarnsOfUnknownFeatures()
{
    // The tiny store's kernels have no launch spec: every forecast rests on unknown launch features, and says so.
    const QString path = freshStore(u"gaps.gpuf"_s);
    const Run r = test::runGpuf({u"forecast"_s, path, u"--forecaster"_s, u"costmodel"_s}, kGpufTimeoutMs);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString &out = r.out;
    QVERIFY2(out.contains(u"warning: 8 pair(s) rest on unknown launch features"_s), qPrintable(out));
    QVERIFY2(out.contains(u"'scalar': threads per block, threads launched, blocks launched, dynamic shared memory "
                          "unknown (no launch spec)"_s),
        qPrintable(out));
    QVERIFY(out.contains(u"give them launch fields"_s));
    const Run json
        = test::runGpuf({u"forecast"_s, path, u"--forecaster"_s, u"costmodel"_s, u"--json"_s}, kGpufTimeoutMs);
    QCOMPARE(json.exitCode, 0);
    const QJsonObject gaps = jsonOf(json).value(u"unknown_features"_s).toObject();
    QCOMPARE(gaps.value(u"pairs"_s).toInt(), 8);
    {
        // Every kernel of the forecast pairs, each named once.
        auto store = Store::open(path, Store::Mode::ReadOnly);
        QVERIFY(store);
        QSet<RowId> inPairs;
        for (const Forecast &f : forecastsOf(path, u"costmodel"_s))
            inPairs << f.referenceKernelId << f.candidateKernelId;
        QCOMPARE(gaps.value(u"kernels"_s).toArray().size(), inPairs.size());
    }
    QCOMPARE(gaps.value(u"kernels"_s).toArray().first().toObject().value(u"unknown"_s).toArray().first().toString(),
        u"threads_per_block"_s);

    // With launch specs the features are known: no warning, and no unknown_features in the JSON.
    {
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY(store);
        auto kernels = KernelRepo(**store).list();
        QVERIFY(kernels);
        const QJsonObject launch {{u"entry"_s, u"k"_s}, {u"grid"_s, QJsonArray {u"n/256"_s, u"1"_s, u"1"_s}},
            {u"block"_s, QJsonArray {u"256"_s, u"1"_s, u"1"_s}}, {u"args"_s, QJsonArray {}}};
        const QJsonObject spec {{u"launches"_s, QJsonArray {launch}},
            {u"cases"_s,
                QJsonArray {QJsonObject {{u"name"_s, u"small"_s}, {u"vars"_s, QJsonObject {{u"n"_s, 4096}}}}}}};
        for (const Kernel &k : std::as_const(*kernels))
            QVERIFY(KernelRepo(**store).setParameters(k.id, QJsonObject {{u"spec"_s, spec}}));
    }
    const Run known
        = test::runGpuf({u"forecast"_s, path, u"--forecaster"_s, u"costmodel"_s, u"--refresh"_s}, kGpufTimeoutMs);
    QVERIFY2(known.exitCode == 0, qPrintable(known.err));
    QVERIFY2(!known.out.contains(u"warning:"_s), qPrintable(known.out));
    const Run knownJson
        = test::runGpuf({u"forecast"_s, path, u"--forecaster"_s, u"costmodel"_s, u"--json"_s}, kGpufTimeoutMs);
    QVERIFY(!jsonOf(knownJson).contains(u"unknown_features"_s));
}

QTEST_GUILESS_MAIN(TestCostModelCli)
#include "tst_costmodel_cli.moc"
