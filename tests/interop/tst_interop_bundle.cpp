// Tests for gpuf bundles: byte-identical round trips, natural-key references (forward ones included), dedup and
// event-sequence rules, atomic export, and bad inputs that must fail with FILE:LINE and field, store unchanged.
#include "interop_test_util.h"

#include "core/interop/interop.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"

#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::testing;

// Declared before the raw-string test data: moc cannot tokenise some raw string literals.
class TestInteropBundle : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void roundTripIsByteIdentical();
    void importResolvesNaturalKeys();
    void reimportAddsNothing();
    void changedRowsAreAdded();
    void eventRules_data();
    void eventRules();
    void exportReplacesWholeFileAndFailsCleanly();
    void badBundle_data();
    void badBundle();
    void allOrNothingAcrossFiles();
    void cancelLeavesStoreUnchanged();
};

namespace {

const QByteArray kHeader = QByteArrayLiteral(R"({"type":"header","format":"gpuf-bundle","version":1})");
const QByteArray kHardware = QByteArrayLiteral(R"({"type":"hardware","name":"GPU-1"})");
const QByteArray kProblem = QByteArrayLiteral(R"({"type":"problem","name":"p"})");
// A well-formed hash that no kernel in these tests has.
const QByteArray kUnknownHash = QByteArrayLiteral("0c4c5d3e2d6dbb65b1b2f2f1f8ad2fad51b5b1c4a5ba1d32cfdfa2b9bdb4b7a9");
QByteArray kernelLine(const QString &source, const QByteArray &extra = {})
{
    return QByteArrayLiteral(R"({"type":"kernel","problem":"p","origin":"manual","hash":")")
        + contentHashOf(source).toLatin1() + QByteArrayLiteral(R"(","source":")") + source.toUtf8() + '"' + extra + '}';
}

} // namespace

void TestInteropBundle::roundTripIsByteIdentical()
{
    const QString bundle = fixture("bundle_full.jsonl");
    auto store = openStore(m_dir, QStringLiteral("roundtrip-a.gpuf"));
    QVERIFY(store);
    auto report = interop::importFiles(*store, {bundle});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    QCOMPARE(report->files.size(), 1);
    QCOMPARE(report->files[0].format, interop::FileFormat::Bundle);
    QCOMPARE(report->files[0].lines, 22);
    QVERIFY(report->files[0].warnings.isEmpty());

    const QString first = m_dir.filePath(QStringLiteral("first.gpufb"));
    QVERIFY(interop::exportBundle(*store, first).ok());
    const QByteArray exported = readAll(first);
    QCOMPARE(exported, readAll(bundle));

    // And once more through a fresh store: the export is a fixed point.
    auto second = openStore(m_dir, QStringLiteral("roundtrip-b.gpuf"));
    QVERIFY(second);
    QVERIFY(interop::importFiles(*second, {first}).ok());
    QCOMPARE(snapshot(*second, m_dir), exported);
}

void TestInteropBundle::importResolvesNaturalKeys()
{
    auto store = openStore(m_dir, QStringLiteral("keys.gpuf"));
    QVERIFY(store);
    auto report = interop::importFiles(*store, {fixture("bundle_full.jsonl")});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    for (auto [kind, count] : {std::pair {"hardware", 2}, {"forecaster", 2}, {"problem", 2}, {"kernel", 3},
             {"measurement", 2}, {"pair_label", 2}, {"forecast", 2}, {"search", 2}, {"search_event", 4}})
        QCOMPARE(added(*report, kind), qint64(count));

    auto softmax = ProblemRepo(*store).findByName(QStringLiteral("row_softmax"));
    QVERIFY(softmax.ok() && softmax->has_value());
    auto reference = KernelRepo(*store).find((*softmax)->referenceKernelId);
    QVERIFY(reference.ok() && reference->has_value());
    QCOMPARE((*reference)->origin, QStringLiteral("seed"));
    // The warp kernel comes first in the file and names its parent by a hash defined later.
    auto kernels = KernelRepo(*store).list((*softmax)->id);
    QVERIFY(kernels.ok());
    QCOMPARE(kernels->size(), 2);
    QCOMPARE(kernels->at(0).name, QStringLiteral("warp per row"));
    QCOMPARE(kernels->at(0).parentId, (*reference)->id);

    auto measurements = MeasurementRepo(*store).list();
    QVERIFY(measurements.ok());
    QCOMPARE(measurements->size(), 2);
    QCOMPARE(measurements->at(0).runtime->samples, 57);
    QCOMPARE(measurements->at(0).resources.occupancy, 0.75);
    QCOMPARE(measurements->at(1).resources.registers, -1);
    QVERIFY(!measurements->at(1).runtime.has_value());

    auto forecasts = ForecastRepo(*store).list();
    QVERIFY(forecasts.ok());
    QCOMPARE(forecasts->at(0).predictedBin, std::optional<int>(5));
    QCOMPARE(forecasts->at(0).tokensOut, qint64(412));
    QCOMPARE(forecasts->at(1).hardwareId, RowId(0));
    QCOMPARE(forecasts->at(1).latencySeconds, -1.0);

    auto events = SearchRepo(*store).events();
    QVERIFY(events.ok());
    QCOMPARE(events->size(), 4);
    QCOMPARE(events->at(2).kind, QStringLiteral("forecast_completed"));
    QCOMPARE(events->at(2).sequence, qint64(2));
}

