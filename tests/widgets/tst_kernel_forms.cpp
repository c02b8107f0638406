// The kernel-spec forms offscreen on real stores: New Problem… checks each kind of invalid field as it is typed and
// puts the message next to that field (Create stays off), then creates a valid problem with its reference kernel;
// Add Kernel starts from the parent's launches, checks edited launch fields, stores the kernel with them, and gives
// a kernel stored earlier without launch fields the ones it is added again with.
#include "core/interop/corpus.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "tests/support/session_open.h"
#include "widgets/candidates/add_kernel_dialog.h"
#include "widgets/candidates/launch_editor.h"
#include "widgets/candidates/new_problem_dialog.h"

#include <QAction>
#include <QComboBox>
#include <QGroupBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;

namespace {

const QString kSource
    = QStringLiteral("template <int B> __global__ void twice(const float *x, float *y, int n) {\n"
                     "    int i = blockIdx.x * B + threadIdx.x;\n    if (i < n) y[i] = 2.0f * x[i];\n}\n");

bool marked(QLineEdit *edit)
{
    for (const QAction *action : edit->actions()) {
        if (action->objectName() == QLatin1StringView("gpufFieldIssue"))
            return true;
    }
    return false;
}

void setCell(QTableWidget *table, int row, int column, const QString &text)
{
    table->item(row, column)->setText(text); // itemChanged: what typing into the cell does
}

} // namespace

