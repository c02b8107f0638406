// Case files (issue 28): gpuf export STORE FILE --case KERNEL writes one pair of the shipped sample — the kernel, its
// problem's reference, the problem, their measurements (a quarantine with its note included), the pair's forecasts
// with reasoning, and only the hardware and forecasters these name — and gpuf import adds to a store what it lacks and
// nothing twice. The real executable on real stores.
#include "core/store/forecast_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "core/store/verdict_repo.h"
#include "tests/support/cli_run.h"

#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

using gpuf::test::runGpufBytes;

StoreCounts countsOf(const QString &path)
{
    auto store = Store::open(path, Store::Mode::ReadOnly);
    if (!store)
        return {};
    auto counts = (*store)->counts();
    return counts ? *counts : StoreCounts {};
}

} // namespace

class TestCliCase : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_sample;
    RowId m_candidate = 0;
    qint64 m_measurements = 0; // of both kernels
    qint64 m_forecasts = 0; // of the pair
    QSet<RowId> m_hardware;
    QSet<RowId> m_forecasters;
    RowId m_quarantined = 0;

private Q_SLOTS:
    void initTestCase()
    {
        m_sample = m_dir.filePath(u"sample.gpuf"_s);
        const auto imported = runGpufBytes(
            {u"import"_s, m_sample, QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl")});
        QVERIFY2(imported.exitCode == 0, imported.err.constData());
        auto store = Store::open(m_sample);
        QVERIFY(store);
        // The candidate of the store's first forecast, and what its case must hold, counted here.
        auto forecasts = ForecastRepo(**store).list();
        QVERIFY(forecasts && !forecasts->isEmpty());
        m_candidate = forecasts->first().candidateKernelId;
        const RowId reference = forecasts->first().referenceKernelId;
        for (const Forecast &f : std::as_const(*forecasts)) {
            if (f.candidateKernelId == m_candidate && f.referenceKernelId == reference) {
                ++m_forecasts;
                m_forecasters.insert(f.forecasterId);
                if (f.hardwareId > 0)
                    m_hardware.insert(f.hardwareId);
            }
        }
        for (RowId kernel : {m_candidate, reference}) {
            auto runs = MeasurementRepo(**store).forKernel(kernel);
            QVERIFY(runs);
            m_measurements += runs->size();
            for (const Measurement &m : std::as_const(*runs))
                m_hardware.insert(m.hardwareId);
        }
        auto runs = MeasurementRepo(**store).forKernel(m_candidate);
        QVERIFY(runs && !runs->isEmpty());
        m_quarantined = runs->first().id;
        QVERIFY(VerdictRepo(**store).quarantine(m_quarantined, u"timed around the wrong stream"_s));
        QVERIFY(m_forecasts > 0 && m_measurements > 0);
    }

    void exportedPairImportsOnce()
    {
        const QString caseFile = m_dir.filePath(u"pair.gpufcase"_s);
        const auto exported
            = runGpufBytes({u"export"_s, m_sample, caseFile, u"--case"_s, QString::number(m_candidate)});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        QVERIFY(exported.out.contains("exported the case of kernel"));

        // Into an empty store: the pair and nothing else.
        const QString fresh = m_dir.filePath(u"fresh.gpuf"_s);
        auto first = runGpufBytes({u"import"_s, fresh, caseFile});
        QVERIFY2(first.exitCode == 0, first.err.constData());
        const StoreCounts counts = countsOf(fresh);
        QCOMPARE(counts.problems, 1);
        QCOMPARE(counts.kernels, 2);
        QCOMPARE(counts.measurements, m_measurements);
        QCOMPARE(counts.forecasts, m_forecasts);
        QCOMPARE(counts.forecasters, qint64(m_forecasters.size()));
        QCOMPARE(counts.hardware, qint64(m_hardware.size()));
        QCOMPARE(counts.searches, 0);
        // The quarantine and its note came with the measurement.
        {
            auto store = Store::open(fresh, Store::Mode::ReadOnly);
            QVERIFY(store);
            auto verdicts = VerdictRepo(**store).all();
            QVERIFY(verdicts);
            QCOMPARE(verdicts->size(), 1);
            QCOMPARE(verdicts->begin()->note, u"timed around the wrong stream"_s);
        }
        // Imported again, and into the store it came from: nothing twice.
        QCOMPARE(runGpufBytes({u"import"_s, fresh, caseFile}).exitCode, 0);
        QCOMPARE(countsOf(fresh).measurements, m_measurements);
        QCOMPARE(countsOf(fresh).forecasts, m_forecasts);
        const StoreCounts before = countsOf(m_sample);
        QCOMPARE(runGpufBytes({u"import"_s, m_sample, caseFile}).exitCode, 0);
        const StoreCounts after = countsOf(m_sample);
        QCOMPARE(after.kernels, before.kernels);
        QCOMPARE(after.measurements, before.measurements);
        QCOMPARE(after.forecasts, before.forecasts);
    }

    void badCase_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown kernel") << u"999999"_s << u"--case 999999:"_s;
        QTest::newRow("a reference") << QString() << u"is its problem's reference"_s;
    }
    void badCase()
    {
        QFETCH(QString, kernel);
        QFETCH(QString, message);
        if (kernel.isEmpty()) {
            auto store = Store::open(m_sample, Store::Mode::ReadOnly);
            QVERIFY(store);
            auto problems = ProblemRepo(**store).list();
            QVERIFY(problems && !problems->isEmpty());
            kernel = QString::number(problems->first().referenceKernelId);
        }
        const QString file = m_dir.filePath(u"bad.gpufcase"_s);
        const auto r = runGpufBytes({u"export"_s, m_sample, file, u"--case"_s, kernel});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(!QFile::exists(file)); // nothing half-written
    }
};

QTEST_GUILESS_MAIN(TestCliCase)
#include "tst_cli_case.moc"
