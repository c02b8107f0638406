// Tests for importing the paper's published rows (eval set, predictions, discovery pairs, RL pool, search-event
// rows) and raw search event logs, including format detection and bad inputs that must leave the store unchanged.
#include "interop_test_util.h"

#include "core/bins/bins.h"
#include "core/interop/interop.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"

#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <numeric>

using namespace gpuf;
using namespace gpuf::testing;

// Declared before the raw-string test data: moc cannot tokenise some raw string literals.
class TestInteropPublished : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<Store> freshStore();
    static std::optional<PairLabel> label(Store &store, const char *kind, const char *id);

private Q_SLOTS:
    void detectFormat_data();
    void detectFormat();
    void evalSet();
    void predictionsWithEvalInSameCall();
    void discoveryPairs();
    void rlPool();
    void hfSearchEvents();
    void rawEventLog();
    void truncatedLastLineIsTolerated();
    void badInput_data();
    void badInput();
    void pythonNonFiniteWordsReadAsNull();
};

std::unique_ptr<Store> TestInteropPublished::freshStore()
{
    static int n = 0;
    return openStore(m_dir, QStringLiteral("store-%1.gpuf").arg(++n));
}

std::optional<PairLabel> TestInteropPublished::label(Store &store, const char *kind, const char *id)
{
    auto found = PairLabelRepo(store).findByExternalId(QString::fromLatin1(kind), QString::fromLatin1(id));
    return found.ok() ? *found : std::nullopt;
}

void TestInteropPublished::detectFormat_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::newRow("bundle") << fixture("bundle_full.jsonl") << QStringLiteral("gpuf-bundle");
    QTest::newRow("eval") << fixture("eval_set.jsonl") << QStringLiteral("paper-eval");
    QTest::newRow("predictions") << fixture("predictions.jsonl") << QStringLiteral("paper-predictions");
    QTest::newRow("discovery") << fixture("discovery_pairs.jsonl") << QStringLiteral("paper-discovery");
    QTest::newRow("rl pool") << fixture("rl_pool.jsonl") << QStringLiteral("paper-rl-pool");
    QTest::newRow("hf events") << fixture("hf_search_events.jsonl") << QStringLiteral("paper-search-events");
    QTest::newRow("events.jsonl") << fixture("events_standard.jsonl") << QStringLiteral("events-jsonl");
}

void TestInteropPublished::detectFormat()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    auto detected = interop::detectFormat(file);
    QVERIFY2(detected.ok(), qPrintable(detected.error()));
    QCOMPARE(interop::formatName(*detected), format);
}

void TestInteropPublished::evalSet()
{
    auto store = freshStore();
    QVERIFY(store);
    auto report = interop::importFiles(*store, {fixture("eval_set.jsonl")});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    QCOMPARE(added(*report, "problem"), 2);
    QCOMPARE(added(*report, "kernel"), 5); // the shared trimul anchor is stored and counted once
    QCOMPARE(deduplicated(*report, "kernel"), 0);
    QCOMPARE(added(*report, "pair_label"), 3);
    QCOMPARE(added(*report, "hardware"), 1); // "A100" and the full name are the same preset
    QCOMPARE(report->files[0].warnings.size(), 1);
    QVERIFY(report->files[0].warnings[0].contains(QStringLiteral("1 published bins differ")));

    auto hardware = HardwareRepo(*store).list();
    QVERIFY(hardware.ok());
    QCOMPARE(hardware->size(), 1);
    QCOMPARE(hardware->at(0).name, QStringLiteral("NVIDIA A100-SXM4-80GB"));
    QCOMPARE(hardware->at(0).smCount, 108);

    const auto a = label(*store, "eval", "cmp-a");
    QVERIFY(a);
    QCOMPARE(a->speedup, std::optional<double>(1.2));
    QCOMPARE(a->trueBin, std::optional<int>(4));
    QCOMPARE(a->source, QStringLiteral("import:paper-eval"));
    QCOMPARE(a->extra.value(QStringLiteral("source_search")).toString(), QStringLiteral("trimul_s1"));
    QCOMPARE(a->extra.value(QStringLiteral("source_id")).toString(), QStringLiteral("node-17"));
    QVERIFY(!a->extra.contains(QStringLiteral("anchor_code")));
    // Kept as published although bin(0.6) is 2.
    QCOMPARE(label(*store, "eval", "cmp-b")->trueBin, std::optional<int>(3));
    const auto c = label(*store, "eval", "cmp-c");
    QVERIFY(c && !c->speedup && !c->trueBin);
    QCOMPARE(c->hardwareId, hardware->at(0).id);

    auto candidate = KernelRepo(*store).find(a->candidateKernelId);
    QVERIFY(candidate.ok() && candidate->has_value());
    QCOMPARE((*candidate)->language, QStringLiteral("triton"));
    QCOMPARE((*candidate)->origin, QStringLiteral("import:paper-eval"));
    QCOMPARE((*candidate)->parentId, RowId(0)); // eval candidates are not children of the anchor
    auto problem = ProblemRepo(*store).findByName(QStringLiteral("trimul"));
    QVERIFY(problem.ok() && problem->has_value());
    QCOMPARE((*problem)->backend, Backend::PyTorch);

    auto again = interop::importFiles(*store, {fixture("eval_set.jsonl")});
    QVERIFY2(again.ok(), qPrintable(again.error()));
    QCOMPARE(added(*again, "pair_label"), 0);
    QCOMPARE(deduplicated(*again, "pair_label"), 3);
    QCOMPARE(deduplicated(*again, "kernel"), 5);
    QCOMPARE(deduplicated(*again, "hardware"), 1);
}