void TestInteropBundle::reimportAddsNothing()
{
    auto store = openStore(m_dir, QStringLiteral("reimport.gpuf"));
    QVERIFY(store);
    QVERIFY(interop::importFiles(*store, {fixture("bundle_full.jsonl")}).ok());
    auto again = interop::importFiles(*store, {fixture("bundle_full.jsonl")});
    QVERIFY2(again.ok(), qPrintable(again.error()));
    QCOMPARE(added(*again, "kernel"), 0);
    QCOMPARE(deduplicated(*again, "kernel"), 3);
    QCOMPARE(deduplicated(*again, "problem"), 2);
    QCOMPARE(deduplicated(*again, "hardware"), 2);
    // Rows equal to stored ones (same kernels, GPU, forecaster, outcome and time) are not stored again.
    QCOMPARE(added(*again, "measurement"), 0);
    QCOMPARE(deduplicated(*again, "measurement"), 2);
    QCOMPARE(added(*again, "forecast"), 0);
    QCOMPARE(deduplicated(*again, "forecast"), 2);
    QCOMPARE(added(*again, "pair_label"), 0);
    QVERIFY2(
        again->text().contains(QStringLiteral("nothing new added; already in the store:")), qPrintable(again->text()));
    QVERIFY2(again->text().contains(QStringLiteral("2 measurement")), qPrintable(again->text()));
    QCOMPARE(added(*again, "search_event"), 0); // identical events at stored sequences
    QCOMPARE(deduplicated(*again, "search_event"), 4);
    auto counts = store->counts();
    QVERIFY(counts.ok());
    QCOMPARE(counts->kernels, 3);
    QCOMPARE(counts->measurements, 2);
    QCOMPARE(counts->forecasts, 2);
    QCOMPARE(counts->events, 4);
}

// Only equal rows are skipped: a measurement of the same kernel with another runtime is a new one.
void TestInteropBundle::changedRowsAreAdded()
{
    auto store = openStore(m_dir, QStringLiteral("changed.gpuf"));
    QVERIFY(store);
    QVERIFY(interop::importFiles(*store, {fixture("bundle_full.jsonl")}).ok());
    QByteArray bundle = readAll(fixture("bundle_full.jsonl"));
    QVERIFY(bundle.contains("\"median_ns\":41250.5"));
    bundle.replace("\"median_ns\":41250.5", "\"median_ns\":41250.75");
    const QString file = m_dir.filePath(QStringLiteral("changed.jsonl"));
    QVERIFY(writeFile(file, bundle));
    auto again = interop::importFiles(*store, {file});
    QVERIFY2(again.ok(), qPrintable(again.error()));
    QCOMPARE(added(*again, "measurement"), 1);
    QCOMPARE(deduplicated(*again, "measurement"), 1);
    QCOMPARE(store->counts()->measurements, 3);
}

