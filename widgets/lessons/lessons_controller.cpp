// LessonsController; see lessons_controller.h.
#include "widgets/lessons/lessons_controller.h"

#include "core/lessons/lesson_answers.h"
#include "core/lessons/lesson_writes.h"
#include "core/lessons/student_answer.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"

#include <QAction>
#include <QPointer>

#include <algorithm>

namespace gpuf {

LessonsController::LessonsController(StoreSession *session, Selection *selection, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_selection(selection)
    , m_newLessonAction(new QAction(tr("New Lesson from Selection…"), this))
{
    m_newLessonAction->setToolTip(tr("Make a lesson that walks through the selected kernels, ancestors first"));
    connect(m_newLessonAction, &QAction::triggered, this, &LessonsController::newLessonFromSelection);
    connect(m_session, &StoreSession::opened, this, [this]() {
        // The session dropped the reads of the store before.
        m_catalogReading = m_stepReading = false;
        loadCatalog();
    });
    connect(m_session, &StoreSession::changed, this, &LessonsController::followChange);
    connect(m_session, &StoreSession::closed, this, [this]() {
        m_catalogReading = m_stepReading = false;
        setCatalog({});
    });
    if (m_session->isOpen())
        loadCatalog();
}

LessonsController::~LessonsController() = default;

std::optional<Lesson> LessonsController::lesson() const
{
    for (const Lesson &l : m_catalog.lessons) {
        if (l.id == m_lessonId)
            return l;
    }
    return std::nullopt;
}

// Lessons and students come from lessons, students (forecasters), kernels (a generation's family walks) and any
// wholesale change; the step shown also shows its pair's forecasts and measurements.
void LessonsController::followChange(const StoreChange &change)
{
    using Kind = StoreChange::Kind;
    switch (change.kind) {
    case Kind::Lessons:
    case Kind::Forecasters:
    case Kind::Kernels:
    case Kind::Import:
    case Kind::Reload:
    case Kind::Removed:
    case Kind::Restored:
        loadCatalog();
        return;
    case Kind::Forecasts:
    case Kind::Measurements:
        if (m_step
            && (change.mayAffectKernel(m_step->step().kernelId)
                || change.mayAffectKernel(m_step->step().referenceKernelId)))
            loadStep();
        return;
    case Kind::Searches:
        return;
    }
}

void LessonsController::loadCatalog()
{
    if (!m_session->isOpen())
        return;
    m_catalogReading = true;
    m_session->read<lessons::LessonCatalog>(
        QStringLiteral("lessonCatalog"),
        [](Store &store, const CancelToken &cancel) {
            return lessons::readLessonCatalog(store, lessons::LessonFilter::WithSteps, cancel);
        },
        this,
        [this](Result<lessons::LessonCatalog> result) {
            m_catalogReading = false;
            if (result.isCancelled())
                return;
            if (!result) {
                setStatus(tr("The lessons could not be read: %1").arg(result.error()));
                return;
            }
            setCatalog(*result);
        });
}

void LessonsController::setCatalog(const lessons::LessonCatalog &catalog)
{
    const std::optional<Lesson> shown = lesson();
    const lessons::CatalogChoice choice
        = lessons::chooseInCatalog(catalog, shown ? shown->label() : QString(), m_studentId);
    m_catalog = catalog;
    m_lessonId = choice.lessonId;
    m_studentId = choice.studentId;
    if (!choice.sameLesson)
        m_index = 0;
    Q_EMIT catalogChanged();
    if (m_catalog.lessons.isEmpty()) {
        clearStep();
        return;
    }
    loadStep();
}

void LessonsController::showLessonAt(RowId lessonId, int index)
{
    m_lessonId = lessonId;
    m_index = std::max(0, index);
    Q_EMIT catalogChanged();
    loadStep();
}

void LessonsController::clearStep()
{
    m_step.reset();
    m_revealed.reset();
    m_answering = false;
    Q_EMIT stepCleared();
}

void LessonsController::chooseLesson(RowId lessonId)
{
    m_lessonId = lessonId;
    Q_EMIT choiceChanged();
    goTo(0);
}

void LessonsController::chooseStudent(RowId studentId)
{
    m_studentId = studentId;
    Q_EMIT choiceChanged();
    loadStep();
}

void LessonsController::goTo(int index)
{
    m_index = std::max(0, index);
    loadStep();
}

void LessonsController::goToNext() { goTo(lessons::nextStep(m_index, int(m_step ? m_step->lesson.steps.size() : 0))); }

void LessonsController::goToPrevious()
{
    goTo(lessons::previousStep(m_index, int(m_step ? m_step->lesson.steps.size() : 0)));
}

void LessonsController::loadStep()
{
    if (m_lessonId <= 0 || !m_session->isOpen())
        return;
    // One key for every step of the dock: a quick step-to-step click drops the read of the step left behind.
    m_stepReading = true;
    m_session->read<LessonStepData>(
        QStringLiteral("lessonStep"),
        [lesson = m_lessonId, index = m_index, student = m_studentId](
            Store &store, const CancelToken &cancel) { return readLessonStep(store, lesson, index, student, cancel); },
        this,
        [this](Result<LessonStepData> result) {
            m_stepReading = false;
            if (result.isCancelled())
                return;
            if (!result) {
                setStatus(tr("The step could not be shown: %1").arg(result.error()));
                return;
            }
            applyStep(*result);
        });
}

void LessonsController::applyStep(const LessonStepData &data)
{
    // The same step of the same lesson, still comparing the same kernels (a deletion or an edit elsewhere may have put
    // another pair at this index).
    const bool sameStep = m_step && m_step->lesson.id == data.lesson.id && m_step->index == data.index
        && m_step->step().kernelId == data.step().kernelId
        && m_step->step().referenceKernelId == data.step().referenceKernelId;
    // A fresh step, or one that showed an answer (this student's before, or another student's): nothing of the
    // forecast the student was giving stays.
    const StepTransition transition {!sameStep, !sameStep || m_revealed.has_value()};
    m_step = data;
    m_index = data.index;
    m_answering = false;
    if (data.answer) {
        // Answered before: the step is already revealed to this student.
        const bins::Distribution &p = data.answer->probabilities;
        m_revealed = RevealedAnswer {p, data.answer->predictedBin.value_or(lessons::answerBin(p))};
    } else {
        m_revealed.reset();
    }
    // The hint about students stands in for an empty status line; it never hides a notice (a generation report).
    const QString hint = tr("Add a student (New Student…) to keep answers and see them in the class report.");
    if (m_status.isEmpty() || m_status == hint)
        setStatus(m_studentId > 0 ? QString() : hint);
    Q_EMIT stepChanged(transition);
}

void LessonsController::reveal(const RevealedAnswer &answer)
{
    m_revealed = answer;
    m_answering = false;
    Q_EMIT revealChanged();
}

void LessonsController::answer(const bins::Distribution &p, int predictedBin, const QString &reasoning)
{
    if (!canAnswer())
        return;
    if (m_studentId <= 0) {
        reveal({p, predictedBin}); // nobody to keep the answer for: shown, not stored
        return;
    }
    const LessonStep &step = m_step->step();
    storeAnswer({m_studentId, m_step->lesson.name, m_step->index + 1, p, predictedBin, reasoning,
                    step.referenceKernelId, step.kernelId},
        {p, predictedBin});
}

void LessonsController::storeAnswer(const lessons::StepAnswer &answer, const RevealedAnswer &shown)
{
    m_answering = true;
    Q_EMIT revealChanged();
    ++m_writes;
    m_session->write<lessons::StoredAnswer>([answer](Store &store) { return lessons::answerStep(store, answer); }, this,
        [this, answer, shown, lesson = m_step->lesson.id](Result<lessons::StoredAnswer> result) {
            --m_writes;
            const bool sameStep = m_step && m_step->lesson.id == lesson && m_step->index + 1 == answer.step;
            if (!result) {
                // The step may have changed under the dock (a kernel deleted, the lesson edited elsewhere): the
                // lessons are read again, so what the dock shows next is what the store holds.
                setStatus(tr("The answer was not stored: %1. The lesson was read again; check the step before "
                             "answering.")
                              .arg(result.error()));
                m_answering = false;
                if (!m_revealed)
                    Q_EMIT revealChanged();
                loadCatalog();
                return;
            }
            if (sameStep)
                reveal(shown);
            // The calibration views, the metrics table and the candidate table score the student with the others.
            m_session->announce(StoreChange::of(StoreChange::Kind::Forecasts, {result->kernelId}));
        });
}

void LessonsController::addStudent(const QString &displayName)
{
    ++m_writes;
    m_session->write<Forecaster>([displayName](Store &store) { return lessons::ensureStudent(store, displayName); },
        this,
        [this](Result<Forecaster> result) {
            --m_writes;
            if (!result) {
                setStatus(tr("No student added: %1.").arg(result.error()));
                return;
            }
            const bool known = std::any_of(m_catalog.students.cbegin(), m_catalog.students.cend(),
                [&](const Forecaster &s) { return s.id == result->id; });
            if (!known)
                m_catalog.students.append(*result);
            m_studentId = result->id;
            Q_EMIT catalogChanged();
            loadStep();
            // A student is a forecaster: the metrics and calibration views list them.
            m_session->announce(StoreChange::of(StoreChange::Kind::Forecasters, {result->id}));
        });
}

void LessonsController::newLessonFromSelection()
{
    const QList<RowId> ids = m_selection->selectedIds();
    if (!m_session->isOpen() || ids.size() < 2) {
        Q_EMIT notice(tr("Select at least two kernels of one problem in the candidate table to make a lesson."));
        return;
    }
    Q_EMIT lessonTitleWanted(ids);
}

void LessonsController::makeLesson(const QList<RowId> &kernelIds, const QString &title)
{
    ++m_writes;
    m_session->write<Lesson>(
        [kernelIds, title](Store &store) { return lessons::lessonFromKernels(store, kernelIds, title); }, this,
        [this](Result<Lesson> result) {
            --m_writes;
            if (!result) {
                const QString text = tr("No lesson made: %1").arg(result.error());
                Q_EMIT notice(text);
                setStatus(text);
                return;
            }
            m_catalog.lessons.append(*result);
            showLessonAt(result->id, 0);
            Q_EMIT notice(
                tr("Lesson '%1' made with %n step(s)", nullptr, int(result->steps.size())).arg(result->label()));
            m_session->announce(StoreChange::of(StoreChange::Kind::Lessons, {result->id}));
        });
}

void LessonsController::saveLesson(
    const Lesson &lesson, QObject *context, std::function<void(const Result<Lesson> &)> done)
{
    ++m_writes;
    m_session->write<Lesson>([lesson](Store &store) { return lessons::saveEditedLesson(store, lesson); }, this,
        [this, context = QPointer<QObject>(context), done = std::move(done)](Result<Lesson> result) {
            --m_writes;
            if (result) {
                for (Lesson &l : m_catalog.lessons) {
                    if (l.id == result->id)
                        l = *result;
                }
                showLessonAt(result->id, 0);
                m_session->announce(StoreChange::of(StoreChange::Kind::Lessons, {result->id}));
            }
            if (context)
                done(result);
        });
}

void LessonsController::generateLessons()
{
    if (m_generating)
        return;
    setGenerating(true);
    ++m_writes;
    m_session->write<lessons::GenerationReport>(
        [](Store &store) { return lessons::generateShippedLessons(store, true); }, this,
        [this](Result<lessons::GenerationReport> result) {
            --m_writes;
            setGenerating(false);
            const QString text = result ? result->text() : tr("No lessons generated: %1").arg(result.error());
            setStatus(text);
            Q_EMIT notice(text.section(QLatin1Char('\n'), 0, 0));
            if (!result)
                return;
            // Family lessons store their walks' kernels: the candidate table shows them.
            if (!result->kernelIds.isEmpty())
                m_session->announce(StoreChange::of(StoreChange::Kind::Kernels, result->kernelIds));
            m_session->announce(StoreChange::of(StoreChange::Kind::Lessons, result->lessonIds));
        });
}

void LessonsController::setStatus(const QString &text)
{
    m_status = text;
    Q_EMIT statusChanged(text);
}

void LessonsController::setGenerating(bool generating)
{
    m_generating = generating;
    Q_EMIT generatingChanged(generating);
}

void LessonsController::requestEvidence(RowId kernelId) { m_selection->requestEvidence(kernelId); }

void LessonsController::setAnswersHidden(bool hidden) { m_selection->setAnswersHidden(hidden); }

} // namespace gpuf
