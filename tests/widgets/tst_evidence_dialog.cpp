// Offscreen tests of the Evidence dialog (issue 28): the figures it shows equal the stored ones, a fact the store
// lacks reads "not recorded", the fired rule is named, and quarantining a measurement from the dialog — note
// required — takes its pair out of the metrics table (and releasing puts it back).
#include "../metrics/evidence_fixture.h"
#include "core/bins/bins.h"
#include "core/session/calibration_data.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/verdict_repo.h"
#include "tests/support/session_open.h"
#include "widgets/calibration/metrics_table.h"
#include "widgets/calibration/metrics_table_model.h"
#include "widgets/evidence/evidence_actions.h"
#include "widgets/evidence/evidence_dialog.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace gpuf;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;

namespace {

QTreeWidgetItem *measurementItem(QTreeWidget *tree, RowId id)
{
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem *gpu = tree->topLevelItem(g);
        for (int i = 0; i < gpu->childCount(); ++i) {
            if (gpu->child(i)->data(0, Qt::UserRole).toLongLong() == id)
                return gpu->child(i);
        }
    }
    return nullptr;
}

// The value shown for fact `key` of the measurement `id`.
QString shownFact(QTreeWidget *tree, RowId id, const QString &key)
{
    QTreeWidgetItem *item = measurementItem(tree, id);
    if (!item)
        return u"<no measurement %1>"_s.arg(id);
    for (int i = 0; i < item->childCount(); ++i) {
        if (item->child(i)->data(1, Qt::UserRole).toString() == key)
            return item->child(i)->text(1);
    }
    return u"<no fact %1>"_s.arg(key);
}

// The forecaster's scored pairs in the table, over all its pairs or over those every forecaster forecast.
qint64 pairsOf(MetricsTableModel *model, const QString &forecaster, bool samePairs = false)
{
    model->setComparison(samePairs ? metrics::Comparison::SamePairs : metrics::Comparison::AllPairs);
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, MetricsTableModel::ForecasterColumn).data().toString() == forecaster)
            return model->index(row, MetricsTableModel::PairsColumn).data(MetricsTableModel::SortRole).toLongLong();
    }
    return -1;
}

} // namespace

