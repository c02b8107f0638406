// Tests of the cost model's pure and in-memory parts: temperature scaling (identity, fitted T lowers the NLL, the
// direction of T), model save/load round trips with their manifests, the built-in model, and explanations (text,
// values and line spans) for a model that can only have learnt one feature.
#include "core/forecasters/costmodel/costmodel_explain.h"
#include "core/forecasters/costmodel/costmodel_forecaster.h"
#include "core/forecasters/costmodel/costmodel_temperature.h"
#include "core/forecasters/explanation.h"
#include "costmodel_fixture.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <numeric>
#include <random>

using namespace gpuf;
using namespace gpuf::costmodel;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(bins::Distribution)

namespace {

bins::Distribution peaked(int bin, double mass)
{
    bins::Distribution p;
    p.fill((1.0 - mass) / (bins::kBinCount - 1));
    p[std::size_t(bin - 1)] = mass;
    return p;
}

// Predictions whose most probable bin is right `hitRate` of the time, each claiming `mass` on that bin.
void syntheticPredictions(double mass, double hitRate, std::vector<bins::Distribution> &p, std::vector<int> &truth)
{
    std::mt19937 engine(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_int_distribution<int> bin(1, 8);
    for (int i = 0; i < 400; ++i) {
        const int predicted = bin(engine);
        int actual = predicted;
        if (unit(engine) >= hitRate) {
            while (actual == predicted)
                actual = bin(engine);
        }
        p.push_back(peaked(predicted, mass));
        truth.push_back(actual);
    }
}

QString spansText(const QList<features::LineSpan> &spans)
{
    QStringList parts;
    for (const features::LineSpan &s : spans)
        parts.append(u"%1-%2"_s.arg(s.first).arg(s.last));
    return parts.join(u',');
}

} // namespace

class TestCostModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void temperatureOneIsIdentity_data();
    void temperatureOneIsIdentity();
    void temperatureKeepsOrderAndSum();
    void fittedTemperatureLowersNll_data();
    void fittedTemperatureLowersNll();
    void fitWithoutRows();
    void modelRoundTrip();
    void manifestRoundTrip();
    void loadRefusesMismatches();
    void remapsColumnsByName();
    void treesAgreeWithXgboost();
    void builtInModelLoads();
    void explanationOfWidth();
    void explanationParseRoundTrip();
    void explanationParseErrors_data();
    void explanationParseErrors();
    void summaryPrefersDifferences();
    void explanationItemText_data();
    void explanationItemText();
};

void TestCostModel::temperatureOneIsIdentity_data()
{
    QTest::addColumn<bins::Distribution>("p");
    QTest::newRow("peaked") << peaked(3, 0.7);
    QTest::newRow("uniform") << bins::Distribution {0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125};
    QTest::newRow("with zeros") << bins::Distribution {0, 0, 0.5, 0.5, 0, 0, 0, 0};
}

void TestCostModel::temperatureOneIsIdentity()
{
    QFETCH(bins::Distribution, p);
    QCOMPARE(applyTemperature(p, 1.0), p);
}

void TestCostModel::temperatureKeepsOrderAndSum()
{
    const bins::Distribution p {0.02, 0.05, 0.1, 0.5, 0.2, 0.08, 0.04, 0.01};
    for (double t : {0.25, 0.5, 2.0, 5.0}) {
        const bins::Distribution q = applyTemperature(p, t);
        double sum = 0.0;
        for (double v : q)
            sum += v;
        QVERIFY(std::abs(sum - 1.0) < 1e-12);
        QCOMPARE(bins::argmaxBin(q), 4);
        // T > 1 lowers the top probability, T < 1 raises it.
        QVERIFY(t > 1 ? q[3] < p[3] : q[3] > p[3]);
    }
    // A zero stays zero, whatever T.
    QCOMPARE(applyTemperature(bins::Distribution {0, 0, 1, 0, 0, 0, 0, 0}, 3.0)[0], 0.0);
}

void TestCostModel::fittedTemperatureLowersNll_data()
{
    QTest::addColumn<double>("mass");
    QTest::addColumn<double>("hitRate");
    QTest::addColumn<bool>("softens"); // the fitted T should be > 1
    QTest::newRow("over-confident") << 0.9 << 0.5 << true;
    QTest::newRow("under-confident") << 0.3 << 0.9 << false;
}

