// Integration tests of `gpuf metrics`: the real executable on a small real store and on the paper's published rows
// imported from tests/data/interop; its JSON equals core/metrics computed directly, bad input exits 1, usage 2.
#include "../metrics/tst_metrics_store_fixture.h"
#include "core/metrics/from_store.h"
#include "core/metrics/label_noise.h"
#include "core/metrics/report_json.h"
#include "core/store/scored_pairs.h"
#include "tests/support/cli_run.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

using Run = gpuf::test::CliRun;
using gpuf::test::runGpufBytes;

// The single JSON object a --json run prints (an empty object when it is not exactly one document).
QJsonObject jsonOf(const Run &r)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return {};
    return doc.object();
}

} // namespace

class TestCliMetrics : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_store;
    QString m_paper;

    // core/metrics on the same store: one report per forecaster over its own rows (or the same-pair rows).
    QJsonObject direct(const ScoredPairFilter &filter, const metrics::MetricsOptions &options, bool samePairs,
        metrics::StraddlingRule rule = metrics::StraddlingRule::AsMeasured)
    {
        auto store = Store::open(m_store, Store::Mode::ReadOnly);
        if (!store)
            return {};
        auto pairs = loadScoredPairs(**store, filter);
        if (!pairs)
            return {};
        *pairs = metrics::applyStraddlingRule(std::move(*pairs), rule);
        std::vector<metrics::ScoredRow> rows = metrics::toScoredRows(*pairs);
        if (samePairs)
            rows = metrics::samePairs(rows);
        QJsonObject out;
        for (const ScoredPairsForecaster &f : std::as_const(pairs->forecasters)) {
            std::vector<metrics::ScoredRow> own;
            std::copy_if(rows.cbegin(), rows.cend(), std::back_inserter(own),
                [&f](const metrics::ScoredRow &row) { return row.forecasterId == f.id; });
            out.insert(f.name, metrics::toJson(metrics::computeReport(own, options)));
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase();
    void jsonEqualsDirectComputation_data();
    void jsonEqualsDirectComputation();
    void jsonHasEveryKey();
    void textPrintsTheTable();
    void straddlingPairsInEitherBin_data();
    void straddlingPairsInEitherBin();
    void skillAgainstThePhysicsPrior();
    void statsCountReplaysApart();
    void badInput_data();
    void badInput();
    void help();
    void paperRows();
    void originFilter();
};

void TestCliMetrics::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_store = m_dir.filePath(u"metrics.gpuf"_s);
    {
        auto store = Store::open(m_store);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        testing::buildMetricsStore(**store);
    }
    m_paper = m_dir.filePath(u"paper.gpuf"_s);
    const Run r = runGpufBytes({u"import"_s, m_paper, QStringLiteral(GPUF_TEST_DATA_DIR "/interop/eval_set.jsonl"),
        QStringLiteral(GPUF_TEST_DATA_DIR "/interop/predictions.jsonl")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

void TestCliMetrics::jsonEqualsDirectComputation_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("forecasters");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<int>("bootstrap");
    QTest::addColumn<bool>("samePairs");
    QTest::newRow("all") << QStringList {} << QStringList {} << QString() << 0 << false;
    QTest::newRow("one forecaster") << QStringList {u"--forecaster"_s, u"beta"_s} << QStringList {u"beta"_s}
                                    << QString() << 0 << false;
    QTest::newRow("two, same pairs") << QStringList {u"--forecaster"_s, u"alpha"_s, u"--forecaster"_s, u"beta"_s,
        u"--same-pairs"_s} << QStringList {u"alpha"_s, u"beta"_s}
                                     << QString() << 0 << true;
    QTest::newRow("problem") << QStringList {u"--problem"_s, u"scale"_s} << QStringList {} << u"scale"_s << 0 << false;
    QTest::newRow("bootstrap") << QStringList {u"--bootstrap"_s, u"40"_s, u"--seed"_s, u"7"_s} << QStringList {}
                               << QString() << 40 << false;
}

void TestCliMetrics::jsonEqualsDirectComputation()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, forecasters);
    QFETCH(QString, problem);
    QFETCH(int, bootstrap);
    QFETCH(bool, samePairs);
    const Run r = runGpufBytes(QStringList {u"metrics"_s, m_store, u"--json"_s} + args);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.count('\n'), 1); // exactly one document
    const QJsonObject json = jsonOf(r);
    metrics::MetricsOptions options;
    options.bootstrapResamples = bootstrap;
    if (bootstrap > 0)
        options.bootstrapSeed = 7;
    const QJsonObject expected = direct({forecasters, problem, {}}, options, samePairs);
    QVERIFY(!expected.isEmpty());
    QCOMPARE(json.keys(), expected.keys());
    for (const QString &name : expected.keys()) {
        const QJsonObject got = json.value(name).toObject();
        const QJsonObject want = expected.value(name).toObject();
        for (const QString &key : want.keys())
            QVERIFY2(got.value(key) == want.value(key), qPrintable(name + u'.' + key));
        QCOMPARE(got.contains(u"ci"_s), bootstrap > 0);
    }
}