void TestInteropPublished::predictionsWithEvalInSameCall()
{
    auto store = freshStore();
    QVERIFY(store);
    // Listed before the eval set: the import orders files so that labels exist before predictions join them.
    auto report = interop::importFiles(*store, {fixture("predictions.jsonl"), fixture("eval_set.jsonl")});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    QCOMPARE(report->files[0].format, interop::FileFormat::Predictions);
    QCOMPARE(added(*report, "forecast"), 3);
    QCOMPARE(added(*report, "forecaster"), 2);

    auto forecasters = ForecasterRepo(*store).list();
    QVERIFY(forecasters.ok());
    QCOMPARE(forecasters->at(0).name, QStringLiteral("gemini3_flash"));
    QCOMPARE(forecasters->at(0).kind, ForecasterKind::Import);

    auto forecasts = ForecastRepo(*store).list();
    QVERIFY(forecasts.ok());
    QCOMPARE(forecasts->size(), 3);
    const Forecast &parsed = forecasts->at(0);
    const auto a = label(*store, "eval", "cmp-a");
    QCOMPARE(parsed.candidateKernelId, a->candidateKernelId);
    QCOMPARE(parsed.referenceKernelId, a->referenceKernelId);
    QCOMPARE(parsed.hardwareId, a->hardwareId);
    QCOMPARE(parsed.status, ForecastStatus::Ok);
    QCOMPARE(parsed.predictedBin, std::optional<int>(4));
    QCOMPARE(parsed.rawProbabilitySum, std::optional<double>(0.8));
    QCOMPARE(parsed.probabilities[3], 0.5); // 0.4 / 0.8
    QVERIFY(qFuzzyCompare(std::accumulate(parsed.probabilities.begin(), parsed.probabilities.end(), 0.0), 1.0));
    QCOMPARE(parsed.tokensIn, qint64(2100));
    QCOMPARE(parsed.latencySeconds, 4.5);
    QCOMPARE(parsed.reasoning, QStringLiteral("Fused kernel avoids the intermediate."));

    const Forecast &failed = forecasts->at(1);
    QCOMPARE(failed.repeat, 1);
    QCOMPARE(failed.status, ForecastStatus::ParseFailed);
    QVERIFY(!failed.predictedBin);
    QCOMPARE(failed.errorText, QStringLiteral("no tool call in the response"));
    for (double p : failed.probabilities)
        QCOMPARE(p, 0.0); // the published uniform placeholder is not a prediction

    const Forecast &sparse = forecasts->at(2);
    QCOMPARE(sparse.probabilities[0], 0.0);
    QCOMPARE(sparse.probabilities[1], 0.75);
    QCOMPARE(sparse.probabilities[2], 0.25);
    QCOMPARE(sparse.rawProbabilitySum, std::optional<double>(1.0));
    QCOMPARE(sparse.tokensIn, qint64(-1));

    auto again = interop::importFiles(*store, {fixture("predictions.jsonl")});
    QVERIFY2(again.ok(), qPrintable(again.error()));
    QCOMPARE(deduplicated(*again, "forecast"), 3);
    QCOMPARE(store->counts()->forecasts, 3);
}

