// `gpuf metrics` on the sample store (the built-in cost model's forecasts and the held-out predictions of the same
// operations): --same-pairs compares the forecasters on the same (reference, candidate, hardware) pairs, so each
// reports the same n; a forecaster scored on pairs of the operations its model was trained on is marked in-sample in
// the text and the JSON.
#include "gpuf_config.h"
#include "tests/support/cli_run.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

using Run = gpuf::test::CliRun;
using gpuf::test::runGpufBytes;

} // namespace

class TestCliSamePairs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_store;

private Q_SLOTS:
    void initTestCase()
    {
        m_store = m_dir.filePath(u"sample.gpuf"_s);
        const Run r = runGpufBytes(
            {u"import"_s, m_store, QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void samePairsGiveEqualN()
    {
        const Run all = runGpufBytes({u"metrics"_s, m_store, u"--json"_s});
        QVERIFY2(all.exitCode == 0, all.err.constData());
        const QJsonObject every = QJsonDocument::fromJson(all.out).object();
        const qint64 costmodelAll = every.value(u"costmodel"_s).toObject().value(u"n_total"_s).toInteger();
        const qint64 heldOutAll = every.value(u"costmodel-heldout"_s).toObject().value(u"n_total"_s).toInteger();
        QVERIFY(costmodelAll > 0 && heldOutAll > costmodelAll); // unequal on all their pairs

        const Run same = runGpufBytes({u"metrics"_s, m_store, u"--json"_s, u"--same-pairs"_s});
        QVERIFY2(same.exitCode == 0, same.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(same.out).object();
        const qint64 a = json.value(u"costmodel"_s).toObject().value(u"n_total"_s).toInteger();
        const qint64 b = json.value(u"costmodel-heldout"_s).toObject().value(u"n_total"_s).toInteger();
        QVERIFY(a > 0);
        QCOMPARE(a, b);
        QVERIFY(a <= costmodelAll);
    }

    void inSampleIsSaid()
    {
        const Run r = runGpufBytes({u"metrics"_s, m_store, u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        // The built-in model was trained on these very operations and GPUs; the held-out predictions never saw theirs.
        const QJsonObject builtIn = json.value(u"costmodel"_s).toObject();
        QCOMPARE(builtIn.value(u"in_sample"_s).toBool(), true);
        QCOMPARE(builtIn.value(u"n_in_sample"_s).toInteger(), builtIn.value(u"n_total"_s).toInteger());
        QCOMPARE(json.value(u"costmodel-heldout"_s).toObject().value(u"in_sample"_s).toBool(), false);

        const Run text = runGpufBytes({u"metrics"_s, m_store, u"--same-pairs"_s});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY2(text.out.contains("costmodel (in-sample)"), text.out.constData());
        QVERIFY2(text.out.contains("in-sample: "), text.out.constData());
        QVERIFY(!text.out.contains("costmodel-heldout (in-sample)"));
    }
};

QTEST_GUILESS_MAIN(TestCliSamePairs)
#include "tst_cli_same_pairs.moc"