void TestCliMetrics::jsonHasEveryKey()
{
    const Run r = runGpufBytes({u"metrics"_s, m_store, u"--json"_s, u"--forecaster"_s, u"alpha"_s});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject alpha = jsonOf(r).value(u"alpha"_s).toObject();
    for (const char *key : {"n_total", "n_parsed", "accuracy", "within_one", "ece", "brier_half", "brier_sum", "crps",
             "nll", "mean_entropy", "aurc_max_prob", "aurc_neg_entropy", "aurc_top2_margin", "utility_at_10pct",
             "brier_half_parsed", "brier_sum_parsed", "crps_parsed", "nll_parsed", "reliability", "confusion",
             "n_no_truth", "n_failed", "n_replayed_truth", "rps_skill_base_rate", "brier_skill_base_rate",
             "log_skill_base_rate", "ordinal", "cumulative_reliability", "prediction_sets"})
        QVERIFY2(alpha.contains(QLatin1StringView(key)), key);
    // By hand (tst_metrics_store_fixture.h): 7 scored, 6 parsed, 4 right; F has no truth, D failed.
    QCOMPARE(alpha.value(u"n_total"_s).toInteger(), 7);
    QCOMPARE(alpha.value(u"n_parsed"_s).toInteger(), 6);
    QCOMPARE(alpha.value(u"accuracy"_s).toDouble(), 4.0 / 6.0);
    QCOMPARE(alpha.value(u"n_no_truth"_s).toInteger(), 1);
    QCOMPARE(alpha.value(u"n_failed"_s).toInteger(), 1);
    const QJsonArray confusion = alpha.value(u"confusion"_s).toArray();
    QCOMPARE(confusion.size(), 8);
    QCOMPARE(confusion.at(2).toArray().at(1).toInteger(), 1); // G: true bin 3 (as published), predicted 2
    QCOMPARE(confusion.at(7).toArray().at(6).toInteger(), 1); // B: true bin 8, predicted 7
    QCOMPARE(alpha.value(u"reliability"_s).toArray().size(), 10);
    // Ordinal calibration: a curve per bin edge, a coverage row per α; --isotonic adds the PAV blocks.
    const QJsonArray curves = alpha.value(u"cumulative_reliability"_s).toArray();
    QCOMPARE(curves.size(), 7);
    QCOMPARE(curves.at(0).toObject().value(u"buckets"_s).toArray().size(), 10);
    QVERIFY(!curves.at(0).toObject().contains(u"isotonic"_s));
    QCOMPARE(alpha.value(u"prediction_sets"_s).toArray().size(), 4);
    QCOMPARE(alpha.value(u"ordinal"_s).toObject().value(u"base_rate"_s).toArray().size(), 8);
    const Run isotonic
        = runGpufBytes({u"metrics"_s, m_store, u"--json"_s, u"--isotonic"_s, u"--forecaster"_s, u"alpha"_s});
    QCOMPARE(isotonic.exitCode, 0);
    const QJsonArray fitted
        = jsonOf(isotonic).value(u"alpha"_s).toObject().value(u"cumulative_reliability"_s).toArray();
    QVERIFY(!fitted.at(3).toObject().value(u"isotonic"_s).toArray().isEmpty());
}

void TestCliMetrics::textPrintsTheTable()
{
    const Run r = runGpufBytes({u"metrics"_s, m_store});
    QCOMPARE(r.exitCode, 0);
    const QString text = QString::fromUtf8(r.out);
    for (const metrics::Figure &f : metrics::tableFigures())
        QVERIFY2(text.contains(f.title), qPrintable(f.title));
    QVERIFY(text.contains(u"1 forecasts have no measured truth"_s));
    // B's truth rests on replayed runtimes (fixture): counted apart, per forecaster and in all.
    QVERIFY2(text.contains(u"alpha: 9 forecasts, 7 scored (1 on replayed runtimes),"_s), qPrintable(text));
    QVERIFY2(text.contains(u"2 scored forecasts have a truth replayed from stored runtimes"_s), qPrintable(text));
    QVERIFY(text.contains(u"0.667"_s)); // alpha's accuracy
    QVERIFY(text.contains(u"0.333"_s)); // beta's
    QVERIFY(text.contains(u"ordinal calibration of alpha"_s));
    QVERIFY(text.contains(u"prediction sets over contiguous bins"_s));
}

