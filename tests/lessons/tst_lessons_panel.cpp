// The Lessons dock on a real store, driven like a student: the step's diff and nothing of the truth before the reveal;
// a bin clicked and a slider moved (the shares always add up to 100%), reasoning typed, Reveal — the measured speedup
// and bin per GPU, the stored forecaster's answer, the note and the score shown, the answer stored as a 'human'
// forecast; Next and Previous (an answered step comes back revealed). Also the class report dialog (table, CSV, PDF)
// and a lesson made from a selection of kernels.
#include "core/lessons/lesson_answers.h"
#include "core/session/calibration_data.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/deletion.h"
#include "core/store/lesson_repo.h"
#include "tests/lessons/lessons_fixture.h"
#include "tests/lessons/lessons_table.h"
#include "tests/support/session_open.h"
#include "widgets/calibration/metrics_table.h"
#include "widgets/calibration/metrics_table_model.h"
#include "widgets/diff/diff_view.h"
#include "widgets/lessons/class_report_dialog.h"
#include "widgets/lessons/distribution_editor.h"
#include "widgets/lessons/lesson_editor_dialog.h"
#include "widgets/lessons/lesson_reveal_view.h"
#include "widgets/lessons/lessons_panel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

using namespace gpuf;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;

namespace {

// Every text the panel shows right now: labels and table cells of visible widgets.
QString visibleText(const QWidget *root)
{
    QStringList texts;
    for (const QLabel *label : root->findChildren<QLabel *>()) {
        if (label->isVisibleTo(root))
            texts << label->text();
    }
    for (const QTableWidget *table : root->findChildren<QTableWidget *>()) {
        if (!table->isVisibleTo(root))
            continue;
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c = 0; c < table->columnCount(); ++c)
                texts << cell(table, r, c);
    }
    return texts.join(u'\n');
}

int rowOf(const QAbstractItemModel *model, const QString &forecaster)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, MetricsTableModel::ForecasterColumn).data().toString() == forecaster)
            return row;
    }
    return -1;
}

// Forecasts of `forecaster` stored for candidate `kernel`.
int storedForecasts(const QString &path, RowId forecaster, RowId kernel)
{
    auto store = Store::open(path, Store::Mode::ReadOnly);
    if (!store)
        qFatal("cannot read %s", qPrintable(path));
    const auto forecasts = ForecastRepo(**store).forCandidate(kernel);
    if (!forecasts)
        qFatal("cannot read the forecasts: %s", qPrintable(forecasts.error()));
    int n = 0;
    for (const Forecast &f : *forecasts)
        n += f.forecasterId == forecaster ? 1 : 0;
    return n;
}

double shareSum(const DistributionEditor *editor)
{
    double sum = 0.0;
    for (double v : editor->distribution())
        sum += v;
    return sum;
}

} // namespace

