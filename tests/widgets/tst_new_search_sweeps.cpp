// New Search… reads the store each time it opens: a family replay it warned about ("The store has no recorded sweep of
// transpose on …: Import one") is offered, from that sweep, once the sweep is imported — by this window or by another
// program (`gpuf sweep --import`) while the explorer is open (issue 27, item 2). Beside τ it shows what τ would trust
// of the chosen forecaster's stored forecasts on the problem, counted here from the store independently (issue 25).
#include "core/interop/interop.h"
#include "core/mutators/shipped_sweeps.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/scored_pairs.h"
#include "core/store/store.h"
#include "tests/support/session_open.h"
#include "widgets/search/new_search_dialog.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/searches_panel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

const QString kH100 = u"NVIDIA H100 80GB HBM3"_s;

} // namespace

class TestNewSearchSweeps : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    struct Dock
    {
        StoreSession session;
        Selection selection;
        SearchController controller {&session};
        SearchesPanel panel {&session, &controller, &selection};
    };

    // New Search… as the user opens it, with the transpose family replayed against the H100's recorded runtimes.
    static QPointer<NewSearchDialog> openFamilyReplay(Dock &dock)
    {
        const QList<NewSearchDialog *> before = dock.panel.findChildren<NewSearchDialog *>();
        dock.panel.newSearchAction()->trigger();
        QPointer<NewSearchDialog> dialog;
        const bool opened = QTest::qWaitFor(
            [&] {
                for (NewSearchDialog *d : dock.panel.findChildren<NewSearchDialog *>()) {
                    if (!before.contains(d))
                        dialog = d;
                }
                return !dialog.isNull();
            },
            20000);
        if (!opened)
            return {};
        QComboBox *target = dialog->targetBox();
        for (int i = 0; i < target->count(); ++i) {
            if (target->itemText(i).startsWith(u"Family transpose"_s))
                target->setCurrentIndex(i);
        }
        for (QComboBox *box : dialog->findChildren<QComboBox *>()) {
            if (box->findData(u"replay"_s) >= 0)
                box->setCurrentIndex(box->findData(u"replay"_s));
        }
        for (QComboBox *box : dialog->findChildren<QComboBox *>()) {
            if (const int at = box->findData(kH100); at >= 0 && box != target)
                box->setCurrentIndex(at);
        }
        return dialog;
    }

    static bool startOffered(const NewSearchDialog *dialog)
    {
        return dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled();
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void warningFollowsTheStore();
    void trustPreviewCountsTheStoredForecasts();
};

