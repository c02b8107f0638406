// gpuf lessons: the store's lessons (list), the generated ones (generate: one per corpus operation, and with
// --families one per shipped kernel family), a student's answer to a step (answer: scripted classes and the sample
// store's demo student), and the class report (report, as a table or CSV). The PDF report is the explorer's.
#include "app/cli/command.h"
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

void addLessonsOptions(QCommandLineParser &parser)
{
    parser.addPositionalArgument(QStringLiteral("VERB"), QStringLiteral("list | generate | answer | report"));
    parser.addPositionalArgument(QStringLiteral("STORE"), QStringLiteral("an existing store"));
    parser.addOption({kLesson, QStringLiteral("The lesson (by name)."), QStringLiteral("L")});
    parser.addOption({kStudent, QStringLiteral("answer: the student's name (a profile is made when missing)."),
        QStringLiteral("NAME")});
    parser.addOption({kStep, QStringLiteral("answer: the step (1 = the first)."), QStringLiteral("N")});
    parser.addOption({kBin, QStringLiteral("answer: the bin the student predicts (1..8)."), QStringLiteral("B")});
    parser.addOption({kProbabilities,
        QStringLiteral("answer: the student's weights over bins 1..8, comma-separated (normalised to sum to 1)."),
        QStringLiteral("P1,…,P8")});
    parser.addOption(
        {kReasoning, QStringLiteral("answer: the student's reasoning, one sentence."), QStringLiteral("TEXT")});
    parser.addOption({kFamilies, QStringLiteral("generate: also one lesson per shipped kernel family.")});
    parser.addOption({kCsv, QStringLiteral("report: write the report as CSV to FILE ('-': standard output)."),
        QStringLiteral("FILE")});
}

int runList(Store &store, Io &io)
{
    auto catalog = lessons::readLessonCatalog(store, lessons::LessonFilter::All);
    if (!catalog)
        return fail(io, BadInput, QStringLiteral("lessons list: ") + catalog.error());
    for (const Lesson &l : std::as_const(catalog->lessons))
        io.out << l.name << "\t" << lessonKindName(l.kind) << "\t" << l.steps.size() << " steps\t" << l.label() << "\n";
    for (const Forecaster &s : std::as_const(catalog->students))
        io.out << "student\t" << s.displayName << "\n";
    return Success;
}

int runGenerate(Store &store, const QCommandLineParser &p, Io &io)
{
    auto report = lessons::generateShippedLessons(store, p.isSet(kFamilies));
    if (!report)
        return fail(io, BadInput, QStringLiteral("lessons generate: ") + report.error());
    io.out << report->text() << "\n";
    return Success;
}

Result<lessons::StepAnswer> answerFromOptions(Store &store, const QCommandLineParser &p)
{
    if (!p.isSet(kLesson) || !p.isSet(kStudent) || !p.isSet(kStep) || (p.isSet(kBin) == p.isSet(kProbabilities)))
        return Error {QStringLiteral("give --lesson, --student, --step and one of --bin or --probabilities")};
    auto lesson = LessonRepo(store).findByName(p.value(kLesson));
    if (!lesson)
        return Error {lesson.error()};
    if (!lesson->has_value())
        return Error {QStringLiteral("no lesson named '%1' in the store").arg(p.value(kLesson))};
    bool ok = false;
    const int step = p.value(kStep).toInt(&ok);
    if (!ok || step < 1 || step > (*lesson)->steps.size())
        return Error {QStringLiteral("--step %1: lesson '%2' has steps 1 to %3")
                          .arg(p.value(kStep), (*lesson)->name)
                          .arg((*lesson)->steps.size())};
    lessons::StepAnswer a;
    if (p.isSet(kBin)) {
        const int bin = p.value(kBin).toInt(&ok);
        if (!ok || bin < 1 || bin > bins::kBinCount)
            return Error {QStringLiteral("--bin %1: bins are 1 to 8").arg(p.value(kBin))};
        a.p = lessons::pointDistribution(bin);
    } else {
        const QStringList parts = p.value(kProbabilities).split(QLatin1Char(','));
        if (parts.size() != bins::kBinCount)
            return Error {QStringLiteral("--probabilities: give 8 weights, one per bin (got %1)").arg(parts.size())};
        std::array<double, bins::kBinCount> weights {};
        for (int b = 0; b < bins::kBinCount; ++b) {
            weights[std::size_t(b)] = parts.at(b).trimmed().toDouble(&ok);
            if (!ok)
                return Error {QStringLiteral("--probabilities: '%1' is not a number").arg(parts.at(b))};
        }
        auto normalised = lessons::normalisedDistribution(weights);
        if (!normalised)
            return Error {QStringLiteral("--probabilities: ") + normalised.error()};
        a.p = *normalised;
    }
    auto student = lessons::ensureStudent(store, p.value(kStudent));
    if (!student)
        return Error {student.error()};
    a.studentId = student->id;
    a.lesson = (*lesson)->name;
    a.step = step;
    a.predictedBin = lessons::answerBin(a.p);
    a.reasoning = p.value(kReasoning);
    return a;
}

