// LessonsController on a real store through a StoreSession, with the Lessons dock's views showing it: an answer is
// stored as the student's forecast and revealed (state, stored rows, and the figures on screen); an answer to a step
// that changed behind the dock's back is refused, stores nothing and the step is read again; a new student is stored
// as a 'human' forecaster and chosen, and the step opens unanswered for them; an answer with nobody chosen is shown,
// not stored; a lesson made from kernels and a teacher's edit are stored and shown.
#include "core/lessons/lesson_answers.h"
#include "core/lessons/student_answer.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/deletion.h"
#include "core/store/lesson_repo.h"
#include "tests/lessons/lessons_fixture.h"
#include "tests/lessons/lessons_table.h"
#include "widgets/lessons/distribution_editor.h"
#include "widgets/lessons/lessons_controller.h"
#include "widgets/lessons/lessons_panel.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;

namespace {

// The forecasts of `forecaster` stored for candidate `kernel`.
QList<Forecast> storedForecasts(const QString &path, RowId forecaster, RowId kernel)
{
    auto store = Store::open(path, Store::Mode::ReadOnly);
    if (!store)
        qFatal("cannot read %s", qPrintable(path));
    const auto forecasts = ForecastRepo(**store).forCandidate(kernel);
    if (!forecasts)
        qFatal("cannot read the forecasts: %s", qPrintable(forecasts.error()));
    QList<Forecast> out;
    for (const Forecast &f : *forecasts) {
        if (f.forecasterId == forecaster)
            out.append(f);
    }
    return out;
}

// The kinds of the changes `spy` (on StoreSession::changed) saw, with their ids.
QList<std::pair<StoreChange::Kind, QList<RowId>>> changesSeen(const QSignalSpy &spy)
{
    QList<std::pair<StoreChange::Kind, QList<RowId>>> out;
    for (const QList<QVariant> &arguments : spy) {
        const auto change = arguments.first().value<StoreChange>();
        out.append({change.kind, change.ids});
    }
    return out;
}

bins::Distribution thirtySeventy() // 30% on bin 5, 70% on bin 6
{
    bins::Distribution p {};
    p[4] = 0.3;
    p[5] = 0.7;
    return p;
}

// The session, the controller and the dock's views on it, as the explorer composes them.
struct Rig
{
    StoreSession session;
    Selection selection;
    LessonsController controller {&session, &selection};
    LessonsPanel panel {&controller, nullptr};
    QSignalSpy changes {&session, &StoreSession::changed};

    explicit Rig(const QString &path)
    {
        panel.resize(1400, 900);
        panel.show();
        session.open(path);
    }
};

} // namespace

