// Imported search event logs that gpuf could never show or resume are refused whole (issue 26): a gpuf log goes
// through the same fold that shows and resumes it, any other log through the checks every log must pass. Each refusal
// names the line and the reason, and the store is left as it was.
#include "interop_test_util.h"

#include "core/interop/interop.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::testing;

namespace {

QString gpufLog()
{
    return QStringLiteral(GPUF_SOURCE_DIR "/resources/searches/live-transpose-h100-2026-11-26.events.jsonl");
}

QList<QJsonObject> readLines(const QString &path)
{
    QList<QJsonObject> lines;
    const QList<QByteArray> raw = readAll(path).split('\n');
    for (const QByteArray &line : raw) {
        if (!line.trimmed().isEmpty())
            lines.append(QJsonDocument::fromJson(line).object());
    }
    return lines;
}

QByteArray joined(const QList<QJsonObject> &lines)
{
    QByteArray out;
    for (const QJsonObject &o : lines)
        out += QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
    return out;
}

// One bad edit of a good log: the lines after it.
using Edit = QList<QJsonObject> (*)(const QList<QJsonObject> &);

QJsonObject withFeedbackSpeedup(QJsonObject line, double speedup)
{
    QJsonObject feedback = line.value(QStringLiteral("feedback")).toObject();
    feedback.insert(QStringLiteral("aggregated_speedup"), speedup);
    line.insert(QStringLiteral("feedback"), feedback);
    return line;
}

} // namespace

Q_DECLARE_METATYPE(Edit)

class TestEventLogImport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void goodLogsImport();
    void badLogIsRefused_data();
    void badLogIsRefused();
    void badLogInABundleIsRefused_data();
    void badLogInABundleIsRefused();
};

void TestEventLogImport::goodLogsImport()
{
    auto store = openStore(m_dir, QStringLiteral("good.gpuf"));
    QVERIFY(store);
    auto report = interop::importFiles(*store, {gpufLog(), fixture("events_standard.jsonl")});
    QVERIFY2(report.ok(), qPrintable(report.error()));
    QCOMPARE(added(*report, "search"), 2);
    QCOMPARE(added(*report, "search_event"), 158);
}