void TestInteropBundle::eventRules_data()
{
    QTest::addColumn<QByteArray>("events");
    QTest::addColumn<QString>("error"); // empty: accepted
    QTest::addColumn<qint64>("storedEvents");
    const QByteArray search = R"({"type":"search","name":"adhoc","mode":"standard"})";
    QTest::newRow("continues the stored log") << search + '\n'
            + R"({"type":"search_event","search":"adhoc","sequence":1,"kind":"step_started","payload":{"step":0}})"
                                              << QString() << qint64(2);
    // The log as a whole (the store's and the file's events) must pass what a standalone log passes.
    QTest::newRow("continues it where no step was due")
        << search + '\n'
            + R"({"type":"search_event","search":"adhoc","sequence":1,"kind":"step_started","payload":{"step":3}})"
        << QStringLiteral(":3: step_started event refused: step 3 started where step 0 was due; search 'adhoc' could "
                          "never be shown or resumed")
        << qint64(1);
    QTest::newRow("conflict at a stored sequence")
        << search + '\n' + R"({"type":"search_event","search":"adhoc","sequence":0,"kind":"step_started"})"
        << QStringLiteral(":3: field 'sequence': search 'adhoc': conflicts with the event already stored at"
                          " sequence 0 (kind 'search_initialized')")
        << qint64(1);
    QTest::newRow("gap") << search + '\n'
            + R"({"type":"search_event","search":"adhoc","sequence":5,"kind":"step_started"})"
                         << QStringLiteral(
                                ":3: field 'sequence': search 'adhoc': sequence 5 leaves a gap: the search holds 1"
                                " events, so the next is 1")
                         << qint64(1);
}

void TestInteropBundle::eventRules()
{
    QFETCH(QByteArray, events);
    QFETCH(QString, error);
    QFETCH(qint64, storedEvents);
    auto store = openStore(m_dir, QStringLiteral("events-%1.gpuf").arg(QString::fromLatin1(QTest::currentDataTag())));
    QVERIFY(store);
    QVERIFY(interop::importFiles(*store, {fixture("bundle_full.jsonl")}).ok());
    const QString path = m_dir.filePath(QStringLiteral("events.jsonl"));
    QVERIFY(writeFile(path, kHeader + '\n' + events + '\n'));
    auto report = interop::importFiles(*store, {path});
    if (error.isEmpty()) {
        QVERIFY2(report.ok(), qPrintable(report.error()));
    } else {
        QVERIFY(!report.ok());
        QCOMPARE(report.error(), path + error);
    }
    auto search = SearchRepo(*store).findByName(QStringLiteral("adhoc"));
    QVERIFY(search.ok() && search->has_value());
    QCOMPARE(*SearchRepo(*store).eventCount((*search)->id), storedEvents);
}

void TestInteropBundle::exportReplacesWholeFileAndFailsCleanly()
{
    auto store = openStore(m_dir, QStringLiteral("export.gpuf"));
    QVERIFY(store);
    QVERIFY(interop::importFiles(*store, {fixture("bundle_full.jsonl")}).ok());
    const QString path = m_dir.filePath(QStringLiteral("existing.gpufb"));
    QVERIFY(writeFile(path, QByteArray(100000, 'x')));
    QVERIFY(interop::exportBundle(*store, path).ok());
    QCOMPARE(readAll(path), readAll(fixture("bundle_full.jsonl")));

    const QString nowhere = m_dir.filePath(QStringLiteral("missing-folder/out.gpufb"));
    const Status failed = interop::exportBundle(*store, nowhere);
    QVERIFY(!failed.ok());
    QVERIFY2(failed.error().startsWith(nowhere + QStringLiteral(": cannot write")), qPrintable(failed.error()));
    QVERIFY(!QFile::exists(nowhere));
}