void TestCostModel::fittedTemperatureLowersNll()
{
    QFETCH(double, mass);
    QFETCH(double, hitRate);
    QFETCH(bool, softens);
    std::vector<bins::Distribution> p;
    std::vector<int> truth;
    syntheticPredictions(mass, hitRate, p, truth);
    const double t = fitTemperature(p, truth);
    QVERIFY(t >= kMinTemperature && t <= kMaxTemperature);
    QCOMPARE(t > 1.0, softens);
    const double fitted = meanNll(p, truth, t);
    QVERIFY2(fitted < meanNll(p, truth, 1.0), qPrintable(u"T %1: NLL %2"_s.arg(t).arg(fitted)));
    // A minimum: nudging T either way does not improve it.
    QVERIFY(fitted <= meanNll(p, truth, t * 1.05) + 1e-9);
    QVERIFY(fitted <= meanNll(p, truth, t / 1.05) + 1e-9);
}

void TestCostModel::fitWithoutRows() { QCOMPARE(fitTemperature({}, {}), 1.0); }

void TestCostModel::modelRoundTrip()
{
    const TrainingSet set = widthTrainingSet();
    const auto model = trainPlain(set, 1.3);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"m/model.json"_s);
    QVERIFY(QDir().mkpath(dir.filePath(u"m"_s)));
    QVERIFY(model->save(path));
    QVERIFY(QFile::exists(dir.filePath(u"m/model.manifest.json"_s)));
    auto loaded = CostModel::load(path);
    QVERIFY2(loaded, qPrintable(loaded.error()));
    QCOMPARE((*loaded)->identity(), model->identity());
    QCOMPARE((*loaded)->manifest().temperature, 1.3);

    const auto features = trainingFeatures(set);
    std::vector<int> all {0, 1, 2, 3};
    const Matrix rows = pairMatrix(set, features, all);
    for (int r = 0; r < rows.rows(); ++r) {
        bins::Distribution a, b, rawA, rawB;
        QVERIFY(model->predict(rows.row(r), a, &rawA));
        QVERIFY((*loaded)->predict(rows.row(r), b, &rawB));
        QCOMPARE(a, b);
        QCOMPARE(rawA, rawB);
        QCOMPARE(a, applyTemperature(rawA, 1.3));
    }
    // The batch path agrees with the one-row path.
    auto many = (*loaded)->predictMany(std::span<const float>(rows.values));
    QVERIFY(many);
    bins::Distribution first;
    QVERIFY((*loaded)->predict(rows.row(0), first));
    QCOMPARE((*many)[0], first);
}

void TestCostModel::manifestRoundTrip()
{
    Manifest m;
    m.modelFile = u"x.json"_s;
    m.modelSha256 = u"ab"_s;
    m.features = {u"ref_access_bytes"_s, u"hw_sm_count"_s};
    m.temperature = 1.7;
    m.parameters.rounds = 12;
    m.parameters.seed = 99;
    m.pairPolicy = QLatin1StringView(kPairPolicy);
    m.trainingData = {{u"sha256"_s, u"cafe"_s}, {u"pairs"_s, 10}};
    m.validation = {{u"method"_s, u"leave-one-operation-out"_s}};
    m.createdAt = u"2026-11-21T10:00:00Z"_s;
    m.gpufVersion = u"0.1.0"_s;
    auto back = Manifest::fromJson(m.toJson());
    QVERIFY2(back, qPrintable(back.error()));
    QCOMPARE(back->toJson(), m.toJson());
    QCOMPARE(back->parameters.seed, quint64(99));
    QCOMPARE(back->features, m.features);

    QJsonObject wrong = m.toJson();
    wrong.insert(u"format"_s, u"something-else"_s);
    QVERIFY(!Manifest::fromJson(wrong));
    QJsonObject cold = m.toJson();
    cold.insert(u"temperature"_s, 0);
    QVERIFY(!Manifest::fromJson(cold));
}

void TestCostModel::loadRefusesMismatches()
{
    const auto model = trainPlain(widthTrainingSet());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"model.json"_s);
    QVERIFY(model->save(path));
    // A model file changed after its manifest was written.
    QFile file(path);
    QVERIFY(file.open(QIODevice::Append));
    file.write(" ");
    file.close();
    auto changed = CostModel::load(path);
    QVERIFY(!changed);
    QVERIFY2(changed.error().contains(u"does not match its manifest"_s), qPrintable(changed.error()));
    // No manifest at all.
    QVERIFY(QFile::remove(manifestPathFor(path)));
    auto lonely = CostModel::load(path);
    QVERIFY(!lonely);
    QVERIFY2(lonely.error().contains(u"no manifest"_s), qPrintable(lonely.error()));
    QVERIFY(!CostModel::load(dir.filePath(u"missing.json"_s)));
}