void TestCliMetrics::straddlingPairsInEitherBin_data()
{
    QTest::addColumn<QString>("rule");
    for (metrics::StraddlingRule rule : metrics::kStraddlingRules)
        QTest::newRow(qPrintable(metrics::straddlingRuleName(rule))) << metrics::straddlingRuleName(rule);
}

// --straddling RULE: the figures equal core/metrics on the pairs with the rule applied, and every forecaster's
// label_noise block holds its figures under every rule, the chosen one equal to the figures printed.
void TestCliMetrics::straddlingPairsInEitherBin()
{
    QFETCH(QString, rule);
    const Run r = runGpufBytes({u"metrics"_s, m_store, u"--json"_s, u"--straddling"_s, rule});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject json = jsonOf(r);
    const QJsonObject expected = direct({}, {}, false, *metrics::straddlingRuleFromName(rule));
    QCOMPARE(json.keys(), expected.keys());
    for (const QString &name : expected.keys()) {
        const QJsonObject got = json.value(name).toObject();
        const QJsonObject want = expected.value(name).toObject();
        for (const QString &key : want.keys())
            QVERIFY2(got.value(key) == want.value(key), qPrintable(name + u'.' + key));
        QCOMPARE(got.value(u"straddling_rule"_s).toString(), rule);
        const QJsonObject noise = got.value(u"label_noise"_s).toObject();
        const QJsonObject chosen = noise.value(u"rules"_s).toObject().value(rule).toObject();
        QCOMPARE(chosen.value(u"n"_s), got.value(u"n_total"_s));
        QCOMPARE(chosen.value(u"accuracy"_s), got.value(u"accuracy"_s));
        QCOMPARE(chosen.value(u"rps"_s), got.value(u"crps"_s));
        QCOMPARE(chosen.value(u"nll"_s), got.value(u"nll"_s));
    }
    // alpha (tst_metrics_store_fixture.h): 4 of its 7 scored rows straddle an edge (B at 4×, X at 2×, C at 0.5×
    // twice); dropped, 3 are left.
    const QJsonObject alphaNoise = json.value(u"alpha"_s).toObject().value(u"label_noise"_s).toObject();
    QCOMPARE(alphaNoise.value(u"n_straddling"_s).toInteger(), 4);
    const QJsonObject rules = alphaNoise.value(u"rules"_s).toObject();
    QCOMPARE(rules.value(u"as-measured"_s).toObject().value(u"n"_s).toInteger(), 7);
    QCOMPARE(rules.value(u"drop"_s).toObject().value(u"n"_s).toInteger(), 3);
    QCOMPARE(rules.value(u"upper"_s).toObject().value(u"n_moved"_s).toInteger()
            + rules.value(u"lower"_s).toObject().value(u"n_moved"_s).toInteger(),
        4); // each straddling row sits in one of the two bins, so exactly one of the rules moves it
    const Run text = runGpufBytes({u"metrics"_s, m_store, u"--straddling"_s, rule});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(QString::fromUtf8(text.out).contains(u"label noise: pairs whose 95 % interval straddles a bin edge"_s),
        text.out.constData());
}