void TestInteropPublished::discoveryPairs()
{
    auto store = freshStore();
    QVERIFY(store);
    auto report = interop::importFiles(*store, {fixture("discovery_pairs.jsonl")});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    const auto pair = label(*store, "discovery", "disc-1");
    QVERIFY(pair);
    QCOMPARE(pair->speedup, std::optional<double>(3.1));
    QCOMPARE(pair->trueBin, std::optional<int>(7));
    QCOMPARE(pair->extra.value(QStringLiteral("benchmark_family")).toString(), QStringLiteral("kernelbench_l3"));
    QCOMPARE(pair->extra.value(QStringLiteral("child_node_id")).toString(), QStringLiteral("n-9"));
    auto child = KernelRepo(*store).find(pair->candidateKernelId);
    QVERIFY(child.ok() && child->has_value());
    QCOMPARE((*child)->parentId, pair->referenceKernelId); // the child's parent is the parent kernel
    QCOMPARE((*child)->language, QStringLiteral("cuda"));
    auto problem = ProblemRepo(*store).findByName(QStringLiteral("17")); // a numeric problem_id
    QVERIFY(problem.ok() && problem->has_value());

    auto hardware = HardwareRepo(*store).list();
    QVERIFY(hardware.ok());
    QCOMPARE(hardware->size(), 2);
    QCOMPARE(hardware->at(0).name, QStringLiteral("NVIDIA L40S"));
    QCOMPARE(hardware->at(0).busWidthBits, 384);
    QCOMPARE(hardware->at(1).name, QStringLiteral("H100 PCIe custom")); // no preset: the name only
    QCOMPARE(hardware->at(1).smCount, 0);
}

void TestInteropPublished::rlPool()
{
    auto store = freshStore();
    QVERIFY(store);
    auto report = interop::importFiles(*store, {fixture("rl_pool.jsonl")});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    QCOMPARE(added(*report, "pair_label"), 2);
    const auto row = label(*store, "rl_pool", "102");
    QVERIFY(row);
    QCOMPARE(row->trueBin, std::optional<int>(6)); // relative_bin
    QCOMPARE(row->extra.value(QStringLiteral("pair_type")).toString(), QStringLiteral("parent_edit"));
    QCOMPARE(row->source, QStringLiteral("import:paper-rl-pool"));
}

void TestInteropPublished::hfSearchEvents()
{
    auto store = freshStore();
    QVERIFY(store);
    auto report = interop::importFiles(*store, {fixture("hf_search_events.jsonl")});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    QCOMPARE(added(*report, "search"), 2);
    QCOMPARE(added(*report, "search_event"), 5);
    SearchRepo repo(*store);
    auto trimul = repo.findByName(QStringLiteral("trimul_s1"));
    QVERIFY(trimul.ok() && trimul->has_value());
    QCOMPARE((*trimul)->mode, QStringLiteral("surrogate"));
    QCOMPARE((*trimul)->config.value(QStringLiteral("internal_experiment")).toString(), QStringLiteral("exp1"));
    auto events = repo.events((*trimul)->id);
    QVERIFY(events.ok());
    QCOMPARE(events->size(), 3);
    QCOMPARE(events->at(0).kind, QStringLiteral("search_initialized")); // ordered by event_index
    QCOMPARE(events->at(1).kind, QStringLiteral("step_started"));
    QCOMPARE(events->at(2).kind, QStringLiteral("forecast_completed"));
    QCOMPARE(events->at(2).time, QDateTime(QDate(2026, 3, 1), QTime(10, 0, 2), QTimeZone::utc()));
    auto ce = repo.findByName(QStringLiteral("ce_s2"));
    QVERIFY(ce.ok() && ce->has_value());
    QCOMPARE((*ce)->mode, QStringLiteral("standard"));
    auto ceEvents = repo.events((*ce)->id);
    QCOMPARE(ceEvents->at(0).payload.value(QStringLiteral("seed_code")).toString(), QStringLiteral("ce"));
}

