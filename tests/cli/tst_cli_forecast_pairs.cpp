// `gpuf forecast --pairs`: on a store of imported paper rows (an eval set's anchor/candidate pairs and discovery
// parent/child pairs, no problem references) the labelled pairs are forecast, each on its label's hardware, with the
// built-in cost model (offline); a selection that matches no pair fails with a message saying what would match.
#include "core/store/forecast_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/store.h"
#include "tests/support/cli_run.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <set>
#include <tuple>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

using Run = gpuf::test::CliRun;
using gpuf::test::runGpufBytes;

QJsonObject jsonOf(const Run &r) { return QJsonDocument::fromJson(r.out).object(); }

using Key = std::tuple<RowId, RowId, RowId>; // reference, candidate, hardware

} // namespace

class TestCliForecastPairs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_store;

    std::set<Key> labelledPairs()
    {
        auto store = Store::open(m_store, Store::Mode::ReadOnly);
        std::set<Key> out;
        if (!store)
            return out;
        const auto labels = PairLabelRepo(**store).list();
        for (const PairLabel &l : *labels)
            out.insert({l.referenceKernelId, l.candidateKernelId, l.hardwareId});
        return out;
    }

    std::set<Key> forecastPairs()
    {
        auto store = Store::open(m_store, Store::Mode::ReadOnly);
        std::set<Key> out;
        if (!store)
            return out;
        const auto forecasts = ForecastRepo(**store).list();
        for (const Forecast &f : *forecasts)
            out.insert({f.referenceKernelId, f.candidateKernelId, f.hardwareId});
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_store = m_dir.filePath(u"paper.gpuf"_s);
        const Run r = runGpufBytes({u"import"_s, m_store, QStringLiteral(GPUF_TEST_DATA_DIR "/interop/eval_set.jsonl"),
            QStringLiteral(GPUF_TEST_DATA_DIR "/interop/discovery_pairs.jsonl")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(labelledPairs().size() >= 4);
    }

    // The imported problems name no reference: "reference" finds nothing and says where the pairs are.
    void referencePairsOfPaperDataFailClearly()
    {
        const Run r = runGpufBytes(
            {u"forecast"_s, u"--json"_s, m_store, u"--forecaster"_s, u"costmodel"_s, u"--pairs"_s, u"reference"_s});
        QCOMPARE(r.exitCode, 1);
        const QString error = jsonOf(r).value(u"error"_s).toString();
        QVERIFY2(error.contains(u"no pair to forecast"_s), r.out.constData());
        QVERIFY2(error.contains(u"--pairs labelled"_s), r.out.constData());
        QVERIFY(forecastPairs().empty());
    }

    void unknownPairsChoiceIsAUsageError()
    {
        const Run r
            = runGpufBytes({u"forecast"_s, m_store, u"--forecaster"_s, u"costmodel"_s, u"--pairs"_s, u"some"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("reference, labelled or all"));
    }

    void unknownProblemFails()
    {
        const Run r
            = runGpufBytes({u"forecast"_s, m_store, u"--forecaster"_s, u"costmodel"_s, u"--problem"_s, u"nope"_s});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no problem named 'nope'"));
    }

    // Every labelled pair is forecast once, shown its label's hardware; "all" then finds them cached.
    void labelledPairsAreForecastOnTheirHardware()
    {
        const std::set<Key> labelled = labelledPairs();
        Run r = runGpufBytes(
            {u"forecast"_s, u"--json"_s, m_store, u"--forecaster"_s, u"costmodel"_s, u"--pairs"_s, u"labelled"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonOf(r).value(u"requested"_s).toInt(), int(labelled.size()));
        QCOMPARE(jsonOf(r).value(u"ok"_s).toInt(), int(labelled.size()));
        QCOMPARE(forecastPairs(), labelled);

        r = runGpufBytes({u"forecast"_s, u"--json"_s, m_store, u"--forecaster"_s, u"costmodel"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(jsonOf(r).value(u"requested"_s).toInt(), int(labelled.size()));
        QCOMPARE(jsonOf(r).value(u"cached"_s).toInt(), int(labelled.size()));
    }
};

QTEST_GUILESS_MAIN(TestCliForecastPairs)
#include "tst_cli_forecast_pairs.moc"