void TestCostModel::remapsColumnsByName()
{
    // A model whose inputs are a subset in another order (a model from an older or newer program): rows are mapped by
    // name, and columns it lacks are missing values.
    const TrainingSet set = widthTrainingSet();
    const auto features = trainingFeatures(set);
    std::vector<int> all(std::size_t(set.pairs.size()));
    std::iota(all.begin(), all.end(), 0);
    std::vector<float> labels;
    const Matrix full = pairMatrix(set, features, all, &labels);
    const QStringList names {u"diff_access_bytes"_s, u"cand_access_bytes"_s, u"ref_no_longer_known"_s};
    Matrix sub;
    sub.columns = int(names.size());
    for (int r = 0; r < full.rows(); ++r) {
        const auto row = full.row(r);
        sub.values.push_back(row[std::size_t(features::pairColumnOf(names[0]))]);
        sub.values.push_back(row[std::size_t(features::pairColumnOf(names[1]))]);
        sub.values.push_back(std::nanf(""));
    }
    BoosterParameters parameters;
    parameters.rounds = 20;
    auto booster = Booster::train(sub, labels, {}, names, parameters);
    QVERIFY(booster);
    Manifest manifest;
    manifest.features = names;
    auto model = CostModel::fromParts(std::move(*booster), manifest);
    QVERIFY2(model, qPrintable(model.error()));
    auto direct = (*model)->booster().predict(sub);
    QVERIFY(direct);
    for (int r = 0; r < full.rows(); ++r) {
        bins::Distribution p;
        QVERIFY((*model)->predict(full.row(r), p));
        for (int b = 0; b < bins::kBinCount; ++b)
            QVERIFY(std::abs(p[std::size_t(b)] - (*direct)[std::size_t(r * 8 + b)]) < 1e-6);
    }
    // A manifest that names more columns than the model has is refused.
    Manifest tooMany;
    tooMany.features = features::pairColumnNames();
    auto again = Booster::train(sub, labels, {}, names, parameters);
    QVERIFY(!CostModel::fromParts(std::move(*again), tooMany));
}

void TestCostModel::treesAgreeWithXgboost()
{
    // The fast tree walk and XGBoost's own prediction give the same probabilities, missing values included: on the
    // built-in model with rows made of real kernels' features, some values knocked out.
    auto model = CostModel::builtIn();
    QVERIFY2(model, qPrintable(model.error()));
    const TrainingSet set = widthTrainingSet();
    const auto features = trainingFeatures(set);
    std::vector<int> all(std::size_t(set.pairs.size()));
    std::iota(all.begin(), all.end(), 0);
    Matrix rows = pairMatrix(set, features, all);
    std::mt19937 engine(3);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (float &v : rows.values) {
        const float u = unit(engine);
        if (u < 0.1f)
            v = std::nanf("");
        else if (u < 0.4f)
            v = unit(engine) * 64.0f;
    }
    // XGBoost sees the rows in the model's own column order (a model may predate features added since).
    const QStringList names = (*model)->manifest().features;
    Matrix modelRows;
    modelRows.columns = int(names.size());
    for (int r = 0; r < rows.rows(); ++r) {
        for (const QString &name : names) {
            const int c = features::pairColumnOf(name);
            modelRows.values.push_back(c < 0 ? std::nanf("") : rows.row(r)[std::size_t(c)]);
        }
    }
    auto direct = (*model)->booster().predict(modelRows);
    QVERIFY2(direct, qPrintable(direct.error()));
    for (int r = 0; r < rows.rows(); ++r) {
        bins::Distribution calibrated, raw;
        QVERIFY((*model)->predict(rows.row(r), calibrated, &raw));
        for (int b = 0; b < bins::kBinCount; ++b) {
            const double x = raw[std::size_t(b)], y = (*direct)[std::size_t(r * 8 + b)];
            QVERIFY2(std::abs(x - y) < 1e-6, qPrintable(u"row %1 bin %2: %3 vs %4"_s.arg(r).arg(b + 1).arg(x).arg(y)));
        }
    }
}

void TestCostModel::builtInModelLoads()
{
    auto model = CostModel::builtIn();
    QVERIFY2(model, qPrintable(model.error()));
    QCOMPARE((*model)->booster().classes(), 8);
    QVERIFY((*model)->manifest().temperature > 0);
    QVERIFY(!(*model)->manifest().trainingData.value(u"sha256"_s).toString().isEmpty());
    QCOMPARE((*model)->identity().size(), 16);
    QCOMPARE(CostModel::builtIn()->get(), model->get()); // parsed once
    // It forecasts a pair it has never seen: a distribution over the 8 bins.
    const TrainingSet set = widthTrainingSet();
    CostModelForecaster forecaster(*model, u"built-in"_s);
    bins::Distribution p;
    QVERIFY(forecaster.probabilities(set.kernels[1], set.kernels[2], set.hardware[1], p));
    double sum = 0.0;
    for (double v : p)
        sum += v;
    QVERIFY(std::abs(sum - 1.0) < 1e-6);
}

