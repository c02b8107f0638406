// Offscreen tests of how views follow writes through the session's typed changes: a stored measurement patches the
// candidate table's row (the speedup and bin a full reload would show, no reset, other rows untouched), changes that
// touch no row change nothing, an export changes nothing at all, and the calibration metrics reload only for changes
// of forecasts, measurements or imports.
#include "tests/support/session_open.h"
#include "tst_candidate_store.h"

#include "core/session/calibration_data.h"
#include "core/session/candidate_source.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_filter_bar.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/session/transfer_jobs.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;

class TestStoreChanges : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    testing::CandidateStoreFacts m_facts;

    struct Fixture
    {
        StoreSession session;
        Selection selection;
        CandidateSource source {&session};
        CandidateBrowser browser {&source, &selection};
    };

    std::unique_ptr<Fixture> open()
    {
        auto f = std::make_unique<Fixture>();
        f->browser.resize(1200, 600);
        f->browser.show();
        f->session.open(m_path);
        return f;
    }

    static bool settled(Fixture &f)
    {
        return f.source.table() && !f.source.isLoading() && !f.source.changedLinesPending() && !f.source.isPatching()
            && !f.browser.model()->isUpdating();
    }

    // The kernels the shown hardware has neither a measurement nor a label of.
    static QList<RowId> unknownOnShownHardware(const CandidateTableModel &model)
    {
        QList<RowId> ids;
        const CandidateTable &table = *model.table();
        for (int row = 0; row < table.rows.size(); ++row) {
            if (!table.rows[row].isReference && !table.measuredCell(row, model.view().hardware).isKnown())
                ids.append(table.rows[row].id);
        }
        return ids;
    }

    static QStringList rowTexts(const CandidateTableModel &model, RowId kernel)
    {
        QStringList texts;
        const int row = model.viewRowOf(kernel);
        for (int column = 0; column < CandidateColumnCount; ++column)
            texts.append(model.data(model.index(row, column)).toString());
        return texts;
    }

    void storeMeasurement(RowId kernel, RowId hardware, double ns)
    {
        auto store = Store::open(m_path, Store::Mode::ExistingOnly, Store::Check::Header);
        QVERIFY(store.ok());
        for (const char *caseName : {"small", "large"}) {
            Measurement m;
            m.kernelId = kernel;
            m.hardwareId = hardware;
            m.caseName = QString::fromLatin1(caseName);
            m.runtime = RuntimeStats {ns, ns, ns, 0.0, 0.001, 10};
            QVERIFY(MeasurementRepo(**store).insert(m).ok());
        }
    }

    // File → Import… with sweep files: what the box says, and what the store then holds.
    static void importAndRead(QWidget *parent, StoreSession &session, const QStringList &files, QString &text)
    {
        startImport(parent, &session, files);
        QMessageBox *box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((box = parent->findChild<QMessageBox *>()) != nullptr, 60000);
        text = box->text();
        delete box;
    }

