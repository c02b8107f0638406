// The import summary as people read it (the GUI's message box and `gpuf import` print it): counts named in words
// with correct plurals and the locale's digit grouping, formats named for people, no record tags ("pair_label",
// "[gpuf-bundle]"), and what was already stored said apart from what was added.
#include "core/common/english_plurals.h"
#include "core/interop/interop.h"
#include "core/store/store.h"
#include "gpuf_config.h"

#include <QFile>
#include <QLocale>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

class TestImportReport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        installEnglishPlurals(); // as gpuf and gpuf-explorer do at start
    }

    void englishPlurals_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<QString>("text");
        QTest::newRow("one") << 1 << u"1 kernel, 1 search"_s;
        QTest::newRow("none") << 0 << u"0 kernels, 0 searches"_s;
        QTest::newRow("many") << 3570 << u"3570 kernels, 3570 searches"_s;
    }
    void englishPlurals()
    {
        QFETCH(int, n);
        QFETCH(QString, text);
        QCOMPARE(QCoreApplication::translate("gpuf::test", "%n kernel(s), %n search(es)", nullptr, n), text);
        QCOMPARE(englishPlural(u"no count here"_s, n), u"no count here"_s);
    }

    void sampleBundleInWords()
    {
        auto store = Store::open(m_dir.filePath(u"report.gpuf"_s));
        QVERIFY2(store.ok(), qPrintable(store.error()));
        const QString bundle = QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl");
        auto first = interop::importFiles(**store, {bundle});
        QVERIFY2(first.ok(), qPrintable(first.error()));
        const QString text = first->text();
        QVERIFY2(text.startsWith(u"sample-bundle.jsonl (gpuf bundle, "_s), qPrintable(text));
        // Counts in words with thousands separators, whatever the bundle holds today.
        static const QRegularExpression counts(
            u"\\): added \\d+ problems, \\d+ kernels, [\\d,]+ measurements, \\d{1,3}(,\\d{3})+ forecasts, "_s);
        QVERIFY2(counts.match(text).hasMatch(), qPrintable(text));
        QVERIFY2(text.contains(u"3 forecasters"_s), qPrintable(text)); // two cost models and the demo student
        QVERIFY2(text.contains(u"20 lessons"_s), qPrintable(text));
        QVERIFY2(text.contains(u"2 GPU descriptions"_s), qPrintable(text));
        for (const QString &tag : {u"_"_s, u"["_s, u"(s)"_s, u"gpuf-bundle"_s})
            QVERIFY2(!text.contains(tag), qPrintable(tag + u" in: "_s + text));

        // The same file again says apart what was already stored.
        auto again = interop::importFiles(**store, {bundle});
        QVERIFY2(again.ok(), qPrintable(again.error()));
        static const QRegularExpression already(u"; already in the store: \\d+ problems, \\d+ kernels, "_s);
        QVERIFY2(already.match(again->text()).hasMatch(), qPrintable(again->text()));
        QVERIFY2(
            !QRegularExpression(u"added \\d+ problems"_s).match(again->text()).hasMatch(), qPrintable(again->text()));
    }

    void singularCounts()
    {
        const QString path = m_dir.filePath(u"one-gpu.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"type":"header","format":"gpuf-bundle","version":1}
{"type":"hardware","name":"NVIDIA L40S","compute_capability":"8.9","sm_count":142,"max_threads_per_sm":1536,"clock_ghz":2.52,"memory_clock_ghz":9.0,"bus_width_bits":384,"global_memory_gb":44.5}
)");
        file.close();
        auto store = Store::open(m_dir.filePath(u"one.gpuf"_s));
        QVERIFY2(store.ok(), qPrintable(store.error()));
        auto report = interop::importFiles(**store, {path});
        QVERIFY2(report.ok(), qPrintable(report.error()));
        QVERIFY2(report->text().startsWith(u"one-gpu.jsonl (gpuf bundle, "_s), qPrintable(report->text()));
        QVERIFY2(report->text().endsWith(u": added 1 GPU description"_s), qPrintable(report->text()));
    }
};

QTEST_GUILESS_MAIN(TestImportReport)
#include "tst_import_report.moc"