class TestKernelForms : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_corpusStore;

    static void settle(NewProblemDialog &dialog) { QTRY_VERIFY(!dialog.isChecking()); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_corpusStore = m_dir.filePath(QStringLiteral("corpus.gpuf"));
        auto store = Store::open(m_corpusStore);
        QVERIFY(store);
        auto imported = interop::importCorpus(**store, QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"));
        QVERIFY2(imported, qPrintable(imported.error()));
    }

    // Each kind of invalid field, typed into the real widgets: the message names the field, sits in its section, the
    // field is marked, and "Create Problem" stays off.
    void newProblemShowsEachInvalidField_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("section");
        QTest::addColumn<QString>("message");
        const auto row
            = [](const char *tag, const char *field, const char *value, const char *section, const char *message) {
                  QTest::newRow(tag) << QString::fromUtf8(field) << QString::fromUtf8(value)
                                     << QString::fromUtf8(section) << QString::fromUtf8(message);
              };
        row("no name", "name", "", "problem", "Name: a problem needs a name");
        row("taken name", "name", "axpy", "problem", "Name: this store has a problem named 'axpy' already");
        row("no source", "source", "", "source", "Source: must not be empty");
        row("entry", "entry", "twice<256", "launch", "Launch 1, entry point: a template instantiation ends with '>'");
        row("grid", "grid0", "ceil_div(m, 256)", "launch",
            "Launch 1, grid x: unknown variable 'm' in 'ceil_div(m, 256)' (case small)");
        row("block", "block0", "n/3", "launch", "Launch 1, block x: 'n/3' is not an integer");
        row("args", "args", "x, z, n:i32", "launch",
            "Launch 1, argument 2: 'z' is not a buffer; a scalar needs its type, e.g. z:i32");
        row("buffer count", "buffer0.count", "rows", "buffers", "Buffer 1, count: unknown variable 'rows'");
        row("buffer init", "buffer0.init", "uniform(0, 1)", "buffers",
            "Buffer 1, initialiser: write uniform(low, high, seed=S)");
        row("case vars", "case0.vars", "n 4096", "cases",
            "Case 1, variables: 'n 4096' is not NAME=NUMBER (as in rows=4096)");
        row("rtol", "rtol", "tight", "tolerance", "rtol: 'tight' is not a number (as in 1e-5)");
    }
    void newProblemShowsEachInvalidField()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, section);
        QFETCH(QString, message);
        StoreSession session;
        QVERIFY(test::openSession(session, m_corpusStore));
        NewProblemDialog dialog(&session);
        dialog.show();
        QTest::keyClicks(dialog.nameEdit(), QStringLiteral("twice"));
        dialog.sourceEdit()->setPlainText(kSource);
        dialog.launchEditor()->field(0, QStringLiteral("entry"))->setText(QStringLiteral("twice<256>"));
        settle(dialog);
        QVERIFY2(dialog.issues().isEmpty(), qPrintable(dialog.summaryText()));
        QVERIFY(dialog.createButton()->isEnabled());

        QLineEdit *edit = nullptr;
        if (field == QLatin1StringView("name"))
            edit = dialog.nameEdit();
        else if (field == QLatin1StringView("rtol"))
            edit = dialog.rtolEdit();
        else if (field == QLatin1StringView("entry") || field.startsWith(QLatin1StringView("grid"))
            || field.startsWith(QLatin1StringView("block")) || field == QLatin1StringView("args"))
            edit = dialog.launchEditor()->field(0, field);
        if (edit) {
            edit->selectAll();
            if (value.isEmpty())
                QTest::keyClick(edit, Qt::Key_Delete);
            else
                QTest::keyClicks(edit, value);
        } else if (field == QLatin1StringView("source")) {
            dialog.sourceEdit()->clear();
        } else if (field == QLatin1StringView("buffer0.count")) {
            setCell(dialog.bufferTable(), 0, 2, value);
        } else if (field == QLatin1StringView("buffer0.init")) {
            setCell(dialog.bufferTable(), 0, 4, value);
        } else if (field == QLatin1StringView("case0.vars")) {
            setCell(dialog.caseTable(), 0, 1, value);
        }
        QVERIFY(!dialog.createButton()->isEnabled()); // off at once, while the check runs
        settle(dialog);
        QVERIFY(!dialog.createButton()->isEnabled());
        const QString shown = section == QLatin1StringView("launch") ? dialog.launchEditor()->issuesText(0)
                                                                     : dialog.sectionIssues(section);
        QVERIFY2(shown.contains(message), qPrintable(shown));
        QVERIFY2(dialog.summaryText().contains(QStringLiteral("to fix before the problem can be created")),
            qPrintable(dialog.summaryText()));
        if (edit)
            QVERIFY(marked(edit));
        if (field == QLatin1StringView("buffer0.count"))
            QVERIFY(!dialog.bufferTable()->item(0, 2)->toolTip().isEmpty());
    }

    void newProblemCreatesProblem()
    {
        const QString path = m_dir.filePath(QStringLiteral("fresh.gpuf"));
        QVERIFY(Store::open(path));
        StoreSession session;
        QVERIFY(test::openSession(session, path));
        NewProblemDialog dialog(&session);
        QSignalSpy created(&dialog, &NewProblemDialog::problemCreated);
        dialog.show();
        QTest::keyClicks(dialog.nameEdit(), QStringLiteral("twice"));
        dialog.sourceEdit()->setPlainText(kSource);
        QLineEdit *entry = dialog.launchEditor()->field(0, QStringLiteral("entry"));
        QTest::keyClicks(entry, QStringLiteral("twice<256>"));
        settle(dialog);
        QVERIFY2(dialog.createButton()->isEnabled(), qPrintable(dialog.summaryText()));
        QVERIFY(!marked(entry));
        QTest::mouseClick(dialog.createButton(), Qt::LeftButton);
        QTRY_COMPARE(created.size(), 1);
        QVERIFY(!dialog.isVisible());
        const RowId problemId = created.first().at(0).value<RowId>();
        const RowId referenceId = created.first().at(1).value<RowId>();
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY(store);
        auto problem = ProblemRepo(**store).find(problemId);
        QVERIFY(problem && problem->has_value());
        QCOMPARE((**problem).name, QStringLiteral("twice"));
        QCOMPARE((**problem).referenceKernelId, referenceId);
        auto kernel = KernelRepo(**store).find(referenceId);
        QCOMPARE((**kernel).source, kSource);
        const QJsonObject spec = (**kernel).parameters.value(QStringLiteral("spec")).toObject();
        QCOMPARE(spec.value(QStringLiteral("launches"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("entry"))
                     .toString(),
            QStringLiteral("twice<256>"));
        QCOMPARE(spec.value(QStringLiteral("cases")).toArray().size(), 2);
    }

    void addKernelStartsFromParentLaunches()
    {
        StoreSession session;
        QVERIFY(test::openSession(session, m_corpusStore));
        Selection selection;
        RowId axpy = 0;
        {
            auto store = Store::open(m_corpusStore, Store::Mode::ExistingOnly);
            auto problem = ProblemRepo(**store).findByName(QStringLiteral("axpy"));
            QVERIFY(problem && problem->has_value());
            axpy = (**problem).id;
        }
        selection.setScope(axpy);
        const QString source
            = QStringLiteral("template <int V> __global__ void axpy_vec(const float *x, const float *y, "
                             "float *out, float a, int n) { }\n");
        AddKernelDialog dialog(&session, &selection, {}, source);
        dialog.show();
        QTRY_VERIFY(dialog.isReady());
        QCOMPARE(dialog.problemBox()->currentText(), QStringLiteral("axpy"));
        QVERIFY(dialog.parentBox()->currentText().contains(QStringLiteral("v0_naive")));
        // The launch fields start from the parent's (the reference's) launch.
        QVERIFY(dialog.launchGroup()->isEnabled() && dialog.launchGroup()->isChecked());
        LaunchEditor *launches = dialog.launchEditor();
        QCOMPARE(launches->field(0, QStringLiteral("entry"))->text(), QStringLiteral("axpy_naive"));
        QCOMPARE(launches->field(0, QStringLiteral("grid0"))->text(), QStringLiteral("ceil_div(n, 256)"));
        QCOMPARE(launches->field(0, QStringLiteral("args"))->text(), QStringLiteral("x, y, out, 2.5:f32, n:i32"));
        QVERIFY2(dialog.launchNote().contains(QStringLiteral("Starting from the launches of the parent")),
            qPrintable(dialog.launchNote()));

        // A bad expression is marked and keeps "Add" off; fixed, it is on again.
        QLineEdit *grid = launches->field(0, QStringLiteral("grid0"));
        grid->setText(QStringLiteral("ceil_div(n, 4*q)"));
        QVERIFY(!dialog.isReady());
        QTRY_VERIFY(!dialog.isCheckingLaunches());
        QVERIFY(!dialog.isReady());
        QVERIFY(marked(grid));
        QVERIFY2(launches->issuesText(0).contains(QStringLiteral("Launch 1, grid x: unknown variable 'q'")),
            qPrintable(launches->issuesText(0)));
        grid->setText(QStringLiteral("ceil_div(n, 4*256)"));
        launches->field(0, QStringLiteral("entry"))->setText(QStringLiteral("axpy_vec<4>"));
        QTRY_VERIFY(!dialog.isCheckingLaunches() && dialog.isReady());
        QVERIFY(!marked(grid));

        QSignalSpy added(&dialog, &AddKernelDialog::kernelsAdded);
        dialog.nameEdit()->setText(QStringLiteral("v_vec4"));
        dialog.accept();
        QTRY_COMPARE(added.size(), 1);
        const RowId id = added.first().at(1).value<QList<RowId>>().first();
        auto store = Store::open(m_corpusStore, Store::Mode::ExistingOnly);
        auto kernel = KernelRepo(**store).find(id);
        QVERIFY(kernel && kernel->has_value());
        const QJsonObject spec = (**kernel).parameters.value(QStringLiteral("spec")).toObject();
        const QJsonObject launch = spec.value(QStringLiteral("launches")).toArray().first().toObject();
        QCOMPARE(launch.value(QStringLiteral("entry")).toString(), QStringLiteral("axpy_vec<4>"));
        QCOMPARE(
            launch.value(QStringLiteral("grid")).toArray().first().toString(), QStringLiteral("ceil_div(n, 4*256)"));
        QCOMPARE(spec.value(QStringLiteral("buffers")).toArray().size(), 3); // shared with the parent
    }

    void addKernelWithoutSpecSaysSo()
    {
        // A problem whose kernels have no spec (imported rows, say): no launch fields to start from, and the dialog
        // says what that means for forecasts.
        const QString path = m_dir.filePath(QStringLiteral("bare.gpuf"));
        RowId problemId = 0;
        {
            auto store = Store::open(path);
            QVERIFY(store);
            Problem p;
            p.name = QStringLiteral("bare");
            problemId = ProblemRepo(**store).insert(p).value();
            Kernel k;
            k.problemId = problemId;
            k.language = QStringLiteral("cuda");
            k.source = QStringLiteral("extern \"C\" __global__ void k(float *x) { x[0] = 1.0f; }\n");
            k.origin = QStringLiteral("seed");
            const RowId ref = KernelRepo(**store).insertOrGet(k).value();
            QVERIFY(ProblemRepo(**store).setReferenceKernel(problemId, ref));
        }
        StoreSession session;
        QVERIFY(test::openSession(session, path));
        Selection selection;
        selection.setScope(problemId);
        AddKernelDialog dialog(
            &session, &selection, {}, QStringLiteral("__global__ void k2(float *x) { x[0] = 2.0f; }\n"));
        QTRY_VERIFY(dialog.isReady() && !dialog.isCheckingLaunches());
        QVERIFY(!dialog.launchGroup()->isEnabled());
        QVERIFY2(dialog.launchNote().contains(QStringLiteral("rest on unknown launch features")),
            qPrintable(dialog.launchNote()));
    }
};

QTEST_MAIN(TestKernelForms)
#include "tst_kernel_forms.moc"