void TestNewSearchSweeps::warningFollowsTheStore()
{
    // The sample's kernels and GPUs, without the sweeps the explorer's sample store adds.
    const QString path = m_dir.filePath(u"no-sweeps.gpuf"_s);
    {
        auto store = Store::open(path);
        QVERIFY2(store, qPrintable(store.error()));
        auto report
            = interop::importFiles(**store, {QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl")});
        QVERIFY2(report, qPrintable(report.error()));
    }
    Dock dock;
    QVERIFY(test::openSession(dock.session, path));
    QTRY_VERIFY_WITH_TIMEOUT(!dock.panel.isLoading(), 20000);

    QPointer<NewSearchDialog> dialog = openFamilyReplay(dock);
    QVERIFY(dialog);
    QVERIFY2(dialog->costLabel()->text().contains(u"The store has no recorded sweep of transpose on " + kH100
                 + u", so a replay has nothing to answer with. Import one (File → Import…"_s),
        qPrintable(dialog->costLabel()->text()));
    QVERIFY(!startOffered(dialog));
    dialog->reject();
    QTRY_VERIFY(dialog.isNull()); // deleted on close

    // Another program imports the H100 sweep while the explorer is open (as `gpuf sweep --import` does).
    {
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY2(store, qPrintable(store.error()));
        auto imported = families::importSweepFile(
            **store, QStringLiteral(GPUF_SOURCE_DIR "/resources/sweeps/transpose-h100-2026-11-26.jsonl"));
        QVERIFY2(imported, qPrintable(imported.error()));
    }
    dialog = openFamilyReplay(dock);
    QVERIFY(dialog);
    const QString text = dialog->costLabel()->text();
    QVERIFY2(text.contains(u"Replay answers from the store's recorded sweep of transpose on " + kH100 + u" ("_s),
        qPrintable(text));
    QVERIFY2(!text.contains(u"no recorded sweep"_s), qPrintable(text));
    QVERIFY(startOffered(dialog));
    dialog->reject();
}

void TestNewSearchSweeps::trustPreviewCountsTheStoredForecasts()
{
    const QString path = m_dir.filePath(u"trust.gpuf"_s);
    {
        auto store = Store::open(path);
        QVERIFY2(store, qPrintable(store.error()));
        auto report
            = interop::importFiles(**store, {QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl")});
        QVERIFY2(report, qPrintable(report.error()));
    }
    // What the label must say, counted from the store: the cost model's parsed forecasts on reduce_sum with a measured
    // truth, and how many have p(predicted bin) ≥ τ.
    const auto expected = [&path](double tau) {
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        auto pairs = loadScoredPairs(**store, {{u"costmodel"_s}, u"reduce_sum"_s, {}, {}});
        int all = 0, trusted = 0;
        for (const ScoredPair &p : std::as_const(pairs->pairs)) {
            if (!p.parsed || !p.predictedBin)
                continue;
            ++all;
            trusted += p.p.at(size_t(*p.predictedBin - 1)) >= tau ? 1 : 0;
        }
        return std::pair {all, trusted};
    };
    Dock dock;
    QVERIFY(test::openSession(dock.session, path));
    QTRY_VERIFY_WITH_TIMEOUT(!dock.panel.isLoading(), 20000);
    QPointer<NewSearchDialog> dialog = openFamilyReplay(dock);
    QVERIFY(dialog);
    dialog->targetBox()->setCurrentIndex(dialog->targetBox()->findText(u"Problem reduce_sum"_s));
    QVERIFY(dialog->trustPreviewLabel()->text().startsWith(u"The standard mode forecasts nothing"_s));
    dialog->modeBox()->setCurrentIndex(dialog->modeBox()->findData(u"selective"_s));
    auto *forecaster = dialog->findChildren<QComboBox *>().at(2); // Name is a line edit: target, mode, forecaster
    QCOMPARE(forecaster->currentText(), u"costmodel"_s);
    // Under the probability policy τ trusts nothing: the spread alone, and why τ is not used.
    const QString probability = dialog->trustPreviewLabel()->text();
    QVERIFY2(probability.endsWith(u"τ is not used here: only the selective mode under the paper's policy trusts a "
                                  "forecast by its confidence (with α set, the search chooses τ itself)."_s),
        qPrintable(probability));
    QVERIFY2(!probability.contains(u"would trust"_s), qPrintable(probability));
    dialog->policyBox()->setCurrentIndex(dialog->policyBox()->findData(u"paper"_s));
    for (const double tau : {0.3, 0.5}) {
        dialog->tauBox()->setValue(tau);
        const auto [all, trusted] = expected(tau);
        QVERIFY(all > 0);
        const QString text = dialog->trustPreviewLabel()->text();
        QVERIFY2(text.startsWith(u"costmodel on reduce_sum: %1 forecast(s) with a measured truth"_s.arg(all)),
            qPrintable(text));
        QVERIFY2(text.contains(u"τ = %1 would trust %2 of them"_s.arg(tau, 0, 'f', 2).arg(trusted)), qPrintable(text));
    }
    forecaster->setCurrentIndex(forecaster->findText(u"roofline"_s));
    QCOMPARE(dialog->trustPreviewLabel()->text(),
        u"roofline has no forecast with a measured truth on reduce_sum yet: nothing shows what τ would trust."_s);
    dialog->reject();
}

QTEST_MAIN(TestNewSearchSweeps)
#include "tst_new_search_sweeps.moc"