void TestInteropBundle::badBundle_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("error"); // expected text after the file name; "…" at the end: a prefix
    const QByteArray good = kHeader + '\n' + kHardware + '\n' + kProblem + '\n';

    QTest::newRow("truncated line") << good + kernelLine(QStringLiteral("k1")).left(40)
                                    << QStringLiteral(":4: not valid JSON (…");
    QTest::newRow("wrong type") << kHeader + '\n' + R"({"type":"hardware","name":"GPU","sm_count":"108"})"
                                << QStringLiteral(":2: field 'sm_count': expected an integer, got a string");
    QTest::newRow("unknown record type") << good + R"({"type":"gizmo","name":"x"})"
                                         << QStringLiteral(":4: field 'type': unknown record type 'gizmo'");
    QTest::newRow("missing type") << good + R"({"name":"x"})" << QStringLiteral(":4: field 'type': missing");
    QTest::newRow("missing field") << good + R"({"type":"kernel","problem":"p","hash":")"
            + contentHashOf(QStringLiteral("k1")).toLatin1()
            + R"(","source":"k1"})" << QStringLiteral(":4: field 'origin': missing");
    QByteArray wrongHash = kernelLine(QStringLiteral("k1"));
    wrongHash.replace(contentHashOf(QStringLiteral("k1")).toLatin1(), contentHashOf(QStringLiteral("k2")).toLatin1());
    QTest::newRow("hash does not match the source")
        << good + wrongHash
        << QStringLiteral(":4: field 'hash': does not match the source (its SHA-256 is %1)")
               .arg(contentHashOf(QStringLiteral("k1")));
    QTest::newRow("malformed hash") << good + kernelLine(QStringLiteral("k1")).replace("\"hash\":\"", "\"hash\":\"Z")
                                    << QStringLiteral(":4: field 'hash': expected 64 lower-case hex digits (SHA-256)");
    const QByteArray twoKernels
        = good + kernelLine(QStringLiteral("k1")) + '\n' + kernelLine(QStringLiteral("k2")) + '\n';
    const QByteArray pair = R"("reference":{"problem":"p","hash":")" + contentHashOf(QStringLiteral("k1")).toLatin1()
        + R"("},"candidate":{"problem":"p","hash":")" + contentHashOf(QStringLiteral("k2")).toLatin1() + R"("})";
    QTest::newRow("bin 9") << twoKernels + R"({"type":"pair_label","kind":"eval",)" + pair + R"(,"true_bin":9})"
                           << QStringLiteral(":6: field 'true_bin': must be a bin 1..8, got 9");
    const QByteArray forecast = R"({"type":"forecast","forecaster":"f","status":"ok",)" + pair;
    QTest::newRow("probability 1.5") << twoKernels + forecast + R"(,"probabilities":[0,0,0,0,1.5,0,0,0]})"
                                     << QStringLiteral(":6: field 'probabilities[4]': must be in [0, 1], got 1.5");
    QTest::newRow("probability NaN as a string")
        << twoKernels + forecast + R"(,"probabilities":[0,0,"NaN",0,1,0,0,0]})"
        << QStringLiteral(":6: field 'probabilities[2]': expected a number, got a string");
    QTest::newRow("seven probabilities") << twoKernels + forecast + R"(,"probabilities":[0,0,0,0,1,0,0]})"
                                         << QStringLiteral(":6: field 'probabilities': expected 8 numbers, got 7");
    QTest::newRow("unknown status") << twoKernels + R"({"type":"forecast","forecaster":"f","status":"maybe",)" + pair
            + R"(,"probabilities":[0,0,0,0,1,0,0,0]})"
                                    << QStringLiteral(
                                           ":6: field 'status': 'maybe' is not one of ok, parse_failed, error");
    QTest::newRow("unknown forecaster")
        << twoKernels + forecast + R"(,"probabilities":[0,0,0,0,1,0,0,0]})"
        << QStringLiteral(":6: field 'forecaster': unknown forecaster 'f' (neither in the file nor in the store)");
    QTest::newRow("nested reference field")
        << twoKernels + R"({"type":"pair_label","kind":"eval","reference":{"problem":"p"},"candidate":{}})"
        << QStringLiteral(":6: field 'reference.hash': missing");
    QTest::newRow("unknown kernel") << good + kernelLine(QStringLiteral("k1")) + '\n'
            + R"({"type":"pair_label","kind":"eval",)" + pair + '}'
                                    << QStringLiteral(
                                           ":5: field 'candidate.hash': no kernel with hash %1 in problem 'p'")
                                           .arg(contentHashOf(QStringLiteral("k2")));
    QTest::newRow("unresolvable parent") << good
            + kernelLine(QStringLiteral("k1"), R"(,"parent_hash":")" + kUnknownHash + '"')
                                         << QStringLiteral(
                                                ":4: field 'parent_hash': no kernel with hash %1 in problem 'p'")
                                                .arg(QString::fromLatin1(kUnknownHash));
    QTest::newRow("measurement without runtime") << good + kernelLine(QStringLiteral("k1")) + '\n'
            + R"({"type":"measurement","hardware":"GPU-1","status":"ok","kernel":{"problem":"p","hash":")"
            + contentHashOf(QStringLiteral("k1")).toLatin1()
            + R"("}})" << QStringLiteral(":5: field 'runtime': required when the status is ok");
    // A lesson step across two problems: its speedup would compare kernels that solve different things.
    const QByteArray otherProblem = R"({"type":"problem","name":"q"})" + QByteArray("\n")
        + QByteArray(kernelLine(QStringLiteral("q1"))).replace(R"("problem":"p")", R"("problem":"q")") + '\n';
    QTest::newRow("lesson step across problems")
        << twoKernels + otherProblem
            + R"({"type":"lesson","name":"custom/mixed","kind":"custom","steps":[{"reference":{"problem":"q","hash":")"
            + contentHashOf(QStringLiteral("q1")).toLatin1() + R"("},"kernel":{"problem":"p","hash":")"
            + contentHashOf(QStringLiteral("k2")).toLatin1() + R"("}}]})"
        << QStringLiteral(":8: field 'steps[0].kernel.problem': the step compares a kernel of 'p' with a reference of "
                          "'q'; a step's two kernels solve the same problem");
    QTest::newRow("bad time") << kHeader + '\n' + R"({"type":"problem","name":"p","created_at":"yesterday"})"
                              << QStringLiteral(":2: field 'created_at': 'yesterday' is not an ISO-8601 time");
    QTest::newRow("newer version") << QByteArray(R"({"type":"header","format":"gpuf-bundle","version":2})")
                                   << QStringLiteral(":1: field 'version': version 2 is newer than this program"
                                                     " reads (1)");
    QTest::newRow("second header") << good + kHeader << QStringLiteral(":4: field 'type': a second header record");
    QTest::newRow("not an object") << good + "[1,2]" << QStringLiteral(":4: a line must hold one JSON object");
    QTest::newRow("no header") << kHardware + '\n' << QStringLiteral(":1: unknown format: …");
}