void TestInteropPublished::rawEventLog()
{
    auto store = freshStore();
    QVERIFY(store);
    auto report = interop::importFiles(*store, {fixture("events_standard.jsonl")});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    QVERIFY(report->files[0].warnings.isEmpty());
    SearchRepo repo(*store);
    auto search = repo.findByName(QStringLiteral("run-std-1")); // named by search_initialized's run_id
    QVERIFY(search.ok() && search->has_value());
    QCOMPARE((*search)->mode, QStringLiteral("standard"));
    auto events = repo.events((*search)->id);
    QVERIFY(events.ok());
    QCOMPARE(events->size(), 8);
    QCOMPARE(events->at(6).kind, QStringLiteral("node_pinned")); // one of ours in a paper log: kept as written
    const SearchEvent &evaluated = events->at(5);
    QCOMPARE(evaluated.sequence, qint64(5));
    QCOMPARE(evaluated.time, QDateTime(QDate(2026, 3, 2), QTime(8, 1, 10), QTimeZone::utc()));
    QVERIFY(!evaluated.payload.contains(QStringLiteral("kind")));
    QVERIFY(!evaluated.payload.contains(QStringLiteral("ts")));
    QCOMPARE(evaluated.payload.value(QStringLiteral("id")).toString(), QStringLiteral("01HZX000000000000000000006"));
    QCOMPARE(evaluated.payload[QStringLiteral("feedback")][QStringLiteral("aggregated_speedup")].toDouble(), 1.31);

    auto again = interop::importFiles(*store, {fixture("events_standard.jsonl")});
    QVERIFY2(again.ok(), qPrintable(again.error()));
    QCOMPARE(deduplicated(*again, "search_event"), 8);
}

void TestInteropPublished::truncatedLastLineIsTolerated()
{
    auto store = freshStore();
    QVERIFY(store);
    const QString file = fixture("surrogate_run_events.jsonl");
    auto report = interop::importFiles(*store, {file});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    QCOMPARE(report->files[0].warnings.size(), 1);
    QVERIFY2(report->files[0].warnings[0].startsWith(file + QStringLiteral(":6: not valid JSON")),
        qPrintable(report->files[0].warnings[0]));
    QVERIFY(report->files[0].warnings[0].endsWith(QStringLiteral("the last line is incomplete and was skipped")));
    QCOMPARE(added(*report, "search_event"), 5);
    auto search = SearchRepo(*store).findByName(QStringLiteral("surrogate_run_events")); // the file's name
    QVERIFY(search.ok() && search->has_value());
    QCOMPARE((*search)->mode, QStringLiteral("surrogate"));
}