// gpuf forecast --forecaster roofline registers the physics prior and stores its forecasts; gpuf metrics then scores
// every forecaster against it on the pairs both forecast (the prior against itself: skill 0), on a copy of the store.
void TestCliMetrics::skillAgainstThePhysicsPrior()
{
    const QString copy = m_dir.filePath(u"prior.gpuf"_s);
    QFile::remove(copy);
    QVERIFY(QFile::copy(m_store, copy));
    const Run before = runGpufBytes({u"metrics"_s, copy, u"--json"_s});
    QCOMPARE(before.exitCode, 0);
    const QJsonObject none = jsonOf(before).value(u"alpha"_s).toObject().value(u"physics_prior"_s).toObject();
    QCOMPARE(none.value(u"n"_s).toInteger(), 0);
    QVERIFY(none.value(u"rps_skill"_s).isNull());

    const Run forecast = runGpufBytes({u"forecast"_s, copy, u"--forecaster"_s, u"roofline"_s});
    QVERIFY2(forecast.exitCode == 0, forecast.err.constData());
    const Run after = runGpufBytes({u"metrics"_s, copy, u"--json"_s});
    QCOMPARE(after.exitCode, 0);
    const QJsonObject json = jsonOf(after);
    QVERIFY2(json.contains(u"roofline"_s), after.out.constData());
    const QJsonObject prior = json.value(u"roofline"_s).toObject();
    const QJsonObject self = prior.value(u"physics_prior"_s).toObject();
    QCOMPARE(self.value(u"forecaster"_s).toString(), u"roofline"_s);
    QCOMPARE(self.value(u"n"_s).toInteger(), prior.value(u"n_total"_s).toInteger());
    QVERIFY(self.value(u"n"_s).toInteger() > 0);
    QCOMPARE(self.value(u"rps_skill"_s).toDouble(), 0.0);
    QCOMPARE(self.value(u"brier_skill"_s).toDouble(), 0.0);
    QCOMPARE(self.value(u"log_skill"_s).toDouble(), 0.0);
    // alpha against the prior: 1 − its RPS ÷ the prior's, on the pairs both forecast.
    const QJsonObject alpha = json.value(u"alpha"_s).toObject().value(u"physics_prior"_s).toObject();
    QVERIFY(alpha.value(u"n"_s).toInteger() > 0);
    QVERIFY(std::abs(alpha.value(u"rps_skill"_s).toDouble()
                - (1.0 - alpha.value(u"rps"_s).toDouble() / alpha.value(u"rps_reference"_s).toDouble()))
        < 1e-12);
    const Run text = runGpufBytes({u"metrics"_s, copy, u"--forecaster"_s, u"alpha"_s});
    QVERIFY2(
        QString::fromUtf8(text.out).contains(u"the physics prior (roofline) forecast too"_s), text.out.constData());
}

// `gpuf stats` on the same store: B's two replayed runtimes (fixture) are counted apart from runs made here, in all,
// per hardware and per problem.
void TestCliMetrics::statsCountReplaysApart()
{
    Run r = runGpufBytes({u"stats"_s, u"--json"_s, m_store});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject stats = jsonOf(r);
    const int measurements = stats.value(u"measurements"_s).toInt();
    QVERIFY(measurements > 2);
    QCOMPARE(stats.value(u"replayed_measurements"_s).toInt(), 2);
    QHash<QString, int> perHardware;
    for (const QJsonValue h : stats.value(u"per_hardware"_s).toArray())
        perHardware.insert(h[u"name"_s].toString(), h[u"replayed_measurements"_s].toInt(-1));
    QCOMPARE(perHardware, (QHash<QString, int> {{u"GPU one"_s, 2}, {u"GPU two"_s, 0}}));
    QHash<QString, int> perProblem;
    for (const QJsonValue p : stats.value(u"per_problem"_s).toArray())
        perProblem.insert(p[u"name"_s].toString(), p[u"replayed_measurements"_s].toInt(-1));
    QCOMPARE(perProblem, (QHash<QString, int> {{u"scale"_s, 2}, {u"other"_s, 0}}));

    r = runGpufBytes({u"stats"_s, m_store});
    QCOMPARE(r.exitCode, 0);
    const QString text = QString::fromUtf8(r.out);
    QVERIFY2(text.contains(u"measurements %1 (2 replayed ↺)"_s.arg(measurements)), qPrintable(text));
    QVERIFY2(text.contains(u"(2 replayed ↺)"_s), qPrintable(text));
    QCOMPARE(text.count(u"replayed ↺"_s), 3); // in all, for GPU one, for problem scale; never for a zero
}

void TestCliMetrics::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown forecaster") << QStringList {u"--forecaster"_s, u"delta"_s} << 1
                                        << u"unknown forecaster 'delta' (the store has: alpha, beta, gamma)"_s;
    QTest::newRow("unknown problem") << QStringList {u"--problem"_s, u"nope"_s} << 1 << u"unknown problem 'nope'"_s;
    QTest::newRow("unknown hardware") << QStringList {u"--hardware"_s, u"TPU"_s} << 1 << u"unknown hardware 'TPU'"_s;
    QTest::newRow("negative bootstrap") << QStringList {u"--bootstrap"_s, u"-1"_s} << 2 << u"--bootstrap"_s;
    QTest::newRow("bad seed") << QStringList {u"--seed"_s, u"x"_s} << 2 << u"--seed"_s;
    QTest::newRow("unknown option") << QStringList {u"--frobnicate"_s} << 2 << u"frobnicate"_s;
    QTest::newRow("unknown origin") << QStringList {u"--origin"_s, u"paper"_s} << 2
                                    << u"--origin paper: expected corpus, imported, search or other"_s;
    QTest::newRow("unknown straddling rule") << QStringList {
        u"--straddling"_s, u"both"_s} << 2 << u"--straddling both: expected as-measured, lower, upper, other or drop"_s;
}

