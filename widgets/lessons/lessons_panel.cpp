// LessonsPanel; see lessons_panel.h.
#include "widgets/lessons/lessons_panel.h"

#include "core/session/store_session.h"
#include "widgets/diff/diff_view.h"
#include "widgets/lessons/class_report_dialog.h"
#include "widgets/lessons/lesson_answer_form.h"
#include "widgets/lessons/lesson_editor_dialog.h"
#include "widgets/lessons/lesson_picker.h"
#include "widgets/lessons/lesson_reveal_view.h"
#include "widgets/lessons/lesson_step_bar.h"
#include "widgets/lessons/lessons_controller.h"

#include <QCheckBox>
#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace gpuf {

LessonsPanel::LessonsPanel(
    StoreSession *session, Selection *selection, std::shared_ptr<const SyntaxHighlighting> syntax, QWidget *parent)
    : LessonsPanel(new LessonsController(session, selection), std::move(syntax), parent)
{
    m_controller->setParent(this);
}

LessonsPanel::LessonsPanel(
    LessonsController *controller, std::shared_ptr<const SyntaxHighlighting> syntax, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_diff(new DiffView(std::move(syntax), this))
{
    setObjectName(QStringLiteral("lessonsPanel"));
    createLayout();
    connectController();
    connectViews();
    showCurrent();
}

LessonsPanel::~LessonsPanel() = default;

QAction *LessonsPanel::newLessonFromSelectionAction() const { return m_controller->newLessonFromSelectionAction(); }
QComboBox *LessonsPanel::lessonBox() const { return m_picker->lessonBox(); }
QComboBox *LessonsPanel::studentBox() const { return m_picker->studentBox(); }
QToolButton *LessonsPanel::generateButton() const { return m_picker->generateButton(); }
QToolButton *LessonsPanel::addStudentButton() const { return m_picker->addStudentButton(); }
QToolButton *LessonsPanel::editLessonButton() const { return m_picker->editLessonButton(); }
DistributionEditor *LessonsPanel::editor() const { return m_form->editor(); }
QLineEdit *LessonsPanel::reasoningEdit() const { return m_form->reasoningEdit(); }
QPushButton *LessonsPanel::revealButton() const { return m_form->revealButton(); }
QPushButton *LessonsPanel::nextButton() const { return m_stepBar->nextButton(); }
QPushButton *LessonsPanel::previousButton() const { return m_stepBar->previousButton(); }
QLabel *LessonsPanel::stepLabel() const { return m_stepBar->stepLabel(); }
QLabel *LessonsPanel::scoreLabel() const { return m_reveal->scoreLabel(); }
QLabel *LessonsPanel::noteLabel() const { return m_reveal->noteLabel(); }
QTableWidget *LessonsPanel::truthTable() const { return m_reveal->truthTable(); }
QTableWidget *LessonsPanel::forecastersTable() const { return m_reveal->forecastersTable(); }
QWidget *LessonsPanel::revealArea() const { return m_reveal; }
bool LessonsPanel::isRevealed() const { return m_controller->isRevealed(); }
int LessonsPanel::stepIndex() const { return m_controller->stepIndex(); }
bool LessonsPanel::isBusy() const { return m_controller->isBusy(); }

void LessonsPanel::createLayout()
{
    m_picker = new LessonPicker(this);
    m_stepBar = new LessonStepBar(this);
    m_form = new LessonAnswerForm(this);
    m_reveal = new LessonRevealView(this);
    m_classroom = new QCheckBox(tr("Classroom: hide the answer until Reveal"), this);
    m_classroom->setToolTip(tr("While a step is not revealed, the Candidates table hides its measured and forecast "
                               "columns and the diff shows no forecast annotations: nothing one click away gives the "
                               "answer away"));
    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_classroom);
    sideLayout->addWidget(m_form);
    sideLayout->addWidget(m_reveal);
    sideLayout->addStretch(1);
    auto *scroll = new QScrollArea(this);
    m_sideScroll = scroll;
    scroll->setWidget(side);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // Wide enough for the eight sliders side by side without a horizontal scroll bar.
    scroll->setMinimumWidth(side->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() + 4);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_diff);
    splitter->addWidget(scroll);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("lessonStatus"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_picker);
    layout->addWidget(m_stepBar);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);
    m_diff->setPlaceholderText(
        tr("Open a store with lessons (File → Open Sample Store has one per corpus operation)."));
}

void LessonsPanel::connectController()
{
    connect(m_controller, &LessonsController::catalogChanged, this, &LessonsPanel::showCatalog);
    connect(m_controller, &LessonsController::choiceChanged, this,
        [this]() { m_picker->showChoice(m_controller->lessonId(), m_controller->studentId()); });
    connect(m_controller, &LessonsController::generatingChanged, this, &LessonsPanel::showAvailability);
    connect(m_controller, &LessonsController::stepChanged, this, &LessonsPanel::showStep);
    connect(m_controller, &LessonsController::stepCleared, this, &LessonsPanel::showNoStep);
    connect(m_controller, &LessonsController::revealChanged, this, &LessonsPanel::showReveal);
    connect(m_controller, &LessonsController::statusChanged, this, &LessonsPanel::showStatus);
    connect(m_controller, &LessonsController::notice, this, &LessonsPanel::notice);
    connect(m_controller, &LessonsController::lessonTitleWanted, this, &LessonsPanel::askLessonTitle);
}