class TestLessonsPanel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    Fixture m_f;
    QString m_path;
    RowId m_student = 0;

    // A store of its own for a test that changes it: the fixture, its lesson and the student Ada (returned in
    // `student`).
    QString freshStore(const QString &name, Fixture *f, RowId *student = nullptr)
    {
        QString path = m_dir.filePath(name);
        auto store = Store::open(path);
        if (!store)
            qFatal("cannot make %s", qPrintable(path));
        *f = buildFixture(**store);
        Lesson l = fixedLesson(*f);
        if (!saveLesson(**store, l))
            qFatal("cannot save the lesson");
        auto ada = lessons::ensureStudent(**store, u"Ada"_s);
        if (!ada)
            qFatal("cannot make the student");
        if (student)
            *student = ada->id;
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_path = m_dir.filePath(u"lessons.gpuf"_s);
        auto store = Store::open(m_path);
        QVERIFY(store.ok());
        m_f = buildFixture(**store);
        Lesson l = fixedLesson(m_f);
        QVERIFY(saveLesson(**store, l).ok());
        auto student = lessons::ensureStudent(**store, u"Ada"_s);
        QVERIFY(student.ok());
        m_student = student->id;
        // A stored forecaster's answer for step 1 (it said bin 5; the truth is bin 6).
        insertForecast(
            **store, insertForecaster(**store, u"model"_s, u"Some model"_s), m_f.r, m_f.k1, m_f.gpu, peaked(5, 0.6), 5);
    }

    void wholeLesson()
    {
        StoreSession session;
        Selection selection;
        LessonsPanel panel(&session, &selection, nullptr);
        panel.resize(1400, 900);
        panel.show();
        session.open(m_path);
        QTRY_COMPARE(panel.lessonBox()->count(), 1);
        QCOMPARE(panel.lessonBox()->currentText(), u"Scale, four ways"_s);
        QCOMPARE(panel.studentBox()->currentText(), u"Ada"_s);
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 1 of 4 · v0_naive → v1"_s);
        QTRY_VERIFY(!panel.diffView()->isBusy() && !panel.diffView()->placeholderShown());

        // Before the reveal: the diff, no truth, no note, nobody's forecast.
        QVERIFY(!panel.isRevealed());
        QVERIFY(!panel.revealArea()->isVisibleTo(&panel));
        QVERIFY(panel.diffView()->noteText().isEmpty());
        const QString before = visibleText(&panel);
        QVERIFY2(!before.contains(u"2.20"_s), qPrintable(before));
        QVERIFY(!before.contains(u"note one"_s));
        QVERIFY(!before.contains(u"Some model"_s));
        QCOMPARE(panel.forecastersTable()->rowCount(), 0);
        QVERIFY(!panel.previousButton()->isEnabled());
        QVERIFY(panel.nextButton()->isEnabled());

        // Predict: all on bin 6, then move bin 5's slider to 30%: 70% stays on bin 6, the sum stays 1.
        QTest::mouseClick(panel.editor()->binButton(6), Qt::LeftButton);
        QCOMPARE(panel.editor()->distribution()[5], 1.0);
        panel.editor()->slider(5)->setValue(300);
        QVERIFY(std::abs(panel.editor()->distribution()[4] - 0.3) < 1e-9);
        QVERIFY(std::abs(panel.editor()->distribution()[5] - 0.7) < 1e-9);
        QVERIFY(std::abs(shareSum(panel.editor()) - 1.0) < 1e-12);
        QCOMPARE(panel.editor()->shareLabel(6)->text(), u"70%"_s);
        QTest::keyClicks(panel.reasoningEdit(), u"shared-memory tiles reuse each load"_s);

        QTest::mouseClick(panel.revealButton(), Qt::LeftButton);
        QTRY_VERIFY(panel.isRevealed());
        QVERIFY(panel.revealArea()->isVisibleTo(&panel));
        QCOMPARE(panel.truthTable()->rowCount(), 1);
        QCOMPARE(cell(panel.truthTable(), 0, 0), u"GPU one"_s);
        QCOMPARE(cell(panel.truthTable(), 0, 1), u"2.20×"_s);
        QCOMPARE(cell(panel.truthTable(), 0, 2), u"6"_s);
        QCOMPARE(cell(panel.truthTable(), 0, 3), u"hit"_s);
        QCOMPARE(cell(panel.truthTable(), 0, 4), QString::number(0.5 * (0.09 + 0.09), 'f', 3));
        QCOMPARE(cell(panel.truthTable(), 0, 5), QString::number(std::log(0.7), 'f', 2));
        QVERIFY2(panel.scoreLabel()->text().contains(u"You said bin 6; on GPU one it was bin 6: hit"_s),
            qPrintable(panel.scoreLabel()->text()));
        QCOMPARE(panel.forecastersTable()->rowCount(), 1);
        // Named as the other docks and the CLI name it (issue 27, item 13), its display name in the tooltip.
        QCOMPARE(cell(panel.forecastersTable(), 0, 0), u"model"_s);
        QCOMPARE(panel.forecastersTable()->item(0, 0)->toolTip(), u"Some model"_s);
        QCOMPARE(cell(panel.forecastersTable(), 0, 2), u"5"_s);
        QCOMPARE(cell(panel.forecastersTable(), 0, 4), u"off by 1"_s);
        QCOMPARE(panel.noteLabel()->text(), u"Note: one"_s);
        QVERIFY(!panel.revealButton()->isEnabled());

        // The answer is a forecast of the student's 'human' forecaster.
        {
            auto store = Store::open(m_path, Store::Mode::ExistingOnly);
            QVERIFY(store.ok());
            auto forecasts = ForecastRepo(**store).forCandidate(m_f.k1);
            QVERIFY(forecasts.ok());
            QList<Forecast> mine;
            for (const Forecast &f : std::as_const(*forecasts)) {
                if (f.forecasterId == m_student)
                    mine.append(f);
            }
            QCOMPARE(mine.size(), 1);
            QCOMPARE(mine.first().predictedBin, std::optional<int>(6));
            QCOMPARE(mine.first().hardwareId, m_f.gpu);
            QCOMPARE(mine.first().reasoning, u"shared-memory tiles reuse each load"_s);
        }

        // Next: a fresh step, nothing revealed, the editor back to the uniform start.
        QTest::mouseClick(panel.nextButton(), Qt::LeftButton);
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 2 of 4 · v0_naive → v2"_s);
        QVERIFY(!panel.isRevealed());
        QCOMPARE(panel.truthTable()->rowCount(), 0);
        QCOMPARE(panel.editor()->shareLabel(1)->text(), u"12.5%"_s);
        QVERIFY(panel.reasoningEdit()->text().isEmpty());
        QVERIFY(panel.previousButton()->isEnabled());

        // Previous: the answered step comes back revealed with the student's answer.
        QTest::mouseClick(panel.previousButton(), Qt::LeftButton);
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 1 of 4 · v0_naive → v1"_s);
        QTRY_VERIFY(panel.isRevealed());
        QCOMPARE(cell(panel.truthTable(), 0, 3), u"hit"_s);
        QCOMPARE(panel.editor()->shareLabel(6)->text(), u"70%"_s);
        QCOMPARE(panel.reasoningEdit()->text(), u"shared-memory tiles reuse each load"_s);
    }

    // Two quick clicks on Next: the read of the step left behind is dropped, and only the second step's data is shown.
    // In a dock as short as the Lesson layout's at 1280×800 the reveal lies below the answer form: Reveal brings its
    // score and truth into view.
    void revealScrollsIntoView()
    {
        StoreSession session;
        Selection selection;
        LessonsPanel panel(&session, &selection, nullptr);
        panel.resize(1100, 380);
        panel.show();
        session.open(m_path);
        QTRY_COMPARE(panel.lessonBox()->count(), 1);
        QTRY_VERIFY(!panel.diffView()->isBusy() && !panel.diffView()->placeholderShown());
        QTest::mouseClick(panel.editor()->binButton(6), Qt::LeftButton);
        QTest::mouseClick(panel.revealButton(), Qt::LeftButton);
        QTRY_VERIFY(panel.isRevealed());
        QTRY_VERIFY2(!panel.scoreLabel()->visibleRegion().isEmpty(), "the reveal's score is out of view");
        QVERIFY(panel.scoreLabel()->text().contains(u"You said bin 6"_s));
        // The measured speedup's evidence, one click away: the window's Evidence dialog is asked for on the step's
        // candidate (issue 28).
        auto *revealView = qobject_cast<LessonRevealView *>(panel.revealArea());
        QVERIFY(revealView);
        QPushButton *reveal = revealView->evidenceButton();
        QCOMPARE(reveal->text(), u"Show &Evidence…"_s);
        QVERIFY(reveal->isEnabled());
        QSignalSpy asked(&selection, &Selection::evidenceRequested);
        QTest::mouseClick(reveal, Qt::LeftButton);
        QCOMPARE(asked.size(), 1);
        QVERIFY(panel.diffView()->candidate().source.contains(u"v1"_s));
        QCOMPARE(asked.first().first().value<RowId>(), m_f.k1);
    }

    // Classroom mode (issue 27, item 10): ticked, an unrevealed step hides the answer from the whole window (the
    // selection says so; the Candidates table follows it) and the diff shows no forecast annotations; revealed, both
    // come back; unticked, nothing is hidden.
    void classroomHidesTheAnswerUntilReveal()
    {
        // A store of its own: no step of it answered by another test.
        Fixture f;
        const QString path = freshStore(u"classroom.gpuf"_s, &f);
        StoreSession session;
        Selection selection;
        LessonsPanel panel(&session, &selection, nullptr);
        panel.resize(1100, 600);
        panel.show();
        session.open(path);
        QTRY_VERIFY(!panel.isBusy() && panel.stepLabel()->text().startsWith(u"Step 1 of 4"_s));
        QVERIFY(!panel.isRevealed());
        QVERIFY(!selection.answersHidden());
        panel.classroomBox()->setChecked(true);
        QTRY_VERIFY(selection.answersHidden());
        QVERIFY(panel.diffView()->forecastAnnotations().candidate.isEmpty());
        QVERIFY(!panel.diffView()->forecastAnnotationsShown());
        // Another step, still unrevealed: still hidden.
        panel.nextButton()->click();
        QTRY_VERIFY(!panel.isBusy() && panel.stepLabel()->text().startsWith(u"Step 2 of 4"_s));
        QTRY_VERIFY(selection.answersHidden());
        QTest::mouseClick(panel.editor()->binButton(5), Qt::LeftButton);
        QTest::mouseClick(panel.revealButton(), Qt::LeftButton);
        QTRY_VERIFY(panel.isRevealed());
        QTRY_VERIFY(!selection.answersHidden());
        panel.nextButton()->click();
        QTRY_VERIFY(!panel.isBusy() && panel.stepLabel()->text().startsWith(u"Step 3 of 4"_s));
        QTRY_VERIFY(selection.answersHidden());
        panel.classroomBox()->setChecked(false);
        QVERIFY(!selection.answersHidden());
    }

    void quickStepChangesShowTheLastStep()
    {
        StoreSession session;
        Selection selection;
        LessonsPanel panel(&session, &selection, nullptr);
        session.open(m_path);
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 1 of 4 · v0_naive → v1"_s);
        QTRY_VERIFY(!panel.isBusy());
        QSignalSpy shown(&panel, &LessonsPanel::stepShown);
        panel.nextButton()->click();
        panel.nextButton()->click(); // before the first step's read could come back
        QTRY_VERIFY(!panel.isBusy());
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 3 of 4 · v0_naive → v3"_s);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown.first().first().toInt(), 2);
        QCOMPARE(panel.stepIndex(), 2);
        QVERIFY(panel.diffView()->candidate().source.contains(u"v3"_s));
        QVERIFY(!panel.isRevealed());
    }

    // A new student's answer is a Forecasts change: the metrics table (reading the store only on changes) lists the
    // student as a forecaster (by its stored name, as every forecaster) with the figures of that one answer, next to
    // the stored model.
    void answerReachesTheMetricsTable()
    {
        Fixture f;
        const QString path = freshStore(u"metrics.gpuf"_s, &f);
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            insertForecast(
                **store, insertForecaster(**store, u"model"_s, u"Some model"_s), f.r, f.k1, f.gpu, peaked(5, 0.6), 5);
        }
        StoreSession session;
        Selection selection;
        CalibrationData data(&session);
        MetricsTable table(&data, &selection);
        LessonsPanel panel(&session, &selection, nullptr);
        session.open(path);
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 1 of 4 · v0_naive → v1"_s);
        QTRY_VERIFY(data.snapshot()->generation > 0 && !data.isLoading());
        const MetricsTableModel *model = table.model();
        QVERIFY(rowOf(model, u"model"_s) >= 0);
        QCOMPARE(rowOf(model, u"student:Grace"_s), -1);

        // A new student, added as a teacher does: a Forecasters change, then the student's answer to step 1.
        QTest::mouseClick(panel.addStudentButton(), Qt::LeftButton);
        auto *dialog = panel.findChild<QInputDialog *>(u"lessonTextDialog"_s);
        QVERIFY(dialog);
        dialog->setTextValue(u"Grace"_s);
        dialog->accept();
        QTRY_COMPARE(panel.studentBox()->currentText(), u"Grace"_s);
        QTRY_VERIFY(!panel.isBusy());
        QTest::mouseClick(panel.editor()->binButton(6), Qt::LeftButton);
        panel.editor()->slider(5)->setValue(300); // 30% on bin 5, 70% on bin 6
        QTest::mouseClick(panel.revealButton(), Qt::LeftButton);
        QTRY_VERIFY(panel.isRevealed());

        // The answer's announcement started the metrics' read as the answer was shown; its snapshot holds the answer.
        QTRY_VERIFY(!data.isLoading());
        const int grace = rowOf(model, u"student:Grace"_s);
        QVERIFY(grace >= 0);
        QCOMPARE(model->index(grace, MetricsTableModel::PairsColumn).data().toString(), u"1"_s);
        QVERIFY(model->index(grace, MetricsTableModel::AccuracyColumn).data().toString().startsWith(u"1.000"_s));
        QCOMPARE(
            model->index(grace, MetricsTableModel::AccuracyColumn).data(MetricsTableModel::SortRole).toDouble(), 1.0);
        const double brier = 0.5 * (0.3 * 0.3 + 0.3 * 0.3); // ½·Σ: 0.3 short on bin 6, 0.3 too much on bin 5
        QVERIFY(std::abs(
                    model->index(grace, MetricsTableModel::BrierHalfColumn).data(MetricsTableModel::SortRole).toDouble()
                    - brier)
            < 1e-12);
        QVERIFY(model->index(grace, MetricsTableModel::BrierHalfColumn).data().toString().startsWith(u"0.090"_s));
        const int other = rowOf(model, u"model"_s);
        QCOMPARE(
            model->index(other, MetricsTableModel::AccuracyColumn).data(MetricsTableModel::SortRole).toDouble(), 0.0);
        QCOMPARE(storedForecasts(path, panel.studentBox()->currentData().toLongLong(), f.k1), 1);
    }

    // Answering a step that changed behind the dock's back (its kernel deleted by another program, which takes the
    // step with it; then the whole lesson removed): the dock says why the answer was not stored and reads the lessons
    // again, and nothing stored changes.
    void answerOnAStepThatIsGone()
    {
        Fixture f;
        RowId student = 0;
        const QString path = freshStore(u"gone.gpuf"_s, &f, &student);
        StoreSession session;
        Selection selection;
        LessonsPanel panel(&session, &selection, nullptr);
        session.open(path);
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 1 of 4 · v0_naive → v1"_s);
        panel.nextButton()->click();
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 2 of 4 · v0_naive → v2"_s);
        QTRY_VERIFY(!panel.isBusy());
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(deleteRows(**store, DeletionRequest::of(RowKind::Kernel, {f.k2})).ok());
        }
        QTest::mouseClick(panel.editor()->binButton(3), Qt::LeftButton);
        QTest::mouseClick(panel.revealButton(), Qt::LeftButton);
        QTRY_VERIFY(panel.statusLabel()->text().startsWith(u"The answer was not stored"_s));
        QCOMPARE(panel.statusLabel()->text(),
            u"The answer was not stored: step 2 of lesson 'Scale, four ways' changed since it was shown (a kernel was "
            "deleted or the lesson was edited). The lesson was read again; check the step before answering."_s);
        QVERIFY(panel.statusLabel()->isVisibleTo(&panel));
        // The dock read the lesson again: step 2 is now K3's, fresh, and the sentence stays until the next notice.
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 2 of 3 · v0_naive → v3"_s);
        QTRY_VERIFY(!panel.isBusy());
        QVERIFY(!panel.isRevealed());
        QVERIFY(panel.revealButton()->isEnabled());
        QCOMPARE(panel.editor()->shareLabel(3)->text(), u"12.5%"_s);
        QVERIFY(panel.statusLabel()->text().startsWith(u"The answer was not stored"_s));
        QCOMPARE(storedForecasts(path, student, f.k3), 0);

        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            auto lesson = LessonRepo(**store).findByName(u"custom/scale"_s);
            QVERIFY(lesson.ok() && lesson->has_value());
            QCOMPARE((*lesson)->steps.size(), 3);
            QVERIFY(LessonRepo(**store).remove((*lesson)->id).ok());
        }
        QTRY_VERIFY(!panel.isBusy());
        QTest::mouseClick(panel.revealButton(), Qt::LeftButton);
        QTRY_VERIFY(panel.statusLabel()->text().startsWith(
            u"The answer was not stored: no lesson named 'custom/scale' in the store."_s));
        QVERIFY(!panel.isRevealed());
        QTRY_VERIFY(panel.stepLabel()->text().contains(u"no lessons yet"_s));
        QCOMPARE(panel.lessonBox()->count(), 0);
        QVERIFY(!panel.revealButton()->isEnabled());
        for (RowId k : {f.k1, f.k3, f.k4})
            QCOMPARE(storedForecasts(path, student, k), 0);
    }

    // The lesson editor writes through the session: a reordered lesson is announced and the dock shows its new first
    // step; an edit naming a kernel deleted meanwhile is refused in the dialog, which stays open.
    void editLesson()
    {
        Fixture f;
        const QString path = freshStore(u"edit.gpuf"_s, &f);
        StoreSession session;
        Selection selection;
        LessonsPanel panel(&session, &selection, nullptr);
        session.open(path);
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 1 of 4 · v0_naive → v1"_s);
        QSignalSpy changes(&session, &StoreSession::changed);
        QTest::mouseClick(panel.editLessonButton(), Qt::LeftButton);
        auto *editor = panel.findChild<LessonEditorDialog *>();
        QVERIFY(editor);
        editor->stepList()->setCurrentRow(3);
        editor->moveCurrent(-3); // K4 first
        editor->titleEdit()->setText(u"Scale, fastest first"_s);
        editor->save();
        QTRY_COMPARE(panel.lessonBox()->currentText(), u"Scale, fastest first"_s);
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 1 of 4 · v0_naive → v4"_s);
        QCOMPARE(changes.count(), 1);
        QCOMPARE(changes.first().first().value<StoreChange>().kind, StoreChange::Kind::Lessons);
        QTRY_VERIFY(panel.findChildren<LessonEditorDialog *>().isEmpty()); // closed and gone

        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(deleteRows(**store, DeletionRequest::of(RowKind::Kernel, {f.k2})).ok());
        }
        QTRY_VERIFY(!panel.isBusy());
        QTest::mouseClick(panel.editLessonButton(), Qt::LeftButton);
        auto *second = panel.findChild<LessonEditorDialog *>();
        QVERIFY(second && second->isVisible());
        second->titleEdit()->setText(u"Renamed again"_s);
        second->save(); // its steps still name K2
        auto *error = second->findChild<QLabel *>(u"lessonEditorError"_s);
        QVERIFY(error);
        QTRY_COMPARE(error->text(), u"Not saved: step 3: kernel %1 is no longer in the store."_s.arg(f.k2));
        QVERIFY(second->isVisible());
        auto store = Store::open(path, Store::Mode::ReadOnly);
        auto lesson = LessonRepo(**store).findByName(u"custom/scale"_s);
        QCOMPARE((*lesson)->title, u"Scale, fastest first"_s);
        QCOMPARE((*lesson)->steps.size(), 3);
    }

    // Switching from a student who answered the step to one who did not: the step opens unrevealed, with an even
    // distribution and no reasoning — nothing of the other student's answer.
    void anotherStudentStartsBlank()
    {
        Fixture f;
        RowId ada = 0;
        const QString path = freshStore(u"students.gpuf"_s, &f, &ada);
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(lessons::saveAnswer(
                **store, {ada, u"custom/scale"_s, 1, f.r, f.k1, peaked(6, 0.7), 6, u"tiles reuse each load"_s})
                        .ok());
            QVERIFY(lessons::ensureStudent(**store, u"Bob"_s).ok());
        }
        StoreSession session;
        Selection selection;
        LessonsPanel panel(&session, &selection, nullptr);
        session.open(path);
        QTRY_COMPARE(panel.studentBox()->count(), 2);
        panel.selectStudent(u"Ada"_s);
        QTRY_VERIFY(panel.isRevealed());
        QCOMPARE(panel.reasoningEdit()->text(), u"tiles reuse each load"_s);
        panel.selectStudent(u"Bob"_s);
        QTRY_VERIFY(!panel.isRevealed());
        QVERIFY(panel.reasoningEdit()->text().isEmpty());
        QVERIFY(!panel.reasoningEdit()->isReadOnly());
        QCOMPARE(panel.editor()->shareLabel(6)->text(), u"12.5%"_s);
        QVERIFY(panel.revealButton()->isEnabled());
    }

    void classReport()
    {
        StoreSession session;
        QVERIFY(test::openSession(session, m_path));
        auto store = Store::open(m_path, Store::Mode::ExistingOnly);
        QVERIFY(store.ok());
        auto lessonList = LessonRepo(**store).list();
        QVERIFY(lessonList.ok());
        ClassReportDialog dialog(&session, *lessonList, u"custom/scale"_s);
        dialog.show();
        QTRY_VERIFY(dialog.isLoaded());
        QCOMPARE(dialog.table()->rowCount(), 1);
        QCOMPARE(cell(dialog.table(), 0, 0), u"Ada"_s);
        QCOMPARE(cell(dialog.table(), 0, 2), u"1/4"_s);
        QCOMPARE(cell(dialog.table(), 0, 3), u"1.000"_s);
        QVERIFY2(dialog.summary()->text().contains(u"compares the class with “model” on the same pairs"_s),
            qPrintable(dialog.summary()->text()));
        const QString csv = m_dir.filePath(u"report.csv"_s);
        QVERIFY(dialog.exportCsv(csv).ok());
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        QVERIFY(csvFile.readAll().contains("Ada,custom/scale,4,1,1,1.0000,1.0000"));
        const QString pdf = m_dir.filePath(u"report.pdf"_s);
        const Status written = dialog.exportPdf(pdf);
        QVERIFY2(written.ok(), qPrintable(written.error()));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
        QVERIFY(pdfFile.size() > 2000);
        QVERIFY(!dialog.exportPdf(m_dir.filePath(u"no/such/dir/report.pdf"_s)).ok());
    }

    void generateInAStoreWithoutLessons()
    {
        const QString path = m_dir.filePath(u"plain.gpuf"_s);
        {
            auto store = Store::open(path);
            QVERIFY(store.ok());
            buildFixture(**store);
        }
        StoreSession session;
        Selection selection;
        LessonsPanel panel(&session, &selection, nullptr);
        session.open(path);
        QTRY_VERIFY(panel.generateButton()->isEnabled());
        QTRY_VERIFY(panel.stepLabel()->text().contains(u"no lessons yet"_s));
        QCOMPARE(panel.lessonBox()->count(), 0);
        QVERIFY(!panel.revealButton()->isEnabled());
        QTest::mouseClick(panel.generateButton(), Qt::LeftButton);
        QTRY_COMPARE(panel.lessonBox()->count(), 1);
        QCOMPARE(panel.lessonBox()->currentText(), u"scale: from the first kernel to the tuned ones"_s);
        // The shipped families' problems are not in this store: each is skipped, saying why.
        QVERIFY2(panel.statusLabel()->text().startsWith(u"1 lesson(s) added, 0 already in the store"_s),
            qPrintable(panel.statusLabel()->text()));
        QVERIFY(
            panel.statusLabel()->text().contains(u"skipped family/sgemm_tiled: the store has no problem 'sgemm'"_s));
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 1 of 4 · v0_naive → v1"_s);
    }

    void lessonFromSelection()
    {
        StoreSession session;
        Selection selection;
        LessonsPanel panel(&session, &selection, nullptr);
        session.open(m_path);
        QTRY_COMPARE(panel.lessonBox()->count(), 1);
        selection.setSelectedIds({m_f.k3, m_f.r, m_f.k2});
        panel.newLessonFromSelectionAction()->trigger();
        // The title dialog is answered as a teacher would.
        auto *dialog = panel.findChild<QInputDialog *>(u"lessonTextDialog"_s);
        QVERIFY(dialog);
        dialog->setTextValue(u"Tiling path"_s);
        dialog->accept();
        QTRY_COMPARE(panel.lessonBox()->count(), 2);
        QTRY_COMPARE(panel.lessonBox()->currentText(), u"Tiling path"_s);
        QTRY_COMPARE(panel.stepLabel()->text(), u"Step 1 of 2 · v0_naive → v2"_s);
        auto store = Store::open(m_path, Store::Mode::ExistingOnly);
        auto made = LessonRepo(**store).findByName(u"custom/Tiling path"_s);
        QVERIFY(made.ok() && made->has_value());
        QCOMPARE((*made)->steps.size(), 2);
        QCOMPARE((*made)->steps[1].referenceKernelId, m_f.k2);
        QCOMPARE((*made)->steps[1].kernelId, m_f.k3);
        QCOMPARE((*made)->steps[1].note, u"note three"_s);
    }
};

QTEST_MAIN(TestLessonsPanel)
#include "tst_lessons_panel.moc"
