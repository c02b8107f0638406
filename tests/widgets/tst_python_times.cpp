// A Python kernel's two figures where the user looks for them (issue 29, item 3): the candidate table's "Device · call
// time" column (the speedup's figure in brackets, launch-bound marked, a tooltip saying which figure the speedup
// uses), the table's CSV export, and the Evidence dialog's facts (each figure with its method). A CUDA kernel, with
// one figure, shows none of them.
#include "../metrics/evidence_fixture.h"
#include "core/session/store_session.h"
#include "core/store/candidate_rows.h"
#include "tests/support/session_open.h"
#include "widgets/candidates/candidate_csv.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/evidence/evidence_dialog.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace gpuf;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;

namespace {

struct Figures
{
    double deviceUs = 0.0;
    double callUs = 0.0;
    bool launchBound = false;
};

// A Python case timed both ways, its speedup by call time (the runtime is the call time, as the mapping stores it).
RowId insertPythonRun(Store &store, RowId kernel, RowId gpu, const QString &caseName, const Figures &f)
{
    Measurement m;
    m.kernelId = kernel;
    m.hardwareId = gpu;
    m.caseName = caseName;
    m.runtime = RuntimeStats {f.callUs * 1e3, f.callUs * 1e3 + 50.0, f.callUs * 1e3 - 100.0, 80.0, 0.001, 900};
    m.timingMethod = u"do_bench_loop"_s;
    m.counters = {{u"timings"_s,
        QJsonObject {{u"speedup_time"_s, u"call"_s},
            {u"device"_s,
                QJsonObject {{u"method"_s, u"cupti_kernel_sum"_s}, {u"median_us"_s, f.deviceUs},
                    {u"mean_us"_s, f.deviceUs + 0.25}}},
            {u"call"_s,
                QJsonObject {
                    {u"method"_s, u"do_bench_loop"_s}, {u"median_us"_s, f.callUs}, {u"mean_us"_s, f.callUs + 0.05}}},
            {u"launch_bound"_s, f.launchBound}, {u"host_overhead_us"_s, f.callUs - f.deviceUs},
            {u"launch_bound_margin"_s, 0.1}}}};
    auto id = MeasurementRepo(store).insert(m);
    if (!id)
        qFatal("measurement: %s", qPrintable(id.error()));
    return *id;
}

QString shownFact(QTreeWidget *tree, RowId id, const QString &key)
{
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem *gpu = tree->topLevelItem(g);
        for (int i = 0; i < gpu->childCount(); ++i) {
            QTreeWidgetItem *item = gpu->child(i);
            if (item->data(0, Qt::UserRole).toLongLong() != id)
                continue;
            for (int f = 0; f < item->childCount(); ++f) {
                if (item->child(f)->data(1, Qt::UserRole).toString() == key)
                    return item->child(f)->text(1);
            }
            return u"<no fact %1>"_s.arg(key);
        }
    }
    return u"<no measurement %1>"_s.arg(id);
}

} // namespace

