// Tests for the lessons' pure rules: validation, step order (move, remove, next, previous), steps from a teacher's
// selection, the student's distribution (always normalised; zeros, negatives and NaN refused), the step score, the
// family walk rule, and which lesson and student the Lessons dock keeps when it reads the catalog again.
#include "core/domain/lesson.h"
#include "core/lessons/lesson_generation.h"
#include "core/lessons/lesson_reads.h"
#include "core/lessons/student_answer.h"
#include "core/metrics/calibration.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace gpuf;
using namespace gpuf::lessons;
using namespace Qt::StringLiterals;

namespace {

QList<LessonStep> threeSteps() { return {{0, 1, 2, u"a"_s}, {0, 2, 3, u"b"_s}, {0, 3, 4, u"c"_s}}; }

QString notesOf(const QList<LessonStep> &steps)
{
    QString out;
    for (const LessonStep &s : steps)
        out += s.note;
    return out;
}

double sumOf(const bins::Distribution &p)
{
    double s = 0.0;
    for (double v : p)
        s += v;
    return s;
}

families::KernelFamily twoTunableFamily()
{
    families::KernelFamily f;
    f.name = u"toy"_s;
    f.tunables = {{u"A"_s, {1, 2, 4}, 4, u"a note"_s}, {u"B"_s, {8, 16, 32}, 32, u"b note"_s}};
    return f;
}

} // namespace