class TestLessonsController : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // A store of its own: the fixture, its lesson, a stored model's forecast of step 1 (bin 5 at 60%; the truth is
    // bin 6) and, with `withStudent`, the student Ada (returned in `student`).
    QString freshStore(const QString &name, Fixture *f, RowId *student = nullptr, bool withStudent = true)
    {
        QString path = m_dir.filePath(name);
        auto store = Store::open(path);
        if (!store)
            qFatal("cannot make %s", qPrintable(path));
        *f = buildFixture(**store);
        Lesson l = fixedLesson(*f);
        if (!saveLesson(**store, l))
            qFatal("cannot save the lesson");
        insertForecast(
            **store, insertForecaster(**store, u"model"_s, u"Some model"_s), f->r, f->k1, f->gpu, peaked(5, 0.6), 5);
        if (!withStudent)
            return path;
        auto ada = lessons::ensureStudent(**store, u"Ada"_s);
        if (!ada)
            qFatal("cannot make the student");
        if (student)
            *student = ada->id;
        return path;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void answerIsStoredAndRevealed()
    {
        Fixture f;
        RowId ada = 0;
        const QString path = freshStore(u"answer.gpuf"_s, &f, &ada);
        Rig rig(path);
        LessonsController &c = rig.controller;
        QTRY_VERIFY(c.step().has_value() && !c.isBusy());
        QCOMPARE(c.catalog().lessons.size(), 1);
        QCOMPARE(c.lessonId(), c.catalog().lessons.first().id);
        QCOMPARE(c.studentId(), ada);
        QCOMPARE(c.stepIndex(), 0);
        QVERIFY(!c.isRevealed());
        QVERIFY(c.canAnswer());
        QVERIFY(c.status().isEmpty());
        QCOMPARE(rig.panel.stepLabel()->text(), u"Step 1 of 4 · v0_naive → v1"_s);
        QVERIFY(!rig.panel.revealArea()->isVisibleTo(&rig.panel));

        c.answer(thirtySeventy(), 6, u"tiles reuse each load"_s);
        // While it is stored: busy, and not to be answered twice.
        QVERIFY(c.isBusy());
        QVERIFY(!c.canAnswer());
        QVERIFY(!rig.panel.revealButton()->isEnabled());
        QTRY_VERIFY(c.isRevealed());
        QCOMPARE(c.revealedAnswer()->predictedBin, 6);
        QCOMPARE(c.revealedAnswer()->p, thirtySeventy());

        // Stored: one forecast of Ada's 'human' forecaster for the step's pair on the one GPU, and announced.
        const QList<Forecast> mine = storedForecasts(path, ada, f.k1);
        QCOMPARE(mine.size(), 1);
        QCOMPARE(mine.first().referenceKernelId, f.r);
        QCOMPARE(mine.first().hardwareId, f.gpu);
        QCOMPARE(mine.first().predictedBin, std::optional<int>(6));
        QVERIFY(std::abs(mine.first().probabilities[5] - 0.7) < 1e-12);
        QCOMPARE(mine.first().reasoning, u"tiles reuse each load"_s);
        QVERIFY(changesSeen(rig.changes).contains(std::pair {StoreChange::Kind::Forecasts, QList<RowId> {f.k1}}));

        // On screen: the measured speedup and bin, the score's figures, what the model said, the note.
        const LessonsPanel &panel = rig.panel;
        QVERIFY(panel.revealArea()->isVisibleTo(&panel));
        QCOMPARE(panel.truthTable()->rowCount(), 1);
        const QStringList truth {u"GPU one"_s, u"2.20×"_s, u"6"_s, u"hit"_s, u"0.090"_s, u"-0.36"_s};
        for (int column = 0; column < truth.size(); ++column)
            QCOMPARE(cell(panel.truthTable(), 0, column), truth.at(column));
        QCOMPARE(panel.scoreLabel()->text(),
            u"You said bin 6; on GPU one it was bin 6: hit. Brier 0.090, log score -0.36."_s);
        QCOMPARE(panel.forecastersTable()->rowCount(), 1);
        const QStringList said {
            u"model"_s, u"GPU one"_s, u"5"_s, u"60%"_s, u"off by 1"_s}; // its name, not "Some model"
        for (int column = 0; column < said.size(); ++column)
            QCOMPARE(cell(panel.forecastersTable(), 0, column), said.at(column));
        QCOMPARE(panel.noteLabel()->text(), u"Note: one"_s);
        QCOMPARE(panel.revealButton()->text(), u"Revealed"_s);
        QVERIFY(!panel.revealButton()->isEnabled());
        QVERIFY(!panel.editor()->slider(6)->isEnabled());
        QVERIFY(panel.reasoningEdit()->isReadOnly());

        // The announcement reads the step again: it comes back with the stored answer, still revealed, and the form
        // shows that answer.
        QTRY_VERIFY(!c.isBusy() && c.step()->answer.has_value());
        QVERIFY(c.isRevealed());
        QCOMPARE(c.revealedAnswer()->predictedBin, 6);
        QCOMPARE(panel.reasoningEdit()->text(), u"tiles reuse each load"_s);
        QCOMPARE(panel.editor()->shareLabel(6)->text(), u"70%"_s);
        QCOMPARE(cell(panel.truthTable(), 0, 3), u"hit"_s);
        QCOMPARE(storedForecasts(path, ada, f.k1).size(), 1);
    }

    // The step's kernel is deleted by another program after the step was shown: the answer is refused, nothing is
    // stored or announced, the status says why and the step is read again (the lesson now has three steps).
    void rejectedAnswerStoresNothing()
    {
        Fixture f;
        RowId ada = 0;
        const QString path = freshStore(u"rejected.gpuf"_s, &f, &ada);
        Rig rig(path);
        LessonsController &c = rig.controller;
        QTRY_VERIFY(c.step().has_value() && !c.isBusy());
        c.goToNext();
        QTRY_VERIFY(c.step()->index == 1 && !c.isBusy());
        QCOMPARE(c.step()->step().kernelId, f.k2);
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(deleteRows(**store, DeletionRequest::of(RowKind::Kernel, {f.k2})).ok());
        }
        rig.changes.clear();
        c.answer(lessons::pointDistribution(3), 3, u"slower"_s);
        const QString why
            = u"The answer was not stored: step 2 of lesson 'Scale, four ways' changed since it was shown "
              "(a kernel was deleted or the lesson was edited). The lesson was read again; check the "
              "step before answering."_s;
        QTRY_COMPARE(c.status(), why);
        QVERIFY(!c.isRevealed());
        for (RowId k : {f.k1, f.k3, f.k4})
            QCOMPARE(storedForecasts(path, ada, k).size(), 0);

        // Read again: step 2 is now K3's, unanswered; the sentence stays on screen.
        QTRY_VERIFY(!c.isBusy() && c.step()->step().kernelId == f.k3);
        QCOMPARE(c.stepIndex(), 1);
        QCOMPARE(c.step()->lesson.steps.size(), 3);
        QVERIFY(!c.isRevealed());
        QVERIFY(c.canAnswer());
        QVERIFY(c.status() == why);
        QCOMPARE(rig.panel.stepLabel()->text(), u"Step 2 of 3 · v0_naive → v3"_s);
        QCOMPARE(rig.panel.statusLabel()->text(), why);
        QVERIFY(rig.panel.statusLabel()->isVisibleTo(&rig.panel));
        QVERIFY(!rig.panel.revealArea()->isVisibleTo(&rig.panel));
        QCOMPARE(rig.panel.truthTable()->rowCount(), 0);
        QVERIFY(rig.panel.revealButton()->isEnabled());
        QCOMPARE(rig.panel.editor()->shareLabel(3)->text(), u"12.5%"_s);
        QVERIFY(rig.changes.isEmpty());
    }

    // A new student is stored as a 'human' forecaster, announced and chosen; the step Ada answered opens unanswered
    // for them. A name of spaces is refused and stores nothing.
    void newStudent()
    {
        Fixture f;
        RowId ada = 0;
        const QString path = freshStore(u"student.gpuf"_s, &f, &ada);
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(lessons::saveAnswer(
                **store, {ada, u"custom/scale"_s, 1, f.r, f.k1, peaked(6, 0.7), 6, u"tiles reuse each load"_s})
                        .ok());
        }
        Rig rig(path);
        LessonsController &c = rig.controller;
        QTRY_VERIFY(c.isRevealed() && !c.isBusy());
        QCOMPARE(rig.panel.reasoningEdit()->text(), u"tiles reuse each load"_s);

        c.addStudent(u"Grace"_s);
        QTRY_VERIFY(c.studentId() != ada);
        RowId grace = 0;
        {
            auto store = Store::open(path, Store::Mode::ReadOnly);
            auto stored = ForecasterRepo(**store).findByName(u"student:Grace"_s);
            QVERIFY(stored.ok() && stored->has_value());
            QCOMPARE((*stored)->kind, ForecasterKind::Human);
            QCOMPARE((*stored)->displayName, u"Grace"_s);
            grace = (*stored)->id;
        }
        QCOMPARE(c.studentId(), grace);
        QCOMPARE(c.catalog().students.size(), 2);
        QVERIFY(changesSeen(rig.changes).contains(std::pair {StoreChange::Kind::Forecasters, QList<RowId> {grace}}));

        // Step 1 for Grace: unanswered, the form blank and editable, nothing of Ada's answer on screen.
        QTRY_VERIFY(!c.isBusy() && !c.isRevealed());
        QCOMPARE(c.stepIndex(), 0);
        QVERIFY(!c.step()->answer.has_value());
        QVERIFY(c.canAnswer());
        QCOMPARE(rig.panel.studentBox()->count(), 2);
        QCOMPARE(rig.panel.studentBox()->currentText(), u"Grace"_s);
        QVERIFY(!rig.panel.revealArea()->isVisibleTo(&rig.panel));
        QVERIFY(rig.panel.reasoningEdit()->text().isEmpty());
        QVERIFY(!rig.panel.reasoningEdit()->isReadOnly());
        QCOMPARE(rig.panel.editor()->shareLabel(6)->text(), u"12.5%"_s);
        QVERIFY(rig.panel.revealButton()->isEnabled());
        QCOMPARE(rig.panel.revealButton()->text(), u"Reveal"_s);

        c.addStudent(u"   "_s);
        QTRY_COMPARE(c.status(), u"No student added: a student profile needs a name."_s);
        QCOMPARE(rig.panel.statusLabel()->text(), c.status());
        QCOMPARE(c.studentId(), grace);
        QTRY_VERIFY(!c.isBusy());
        QCOMPARE(c.catalog().students.size(), 2);
    }

    // Nobody chosen (a store without students): the hint asks for a student, and an answer is revealed at once but
    // not stored.
    void answerWithoutStudentIsNotStored()
    {
        Fixture f;
        const QString path = freshStore(u"nobody.gpuf"_s, &f, nullptr, false);
        Rig rig(path);
        LessonsController &c = rig.controller;
        QTRY_VERIFY(c.step().has_value() && !c.isBusy());
        QCOMPARE(c.studentId(), RowId(0));
        const QString hint = u"Add a student (New Student…) to keep answers and see them in the class report."_s;
        QCOMPARE(c.status(), hint);
        QCOMPARE(rig.panel.statusLabel()->text(), hint);
        rig.changes.clear();
        c.answer(lessons::pointDistribution(6), 6, {});
        QVERIFY(c.isRevealed());
        QVERIFY(!c.isBusy());
        QCOMPARE(cell(rig.panel.truthTable(), 0, 3), u"hit"_s);
        QCOMPARE(rig.panel.scoreLabel()->text(),
            u"You said bin 6; on GPU one it was bin 6: hit. Brier 0.000, log score 0.00."_s);
        QVERIFY(rig.changes.isEmpty());
        auto store = Store::open(path, Store::Mode::ReadOnly);
        const auto forecasts = ForecastRepo(**store).forCandidate(f.k1);
        QVERIFY(forecasts.ok());
        QCOMPARE(forecasts->size(), 1); // the model's only
    }

    // A lesson from kernels is stored and shown from its first step; an untitled one is refused. A teacher's edit is
    // stored and the edited lesson shown from its first step.
    void lessonWrites()
    {
        Fixture f;
        const QString path = freshStore(u"writes.gpuf"_s, &f);
        Rig rig(path);
        LessonsController &c = rig.controller;
        QTRY_VERIFY(c.step().has_value() && !c.isBusy());
        QSignalSpy notices(&c, &LessonsController::notice);

        c.makeLesson({f.k3, f.r, f.k2}, u"Tiling path"_s);
        QTRY_COMPARE(c.catalog().lessons.size(), 2);
        QCOMPARE(c.lesson()->name, u"custom/Tiling path"_s);
        QTRY_VERIFY(!c.isBusy() && c.step()->lesson.id == c.lessonId());
        QCOMPARE(rig.panel.lessonBox()->currentText(), u"Tiling path"_s);
        QCOMPARE(rig.panel.stepLabel()->text(), u"Step 1 of 2 · v0_naive → v2"_s);
        QCOMPARE(notices.last().first().toString(), u"Lesson 'Tiling path' made with 2 step(s)"_s);

        c.makeLesson({f.k1, f.r}, u"  "_s);
        QTRY_COMPARE(c.status(), u"No lesson made: a lesson needs a title"_s);
        QCOMPARE(c.catalog().lessons.size(), 2);

        Lesson edited = *c.lesson();
        edited.title = u"Tiling, renamed"_s;
        std::optional<Result<Lesson>> outcome;
        c.saveLesson(edited, this, [&](const Result<Lesson> &result) { outcome = result; });
        QTRY_VERIFY(outcome.has_value());
        QVERIFY(outcome->ok());
        QTRY_VERIFY(!c.isBusy());
        QCOMPARE(c.lesson()->title, u"Tiling, renamed"_s);
        QCOMPARE(rig.panel.lessonBox()->currentText(), u"Tiling, renamed"_s);
        auto store = Store::open(path, Store::Mode::ReadOnly);
        auto stored = LessonRepo(**store).findByName(u"custom/Tiling path"_s);
        QVERIFY(stored.ok() && stored->has_value());
        QCOMPARE((*stored)->title, u"Tiling, renamed"_s);
    }
};

QTEST_MAIN(TestLessonsController)
#include "tst_lessons_controller.moc"
