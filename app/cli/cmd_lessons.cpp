// gpuf lessons: the store's lessons (list), the generated ones (generate: one per corpus operation, and with
// --families one per shipped kernel family), a student's answer to a step (answer: scripted classes and the sample
// store's demo student), and the class report (report, as a table or CSV). The PDF report is the explorer's.
#include "app/cli/invocation.h"
#include "app/cli/option_names.h"
#include "core/lessons/class_report.h"
#include "core/lessons/lesson_answers.h"
#include "core/lessons/lesson_reads.h"
#include "core/lessons/lesson_writes.h"
#include "core/lessons/student_answer.h"
#include "core/store/lesson_repo.h"
#include "core/store/store.h"

#include <QFile>
#include <QSaveFile>

namespace gpuf::cli {
namespace {

const QString kLesson = QStringLiteral("lesson");
const QString kStudent = QStringLiteral("student");
const QString kStep = QStringLiteral("step");
const QString kBin = QStringLiteral("bin");
const QString kProbabilities = QStringLiteral("probabilities");
const QString kReasoning = QStringLiteral("reasoning");
const QString kFamilies = QStringLiteral("families");

QList<Option> lessonsOptions()
{
    return {
        Option::text(kLesson, QStringLiteral("L"), QStringLiteral("The lesson (by name).")),
        Option::text(kStudent, QStringLiteral("NAME"),
            QStringLiteral("answer: the student's name (a profile is made when missing).")),
        Option::text(kStep, QStringLiteral("N"), QStringLiteral("answer: the step (1 = the first).")),
        Option::integer(kBin, QStringLiteral("B"), QStringLiteral("answer: the bin the student predicts (1..8)."))
            .atLeast(1)
            .atMost(bins::kBinCount)
            .refusedAs(QStringLiteral("%1: bins are 1 to 8")),
        Option::text(kProbabilities, QStringLiteral("P1,…,P8"),
            QStringLiteral("answer: the student's weights over bins 1..8, comma-separated (normalised to sum to 1).")),
        Option::text(
            kReasoning, QStringLiteral("TEXT"), QStringLiteral("answer: the student's reasoning, one sentence.")),
        Option::flag(kFamilies, QStringLiteral("generate: also one lesson per shipped kernel family.")),
        Option::text(kCsv, QStringLiteral("FILE"),
            QStringLiteral("report: write the report as CSV to FILE ('-': standard output).")),
    };
}

int listLessons(Invocation &run, Store &store)
{
    auto catalog = lessons::readLessonCatalog(store, lessons::LessonFilter::All);
    if (!catalog)
        return run.bad(catalog.error());
    for (const Lesson &l : std::as_const(catalog->lessons))
        run.out() << l.name << "\t" << lessonKindName(l.kind) << "\t" << l.steps.size() << " steps\t" << l.label()
                  << "\n";
    for (const Forecaster &s : std::as_const(catalog->students))
        run.out() << "student\t" << s.displayName << "\n";
    return Success;
}

int generateLessons(Invocation &run, Store &store)
{
    auto report = lessons::generateShippedLessons(store, run.isSet(kFamilies));
    if (!report)
        return run.bad(report.error());
    run.out() << report->text() << "\n";
    return Success;
}

// --bin B or --probabilities P1,…,P8: the student's distribution over the bins.
Result<bins::Distribution> distributionFromOptions(const Invocation &run)
{
    if (run.isSet(kBin)) {
        auto given = run.checkOptions({kBin});
        if (!given)
            return given.failure();
        return lessons::pointDistribution(given->integer(kBin));
    }
    const QStringList parts = run.value(kProbabilities).split(QLatin1Char(','));
    if (parts.size() != bins::kBinCount)
        return Error {QStringLiteral("--probabilities: give 8 weights, one per bin (got %1)").arg(parts.size())};
    std::array<double, bins::kBinCount> weights {};
    for (int b = 0; b < bins::kBinCount; ++b) {
        bool ok = false;
        weights[std::size_t(b)] = parts.at(b).trimmed().toDouble(&ok);
        if (!ok)
            return Error {QStringLiteral("--probabilities: '%1' is not a number").arg(parts.at(b))};
    }
    auto normalised = lessons::normalisedDistribution(weights);
    if (!normalised)
        return Error {QStringLiteral("--probabilities: ") + normalised.error()};
    return *normalised;
}

Result<lessons::StepAnswer> answerFromOptions(const Invocation &run, Store &store)
{
    if (!run.isSet(kLesson) || !run.isSet(kStudent) || !run.isSet(kStep)
        || (run.isSet(kBin) == run.isSet(kProbabilities)))
        return Error {QStringLiteral("give --lesson, --student, --step and one of --bin or --probabilities")};
    auto lesson = LessonRepo(store).findByName(run.value(kLesson));
    if (!lesson)
        return Error {lesson.error()};
    if (!lesson->has_value())
        return Error {QStringLiteral("no lesson named '%1' in the store").arg(run.value(kLesson))};
    // The steps are the lesson's: the range is known only now.
    bool ok = false;
    const int step = run.value(kStep).toInt(&ok);
    if (!ok || step < 1 || step > (*lesson)->steps.size())
        return Error {QStringLiteral("--step %1: lesson '%2' has steps 1 to %3")
                          .arg(run.value(kStep), (*lesson)->name)
                          .arg((*lesson)->steps.size())};
    lessons::StepAnswer a;
    auto distribution = distributionFromOptions(run);
    if (!distribution)
        return distribution.failure();
    a.p = *distribution;
    // The student's profile is made with the answer, in its transaction: a refused answer leaves none behind.
    a.studentName = run.value(kStudent);
    a.lesson = (*lesson)->name;
    a.step = step;
    a.predictedBin = lessons::answerBin(a.p);
    a.reasoning = run.value(kReasoning);
    return a;
}

int answerLesson(Invocation &run, Store &store)
{
    auto answer = answerFromOptions(run, store);
    if (!answer)
        return run.usage(answer.error());
    auto stored = lessons::answerStep(store, *answer);
    if (!stored)
        return run.bad(stored.error());
    const qsizetype count = stored->forecastIds.size();
    run.out() << "answer stored: step " << answer->step << ", bin " << answer->predictedBin << " (" << count
              << (count == 1 ? " forecast)\n" : " forecasts)\n");
    return Success;
}

QString figure(double v) { return std::isfinite(v) ? QString::number(v, 'f', 3) : QStringLiteral("—"); }

int writeReportCsv(Invocation &run, const lessons::ClassReport &report)
{
    const QByteArray csv = lessons::classReportCsv(report).toUtf8();
    const QString path = run.value(kCsv);
    if (path == QLatin1StringView("-")) {
        run.out() << QString::fromUtf8(csv);
        return Success;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(csv) != csv.size() || !file.commit())
        return run.bad(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    run.out() << "class report written to " << path << "\n";
    return Success;
}

int reportLessons(Invocation &run, Store &store)
{
    auto report = lessons::classReport(store, run.value(kLesson));
    if (!report)
        return run.bad(report.error());
    if (run.isSet(kCsv))
        return writeReportCsv(run, *report);
    if (report->entries.isEmpty()) {
        run.out() << "no student has answered a measured step yet\n";
        return Success;
    }
    run.out() << "student\tlesson\tsteps answered\taccuracy\twithin-one\tBrier\tECE\n";
    for (const lessons::StudentLessonReport &e : std::as_const(report->entries)) {
        run.out() << e.student << "\t" << e.lesson << "\t" << e.answeredSteps << "/" << e.steps << "\t"
                  << figure(e.accuracy()) << "\t" << figure(e.withinOne()) << "\t" << figure(e.brier()) << "\t"
                  << figure(e.ece()) << "\n";
        for (const lessons::StepResult &r : e.mostWrong)
            run.out() << "  most wrong: " << lessons::stepResultText(r) << "\n";
    }
    return Success;
}

int runLessons(Invocation &run)
{
    const QStringList &args = run.args();
    const QStringList verbs {
        QStringLiteral("list"), QStringLiteral("generate"), QStringLiteral("answer"), QStringLiteral("report")};
    if (args.size() != 2 || !verbs.contains(args.first()))
        return run.usage(QStringLiteral("give a verb (%1) and STORE").arg(verbs.join(u'|')));
    const QString &verb = args.first();
    run.setPrefix(QStringLiteral("lessons ") + verb);
    const bool reads = verb == QLatin1StringView("list") || verb == QLatin1StringView("report");
    auto store = reads ? run.readStore(args.at(1)) : run.existingStore(args.at(1));
    if (!store)
        return run.bad(store.error());
    if (verb == QLatin1StringView("list"))
        return listLessons(run, **store);
    if (verb == QLatin1StringView("generate"))
        return generateLessons(run, **store);
    if (verb == QLatin1StringView("answer"))
        return answerLesson(run, **store);
    return reportLessons(run, **store);
}

} // namespace

Command lessonsCommand()
{
    Command c;
    c.name = QStringLiteral("lessons");
    c.summary = QStringLiteral("Teaching lessons: list them, generate the corpus and family lessons, record a "
                               "student's answer, print or export the class report.");
    c.usage
        = QStringLiteral("list STORE | generate STORE [--families] | answer STORE --lesson L --student NAME --step N "
                         "(--bin B | --probabilities P1,…,P8) [--reasoning TEXT] | report STORE [--lesson L] "
                         "[--csv FILE]");
    c.arguments = {{QStringLiteral("VERB"), QStringLiteral("list | generate | answer | report")},
        {QStringLiteral("STORE"), QStringLiteral("an existing store")}};
    c.options = lessonsOptions();
    c.invoke = runLessons;
    return c;
}

} // namespace gpuf::cli