class TestEvidenceDialog : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_evidencePath;
    QString m_metricsPath;
    EvidenceStore m_e;
    MetricsStore m_m;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_evidencePath = m_dir.filePath(u"evidence.gpuf"_s);
        m_metricsPath = m_dir.filePath(u"metrics.gpuf"_s);
        {
            auto store = Store::open(m_evidencePath, Store::Mode::Create);
            QVERIFY(store);
            m_e = buildEvidenceStore(**store);
        }
        auto store = Store::open(m_metricsPath, Store::Mode::Create);
        QVERIFY(store);
        m_m = buildMetricsStore(**store);
    }

    void figuresEqualStored()
    {
        StoreSession session;
        QVERIFY(test::openSession(session, m_evidencePath));
        EvidenceDialog dialog(&session);
        QSignalSpy loaded(&dialog, &EvidenceDialog::loaded);
        dialog.showCandidate(m_e.k);
        QTRY_COMPARE(loaded.count(), 1);
        QVERIFY(dialog.speedupLabel()->text().startsWith(u"Test GPU: "_s + bins::speedupText(1.6)));
        QVERIFY(dialog.speedupLabel()->text().contains(u"95 % interval ["_s));

        auto store = Store::open(m_evidencePath, Store::Mode::ReadOnly);
        QVERIFY(store);
        auto runs = MeasurementRepo(**store).list();
        QVERIFY(runs);
        int shown = 0;
        for (const Measurement &m : std::as_const(*runs)) {
            if (m.kernelId != m_e.k && m.kernelId != m_e.reference)
                continue;
            ++shown;
            QCOMPARE(shownFact(dialog.tree(), m.id, u"median"_s),
                QString::number(m.runtime->medianNs / 1e3, 'g', 6) + u" µs"_s);
            QCOMPARE(shownFact(dialog.tree(), m.id, u"rse"_s),
                QString::number(m.runtime->relStdErr * 100.0, 'f', 3) + u" %"_s);
            QCOMPARE(shownFact(dialog.tree(), m.id, u"samples"_s), QString::number(m.runtime->samples));
            QCOMPARE(shownFact(dialog.tree(), m.id, u"timing_method"_s), m.timingMethod);
        }
        QCOMPARE(shown, 4);
        QCOMPARE(shownFact(dialog.tree(), m_e.kLarge, u"verdict"_s), u"suspicious: rse-over-bound"_s);
        QCOMPARE(measurementItem(dialog.tree(), m_e.kLarge)->text(1), u"suspicious: rse-over-bound"_s);

        dialog.showCandidate(m_e.q);
        QTRY_COMPARE(loaded.count(), 2);
        QCOMPARE(shownFact(dialog.tree(), m_e.qSmall, u"timing_method"_s), u"not recorded"_s);
        QCOMPARE(shownFact(dialog.tree(), m_e.qSmall, u"clocks_before"_s), u"not recorded"_s);
        QVERIFY(dialog.speedupLabel()->text().contains(u"95 % interval: not recorded"_s));
    }

    void actionOpensTheDialogOnTheFocusedCandidate()
    {
        StoreSession session;
        QVERIFY(test::openSession(session, m_evidencePath));
        Selection selection;
        QWidget window;
        EvidenceActions actions(&session, &selection, &window);
        QVERIFY(!actions.showEvidenceAction()->isEnabled());
        QCOMPARE(actions.showEvidenceAction()->toolTip(), u"Choose a kernel first"_s);
        selection.setPair(m_e.s, m_e.reference);
        QVERIFY(actions.showEvidenceAction()->isEnabled());
        actions.showEvidenceAction()->trigger();
        QVERIFY(actions.dialog());
        QTRY_VERIFY(measurementItem(actions.dialog()->tree(), m_e.sSmall));
        QCOMPARE(
            measurementItem(actions.dialog()->tree(), m_e.sSmall)->text(1), u"suspicious: interval-straddles-edge"_s);
        QVERIFY(actions.dialog()->speedupLabel()->text().contains(u"straddles the bin edge 1.414×"_s));
    }

    void quarantinedPairLeavesMetricsTable()
    {
        StoreSession session;
        Selection selection;
        CalibrationData data(&session);
        MetricsTable table(&data, &selection);
        table.show();
        QVERIFY(test::openSession(session, m_metricsPath));
        QTRY_VERIFY(data.snapshot()->generation > 0 && !data.isLoading());
        const qint64 before = pairsOf(table.model(), u"alpha"_s);
        const qint64 beforeSame = pairsOf(table.model(), u"alpha"_s, true);
        QCOMPARE(before, 7);
        QCOMPARE(beforeSame, 3);

        EvidenceDialog dialog(&session);
        QSignalSpy loaded(&dialog, &EvidenceDialog::loaded);
        dialog.showCandidate(m_m.a);
        QTRY_COMPARE(loaded.count(), 1);
        auto store = Store::open(m_metricsPath, Store::Mode::ReadOnly);
        QVERIFY(store);
        auto runs = MeasurementRepo(**store).forKernel(m_m.a, m_m.h1);
        QVERIFY(runs);
        RowId newestSmall = 0;
        for (const Measurement &m : std::as_const(*runs))
            newestSmall = m.caseName == u"small"_s ? m.id : newestSmall;
        dialog.tree()->setCurrentItem(measurementItem(dialog.tree(), newestSmall));
        QVERIFY(!dialog.quarantineButton()->isEnabled()); // a note first
        QCOMPARE(dialog.quarantineButton()->toolTip(), u"Write a note saying why first"_s);
        QTest::keyClicks(dialog.noteEdit(), u"ran beside another job"_s);
        QVERIFY(dialog.quarantineButton()->isEnabled());
        const quint64 generation = data.snapshot()->generation;
        QTest::mouseClick(dialog.quarantineButton(), Qt::LeftButton);
        QTRY_COMPARE(loaded.count(), 2);
        QCOMPARE(measurementItem(dialog.tree(), newestSmall)->text(1), u"quarantined: ran beside another job"_s);
        QVERIFY(dialog.releaseButton()->isEnabled());
        // The metrics follow the announced change: alpha's pair with A is no longer scored.
        QTRY_VERIFY(data.snapshot()->generation > generation && !data.isLoading());
        QCOMPARE(pairsOf(table.model(), u"alpha"_s), before - 1);
        QCOMPARE(pairsOf(table.model(), u"alpha"_s, true), beforeSame - 1);

        const quint64 quarantined = data.snapshot()->generation;
        QTest::mouseClick(dialog.releaseButton(), Qt::LeftButton);
        QTRY_COMPARE(loaded.count(), 3);
        QTRY_VERIFY(data.snapshot()->generation > quarantined && !data.isLoading());
        QCOMPARE(pairsOf(table.model(), u"alpha"_s), before);
        QCOMPARE(pairsOf(table.model(), u"alpha"_s, true), beforeSame);
    }
};

QTEST_MAIN(TestEvidenceDialog)
#include "tst_evidence_dialog.moc"