void TestInteropPublished::badInput_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("error"); // after the file name; "…" at the end: a prefix
    const QByteArray event = R"({"kind":"step_started","ts":"2026-03-02T08:00:01Z"})";
    QTest::newRow("corrupt line before the last") << event + '\n' + R"({"kind":"step_sta)" + '\n' + event + '\n'
                                                  << QStringLiteral(":2: not valid JSON (…");
    QTest::newRow("event without kind") << event + '\n' + R"({"step":1})" + '\n' + event + '\n'
                                        << QStringLiteral(":2: field 'kind': missing");
    QTest::newRow("event with a bad time") << event + '\n' + R"({"kind":"x","ts":"yesterday"})" + '\n'
                                           << QStringLiteral(":2: field 'ts': 'yesterday' is not an ISO-8601 time");
    QTest::newRow("event of an unknown kind")
        << event + '\n' + R"({"kind":"operator_note","ts":"2026-03-02T08:00:02Z"})" + '\n' + event + '\n'
        << QStringLiteral(":2: unknown search event kind 'operator_note'");
    QTest::newRow("unknown comparison_id")
        << QByteArray(R"({"comparison_id":"nope","surrogate_label":"m","predicted_bin":4,)"
                      R"("bin_probabilities":[{"bin":4,"p":1}],"parse_failed":false})")
        << QStringLiteral(":1: field 'comparison_id': unknown comparison_id 'nope'; import the eval set first (or"
                          " in the same call)");
    const QByteArray prediction = R"({"comparison_id":"cmp-a","surrogate_label":"m","parse_failed":false,)";
    QTest::newRow("prediction probability NaN as a string")
        << prediction + R"("predicted_bin":4,"bin_probabilities":[{"bin":3,"p":0.5},{"bin":4,"p":"NaN"}]})"
        << QStringLiteral(":1: field 'bin_probabilities[1].p': expected a number, got a string");
    QTest::newRow("prediction probability 1.5")
        << prediction + R"("predicted_bin":4,"bin_probabilities":[{"bin":4,"p":1.5}]})"
        << QStringLiteral(":1: field 'bin_probabilities[0].p': must be in [0, 1], got 1.5");
    QTest::newRow("prediction bin 9") << prediction + R"("predicted_bin":9,"bin_probabilities":[]})"
                                      << QStringLiteral(":1: field 'predicted_bin': must be a bin 1..8, got 9");
    QTest::newRow("probability for bin 9")
        << prediction + R"("predicted_bin":4,"bin_probabilities":[{"bin":9,"p":0.5}]})"
        << QStringLiteral(":1: field 'bin_probabilities[0].bin': must be a bin 1..8, got 9");
    QTest::newRow("parsed prediction without a bin") << prediction + R"("bin_probabilities":[{"bin":4,"p":1}]})"
                                                     << QStringLiteral(":1: field 'predicted_bin': missing for a"
                                                                       " prediction that parsed");
    QTest::newRow("eval row bin 9") << QByteArray(
        R"({"comparison_id":"x","pack":"p","anchor_code":"a","candidate_code":"b","true_bin":9})")
                                    << QStringLiteral(":1: field 'true_bin': must be a bin 1..8, got 9");
    QTest::newRow("error on a later row, after writes")
        << QByteArray(R"({"comparison_id":"ok","pack":"fresh","anchor_code":"a1","candidate_code":"b1"})"
                      "\n"
                      R"({"comparison_id":"bad","pack":"fresh","anchor_code":"a2","candidate_code":"b2","true_bin":0})")
        << QStringLiteral(":2: field 'true_bin': must be a bin 1..8, got 0");
    QTest::newRow("eval row without candidate") << QByteArray(R"({"comparison_id":"x","pack":"p","anchor_code":"a"})")
                                                << QStringLiteral(":1: field 'candidate_code': missing");
    QTest::newRow("eval row speedup as a string")
        << QByteArray(R"({"comparison_id":"x","pack":"p","anchor_code":"a","candidate_code":"b",)"
                      R"("aggregated_speedup":"1.5"})")
        << QStringLiteral(":1: field 'aggregated_speedup': expected a number, got a string");
    const QByteArray hfRow = R"({"event_index":0,"event_kind":"search_initialized","payload":{},)"
                             R"("source_search":"s"})";
    QTest::newRow("duplicate event_index")
        << hfRow + '\n' + hfRow << QStringLiteral(":2: field 'event_index': event 0 of search 's' is given twice");
    QTest::newRow("payload string without an object")
        << QByteArray(R"({"event_index":0,"event_kind":"k","payload":"[1]","source_search":"s"})")
        << QStringLiteral(":1: field 'payload': a string payload must hold a JSON object");
    QTest::newRow("unknown format") << QByteArray(R"({"hello":"world"})")
                                    << QStringLiteral(":1: unknown format: the first record has keys {hello}…");
}

void TestInteropPublished::badInput()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, error);
    auto store = freshStore();
    QVERIFY(store);
    QVERIFY(interop::importFiles(*store, {fixture("eval_set.jsonl"), fixture("events_standard.jsonl")}).ok());
    const QByteArray before = snapshot(*store, m_dir);
    const QString path = m_dir.filePath(QStringLiteral("bad.jsonl"));
    QVERIFY(writeFile(path, content));
    auto report = interop::importFiles(*store, {path});
    QVERIFY(!report.ok());
    if (error.endsWith(QStringLiteral("…")))
        QVERIFY2(report.error().startsWith(path + error.chopped(1)), qPrintable(report.error()));
    else
        QCOMPARE(report.error(), path + error);
    QCOMPARE(snapshot(*store, m_dir), before);
}

void TestInteropPublished::pythonNonFiniteWordsReadAsNull()
{
    auto store = freshStore();
    QVERIFY(store);
    const QString path = m_dir.filePath(QStringLiteral("nan-eval.jsonl"));
    QVERIFY(writeFile(path,
        R"({"comparison_id":"n1","pack":"p","anchor_code":"NaN stays in strings",)"
        R"("candidate_code":"b","aggregated_speedup":NaN,"true_bin":null})"
        "\n"));
    auto report = interop::importFiles(*store, {path});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    QCOMPARE(report->files[0].warnings.size(), 1);
    const auto row = label(*store, "eval", "n1");
    QVERIFY(row && !row->speedup);
    auto anchor = KernelRepo(*store).find(row->referenceKernelId);
    QCOMPARE((*anchor)->source, QStringLiteral("NaN stays in strings"));
}

QTEST_GUILESS_MAIN(TestInteropPublished)
#include "tst_interop_published.moc"