void TestInteropBundle::badBundle()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, error);
    auto store = openStore(m_dir, QStringLiteral("bad-%1.gpuf").arg(QString::fromLatin1(QTest::currentDataTag())));
    QVERIFY(store);
    QVERIFY(interop::importFiles(*store, {fixture("bundle_full.jsonl")}).ok());
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

void TestInteropBundle::allOrNothingAcrossFiles()
{
    auto store = openStore(m_dir, QStringLiteral("all-or-nothing.gpuf"));
    QVERIFY(store);
    const QString bad = m_dir.filePath(QStringLiteral("late-error.jsonl"));
    QVERIFY(writeFile(bad, kHeader + '\n' + kProblem + '\n' + R"({"type":"gizmo"})" + '\n'));
    auto report = interop::importFiles(*store, {fixture("bundle_full.jsonl"), fixture("eval_set.jsonl"), bad});
    QVERIFY(!report.ok());
    QCOMPARE(report.error(), bad + QStringLiteral(":3: field 'type': unknown record type 'gizmo'"));
    auto counts = store->counts();
    QVERIFY(counts.ok());
    QCOMPARE(counts->problems + counts->kernels + counts->hardware + counts->pairLabels + counts->events, 0);
}

void TestInteropBundle::cancelLeavesStoreUnchanged()
{
    auto store = openStore(m_dir, QStringLiteral("cancel.gpuf"));
    QVERIFY(store);
    interop::ImportOptions options;
    int calls = 0;
    options.progress = [&calls](const interop::ImportProgress &p) {
        ++calls;
        return p.fraction < 0.5; // cancel half way through
    };
    auto report = interop::importFiles(*store, {fixture("bundle_full.jsonl")}, options);
    QVERIFY(!report.ok());
    QCOMPARE(report.error(), QStringLiteral("import cancelled"));
    QVERIFY(calls > 1);
    QCOMPARE(store->counts()->kernels, 0);
}

QTEST_GUILESS_MAIN(TestInteropBundle)
#include "tst_interop_bundle.moc"