private Q_SLOTS:
    // File → Import… takes recorded sweeps (resources/sweeps, or made with gpuf sweep) as gpuf sweep --import does:
    // the box lists each file's kernels and measurements, and the store's counts show them; a broken sweep is refused
    // with its line and leaves the store as it was.
    void importTakesSweepFiles()
    {
        const QString sweep = QStringLiteral(GPUF_SOURCE_DIR "/resources/sweeps/transpose-h100-2026-11-26.jsonl");
        if (!QFile::exists(sweep))
            QSKIP("the recorded transpose sweep is not in resources/sweeps");
        const QString path = m_dir.filePath(QStringLiteral("sweeps.gpuf"));
        QVERIFY(Store::open(path, Store::Mode::CreateIfMissing));
        StoreSession session;
        QWidget parent;
        QVERIFY(test::openSession(session, path));

        const QString broken = m_dir.filePath(QStringLiteral("broken-sweep.jsonl"));
        QFile in(sweep);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = in.readAll().split('\n');
        lines[3] = "{not json";
        QFile out(broken);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(lines.join('\n'));
        out.close();
        QString text;
        importAndRead(&parent, session, {broken}, text);
        QVERIFY2(
            text.contains(QStringLiteral("broken-sweep.jsonl: ")) && text.contains(QStringLiteral(":4: not a JSON")),
            qPrintable(text));
        QTRY_COMPARE(session.snapshot().statistics.totals.kernels, 0);

        importAndRead(&parent, session, {sweep}, text);
        QCOMPARE(text, QStringLiteral("transpose-h100-2026-11-26.jsonl: 216 kernels, 434 measurements"));
        QTRY_VERIFY(session.snapshot().statistics.totals.measurements >= 434);
        QVERIFY(session.snapshot().statistics.totals.kernels >= 216);
    }

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_path = m_dir.filePath(QStringLiteral("changes.gpuf"));
        m_facts = testing::makeCandidateStore(m_path);
    }

    void aStoredMeasurementPatchesItsRow()
    {
        auto f = open();
        CandidateTableModel *model = f->browser.model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY(settled(*f));
        const QList<RowId> unknown = unknownOnShownHardware(*model);
        QVERIFY(unknown.size() >= 2);
        const RowId measured = unknown.first();
        const RowId untouched = unknown.last();
        const QStringList untouchedBefore = rowTexts(*model, untouched);
        QCOMPARE(model->data(model->index(model->viewRowOf(measured), SpeedupColumn)).toString(), QString());

        QSignalSpy resets(model, &CandidateTableModel::modelReset);
        QSignalSpy loads(&f->source, &CandidateSource::loadingStarted);
        QSignalSpy patched(&f->source, &CandidateSource::rowsPatched);
        QSignalSpy changedRows(model, &CandidateTableModel::dataChanged);
        const CandidateTable &before = *model->table();
        const qint64 measurementsBefore = before.hardware[model->view().hardware].measurements;
        storeMeasurement(measured, before.hardware[model->view().hardware].id, 40.0);
        f->session.announceMeasurements({}, {measured});
        QTRY_COMPARE(patched.count(), 1);
        QTRY_VERIFY(settled(*f));

        const int row = model->viewRowOf(measured);
        const QString speedup = model->data(model->index(row, SpeedupColumn)).toString();
        const QString bin = model->data(model->index(row, MeasuredBinColumn)).toString();
        QVERIFY2(speedup.endsWith(u'×'), qPrintable(speedup));
        QVERIFY(!bin.isEmpty());
        QCOMPARE(resets.count(), 0);
        QCOMPARE(loads.count(), 0);
        for (const QList<QVariant> &signal : std::as_const(changedRows)) {
            const auto from = signal.at(0).value<QModelIndex>();
            const auto to = signal.at(1).value<QModelIndex>();
            QCOMPARE(from.row(), row); // only the measured row changed
            QCOMPARE(to.row(), row);
        }
        QCOMPARE(rowTexts(*model, untouched), untouchedBefore);
        // The hardware choice counts the new measurement, as a reload would.
        const CandidateHardware &shown = model->table()->hardware[model->view().hardware];
        QCOMPARE(shown.measurements, measurementsBefore + 2); // its two cases
        QCOMPARE(f->browser.filterBar()->hardwareBox()->currentText(),
            QStringLiteral("%1 (%2 measured)").arg(shown.name).arg(shown.measurements));

        // What a full load of the same store shows for the row: the patch and the reload agree.
        CandidateSource fresh(nullptr);
        fresh.load(m_path);
        QTRY_VERIFY(fresh.table() && !fresh.isLoading());
        CandidateTableModel reloaded;
        reloaded.setTable(fresh.table());
        reloaded.setHardwareIndex(model->view().hardware);
        QTRY_VERIFY(!reloaded.isUpdating());
        const int freshRow = reloaded.viewRowOf(measured);
        QCOMPARE(reloaded.data(reloaded.index(freshRow, SpeedupColumn)).toString(), speedup);
        QCOMPARE(reloaded.data(reloaded.index(freshRow, MeasuredBinColumn)).toString(), bin);
    }

    void aChangeOfNoRowDoesNothing()
    {
        auto f = open();
        CandidateTableModel *model = f->browser.model();
        QTRY_VERIFY(settled(*f));
        QSignalSpy loads(&f->source, &CandidateSource::loadingStarted);
        QSignalSpy patched(&f->source, &CandidateSource::rowsPatched);
        QSignalSpy changedRows(model, &CandidateTableModel::dataChanged);
        f->session.announce(StoreChange::of(StoreChange::Kind::Searches, {m_facts.search}));
        QSignalSpy flushed(&f->session, &StoreSession::snapshotChanged);
        QVERIFY(flushed.wait()); // the change went round: the session read the counts again
        QCOMPARE(loads.count(), 0);
        QCOMPARE(patched.count(), 0);
        QCOMPARE(changedRows.count(), 0);
    }

    void anExportChangesNothing()
    {
        auto f = open();
        QTRY_VERIFY(settled(*f));
        QSignalSpy changes(&f->session, &StoreSession::changed);
        QSignalSpy opened(&f->session, &StoreSession::opened);
        QSignalSpy loads(&f->source, &CandidateSource::loadingStarted);
        QSignalSpy busy(&f->session, &StoreSession::busyChanged);
        const QString bundle = m_dir.filePath(QStringLiteral("export.jsonl"));
        startExport(&f->browser, &f->session, bundle);
        QTRY_VERIFY(!f->session.isBusy() && QFile::exists(bundle));
        QCoreApplication::processEvents();
        QCOMPARE(changes.count(), 0);
        QCOMPARE(opened.count(), 0);
        QCOMPARE(loads.count(), 0);
    }

    void calibrationReloadsOnlyForItsData()
    {
        StoreSession session;
        CalibrationData data(&session);
        QSignalSpy loading(&data, &CalibrationData::loadingChanged);
        session.open(m_path);
        QTRY_VERIFY(!data.isLoading() && loading.count() >= 2);
        loading.clear();
        QSignalSpy counts(&session, &StoreSession::snapshotChanged);
        session.announce(StoreChange::of(StoreChange::Kind::Kernels, {m_facts.kernels.first()}));
        QVERIFY(counts.wait());
        QCOMPARE(loading.count(), 0); // an added kernel has no forecast or measurement yet
        session.announce(StoreChange::of(StoreChange::Kind::Lessons, {1}));
        QVERIFY(counts.wait());
        QCOMPARE(loading.count(), 0); // a lesson is no forecast or measurement either
        session.announce(StoreChange::of(StoreChange::Kind::Forecasts, {m_facts.kernels.first()}));
        QTRY_VERIFY(loading.count() >= 2 && !data.isLoading());
        QVERIFY(!data.snapshot()->isEmpty());
    }
};

QTEST_MAIN(TestStoreChanges)
#include "tst_store_changes.moc"