int runAnswer(Store &store, const QCommandLineParser &p, Io &io)
{
    auto answer = answerFromOptions(store, p);
    if (!answer)
        return fail(io, UsageError, QStringLiteral("lessons answer: ") + answer.error());
    auto stored = lessons::answerStep(store, *answer);
    if (!stored)
        return fail(io, BadInput, QStringLiteral("lessons answer: ") + stored.error());
    const qsizetype count = stored->forecastIds.size();
    io.out << "answer stored: step " << answer->step << ", bin " << answer->predictedBin << " (" << count
           << (count == 1 ? " forecast)\n" : " forecasts)\n");
    return Success;
}

QString figure(double v) { return std::isfinite(v) ? QString::number(v, 'f', 3) : QStringLiteral("—"); }

int runReport(Store &store, const QCommandLineParser &p, Io &io)
{
    auto report = lessons::classReport(store, p.value(kLesson));
    if (!report)
        return fail(io, BadInput, QStringLiteral("lessons report: ") + report.error());
    if (p.isSet(kCsv)) {
        const QByteArray csv = lessons::classReportCsv(*report).toUtf8();
        if (p.value(kCsv) == QLatin1StringView("-")) {
            io.out << QString::fromUtf8(csv);
            return Success;
        }
        QSaveFile file(p.value(kCsv));
        if (!file.open(QIODevice::WriteOnly) || file.write(csv) != csv.size() || !file.commit())
            return fail(io, BadInput,
                QStringLiteral("lessons report: cannot write %1: %2").arg(p.value(kCsv), file.errorString()));
        io.out << "class report written to " << p.value(kCsv) << "\n";
        return Success;
    }
    if (report->entries.isEmpty()) {
        io.out << "no student has answered a measured step yet\n";
        return Success;
    }
    io.out << "student\tlesson\tsteps answered\taccuracy\twithin-one\tBrier\tECE\n";
    for (const lessons::StudentLessonReport &e : std::as_const(report->entries)) {
        io.out << e.student << "\t" << e.lesson << "\t" << e.answeredSteps << "/" << e.steps << "\t"
               << figure(e.accuracy()) << "\t" << figure(e.withinOne()) << "\t" << figure(e.brier()) << "\t"
               << figure(e.ece()) << "\n";
        for (const lessons::StepResult &r : e.mostWrong)
            io.out << "  most wrong: " << lessons::stepResultText(r) << "\n";
    }
    return Success;
}

int runLessons(const QCommandLineParser &p, Io &io)
{
    const QStringList args = p.positionalArguments();
    const QStringList verbs {
        QStringLiteral("list"), QStringLiteral("generate"), QStringLiteral("answer"), QStringLiteral("report")};
    if (args.size() != 2 || !verbs.contains(args.first()))
        return fail(io, UsageError, QStringLiteral("lessons: give a verb (%1) and STORE").arg(verbs.join(u'|')));
    const QString &verb = args.first();
    const bool reads = verb == QLatin1StringView("list") || verb == QLatin1StringView("report");
    auto store = Store::open(args.at(1), reads ? Store::Mode::ReadOnly : Store::Mode::ExistingOnly);
    if (!store)
        return fail(io, BadInput, QStringLiteral("lessons %1: ").arg(verb) + store.error());
    if (verb == QLatin1StringView("list"))
        return runList(**store, io);
    if (verb == QLatin1StringView("generate"))
        return runGenerate(**store, p, io);
    if (verb == QLatin1StringView("answer"))
        return runAnswer(**store, p, io);
    return runReport(**store, p, io);
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
    c.addOptions = addLessonsOptions;
    c.run = runLessons;
    return c;
}

} // namespace gpuf::cli
