// Tests for the corpus import: every operation and variant becomes a problem and kernels with lineage, notes and
// complete specs; the committed measurement results become measurements on their GPU; bad result lines name their
// line and leave the store as it was.
#include "core/interop/corpus.h"
#include "core/store/hardware_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "gpuf_config.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;

namespace {
const QString kCorpus = QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus");

QString resultsFile()
{
    const QStringList files = QDir(QStringLiteral(GPUF_SOURCE_DIR "/resources/measurements"))
                                  .entryList({QStringLiteral("corpus-*.jsonl")}, QDir::Files, QDir::Name);
    return files.isEmpty() ? QString() : QStringLiteral(GPUF_SOURCE_DIR "/resources/measurements/") + files.first();
}
} // namespace

class TestCorpusImport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_count = 0;

    std::unique_ptr<Store> freshStore()
    {
        auto store = Store::open(m_dir.filePath(QStringLiteral("s%1.gpuf").arg(++m_count)));
        return store ? std::move(*store) : nullptr;
    }

private Q_SLOTS:
    void importsProblemsKernelsAndLineage()
    {
        auto store = freshStore();
        QVERIFY(store);
        auto report = interop::importCorpus(*store, kCorpus);
        QVERIFY2(report.ok(), qPrintable(report.error()));
        QVERIFY(report->problems >= 6);
        QVERIFY(report->kernels >= 36);
        auto problem = ProblemRepo(*store).findByName(QStringLiteral("sgemm"));
        QVERIFY(problem.ok() && problem->has_value());
        auto kernels = KernelRepo(*store).list((*problem)->id);
        QVERIFY(kernels.ok());
        const Kernel *reference = nullptr;
        int withParent = 0;
        for (const Kernel &k : *kernels) {
            if (k.id == (*problem)->referenceKernelId)
                reference = &k;
            withParent += k.parentId > 0 ? 1 : 0;
            QVERIFY(!k.notes.isEmpty());
            QCOMPARE(k.origin, QStringLiteral("corpus"));
            QVERIFY(k.parameters.value(QStringLiteral("spec")).toObject().contains(QStringLiteral("launches")));
        }
        QVERIFY(reference);
        QCOMPARE(reference->parentId, RowId(0));
        QCOMPARE(withParent, kernels->size() - 1); // a tree rooted at the reference
        // Importing again adds nothing new.
        auto again = interop::importCorpus(*store, kCorpus);
        QVERIFY(again.ok());
        QCOMPARE(store->counts()->kernels, qint64(report->kernels));
    }

    void keepsCompileOptionsInTheSpec()
    {
        // A variant whose whole difference is a compile option must carry it, or it would be measured and
        // forecast as its parent.
        const QString dir = kCorpus + QStringLiteral("/gelu_bias");
        QFile variants(dir + QStringLiteral("/variants.json"));
        if (!variants.exists())
            QSKIP("the corpus has no gelu_bias operation");
        auto spec = interop::corpusVariantSpec(dir, QStringLiteral("v11_fast_math"));
        QVERIFY2(spec.ok(), qPrintable(spec.error()));
        QCOMPARE(spec->value(QStringLiteral("options")).toArray(), QJsonArray({QStringLiteral("--use_fast_math")}));
        auto plain = interop::corpusVariantSpec(dir, QStringLiteral("v0_naive"));
        QVERIFY(plain.ok());
        QVERIFY(!plain->contains(QStringLiteral("options")));
    }

    void importsMeasurementResults()
    {
        const QString results = resultsFile();
        if (results.isEmpty())
            QSKIP("no measurement results in resources/measurements");
        auto store = freshStore();
        QVERIFY(store);
        auto report = interop::importCorpus(*store, kCorpus, results);
        QVERIFY2(report.ok(), qPrintable(report.error()));
        QVERIFY(report->measurements > 0);
        auto hardware = HardwareRepo(*store).list();
        QVERIFY(hardware.ok());
        QCOMPARE(hardware->size(), 1);
        QVERIFY(hardware->first().name.startsWith(QStringLiteral("NVIDIA")));
        QVERIFY(hardware->first().smCount > 0);
        auto measurements = MeasurementRepo(*store).list();
        QVERIFY(measurements.ok());
        QCOMPARE(measurements->size(), report->measurements);
        for (const Measurement &m : *measurements) {
            QVERIFY(!m.caseName.isEmpty());
            QCOMPARE(m.source, MeasurementSource::Local);
            QVERIFY(!m.provenance.value(QStringLiteral("uuid")).toString().isEmpty());
            if (m.status == MeasurementStatus::Ok) {
                QVERIFY(m.runtime->medianNs > 0);
                QVERIFY(m.runtime->samples >= 10);
                QVERIFY(!m.timingMethod.isEmpty());
            }
        }
    }

    void badResultLineChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{oops") << QStringLiteral("bad.jsonl:2: not a JSON object");
        QTest::newRow("unknown variant") << QByteArray(
            R"({"operation":"sgemm","variant":"v99","case":"x","status":"ok","device":{"name":"G"}})")
                                         << QStringLiteral(
                                                "bad.jsonl:2: field 'variant': 'v99' is not a variant of 'sgemm'");
        QTest::newRow("unknown operation")
            << QByteArray(R"({"operation":"fft","variant":"v0","case":"x","status":"ok","device":{"name":"G"}})")
            << QStringLiteral("bad.jsonl:2: field 'operation': no problem named 'fft'");
        QTest::newRow("ok without timing")
            << QByteArray(
                   R"({"operation":"sgemm","variant":"v0_naive","case":"x","status":"ok","device":{"name":"G"}})")
            << QStringLiteral("bad.jsonl:2: a measurement with status ok needs runtime statistics");
    }
    void badResultLineChangesNothing()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, expected);
        const QString results = resultsFile();
        if (results.isEmpty())
            QSKIP("no measurement results in resources/measurements");
        QFile source(results);
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QString bad = m_dir.filePath(QStringLiteral("bad.jsonl"));
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(source.readLine()); // one good line first
        out.write(line + '\n');
        out.close();
        auto store = freshStore();
        QVERIFY(store);
        auto report = interop::importCorpus(*store, kCorpus, bad);
        QVERIFY(!report.ok());
        QVERIFY2(report.error().contains(expected), qPrintable(report.error()));
        QCOMPARE(store->counts()->kernels, 0);
        QCOMPARE(store->counts()->measurements, 0);
    }
};

QTEST_GUILESS_MAIN(TestCorpusImport)
#include "tst_corpus_import.moc"
