// Tests for lessons in a real store: the repository (save, reorder, rename, refuse an empty lesson or a taken name),
// generated operation and family lessons, students' answers stored as forecasts of a 'human' forecaster and scored by
// the same metrics as any forecaster (against core/metrics on a fixed table), the class report and its CSV, and the
// lesson record of the gpuf bundle (round trip; a missing kernel or an empty lesson refused with its line, nothing
// imported).
#include "core/interop/interop.h"
#include "core/lessons/class_report.h"
#include "core/lessons/lesson_answers.h"
#include "core/lessons/lesson_generation.h"
#include "core/lessons/lesson_reads.h"
#include "core/lessons/lesson_writes.h"
#include "core/lessons/student_answer.h"
#include "core/metrics/from_store.h"
#include "core/mutators/shipped_families.h"
#include "core/store/deletion.h"
#include "core/store/lesson_repo.h"
#include "core/store/scored_pairs.h"
#include "tests/lessons/lessons_fixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;

namespace {

struct AnswerRow
{
    RowId kernel;
    bins::Distribution p;
    int bin;
    int trueBin;
};

// The fixed table: two hits, one off by one, one off by three.
QList<AnswerRow> answerTable(const Fixture &f)
{
    return {{f.k1, peaked(6, 0.7), 6, 6}, {f.k2, peaked(4, 0.5), 4, 3}, {f.k3, lessons::pointDistribution(4), 4, 4},
        {f.k4, peaked(5, 0.6), 5, 8}};
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(text);
    return path;
}

// A fresh store of its own for one test: the fixture's problem, kernels and measurements, and with `Lesson` the fixed
// lesson saved in it.
class LessonStore
{
public:
    enum Contents { Kernels, KernelsAndLesson };

    // False (with a warning saying why) when the store could not be made.
    bool make(Contents contents)
    {
        auto opened = Store::open(m_dir.filePath(u"s.gpuf"_s));
        if (!opened) {
            qWarning("cannot make the store: %s", qPrintable(opened.error()));
            return false;
        }
        m_store = std::move(*opened);
        f = buildFixture(*m_store);
        if (contents == KernelsAndLesson) {
            lesson = fixedLesson(f);
            if (Status s = saveLesson(*m_store, lesson); !s) {
                qWarning("cannot save the lesson: %s", qPrintable(s.error()));
                return false;
            }
        }
        return true;
    }
    Store &store() { return *m_store; }

    Fixture f;
    Lesson lesson;

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
};

} // namespace

class TestLessonsStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void repository()
    {
        LessonStore made;
        QVERIFY(made.make(LessonStore::KernelsAndLesson));
        Store &store = made.store();
        const Fixture &f = made.f;
        Lesson &l = made.lesson;
        QVERIFY(l.id > 0);
        LessonRepo repo(store);
        auto back = repo.findByName(l.name);
        QVERIFY(back.ok() && back->has_value());
        QCOMPARE((*back)->steps.size(), 4);
        QCOMPARE((*back)->steps[2].kernelId, f.k3);
        QCOMPARE((*back)->steps[2].note, u"three"_s);

        // A teacher reorders and renames.
        Lesson edited = **back;
        edited.steps = *lessons::moveStep(edited.steps, 3, 0);
        edited.title = u"Renamed"_s;
        QVERIFY(saveLesson(store, edited).ok());
        auto list = repo.list();
        QVERIFY(list.ok());
        QCOMPARE(list->size(), 1);
        QCOMPARE(list->at(0).title, u"Renamed"_s);
        QCOMPARE(list->at(0).steps.at(0).kernelId, f.k4);
        QCOMPARE(list->at(0).steps.at(1).kernelId, f.k1);

        Lesson empty;
        empty.name = u"empty"_s;
        const Status refused = saveLesson(store, empty);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().contains(u"has no steps"_s), qPrintable(refused.error()));
        Lesson twin = fixedLesson(f);
        const Status taken = saveLesson(store, twin);
        QVERIFY(!taken.ok());
        QVERIFY(taken.error().contains(u"already in the store"_s));
        QCOMPARE(repo.list()->size(), 1);

        // Deleting a kernel takes its steps with it (the store's foreign keys).
        QVERIFY(repo.remove(l.id).ok());
        QCOMPARE(repo.list()->size(), 0);
    }

    // Deleting a kernel takes the steps that show it (the store's foreign keys), and undoing the deletion puts them
    // back in their place.
    void kernelDeletionTakesItsStepsAndUndoRestoresThem()
    {
        LessonStore made;
        QVERIFY(made.make(LessonStore::KernelsAndLesson));
        Store &store = made.store();
        const Fixture &f = made.f;
        Lesson &l = made.lesson;
        const DeletionRequest request = DeletionRequest::of(RowKind::Kernel, {f.k2});
        auto plan = planDeletion(store, request);
        QVERIFY(plan.ok());
        QCOMPARE(plan->deleted.value(u"lesson_steps"_s), 1);
        auto deleted = deleteRows(store, request);
        QVERIFY2(deleted.ok(), qPrintable(deleted.error()));
        auto after = LessonRepo(store).findByName(l.name);
        QCOMPARE((*after)->steps.size(), 3);
        QVERIFY(restoreRows(store, *deleted).ok());
        auto restored = LessonRepo(store).findByName(l.name);
        QCOMPARE((*restored)->steps.size(), 4);
        QCOMPARE((*restored)->steps.at(1).kernelId, f.k2);
        QCOMPARE((*restored)->steps.at(1).note, u"two"_s);
    }

    void operationLessonsFollowTheCorpus()
    {
        LessonStore made;
        QVERIFY(made.make(LessonStore::Kernels));
        Store &store = made.store();
        const Fixture &f = made.f;
        auto report = lessons::generateLessons(store, true, {});
        QVERIFY2(report.ok(), qPrintable(report.error()));
        QCOMPARE(report->added, QStringList {u"operation/scale"_s});
        QCOMPARE(report->lessonIds.size(), 1);
        QVERIFY(report->kernelIds.isEmpty()); // an operation lesson stores no kernel
        auto lesson = LessonRepo(store).findByName(u"operation/scale"_s);
        QVERIFY(lesson.ok() && lesson->has_value());
        const Lesson &l = **lesson;
        QCOMPARE(l.kind, LessonKind::Operation);
        QCOMPARE(l.steps.size(), 4); // every variant but the reference, in corpus order, against its parent
        QCOMPARE(l.steps[0].kernelId, f.k1);
        QCOMPARE(l.steps[0].referenceKernelId, f.r);
        QCOMPARE(l.steps[2].kernelId, f.k3);
        QCOMPARE(l.steps[2].referenceKernelId, f.k2);
        QCOMPARE(l.steps[2].note, u"note three"_s);
        // Generating again keeps what is stored.
        auto again = lessons::generateLessons(store, true, {});
        QVERIFY(again.ok());
        QVERIFY(again->added.isEmpty());
        QVERIFY(again->lessonIds.isEmpty());
        QCOMPARE(again->kept, QStringList {u"operation/scale"_s});
    }

    void familyLessonWalksConfigurations()
    {
        QTemporaryDir dir;
        auto store = Store::open(dir.filePath(u"s.gpuf"_s));
        QVERIFY(store.ok());
        auto family = families::findFamily(u"sgemm_tiled"_s);
        QVERIFY2(family.ok(), qPrintable(family.error()));
        // Without its problem the family is skipped, saying why.
        auto skipped = lessons::generateLessons(**store, false, {*family});
        QVERIFY(skipped.ok());
        QCOMPARE(skipped->skipped.size(), 1);
        QVERIFY(skipped->skipped.first().contains(u"no problem 'sgemm'"_s));

        Problem p;
        p.name = u"sgemm"_s;
        const RowId problem = *ProblemRepo(**store).insert(p);
        const RowId reference = corpusKernel(**store, problem, u"v0_naive"_s, 0, {});
        QVERIFY(ProblemRepo(**store).setReferenceKernel(problem, reference).ok());
        auto report = lessons::generateLessons(**store, false, {*family});
        QVERIFY2(report.ok(), qPrintable(report.error()));
        QCOMPARE(report->added, QStringList {u"family/sgemm_tiled"_s});
        auto lesson = LessonRepo(**store).findByName(u"family/sgemm_tiled"_s);
        QVERIFY(lesson.ok() && lesson->has_value());
        const Lesson &l = **lesson;
        QCOMPARE(l.kind, LessonKind::Family);
        QVERIFY(l.steps.size() >= 3);
        QCOMPARE(l.steps.first().referenceKernelId, reference);
        // The report names the walk's kernels (what the explorer announces as added kernels) and the lesson.
        QList<RowId> walked;
        for (const LessonStep &step : l.steps)
            walked.append(step.kernelId);
        std::sort(walked.begin(), walked.end());
        QCOMPARE(report->kernelIds, walked);
        QCOMPARE(report->lessonIds, QList<RowId> {l.id});
        KernelRepo kernels(**store);
        for (qsizetype i = 1; i < l.steps.size(); ++i) {
            QCOMPARE(l.steps[i].referenceKernelId, l.steps[i - 1].kernelId); // a walk: each step from the last
            QVERIFY(l.steps[i].note.contains(u" → "_s));
        }
        // The walk ends at the family's default (tuned) configuration.
        auto last = kernels.find(l.steps.last().kernelId);
        QVERIFY(last.ok() && last->has_value());
        auto config = families::configurationOfParameters(*family, (*last)->parameters);
        QVERIFY(config.ok());
        QCOMPARE(*config, families::defaultConfiguration(*family));
    }

    // The student is a forecaster like any other: the metrics of their stored answers equal core/metrics over the
    // fixed table, through the class report and through the metrics table's path (computeStoreMetrics).
    void humanForecasterScoredBySameMetrics()
    {
        LessonStore made;
        QVERIFY(made.make(LessonStore::KernelsAndLesson));
        Store &store = made.store();
        const Fixture &f = made.f;
        Lesson &l = made.lesson;
        auto student = lessons::ensureStudent(store, u"Demo Student"_s);
        QVERIFY2(student.ok(), qPrintable(student.error()));
        QCOMPARE(student->kind, ForecasterKind::Human);
        std::vector<metrics::ScoredRow> expected;
        int step = 0;
        for (const AnswerRow &a : answerTable(f)) {
            ++step;
            lessons::Answer answer {student->id, l.name, step, f.r, a.kernel, a.p, a.bin, u"because"_s};
            auto ids = lessons::saveAnswer(store, answer);
            QVERIFY2(ids.ok(), qPrintable(ids.error()));
            QCOMPARE(ids->size(), 1); // one GPU measured the pair
            metrics::ScoredRow row;
            row.pairId = a.kernel;
            row.forecastId = ids->first();
            row.poolKey = f.r;
            row.forecasterId = student->id;
            row.problemId = f.problem;
            row.hardwareId = f.gpu;
            row.p = a.p;
            row.predictedBin = a.bin;
            row.parsed = true;
            row.trueBin = a.trueBin;
            expected.push_back(row);
        }
        const metrics::MetricsReport direct = metrics::computeReport(expected);
        QCOMPARE(direct.scalar(metrics::Scalar::Accuracy), 0.5);
        QCOMPARE(direct.scalar(metrics::Scalar::WithinOne), 0.75);

        auto report = lessons::classReport(store, l.name);
        QVERIFY2(report.ok(), qPrintable(report.error()));
        QCOMPARE(report->entries.size(), 1);
        const lessons::StudentLessonReport &e = report->entries.first();
        QCOMPARE(e.student, u"Demo Student"_s);
        QCOMPARE(e.answeredSteps, 4);
        for (metrics::Scalar s : {metrics::Scalar::Accuracy, metrics::Scalar::WithinOne, metrics::Scalar::BrierHalf,
                 metrics::Scalar::Ece, metrics::Scalar::Nll})
            QCOMPARE(e.report->scalar(s), direct.scalar(s));
        // Most wrong first: step 4 (off by three), then step 2.
        QCOMPARE(e.mostWrong.size(), 2);
        QCOMPARE(e.mostWrong[0].step, 4);
        QCOMPARE(e.mostWrong[1].step, 2);
        QCOMPARE(lessons::stepResultText(e.mostWrong[0]), u"step 4 (v4, GPU one): said bin 5, was bin 8"_s);

        auto pairs = loadScoredPairs(store, {});
        QVERIFY(pairs.ok());
        const metrics::StoreMetrics all = metrics::computeStoreMetrics(*pairs);
        bool found = false;
        for (const metrics::ForecasterReport &r : all.reports) {
            if (r.forecaster.id != student->id)
                continue;
            found = true;
            QCOMPARE(r.forecaster.label(), u"Demo Student"_s);
            for (metrics::Scalar s : {metrics::Scalar::Accuracy, metrics::Scalar::WithinOne, metrics::Scalar::BrierHalf,
                     metrics::Scalar::Ece})
                QCOMPARE(r.report.scalar(s), direct.scalar(s));
        }
        QVERIFY(found);

        const QString csv = lessons::classReportCsv(*report);
        const QStringList lines = csv.trimmed().split(u'\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith(u"student,lesson,steps,answered_steps"_s));
        QVERIFY2(lines[1].startsWith(u"Demo Student,custom/scale,4,4,4,0.5000,0.7500,"_s), qPrintable(lines[1]));
        QVERIFY(lines[1].contains(u"\"step 4 (v4, GPU one): said bin 5, was bin 8; step 2"_s));
    }

    void badAnswersRefused()
    {
        LessonStore made;
        QVERIFY(made.make(LessonStore::Kernels));
        Store &store = made.store();
        const Fixture &f = made.f;
        auto student = lessons::ensureStudent(store, u"Ada"_s);
        QVERIFY(student.ok());
        lessons::Answer zeros {student->id, u"l"_s, 1, f.r, f.k1, {}, 4, {}};
        auto refused = lessons::saveAnswer(store, zeros);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().contains(u"sum to 0"_s), qPrintable(refused.error()));
        lessons::Answer notStudent {
            insertForecaster(store, u"model"_s), u"l"_s, 1, f.r, f.k1, lessons::pointDistribution(4), 4, {}};
        QVERIFY(!lessons::saveAnswer(store, notStudent).ok());
        QVERIFY(!lessons::ensureStudent(store, u"  "_s).ok());
        QCOMPARE(ForecastRepo(store).list()->size(), 0);
        // A student named with the answer exists only once an answer is stored: a refused one (its kernel is gone)
        // leaves no new profile behind; an accepted one makes it.
        const qsizetype forecastersBefore = ForecasterRepo(store).list()->size();
        lessons::Answer newcomer {0, u"l"_s, 1, f.r, 999999, lessons::pointDistribution(4), 4, {}, u"Grace"_s};
        const auto gone = lessons::saveAnswer(store, newcomer);
        QVERIFY(!gone.ok());
        QVERIFY2(gone.error().contains(u"kernel 999999 of the answered step is no longer in the store"_s),
            qPrintable(gone.error()));
        QCOMPARE(ForecasterRepo(store).list()->size(), forecastersBefore);
        QVERIFY(!ForecasterRepo(store).findByName(u"student:Grace"_s)->has_value());
        newcomer.kernelId = f.k1;
        QVERIFY(lessons::saveAnswer(store, newcomer).ok());
        QCOMPARE(ForecasterRepo(store).list()->size(), forecastersBefore + 1);
        QCOMPARE((*ForecasterRepo(store).findByName(u"student:Grace"_s))->kind, ForecasterKind::Human);
    }

    // The writes the explorer and the CLI share check what they are given against the store: a deleted kernel (which
    // takes its steps with it, so step 2 now shows another pair), an unknown lesson or step, an empty title — each
    // refused with a sentence saying what is wrong, and nothing stored changes.
    void lessonWritesRefuseWhatTheStoreNoLongerHas()
    {
        LessonStore made;
        QVERIFY(made.make(LessonStore::KernelsAndLesson));
        Store &store = made.store();
        const Fixture &f = made.f;
        const Lesson before = made.lesson;
        auto student = lessons::ensureStudent(store, u"Ada"_s);
        QVERIFY(student.ok());
        auto answer = [&](const QString &lesson, int step, RowId shownReference, RowId shownKernel) {
            return lessons::answerStep(
                store, {student->id, lesson, step, peaked(6, 0.7), 6, u"tiles"_s, shownReference, shownKernel});
        };
        auto stored = answer(before.name, 1, f.r, f.k1);
        QVERIFY2(stored.ok(), qPrintable(stored.error()));
        QCOMPARE(stored->kernelId, f.k1);
        QCOMPARE(stored->referenceId, f.r);
        QCOMPARE(stored->forecastIds.size(), 1);

        // A one-step lesson through K2 alone, left without steps once K2 is gone.
        auto single = lessons::lessonFromKernels(store, {f.r, f.k2}, u"  Just two  "_s);
        QVERIFY2(single.ok(), qPrintable(single.error()));
        QCOMPARE(single->name, u"custom/Just two"_s);
        QVERIFY(deleteRows(store, DeletionRequest::of(RowKind::Kernel, {f.k2})).ok());

        const QString gone = u"kernel %1 is no longer in the store"_s.arg(f.k2);
        struct Refusal
        {
            Result<lessons::StoredAnswer> result;
            QString error;
        };
        const QList<Refusal> refusals {
            {answer(u"custom/none"_s, 1, 0, 0), u"no lesson named 'custom/none' in the store"_s},
            {answer(before.name, 4, 0, 0), u"lesson 'custom/scale' has steps 1 to 3, not 4"_s},
            {answer(before.name, 2, f.r, f.k2), u"step 2 of lesson 'Scale, four ways' changed since it was shown"_s},
        };
        for (const Refusal &r : refusals) {
            QVERIFY(!r.result.ok());
            QVERIFY2(r.result.error().contains(r.error), qPrintable(r.result.error()));
        }
        const auto direct = lessons::saveAnswer(
            store, {student->id, before.name, 2, f.r, f.k2, lessons::pointDistribution(3), 3, {}});
        QVERIFY(!direct.ok());
        QCOMPARE(direct.error(), u"kernel %1 of the answered step is no longer in the store"_s.arg(f.k2));

        const auto edited = lessons::saveEditedLesson(store, before); // still names K2 in step 2
        QVERIFY(!edited.ok());
        QCOMPARE(edited.error(), u"step 2: "_s + gone);
        const auto fromGone = lessons::lessonFromKernels(store, {f.r, f.k2}, u"Gone"_s);
        QVERIFY(!fromGone.ok());
        QCOMPARE(fromGone.error(), gone);
        const auto untitled = lessons::lessonFromKernels(store, {f.r, f.k1}, u"   "_s);
        QVERIFY(!untitled.ok());
        QCOMPARE(untitled.error(), u"a lesson needs a title"_s);

        // Nothing changed: one answer stored, the lesson as the deletion left it, no new lesson.
        QCOMPARE(ForecastRepo(store).list()->size(), 1);
        auto all = lessons::readLessonCatalog(store, lessons::LessonFilter::All);
        QVERIFY(all.ok());
        QCOMPARE(all->lessons.size(), 2);
        QCOMPARE(all->lessons.at(0).steps.size(), 3);
        QCOMPARE(all->lessons.at(1).steps.size(), 0);
        QCOMPARE(all->students.size(), 1);
        QCOMPARE(all->students.first().displayName, u"Ada"_s);
        // The dock lists only lessons with a step to show; `gpuf lessons list` lists every one.
        auto shown = lessons::readLessonCatalog(store, lessons::LessonFilter::WithSteps);
        QVERIFY(shown.ok());
        QCOMPARE(shown->lessons.size(), 1);
        QCOMPARE(shown->lessons.first().name, before.name);
    }

    void bundleRoundTrip()
    {
        QTemporaryDir dir;
        const QString bundle = dir.filePath(u"b.jsonl"_s);
        {
            auto store = Store::open(dir.filePath(u"a.gpuf"_s));
            QVERIFY(store.ok());
            const Fixture f = buildFixture(**store);
            Lesson l = fixedLesson(f);
            QVERIFY(saveLesson(**store, l).ok());
            auto student = lessons::ensureStudent(**store, u"Ada"_s);
            lessons::Answer a {student->id, l.name, 1, f.r, f.k1, peaked(6, 0.7), 6, u"tiles"_s};
            QVERIFY(lessons::saveAnswer(**store, a).ok());
            QVERIFY(interop::exportBundle(**store, bundle).ok());
        }
        auto copy = Store::open(dir.filePath(u"b.gpuf"_s));
        QVERIFY(copy.ok());
        auto imported = interop::importFiles(**copy, {bundle});
        QVERIFY2(imported.ok(), qPrintable(imported.error()));
        QCOMPARE(imported->total(u"lesson"_s).added, 1);
        QVERIFY(imported->text().contains(u"1 lesson"_s));
        auto lesson = LessonRepo(**copy).findByName(u"custom/scale"_s);
        QVERIFY(lesson.ok() && lesson->has_value());
        QCOMPARE((*lesson)->steps.size(), 4);
        QCOMPARE((*lesson)->steps[3].note, u"four"_s);
        auto students = lessons::students(**copy);
        QCOMPARE(students->size(), 1);
        QCOMPARE(students->first().displayName, u"Ada"_s);
        // The same bundle exported again is byte-identical, and importing it twice adds no second lesson.
        const QString again = dir.filePath(u"again.jsonl"_s);
        QVERIFY(interop::exportBundle(**copy, again).ok());
        QFile a(bundle), b(again);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), a.readAll());
        auto twice = interop::importFiles(**copy, {bundle});
        QVERIFY(twice.ok());
        QCOMPARE(twice->total(u"lesson"_s).added, 0);
    }

    void badLessonRecords_data()
    {
        QTest::addColumn<QByteArray>("lesson");
        QTest::addColumn<QString>("error");
        const QByteArray hash(64, 'a');
        QTest::newRow("missing kernel")
            << (R"({"type":"lesson","name":"l","kind":"custom","steps":[{"reference":{"problem":"p","hash":")" + hash
                   + R"("},"kernel":{"problem":"p","hash":")" + hash + R"("},"note":""}]})")
            << u"b.jsonl:3: field 'steps[0].reference.hash': no kernel with hash"_s;
        QTest::newRow("empty lesson") << QByteArray(R"({"type":"lesson","name":"l","kind":"custom","steps":[]})")
                                      << u"b.jsonl:3: field 'steps': a lesson has at least one step"_s;
        QTest::newRow("bad kind") << QByteArray(R"({"type":"lesson","name":"l","kind":"exam","steps":[]})")
                                  << u"field 'kind': 'exam' is not one of operation, family, custom"_s;
        QTest::newRow("step not an object") << QByteArray(R"({"type":"lesson","name":"l","kind":"custom","steps":[3]})")
                                            << u"field 'steps[0]': expected an object"_s;
    }
    void badLessonRecords()
    {
        QFETCH(QByteArray, lesson);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const QByteArray text = R"({"type":"header","format":"gpuf-bundle","version":1})"
                                "\n"
                                R"({"type":"problem","name":"p"})"
                                "\n"
            + lesson + "\n";
        const QString path = writeFile(dir, u"b.jsonl"_s, text);
        auto store = Store::open(dir.filePath(u"s.gpuf"_s));
        QVERIFY(store.ok());
        auto imported = interop::importFiles(**store, {path});
        QVERIFY(!imported.ok());
        QVERIFY2(imported.error().contains(error), qPrintable(imported.error()));
        QCOMPARE((*store)->counts()->problems, 0); // nothing half-imported
        QCOMPARE(LessonRepo(**store).list()->size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestLessonsStore)
#include "tst_lessons_store.moc"