void TestCliMetrics::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    const Run r = runGpufBytes(QStringList {u"metrics"_s, m_store, u"--json"_s} + args);
    QCOMPARE(r.exitCode, code);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    // --json: stdout still holds exactly one document, the error.
    QCOMPARE(r.out.count('\n'), 1);
    QVERIFY2(jsonOf(r).value(u"error"_s).toString().contains(message), r.out.constData());

    const Run noStore = runGpufBytes({u"metrics"_s});
    QCOMPARE(noStore.exitCode, 2);
    const Run missing = runGpufBytes({u"metrics"_s, m_dir.filePath(u"missing.gpuf"_s)});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY(!QFile::exists(m_dir.filePath(u"missing.gpuf"_s)));
}

void TestCliMetrics::help()
{
    const Run r = runGpufBytes({u"metrics"_s, u"--help"_s});
    QCOMPARE(r.exitCode, 0);
    for (const char *option : {"--forecaster", "--problem", "--hardware", "--bootstrap", "--seed", "--same-pairs"})
        QVERIFY2(r.out.contains(option), option);
}

// tests/data/interop: gemini3_flash forecast cmp-a (true bin 4) as 4, then failed to parse; gpt_oss_20b_untrained
// forecast cmp-b as 2, whose published true bin is 3 (the formula would say 2 for 0.6×: the label is kept).
void TestCliMetrics::paperRows()
{
    const Run r = runGpufBytes({u"metrics"_s, m_paper, u"--json"_s});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject json = jsonOf(r);
    QCOMPARE(json.keys(), (QStringList {u"gemini3_flash"_s, u"gpt_oss_20b_untrained"_s}));
    const QJsonObject gemini = json.value(u"gemini3_flash"_s).toObject();
    QCOMPARE(gemini.value(u"n_total"_s).toInteger(), 2);
    QCOMPARE(gemini.value(u"n_parsed"_s).toInteger(), 1);
    QCOMPARE(gemini.value(u"accuracy"_s).toDouble(), 1.0);
    const QJsonObject gpt = json.value(u"gpt_oss_20b_untrained"_s).toObject();
    QCOMPARE(gpt.value(u"n_total"_s).toInteger(), 1);
    QCOMPARE(gpt.value(u"accuracy"_s).toDouble(), 0.0);
    QCOMPARE(gpt.value(u"within_one"_s).toDouble(), 1.0);
    // p = (0, .75, .25, 0…), true bin 3: ½·((.75)² + (.75)²) = 0.5625.
    QCOMPARE(gpt.value(u"brier_half"_s).toDouble(), 0.5625);
}

// --origin: the paper's rows are imported kernels (origin import:paper-eval), so every pair is an imported one and
// none is a corpus or a search pair (issue 27, item 12; the Calibration dock's Origin box is the same filter).
void TestCliMetrics::originFilter()
{
    const auto forecastsOf = [this](const QStringList &args) -> QJsonObject {
        const Run r = runGpufBytes(QStringList {u"metrics"_s, m_paper, u"--json"_s} + args);
        if (r.exitCode != 0)
            return {{u"error"_s, QString::fromUtf8(r.err)}};
        return jsonOf(r);
    };
    const QJsonObject every = forecastsOf({});
    const QJsonObject imported = forecastsOf({u"--origin"_s, u"imported"_s});
    const QJsonObject corpus = forecastsOf({u"--origin"_s, u"corpus"_s});
    const QJsonObject search = forecastsOf({u"--origin"_s, u"search"_s});
    QVERIFY2(!every.isEmpty() && !every.contains(u"error"_s), qPrintable(every.value(u"error"_s).toString()));
    QCOMPARE(imported.keys(), every.keys());
    for (const QString &name : every.keys()) {
        const qint64 n = every.value(name).toObject().value(u"n_forecasts"_s).toInteger();
        QVERIFY2(n > 0, qPrintable(name));
        QCOMPARE(imported.value(name).toObject().value(u"n_forecasts"_s).toInteger(), n);
        QCOMPARE(corpus.value(name).toObject().value(u"n_forecasts"_s).toInteger(), 0);
        QCOMPARE(search.value(name).toObject().value(u"n_forecasts"_s).toInteger(), 0);
    }
}

QTEST_GUILESS_MAIN(TestCliMetrics)
#include "tst_cli_metrics.moc"