class TestLessons : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validation_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QList<LessonStep>>("steps");
        QTest::addColumn<QString>("error"); // empty: valid
        QTest::newRow("valid") << u"l"_s << threeSteps() << QString();
        QTest::newRow("no name") << u"  "_s << threeSteps() << u"needs a name"_s;
        QTest::newRow("empty lesson") << u"l"_s << QList<LessonStep> {} << u"has no steps"_s;
        QTest::newRow("itself") << u"l"_s << QList<LessonStep> {{0, 1, 2, {}}, {0, 5, 5, {}}}
                                << u"step 2: compares kernel 5 with itself"_s;
        QTest::newRow("no kernel") << u"l"_s << QList<LessonStep> {{0, 0, 2, {}}} << u"step 1: names no kernel"_s;
    }
    void validation()
    {
        QFETCH(QString, name);
        QFETCH(QList<LessonStep>, steps);
        QFETCH(QString, error);
        Lesson l;
        l.name = name;
        l.steps = steps;
        const Status s = validate(l);
        QCOMPARE(s.ok(), error.isEmpty());
        if (!error.isEmpty())
            QVERIFY2(s.error().contains(error), qPrintable(s.error()));
    }

    void moveAndRemove()
    {
        auto moved = moveStep(threeSteps(), 0, 2);
        QVERIFY(moved.ok());
        QCOMPARE(notesOf(*moved), u"bca"_s);
        moved = moveStep(threeSteps(), 2, 0);
        QCOMPARE(notesOf(*moved), u"cab"_s);
        QVERIFY(!moveStep(threeSteps(), 3, 0).ok());
        QVERIFY(!moveStep(threeSteps(), 0, -1).ok());
        auto removed = removeStep(threeSteps(), 1);
        QVERIFY(removed.ok());
        QCOMPARE(notesOf(*removed), u"ac"_s);
        QVERIFY(!removeStep({{0, 1, 2, {}}}, 0).ok()); // a lesson keeps one step
    }

    void walking_data()
    {
        QTest::addColumn<int>("current");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("next");
        QTest::addColumn<int>("previous");
        QTest::newRow("first") << 0 << 3 << 1 << 0;
        QTest::newRow("middle") << 1 << 3 << 2 << 0;
        QTest::newRow("last") << 2 << 3 << 2 << 1;
        QTest::newRow("empty") << 0 << 0 << -1 << -1;
        QTest::newRow("one") << 0 << 1 << 0 << 0;
    }
    void walking()
    {
        QFETCH(int, current);
        QFETCH(int, count);
        QFETCH(int, next);
        QFETCH(int, previous);
        QCOMPARE(nextStep(current, count), next);
        QCOMPARE(previousStep(current, count), previous);
    }

    void selection()
    {
        // 10 ← 11 ← 13, 10 ← 12; given out of lineage order, plus a duplicate.
        const QList<SelectedKernel> kernels {{13, 11, 1, u" n13 "_s}, {10, 0, 1, u"n10"_s}, {12, 10, 1, u"n12"_s},
            {11, 10, 1, u"n11"_s}, {13, 11, 1, u"n13"_s}};
        auto steps = stepsFromSelection(kernels);
        QVERIFY2(steps.ok(), qPrintable(steps.error()));
        QCOMPARE(steps->size(), 3);
        // 10 first (no selected ancestor), then 12 (its ancestor 10 placed), 11, then 13 once 11 is placed.
        QCOMPARE(steps->at(0).referenceKernelId, 10);
        QCOMPARE(steps->at(0).kernelId, 12);
        QCOMPARE(steps->at(1).referenceKernelId, 10);
        QCOMPARE(steps->at(1).kernelId, 11);
        QCOMPARE(steps->at(2).referenceKernelId, 11);
        QCOMPARE(steps->at(2).kernelId, 13);
        QCOMPARE(steps->at(2).note, u"n13"_s);

        // Unrelated kernels: each compared with the one before it.
        auto plain = stepsFromSelection({{5, 0, 1, {}}, {7, 0, 1, {}}, {6, 0, 1, {}}});
        QVERIFY(plain.ok());
        QCOMPARE(plain->at(0).referenceKernelId, 5);
        QCOMPARE(plain->at(1).referenceKernelId, 7);
        QCOMPARE(plain->at(1).kernelId, 6);

        auto one = stepsFromSelection({{5, 0, 1, {}}});
        QVERIFY(!one.ok());
        QVERIFY(one.error().contains(u"at least two kernels"_s));
        auto mixed = stepsFromSelection({{5, 0, 1, {}}, {6, 0, 2, {}}});
        QVERIFY(!mixed.ok());
        QVERIFY(mixed.error().contains(u"different problems"_s));
    }

    void normalisation_data()
    {
        QTest::addColumn<QList<double>>("weights");
        QTest::addColumn<QList<double>>("expected"); // empty: refused
        QTest::addColumn<QString>("error");
        QTest::newRow("already one") << QList<double> {0, 0, 0, 0.5, 0.5, 0, 0, 0}
                                     << QList<double> {0, 0, 0, 0.5, 0.5, 0, 0, 0} << QString();
        QTest::newRow("slider units") << QList<double> {0, 0, 10, 30, 60, 0, 0, 0}
                                      << QList<double> {0, 0, 0.1, 0.3, 0.6, 0, 0, 0} << QString();
        QTest::newRow("one bin") << QList<double> {0, 0, 0, 0, 0, 0, 0, 3} << QList<double> {0, 0, 0, 0, 0, 0, 0, 1}
                                 << QString();
        QTest::newRow("zeros") << QList<double>(8, 0.0) << QList<double> {} << u"zero weight"_s;
        QTest::newRow("negative") << QList<double> {0, -1, 0, 2, 0, 0, 0, 0} << QList<double> {} << u"bin 2"_s;
        QTest::newRow("nan") << QList<double> {0, 0, 0, std::numeric_limits<double>::quiet_NaN(), 1, 0, 0, 0}
                             << QList<double> {} << u"bin 4"_s;
    }
    void normalisation()
    {
        QFETCH(QList<double>, weights);
        QFETCH(QList<double>, expected);
        QFETCH(QString, error);
        std::array<double, 8> w {};
        std::copy(weights.begin(), weights.end(), w.begin());
        auto p = normalisedDistribution(w);
        QCOMPARE(p.ok(), !expected.isEmpty());
        if (!p.ok()) {
            QVERIFY2(p.error().contains(error), qPrintable(p.error()));
            return;
        }
        for (int b = 0; b < 8; ++b)
            QVERIFY(std::abs((*p)[b] - expected[b]) < 1e-12);
        QVERIFY(std::abs(sumOf(*p) - 1.0) < 1e-12);
    }

    // Every slider move keeps the sum at 1, whatever the starting point and the share asked for.
    void sliderEditsStayNormalised()
    {
        bins::Distribution p = pointDistribution(4);
        const QList<std::pair<int, double>> moves {{4, 0.5}, {5, 0.3}, {1, 1.0}, {1, 0.0}, {8, 1.7}, {3, -2.0},
            {2, std::numeric_limits<double>::quiet_NaN()}, {6, 0.25}};
        for (const auto &[bin, share] : moves) {
            p = withShare(p, bin, share);
            QVERIFY2(std::abs(sumOf(p) - 1.0) < 1e-12, qPrintable(QString::number(bin)));
            for (double v : p)
                QVERIFY(v >= 0.0 && v <= 1.0);
        }
        // Setting a bin's share keeps the other bins' proportions.
        bins::Distribution q {0, 0, 0.2, 0.6, 0.2, 0, 0, 0};
        q = withShare(q, 4, 0.2);
        QVERIFY(std::abs(q[2] - 0.4) < 1e-12);
        QVERIFY(std::abs(q[4] - 0.4) < 1e-12);
        // From all on one bin to zero on it: the rest spreads evenly.
        q = withShare(pointDistribution(1), 1, 0.0);
        QVERIFY(std::abs(q[7] - 1.0 / 7.0) < 1e-12);
    }

    void scoring()
    {
        const bins::Distribution p {0, 0, 0, 0.2, 0.7, 0.1, 0, 0};
        const StepScore hit = scoreAnswer(p, answerBin(p), 5);
        QCOMPARE(hit.predictedBin, 5);
        QVERIFY(hit.hit());
        QCOMPARE(hit.brier, metrics::brierHalf(p, 5));
        QVERIFY(std::abs(hit.logScore - std::log(0.7)) < 1e-12);
        const StepScore off = scoreAnswer(p, 5, 8);
        QCOMPARE(off.offBy, 3);
        QVERIFY(!off.hit());
        QVERIFY(std::abs(off.logScore - std::log(1e-12)) < 1e-9); // floored as the metrics' NLL
        QVERIFY(std::abs(off.brier - 0.5 * (0.04 + 0.49 + 0.01 + 1.0)) < 1e-12);
    }

    void familyWalkRule()
    {
        const families::KernelFamily f = twoTunableFamily();
        // Every combination valid: the walk jumps A to its default, then B.
        QList<families::Configuration> all;
        for (qint64 a : {1, 2, 4})
            for (qint64 b : {8, 16, 32})
                all.append({a, b});
        auto walk = familyWalk(f, all);
        QVERIFY(walk.ok());
        QCOMPARE(walk->start, (families::Configuration {1, 8}));
        QCOMPARE(walk->steps.size(), 2);
        QCOMPARE(walk->steps[0].configuration, (families::Configuration {4, 8}));
        QCOMPARE(walk->steps[0].tunable, 0);
        QCOMPARE(walk->steps[1].configuration, (families::Configuration {4, 32}));

        // A = 4 only with B = 32, and B = 32 only with A >= 2: B cannot jump first, so A moves one step (to 2),
        // then B jumps, then A reaches its default.
        QList<families::Configuration> constrained;
        for (const families::Configuration &c : std::as_const(all)) {
            if ((c[0] == 4 && c[1] != 32) || (c[1] == 32 && c[0] < 2))
                continue;
            constrained.append(c);
        }
        walk = familyWalk(f, constrained);
        QVERIFY(walk.ok());
        QCOMPARE(walk->steps.size(), 3);
        QCOMPARE(walk->steps[0].configuration, (families::Configuration {2, 8}));
        QCOMPARE(walk->steps[1].configuration, (families::Configuration {2, 32}));
        QCOMPARE(walk->steps[2].configuration, (families::Configuration {4, 32}));

        QVERIFY(!familyWalk(f, {}).ok());
    }

    // The catalog read again: two lessons, one titled "Scale" (id 7) and one named "custom/b" without a title (id 9);
    // students 3 and 5.
    void catalogChoice_data()
    {
        QTest::addColumn<QString>("shownLabel");
        QTest::addColumn<qint64>("shownStudent");
        QTest::addColumn<qint64>("lesson");
        QTest::addColumn<qint64>("student");
        QTest::addColumn<bool>("sameLesson");
        QTest::newRow("both still there") << u"custom/b"_s << qint64(5) << qint64(9) << qint64(5) << true;
        QTest::newRow("by label, not id") << u"Scale"_s << qint64(3) << qint64(7) << qint64(3) << true;
        QTest::newRow("lesson renamed or gone") << u"Old title"_s << qint64(5) << qint64(7) << qint64(5) << false;
        QTest::newRow("nothing shown before") << QString() << qint64(0) << qint64(7) << qint64(3) << false;
        QTest::newRow("student gone") << u"Scale"_s << qint64(4) << qint64(7) << qint64(3) << true;
    }
    void catalogChoice()
    {
        QFETCH(QString, shownLabel);
        QFETCH(qint64, shownStudent);
        QFETCH(qint64, lesson);
        QFETCH(qint64, student);
        QFETCH(bool, sameLesson);
        LessonCatalog catalog;
        Lesson scale;
        scale.id = 7;
        scale.name = u"custom/scale"_s;
        scale.title = u"Scale"_s;
        Lesson b;
        b.id = 9;
        b.name = u"custom/b"_s;
        catalog.lessons = {scale, b};
        Forecaster ada;
        ada.id = 3;
        Forecaster bob;
        bob.id = 5;
        catalog.students = {ada, bob};
        const CatalogChoice choice = chooseInCatalog(catalog, shownLabel, shownStudent);
        QCOMPARE(choice.lessonId, lesson);
        QCOMPARE(choice.studentId, student);
        QCOMPARE(choice.sameLesson, sameLesson);

        const CatalogChoice none = chooseInCatalog({}, shownLabel, shownStudent);
        QCOMPARE(none.lessonId, RowId(0));
        QCOMPARE(none.studentId, RowId(0));
        QVERIFY(!none.sameLesson);
    }
};

QTEST_GUILESS_MAIN(TestLessons)
#include "tst_lessons.moc"