void TestCostModel::explanationOfWidth()
{
    const TrainingSet set = widthTrainingSet();
    const auto model = trainPlain(set);
    CostModelForecaster forecaster(model, u"test"_s);
    Forecast identity;
    identity.referenceKernelId = 1;
    identity.candidateKernelId = 2;
    const Forecast f = forecaster.forecast(set.kernels[1], set.kernels[2], set.hardware[1], identity);
    QCOMPARE(f.status, ForecastStatus::Ok);
    QCOMPARE(f.predictedBin, std::optional<int>(7));
    QCOMPARE(f.candidateKernelId, RowId(2));
    auto e = parseExplanation(f.response);
    QVERIFY2(e, qPrintable(e.error()));
    QCOMPARE(e->predictedBin, 7);
    QCOMPARE(e->model, model->identity());
    QVERIFY(!e->items.isEmpty());
    // The only feature that separates the kernels explains the whole forecast.
    QCOMPARE(e->items.size(), 1);
    const ExplanationItem &item = e->items.first();
    QCOMPARE(item.feature, u"access_bytes"_s);
    QCOMPARE(item.kind, ExplanationItem::Kind::Kernel);
    QCOMPARE(item.referenceValue, 4.0);
    QCOMPARE(item.candidateValue, 16.0);
    QVERIFY(item.contribution > 0.5);
    QCOMPARE(spansText(item.referenceLines), u"2-2"_s); // "const float* x, float* y"
    QCOMPARE(spansText(item.candidateLines), u"2-2"_s); // "const float4* x, float4* y"
    const QString expected = u"candidate loads 16 bytes per thread access instead of 4: +%1 toward %2"_s.arg(
        QString::number(item.contribution, 'f', 2), bins::label(7));
    QCOMPARE(item.text, expected);
    QVERIFY2(f.reasoning.startsWith(u"Predicted 2.83×–4.00× ("_s), qPrintable(f.reasoning));
    QVERIFY2(f.reasoning.contains(expected), qPrintable(f.reasoning));
    QCOMPARE(e->summary, f.reasoning);

    // The other direction: a slowdown, explained by the same feature from the other side.
    const Forecast back = forecaster.forecast(set.kernels[2], set.kernels[1], set.hardware[1], identity);
    QCOMPARE(back.predictedBin, std::optional<int>(2));
    auto eb = parseExplanation(back.response);
    QVERIFY(eb);
    QCOMPARE(eb->items.first().feature, u"access_bytes"_s);
    QVERIFY2(eb->items.first().text.startsWith(u"candidate loads 4 bytes per thread access instead of 16: +"_s),
        qPrintable(eb->items.first().text));
}

void TestCostModel::explanationParseRoundTrip()
{
    Explanation e;
    e.model = u"0123456789abcdef"_s;
    e.predictedBin = 6;
    e.probability = 0.62;
    e.temperature = 1.4;
    e.bias = -0.2;
    e.summary = u"Predicted …"_s;
    ExplanationItem a;
    a.feature = u"syncthreads_in_loops"_s;
    a.referenceValue = 1;
    a.candidateValue = 8;
    a.contribution = -0.35;
    a.referenceLines = {{12, 12}};
    a.candidateLines = {{14, 15}, {20, 20}};
    a.text = u"t"_s;
    ExplanationItem b;
    b.kind = ExplanationItem::Kind::Hardware;
    b.feature = u"hw_sm_count"_s;
    b.referenceValue = b.candidateValue = 132;
    b.contribution = 0.05;
    ExplanationItem c; // a compile feature nobody measured
    c.feature = u"registers"_s;
    c.referenceValue = std::nan("");
    c.candidateValue = 40;
    c.contribution = 0.1;
    e.items = {a, b, c};
    const QString text = QString::fromUtf8(QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact));
    auto back = parseExplanation(text);
    QVERIFY2(back, qPrintable(back.error()));
    QCOMPARE(back->toJson(), e.toJson());
    QCOMPARE(back->items[0].candidateLines.size(), 2);
    QCOMPARE(back->items[0].candidateLines[0], (features::LineSpan {14, 15}));
    QCOMPARE(back->items[1].kind, ExplanationItem::Kind::Hardware);
    QVERIFY(std::isnan(back->items[2].referenceValue));
}