void LessonsPanel::connectViews()
{
    connect(m_picker, &LessonPicker::lessonPicked, m_controller, &LessonsController::chooseLesson);
    connect(m_picker, &LessonPicker::studentPicked, m_controller, &LessonsController::chooseStudent);
    connect(m_reveal, &LessonRevealView::evidenceRequested, m_controller, &LessonsController::requestEvidence);
    connect(m_classroom, &QCheckBox::toggled, this, &LessonsPanel::applyClassroom);
    connect(m_picker->addStudentButton(), &QToolButton::clicked, this, [this]() {
        askText(tr("New Student"), tr("The student's name:"),
            [this](const QString &name) { m_controller->addStudent(name); });
    });
    connect(m_picker->editLessonButton(), &QToolButton::clicked, this, &LessonsPanel::editLesson);
    connect(m_picker->generateButton(), &QToolButton::clicked, m_controller, &LessonsController::generateLessons);
    connect(m_picker->reportButton(), &QPushButton::clicked, this, &LessonsPanel::showClassReport);
    connect(m_stepBar->previousButton(), &QPushButton::clicked, m_controller, &LessonsController::goToPrevious);
    connect(m_stepBar->nextButton(), &QPushButton::clicked, m_controller, &LessonsController::goToNext);
    connect(m_form, &LessonAnswerForm::answered, m_controller, &LessonsController::answer);
}

// What the controller holds when the panel is made: nothing yet, or (a controller shown before) a catalog and a step.
void LessonsPanel::showCurrent()
{
    const bool open = m_controller->session()->isOpen();
    if (!open || !m_controller->catalog().lessons.isEmpty() || !m_controller->catalog().students.isEmpty())
        showCatalog();
    if (m_controller->step())
        showStep({});
    else if (!open || !m_controller->isBusy())
        showNoStep();
    else
        showReveal();
    if (!m_controller->status().isEmpty())
        showStatus(m_controller->status());
}

void LessonsPanel::showCatalog()
{
    m_picker->showCatalog(m_controller->catalog(), m_controller->lessonId(), m_controller->studentId());
    showAvailability();
}

void LessonsPanel::showAvailability()
{
    m_picker->setAvailable(
        m_controller->session()->isOpen(), !m_controller->catalog().lessons.isEmpty(), m_controller->isGenerating());
}

void LessonsPanel::showStep(const StepTransition &transition)
{
    const LessonStepData &data = *m_controller->step();
    m_stepBar->showStep(data.index, int(data.lesson.steps.size()), data.pair.baselineName, data.pair.candidateName);
    if (transition.newStep || m_diff->baseline() != data.baseline || m_diff->candidate() != data.candidate) {
        m_diff->setPair(data.baseline, data.candidate);
        m_form->clearReasoning();
    }
    if (data.answer)
        m_form->showAnswer(data.answer->probabilities, data.answer->reasoning);
    else if (transition.clearDraft)
        m_form->reset();
    showReveal();
    Q_EMIT stepShown(data.index);
}

void LessonsPanel::showNoStep()
{
    m_diff->clear();
    m_stepBar->showNoStep(m_controller->session()->isOpen());
    showReveal();
}

// Classroom mode: while the step shown is not revealed, the window hides what would give it away (through the
// selection) and this diff its forecast annotations; revealed, both come back.
void LessonsPanel::applyClassroom()
{
    const std::optional<LessonStepData> &step = m_controller->step();
    const bool hide = m_classroom->isChecked() && step && !m_controller->isRevealed();
    m_controller->setAnswersHidden(hide);
    m_diff->setForecastAnnotations(step && !hide ? step->annotations : ForecastAnnotations {});
}

void LessonsPanel::showReveal()
{
    applyClassroom();
    const std::optional<RevealedAnswer> &answer = m_controller->revealedAnswer();
    const std::optional<LessonStepData> &step = m_controller->step();
    m_form->setRevealed(answer && step, m_controller->canAnswer());
    if (!answer || !step) {
        m_reveal->clear();
        return;
    }
    m_reveal->showReveal(*step, answer->p, answer->predictedBin);
    // The reveal sits below the answer form: in a short dock it is scrolled into view once laid out, or Reveal would
    // seem to do nothing. Its top (the score) comes first: a reveal taller than the dock scrolls from there.
    QTimer::singleShot(0, this, [this] { m_sideScroll->verticalScrollBar()->setValue(m_reveal->y()); });
    Q_EMIT revealed();
}

void LessonsPanel::showStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

void LessonsPanel::selectLesson(const QString &name)
{
    for (const Lesson &l : m_controller->catalog().lessons) {
        if (l.name == name)
            m_picker->pickLesson(l.id);
    }
}

void LessonsPanel::selectStudent(const QString &displayName) { m_picker->pickStudent(displayName); }

void LessonsPanel::askText(const QString &title, const QString &label, std::function<void(const QString &)> then)
{
    // Window-modal and asynchronous: no nested event loop on the GUI thread.
    auto *dialog = new QInputDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("lessonTextDialog"));
    dialog->setWindowTitle(title);
    dialog->setLabelText(label);
    connect(dialog, &QInputDialog::textValueSelected, this, [then = std::move(then)](const QString &text) {
        if (!text.simplified().isEmpty())
            then(text.simplified());
    });
    dialog->open();
}

void LessonsPanel::askLessonTitle(const QList<RowId> &kernelIds)
{
    askText(tr("New Lesson"), tr("Title of the lesson (%n kernel(s)):", nullptr, int(kernelIds.size())),
        [this, kernelIds](const QString &title) { m_controller->makeLesson(kernelIds, title); });
}

void LessonsPanel::editLesson()
{
    const std::optional<Lesson> lesson = m_controller->lesson();
    if (!lesson)
        return;
    auto *dialog = new LessonEditorDialog(m_controller, *lesson, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void LessonsPanel::showClassReport()
{
    // Every lesson first: a teacher opening it sees every student's answers at once, then narrows to one lesson.
    auto *dialog = new ClassReportDialog(m_controller->session(), m_controller->catalog().lessons, QString(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

} // namespace gpuf