class TestPythonTimes : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    EvidenceStore m_e;
    RowId m_small = 0; // the Python kernel's measurements
    RowId m_large = 0;

    // The candidate table of the store, showing the test GPU.
    void showTable(CandidateTableModel &model)
    {
        auto store = Store::open(m_path, Store::Mode::ReadOnly);
        QVERIFY(store);
        auto table = loadCandidateTable(**store);
        QVERIFY2(table, qPrintable(table.error()));
        auto shared = std::make_shared<const CandidateTable>(std::move(*table));
        QSignalSpy applied(&model, &CandidateTableModel::orderApplied);
        model.setTable(shared);
        QVERIFY(applied.wait(5000));
        for (int i = 0; i < shared->hardware.size(); ++i) {
            if (shared->hardware[i].id == m_e.gpu)
                model.setHardwareIndex(i);
        }
        QTRY_VERIFY(!model.isUpdating());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(u"python-times.gpuf"_s);
        auto store = Store::open(m_path, Store::Mode::Create);
        QVERIFY(store);
        m_e = buildEvidenceStore(**store);
        // Kernel s, measured again by the Python harness: both cases newer than its CUDA run.
        m_small = insertPythonRun(**store, m_e.s, m_e.gpu, u"n=1M"_s, {11.0, 14.7, false});
        m_large = insertPythonRun(**store, m_e.s, m_e.gpu, u"n=4M"_s, {40.0, 90.0, true});
    }

    void candidateTableShowsBothFigures()
    {
        CandidateTableModel model;
        showTable(model);
        QCOMPARE(model.headerData(TimesColumn, Qt::Horizontal).toString(), u"Device · call time"_s);
        QVERIFY(model.headerData(TimesColumn, Qt::Horizontal, Qt::ToolTipRole).toString().contains(u"in brackets"_s));
        const QModelIndex python = model.index(model.viewRowOf(m_e.s), TimesColumn);
        // Geometric means over the two cases: √(11 × 40) = 20.98 µs, √(14.7 × 90) = 36.37 µs; the speedup's is call.
        QCOMPARE(python.data().toString(), u"device 21.0 µs · [call 36.4 µs] · launch-bound"_s);
        const QString tip = python.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(u"over 2 case(s): device time 21.0 µs"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"The speedup uses the call time"_s), qPrintable(tip));
        QVERIFY2(tip.contains(u"Launch-bound in 1 case(s)"_s), qPrintable(tip));
        // A CUDA kernel has one figure: the cell stays empty and says why.
        const QModelIndex cuda = model.index(model.viewRowOf(m_e.k), TimesColumn);
        QCOMPARE(cuda.data().toString(), QString());
        QVERIFY(cuda.data(Qt::ToolTipRole).toString().startsWith(u"No device and call time recorded"_s));
        // Sorted by the speedup's figure, the rows without the two figures last.
        QSignalSpy applied(&model, &CandidateTableModel::orderApplied);
        model.sort(TimesColumn, Qt::AscendingOrder);
        QVERIFY(applied.wait(5000));
        QCOMPARE(model.kernelIdAt(0), m_e.s);
    }

    void csvExportHoldsBothFigures()
    {
        CandidateTableModel model;
        showTable(model);
        const QString path = m_dir.filePath(u"candidates.csv"_s);
        QVERIFY(writeCandidateTableCsv(model, path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), model.rowCount() + 1);
        QVERIFY2(lines.first().endsWith(u",Plausibility,Device · call time"_s), qPrintable(lines.first()));
        const QString &row = lines.at(model.viewRowOf(m_e.s) + 1);
        QVERIFY2(row.endsWith(u",device 21.0 µs · [call 36.4 µs] · launch-bound"_s), qPrintable(row));
        QVERIFY2(
            lines.at(model.viewRowOf(m_e.k) + 1).endsWith(u","_s), qPrintable(lines.at(model.viewRowOf(m_e.k) + 1)));
        // A file that cannot be written is refused with the reason.
        const Status refused = writeCandidateTableCsv(model, m_dir.filePath(u"no/such/folder/x.csv"_s));
        QVERIFY(!refused);
        QVERIFY(refused.error().startsWith(u"Could not write"_s));
    }

    void evidenceShowsBothFigures()
    {
        StoreSession session;
        QVERIFY(test::openSession(session, m_path));
        EvidenceDialog dialog(&session);
        QSignalSpy loaded(&dialog, &EvidenceDialog::loaded);
        dialog.showCandidate(m_e.s);
        QTRY_COMPARE(loaded.count(), 1);
        QCOMPARE(
            shownFact(dialog.tree(), m_small, u"device_time"_s), u"11 µs median, 11.25 µs mean (cupti_kernel_sum)"_s);
        QCOMPARE(shownFact(dialog.tree(), m_small, u"call_time"_s),
            u"14.7 µs median, 14.75 µs mean (do_bench_loop) · the speedup's figure"_s);
        QCOMPARE(shownFact(dialog.tree(), m_small, u"launch_bound"_s), u"no (call − device: 3.7 µs)"_s);
        QCOMPARE(shownFact(dialog.tree(), m_large, u"launch_bound"_s),
            u"yes: the call takes 50 µs more than the device time (host launch work)"_s);
        QCOMPARE(shownFact(dialog.tree(), m_small, u"median"_s), u"14.7 µs"_s);
        // The baseline's CUDA measurement has one figure: no such facts.
        QCOMPARE(shownFact(dialog.tree(), m_e.refSmall, u"device_time"_s), u"<no fact device_time>"_s);
    }
};

QTEST_MAIN(TestPythonTimes)
#include "tst_python_times.moc"