void TestEventLogImport::badLogIsRefused_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<Edit>("edit");
    QTest::addColumn<QString>("message");
    const QString gpuf = gpufLog();
    const QString paper = fixture("events_standard.jsonl");
    QTest::newRow("gpuf: no search_initialized")
        << gpuf << Edit([](const QList<QJsonObject> &l) { return l.mid(1); })
        << QStringLiteral(":1: the log starts with a step_started event, not search_initialized");
    QTest::newRow("gpuf: negative speedup")
        << gpuf << Edit([](const QList<QJsonObject> &in) {
               QList<QJsonObject> l = in;
               l[18] = withFeedbackSpeedup(l[18], -2.0);
               return l;
           })
        << QStringLiteral(
               ":19: evaluation_completed event refused: feedback.aggregated_speedup must be a positive number");
    QTest::newRow("gpuf: absurd step")
        << gpuf << Edit([](const QList<QJsonObject> &in) {
               QList<QJsonObject> l = in;
               l[1].insert(QStringLiteral("step"), 1e12);
               return l;
           })
        << QStringLiteral(
               ":2: step_started event refused: 'step' must be a whole number from -1 to 1000000 (got 1000000000000)");
    QTest::newRow("gpuf: answer to no request") << gpuf << Edit([](const QList<QJsonObject> &in) {
        QList<QJsonObject> l = in;
        l[6].insert(QStringLiteral("request_id"), QStringLiteral("01NEVERASKED"));
        return l;
    }) << QStringLiteral(":7: mutation_completed event refused: request '01NEVERASKED' was never made");
    QTest::newRow("gpuf: shuffled lines") << gpuf << Edit([](const QList<QJsonObject> &in) {
        QList<QJsonObject> l = in;
        l.swapItemsAt(1, 2);
        return l;
    }) << QStringLiteral(":2: mutation_requested event refused:");
    QTest::newRow("gpuf: unknown kind") << gpuf << Edit([](const QList<QJsonObject> &in) {
        QList<QJsonObject> l = in;
        l[5].insert(QStringLiteral("kind"), QStringLiteral("teleported"));
        return l;
    }) << QStringLiteral(":6: unknown search event kind 'teleported'");
    QTest::newRow("gpuf: newer format")
        << gpuf << Edit([](const QList<QJsonObject> &in) {
               QList<QJsonObject> l = in;
               l[0].insert(QStringLiteral("format_version"), 99);
               return l;
           })
        << QStringLiteral(
               ":1: search_initialized event refused: format_version 99 is newer than this gpuf reads (up to 3)");
    QTest::newRow("paper: no search_initialized")
        << paper << Edit([](const QList<QJsonObject> &l) { return l.mid(1); })
        << QStringLiteral(":1: the log starts with a step_started event, not search_initialized");
    QTest::newRow("paper: negative speedup")
        << paper << Edit([](const QList<QJsonObject> &in) {
               QList<QJsonObject> l = in;
               l[5] = withFeedbackSpeedup(l[5], -1.31);
               return l;
           })
        << QStringLiteral(
               ":6: evaluation_completed event refused: feedback.aggregated_speedup must be a positive number");
    QTest::newRow("paper: absurd step") << paper << Edit([](const QList<QJsonObject> &in) {
        QList<QJsonObject> l = in;
        l[1].insert(QStringLiteral("step"), 1e12);
        return l;
    }) << QStringLiteral(":2: step_started event refused: 'step' must be a whole number");
    QTest::newRow("paper: answer to no request")
        << paper << Edit([](const QList<QJsonObject> &in) {
               QList<QJsonObject> l = in;
               l[5].insert(QStringLiteral("request_id"), QStringLiteral("01NEVERASKED"));
               return l;
           })
        << QStringLiteral(":6: evaluation_completed event refused: it answers request 01NEVERASKED, which no earlier"
                          " evaluation_requested event made");
    QTest::newRow("paper: shuffled lines") << paper << Edit([](const QList<QJsonObject> &in) {
        QList<QJsonObject> l = in;
        l.swapItemsAt(1, 7);
        return l;
    }) << QStringLiteral(":2: step_completed event refused: step 0 completed, but the step in progress is -1");
    QTest::newRow("paper: newer format") << paper << Edit([](const QList<QJsonObject> &in) {
        QList<QJsonObject> l = in;
        l[0].insert(QStringLiteral("format_version"), 99);
        return l;
    }) << QStringLiteral(":1: search_initialized event refused: format_version 99 is newer");
}

void TestEventLogImport::badLogIsRefused()
{
    QFETCH(QString, log);
    QFETCH(Edit, edit);
    QFETCH(QString, message);
    auto store = openStore(m_dir, QStringLiteral("%1.gpuf").arg(QString::fromLatin1(QTest::currentDataTag())));
    QVERIFY(store);
    QVERIFY(interop::importFiles(*store, {fixture("bundle_full.jsonl")}).ok());
    const QByteArray before = snapshot(*store, m_dir);
    const QString file = m_dir.filePath(QStringLiteral("events.jsonl"));
    QVERIFY(writeFile(file, joined(edit(readLines(log)))));
    auto report = interop::importFiles(*store, {file});
    QVERIFY(!report.ok());
    QVERIFY2(report.error().contains(file + message), qPrintable(report.error()));
    QVERIFY(!report.error().contains(QLatin1Char('\n')));
    // The caller says that nothing was imported, as for any refused file (gpuf printed it twice).
    QVERIFY2(!report.error().contains(QStringLiteral("nothing was imported")), qPrintable(report.error()));
    QCOMPARE(snapshot(*store, m_dir), before);
}

