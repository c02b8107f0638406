// Case files (issue 28): gpuf export STORE FILE --case KERNEL writes one pair of the shipped sample — the kernel, its
// problem's reference, the problem, their measurements (a quarantine with its note included), the pair's forecasts
// with reasoning, and only the hardware and forecasters these name — and gpuf import adds to a store what it lacks and
// nothing twice. The real executable on real stores.
#include "core/interop/case_file.h"
#include "core/store/forecast_repo.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "core/store/verdict_repo.h"
#include "tests/support/cli_run.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
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
    QString m_forecasterName; // of the first forecast
    RowId m_quarantined = 0;
    QString m_caseFile;

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
        auto forecaster = ForecasterRepo(**store).find(forecasts->first().forecasterId);
        QVERIFY(forecaster && forecaster->has_value());
        m_forecasterName = (*forecaster)->name;
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
        m_caseFile = caseFile;
        const auto exported = runGpufBytes({u"export"_s, m_sample, caseFile, u"--case"_s, QString::number(m_candidate),
            u"--forecaster"_s, m_forecasterName});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        QVERIFY(exported.out.contains("exported the case of kernel"));
        // The view the explorer opens it in: the pair and the forecaster named.
        auto view = interop::readCaseView(caseFile);
        QVERIFY2(view, qPrintable(view.error()));
        QCOMPARE(view->forecaster, m_forecasterName);
        QVERIFY(view->hardware.isEmpty());
        QVERIFY(!view->trustThreshold);
        QCOMPARE(view->candidate.problem, view->reference.problem);

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

    // A case file whose view is wrong is refused whole, naming the line: nothing of it is stored.
    void badCaseView_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        // A kernel of the right problem that neither the file nor the store holds.
        QTest::newRow("unknown kernel") << u"candidate.hash"_s << QJsonValue(QString(64, u'0')) << u"candidate"_s;
        QTest::newRow("tau out of range")
            << u"trust_threshold"_s << QJsonValue(2) << u"'trust_threshold': must lie between 0 and 1"_s;
        QTest::newRow("two problems") << u"candidate.problem"_s << QJsonValue(u"another"_s)
                                      << u"a case is one pair of one problem"_s;
    }
    void badCaseView()
    {
        QFETCH(QString, field);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        QVERIFY(!m_caseFile.isEmpty());
        QFile in(m_caseFile);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = in.readAll().trimmed().split('\n');
        QJsonObject view = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(view.value(u"type"_s).toString(), u"case_view"_s);
        const QStringList path = field.split(u'.');
        if (path.size() == 2) {
            QJsonObject inner = view.value(path[0]).toObject();
            inner.insert(path[1], value);
            view.insert(path[0], inner);
        } else {
            view.insert(field, value);
        }
        lines.last() = QJsonDocument(view).toJson(QJsonDocument::Compact);
        const QString bad = m_dir.filePath(u"bad-view.gpufcase"_s);
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(lines.join('\n') + '\n');
        out.close();
        const QString fresh = m_dir.filePath(
            u"bad-view-%1.gpuf"_s.arg(QString::fromLatin1(QTest::currentDataTag())).replace(u' ', u'-'));
        QVERIFY(runGpufBytes({u"init"_s, fresh}).exitCode == 0);
        const auto r = runGpufBytes({u"import"_s, fresh, bad});
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(message), r.err.constData());
        QVERIFY2(err.contains(u"bad-view.gpufcase:%1"_s.arg(lines.size())), r.err.constData());
        QCOMPARE(countsOf(fresh).kernels, 0); // nothing of it stored
    }

    // A whole bundle is no case file: the explorer would not know which pair to show.
    void bundleIsNoCaseFile()
    {
        auto view = interop::readCaseView(QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl"));
        QVERIFY(!view);
        QVERIFY2(view.error().contains(u"not a case file"_s), qPrintable(view.error()));
    }

    void badCase_data()
    {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown kernel") << u"999999"_s << QStringList() << u"--case 999999:"_s;
        QTest::newRow("a reference") << QString() << QStringList() << u"is its problem's reference"_s;
        QTest::newRow("unknown forecaster") << u"candidate"_s << QStringList {u"--forecaster"_s, u"nosuch"_s}
                                            << u"--forecaster nosuch: the store has no such forecaster"_s;
        QTest::newRow("unknown GPU") << u"candidate"_s << QStringList {u"--hardware"_s, u"nosuch"_s}
                                     << u"--hardware nosuch: the store has no such GPU"_s;
    }
    void badCase()
    {
        QFETCH(QString, kernel);
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        if (kernel == u"candidate"_s)
            kernel = QString::number(m_candidate);
        if (kernel.isEmpty()) {
            auto store = Store::open(m_sample, Store::Mode::ReadOnly);
            QVERIFY(store);
            auto problems = ProblemRepo(**store).list();
            QVERIFY(problems && !problems->isEmpty());
            kernel = QString::number(problems->first().referenceKernelId);
        }
        const QString file = m_dir.filePath(u"bad.gpufcase"_s);
        const auto r = runGpufBytes(QStringList {u"export"_s, m_sample, file, u"--case"_s, kernel} + extra);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(!QFile::exists(file)); // nothing half-written
    }
};

QTEST_GUILESS_MAIN(TestCliCase)
#include "tst_cli_case.moc"
