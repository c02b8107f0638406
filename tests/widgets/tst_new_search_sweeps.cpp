// New Search… reads the store each time it opens: a family replay it warned about ("The store has no recorded sweep of
// transpose on …: Import one") is offered, from that sweep, once the sweep is imported — by this window or by another
// program (`gpuf sweep --import`) while the explorer is open (issue 27, item 2).
#include "core/interop/interop.h"
#include "core/mutators/shipped_sweeps.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/store.h"
#include "tests/support/session_open.h"
#include "widgets/search/new_search_dialog.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/searches_panel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
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

QTEST_MAIN(TestNewSearchSweeps)
#include "tst_new_search_sweeps.moc"