// The same checks for a search inside a bundle (gpuf export of a store that holds the gpuf log): a bundle whose log the
// fold calls corrupt is refused with the bundle's line, and nothing of it is imported (it used to add the search).
void TestEventLogImport::badLogInABundleIsRefused_data()
{
    QTest::addColumn<QString>("kind"); // the event edited: the first of this kind
    QTest::addColumn<QString>("field"); // a payload field, "feedback.aggregated_speedup" one level down
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative speedup") << QStringLiteral("evaluation_completed")
                                      << QStringLiteral("feedback.aggregated_speedup") << QJsonValue(-2.0)
                                      << QStringLiteral("evaluation_completed event refused: "
                                                        "feedback.aggregated_speedup must be a positive number");
    QTest::newRow("newer format") << QStringLiteral("search_initialized") << QStringLiteral("format_version")
                                  << QJsonValue(99)
                                  << QStringLiteral("search_initialized event refused: format_version 99 is newer "
                                                    "than this gpuf reads (up to 3)");
    QTest::newRow("answer to no request")
        << QStringLiteral("mutation_completed") << QStringLiteral("request_id") << QJsonValue(QStringLiteral("01NEVER"))
        << QStringLiteral("mutation_completed event refused: request '01NEVER' was never made");
}

void TestEventLogImport::badLogInABundleIsRefused()
{
    QFETCH(QString, kind);
    QFETCH(QString, field);
    QFETCH(QJsonValue, value);
    QFETCH(QString, message);
    const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'));
    auto source = openStore(m_dir, QStringLiteral("bundle-source-%1.gpuf").arg(tag));
    QVERIFY(source);
    QVERIFY(interop::importFiles(*source, {gpufLog()}).ok());
    const QString bundle = m_dir.filePath(QStringLiteral("search-%1.gpufb").arg(tag));
    QVERIFY(interop::exportBundle(*source, bundle).ok());
    {
        // Unedited, the bundle imports: the refusal below is the edit's.
        auto whole = openStore(m_dir, QStringLiteral("bundle-whole-%1.gpuf").arg(tag));
        QVERIFY(whole);
        const auto imported = interop::importFiles(*whole, {bundle});
        QVERIFY2(imported.ok(), qPrintable(imported.error()));
    }
    QList<QJsonObject> lines = readLines(bundle);
    qsizetype edited = -1;
    for (qsizetype i = 0; i < lines.size() && edited < 0; ++i) {
        if (lines[i].value(QStringLiteral("type")).toString() != QLatin1String("search_event")
            || lines[i].value(QStringLiteral("kind")).toString() != kind)
            continue;
        QJsonObject payload = lines[i].value(QStringLiteral("payload")).toObject();
        if (field.contains(QLatin1Char('.'))) {
            QJsonObject inner = payload.value(field.section(QLatin1Char('.'), 0, 0)).toObject();
            inner.insert(field.section(QLatin1Char('.'), 1), value);
            payload.insert(field.section(QLatin1Char('.'), 0, 0), inner);
        } else {
            payload.insert(field, value);
        }
        lines[i].insert(QStringLiteral("payload"), payload);
        edited = i;
    }
    QVERIFY(edited >= 0);
    QVERIFY(writeFile(bundle, joined(lines)));
    auto target = openStore(m_dir, QStringLiteral("bundle-target-%1.gpuf").arg(tag));
    QVERIFY(target);
    QVERIFY(interop::importFiles(*target, {fixture("bundle_full.jsonl")}).ok());
    const QByteArray before = snapshot(*target, m_dir);
    auto report = interop::importFiles(*target, {bundle});
    QVERIFY(!report.ok());
    QCOMPARE(report.error(),
        QStringLiteral("%1:%2: %3; search '%4' could never be shown or resumed")
            .arg(bundle)
            .arg(edited + 1)
            .arg(message, lines[edited].value(QStringLiteral("search")).toString()));
    QCOMPARE(snapshot(*target, m_dir), before);
}

QTEST_GUILESS_MAIN(TestEventLogImport)
#include "tst_event_log_import.moc"