void TestCostModel::explanationParseErrors_data()
{
    QTest::addColumn<QString>("response");
    QTest::addColumn<QString>("error");
    QTest::newRow("llm answer") << u"{\"choices\": []}"_s << u"not a cost-model explanation"_s;
    QTest::newRow("not json") << u"The candidate is faster."_s << u"not a JSON object"_s;
    QTest::newRow("bad bin") << u"{\"format\": \"gpuf-costmodel-explanation/1\", \"predicted_bin\": 9}"_s
                             << u"predicted_bin must be 1..8"_s;
    QTest::newRow("bad span")
        << u"{\"format\": \"gpuf-costmodel-explanation/1\", \"predicted_bin\": 2, \"contributions\": [{\"feature\": "
           "\"loops\", \"reference_lines\": [[5, 3]]}]}"_s
        << u"contributions[0]: a line span"_s;
    QTest::newRow("no feature") << u"{\"format\": \"gpuf-costmodel-explanation/1\", \"predicted_bin\": 2, "
                                   "\"contributions\": [{}]}"_s
                                << u"no feature name"_s;
}

void TestCostModel::explanationParseErrors()
{
    QFETCH(QString, response);
    QFETCH(QString, error);
    auto e = parseExplanation(response);
    QVERIFY(!e);
    QVERIFY2(e.error().contains(error), qPrintable(e.error()));
}

void TestCostModel::summaryPrefersDifferences()
{
    Explanation e;
    e.predictedBin = 5;
    e.probability = 0.5;
    ExplanationItem shared;
    shared.feature = u"loops"_s;
    shared.referenceValue = shared.candidateValue = 1;
    shared.contribution = 0.9;
    shared.text = u"shared"_s;
    ExplanationItem first = shared;
    first.candidateValue = 2;
    first.contribution = 0.5;
    first.text = u"first difference"_s;
    ExplanationItem second = first;
    second.contribution = -0.2;
    second.text = u"second difference"_s;
    e.items = {shared, first, second};
    QCOMPARE(explanationSummary(e, 2),
        u"Predicted 1.41×–2.00× (moderate speedup, p = 0.50): first difference; second difference."_s);
    QCOMPARE(explanationSummary(e, 3),
        u"Predicted 1.41×–2.00× (moderate speedup, p = 0.50): first difference; second difference; shared."_s);
    e.items.clear();
    QVERIFY(explanationSummary(e, 3).endsWith(u"from the model's prior: no feature stood out."_s));
}

void TestCostModel::explanationItemText_data()
{
    QTest::addColumn<QString>("feature");
    QTest::addColumn<bool>("hardware");
    QTest::addColumn<double>("reference");
    QTest::addColumn<double>("candidate");
    QTest::addColumn<double>("contribution");
    QTest::addColumn<int>("bin");
    QTest::addColumn<QString>("text");
    QTest::newRow("more barriers") << u"syncthreads_in_loops"_s << false << 1.0 << 8.0 << -0.351 << 3
                                   << u"candidate has 8 __syncthreads() barriers inside loops instead of 1: −0.35 "
                                      "against slight slowdown"_s;
    QTest::newRow("shared value") << u"shared_padded"_s << false << 1.0 << 1.0 << 0.2 << 5
                                  << u"each kernel pads 1 shared array against bank conflicts: +0.20 toward "
                                     "moderate speedup"_s;
    QTest::newRow("flag") << u"dynamic_shared"_s << false << 0.0 << 1.0 << 0.5 << 6
                          << u"candidate uses dynamic shared memory, the reference uses no dynamic shared memory: "
                             "+0.50 toward significant speedup"_s;
    QTest::newRow("hardware") << u"hw_sm_count"_s << true << 132.0 << 132.0 << 0.1 << 4
                              << u"the GPU has 132 SMs: +0.10 toward slight speedup"_s;
}

void TestCostModel::explanationItemText()
{
    QFETCH(QString, feature);
    QFETCH(bool, hardware);
    QFETCH(double, reference);
    QFETCH(double, candidate);
    QFETCH(double, contribution);
    QFETCH(int, bin);
    QFETCH(QString, text);
    ExplanationItem item;
    item.feature = feature;
    item.kind = hardware ? ExplanationItem::Kind::Hardware : ExplanationItem::Kind::Kernel;
    item.referenceValue = reference;
    item.candidateValue = candidate;
    item.contribution = contribution;
    QCOMPARE(gpuf::explanationItemText(item, bin), text);
}

QTEST_GUILESS_MAIN(TestCostModel)
#include "tst_costmodel.moc"
