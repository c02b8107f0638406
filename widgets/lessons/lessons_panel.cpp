// LessonsPanel; see lessons_panel.h.
#include "widgets/lessons/lessons_panel.h"

#include "core/lessons/lesson_answers.h"
#include "core/lessons/lesson_writes.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "widgets/diff/diff_view.h"
#include "widgets/forecast/distribution_plot.h"
#include "widgets/lessons/class_report_dialog.h"
#include "widgets/lessons/distribution_editor.h"
#include "widgets/lessons/lesson_editor_dialog.h"

#include <QAction>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace gpuf {
namespace {

QTableWidget *smallTable(const QStringList &headers, QWidget *parent)
{
    auto *table = new QTableWidget(0, int(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setWordWrap(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return table;
}

void setRow(QTableWidget *table, int row, const QStringList &cells)
{
    for (int c = 0; c < cells.size(); ++c)
        table->setItem(row, c, new QTableWidgetItem(cells.at(c)));
}

QString binText(std::optional<int> bin) { return bin ? QString::number(*bin) : QStringLiteral("—"); }

// "H100 80GB HBM3": the vendor prefix every GPU here shares only widens the reveal's tables.
QString shortGpuName(const QString &name) { return name.startsWith(QLatin1StringView("NVIDIA ")) ? name.mid(7) : name; }

// A table exactly as tall as its rows: the reveal shows a few rows, never an empty well under them.
void fitRows(QTableWidget *table)
{
    const int header = std::max(table->horizontalHeader()->height(), table->horizontalHeader()->sizeHint().height());
    table->setFixedHeight(header + table->verticalHeader()->length() + 2 * table->frameWidth() + 2);
}

} // namespace

LessonsPanel::LessonsPanel(
    StoreSession *session, Selection *selection, std::shared_ptr<const SyntaxHighlighting> syntax, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_selection(selection)
    , m_diff(new DiffView(std::move(syntax), this))
{
    setObjectName(QStringLiteral("lessonsPanel"));
    m_newLessonAction = new QAction(tr("New Lesson from Selection…"), this);
    m_newLessonAction->setToolTip(tr("Make a lesson that walks through the selected kernels, ancestors first"));
    connect(m_newLessonAction, &QAction::triggered, this, &LessonsPanel::newLessonFromSelection);
    createLayout();
    connect(m_session, &StoreSession::opened, this, [this]() {
        // The session dropped the reads of the store before.
        m_catalogReading = m_stepReading = false;
        loadCatalog();
    });
    connect(m_session, &StoreSession::changed, this, &LessonsPanel::followChange);
    connect(m_session, &StoreSession::closed, this, [this]() {
        m_catalogReading = m_stepReading = false;
        applyCatalog({});
    });
    connect(m_lessonBox, &QComboBox::currentIndexChanged, this, [this]() { goTo(0); });
    connect(m_studentBox, &QComboBox::currentIndexChanged, this, &LessonsPanel::loadStep);
    connect(m_previous, &QPushButton::clicked, this,
        [this]() { goTo(lessons::previousStep(m_index, int(m_data ? m_data->lesson.steps.size() : 0))); });
    connect(m_next, &QPushButton::clicked, this,
        [this]() { goTo(lessons::nextStep(m_index, int(m_data ? m_data->lesson.steps.size() : 0))); });
    connect(m_reveal, &QPushButton::clicked, this, &LessonsPanel::reveal);
    connect(m_addStudent, &QToolButton::clicked, this, &LessonsPanel::addStudent);
    connect(m_editLesson, &QToolButton::clicked, this, &LessonsPanel::editLesson);
    connect(m_reportButton, &QPushButton::clicked, this, &LessonsPanel::showClassReport);
    connect(m_generate, &QToolButton::clicked, this, &LessonsPanel::generateLessons);
    if (m_session->isOpen())
        loadCatalog();
    else
        applyCatalog({});
}

LessonsPanel::~LessonsPanel() = default;

QWidget *LessonsPanel::createPredictArea()
{
    m_editor = new DistributionEditor(this);
    m_reasoning = new QLineEdit(this);
    m_reasoning->setPlaceholderText(tr("Why? One sentence (optional)"));
    m_reveal = new QPushButton(tr("Reveal"), this);
    m_reveal->setDefault(true);
    auto *predictBox = new QGroupBox(tr("Your forecast: how much faster is the new kernel?"), this);
    auto *predict = new QVBoxLayout(predictBox);
    auto *hint = new QLabel(tr("Click a bin to put everything on it, or spread the probability with the sliders "
                               "(they always add up to 100%)."),
        predictBox);
    hint->setWordWrap(true);
    predict->addWidget(hint);
    predict->addWidget(m_editor);
    predict->addWidget(m_reasoning);
    predict->addWidget(m_reveal, 0, Qt::AlignRight);
    return predictBox;
}

void LessonsPanel::createRevealArea()
{
    m_revealArea = new QGroupBox(tr("What happened"), this);
    m_revealArea->setObjectName(QStringLiteral("revealArea"));
    m_scoreLabel = new QLabel(m_revealArea);
    m_scoreLabel->setWordWrap(true);
    m_answerPlot = new DistributionPlot(m_revealArea);
    m_answerPlot->setMinimumHeight(150);
    m_truthTable
        = smallTable({tr("GPU"), tr("Measured"), tr("Bin"), tr("You"), tr("Brier"), tr("Log score")}, m_revealArea);
    m_forecastersTable
        = smallTable({tr("Forecaster"), tr("GPU"), tr("Said"), tr("Confidence"), tr("Result")}, m_revealArea);
    m_noteLabel = new QLabel(m_revealArea);
    m_noteLabel->setWordWrap(true);
    m_noteLabel->setTextFormat(Qt::PlainText);
    m_noteLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *revealLayout = new QVBoxLayout(m_revealArea);
    revealLayout->addWidget(m_scoreLabel);
    revealLayout->addWidget(m_answerPlot);
    revealLayout->addWidget(new QLabel(tr("Measured on each GPU:"), m_revealArea));
    revealLayout->addWidget(m_truthTable);
    revealLayout->addWidget(new QLabel(tr("What the forecasters said:"), m_revealArea));
    revealLayout->addWidget(m_forecastersTable);
    revealLayout->addWidget(m_noteLabel);
}

void LessonsPanel::createLayout()
{
    m_lessonBox = new QComboBox(this);
    m_lessonBox->setObjectName(QStringLiteral("lessonBox"));
    m_lessonBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_lessonBox->setMinimumContentsLength(24);
    m_studentBox = new QComboBox(this);
    m_studentBox->setObjectName(QStringLiteral("studentBox"));
    m_studentBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_addStudent = new QToolButton(this);
    m_addStudent->setText(tr("New Student…"));
    m_editLesson = new QToolButton(this);
    m_editLesson->setText(tr("Edit Lesson…"));
    m_reportButton = new QPushButton(tr("Class Report…"), this);
    m_generate = new QToolButton(this);
    m_generate->setText(tr("Generate Lessons"));
    m_generate->setToolTip(tr("One lesson per corpus operation and per kernel family; lessons already in the store "
                              "are kept as they are"));
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Lesson:"), this));
    top->addWidget(m_lessonBox, 1);
    top->addWidget(m_editLesson);
    top->addWidget(m_generate);
    top->addWidget(new QLabel(tr("Student:"), this));
    top->addWidget(m_studentBox);
    top->addWidget(m_addStudent);
    top->addWidget(m_reportButton);

    m_stepLabel = new QLabel(this);
    m_stepLabel->setWordWrap(true);
    m_stepLabel->setTextFormat(Qt::PlainText);
    m_previous = new QPushButton(tr("◀ Previous Step"), this);
    m_next = new QPushButton(tr("Next Step ▶"), this);
    auto *nav = new QHBoxLayout;
    nav->addWidget(m_stepLabel, 1);
    nav->addWidget(m_previous);
    nav->addWidget(m_next);

    QWidget *predictBox = createPredictArea();
    createRevealArea();

    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(predictBox);
    sideLayout->addWidget(m_revealArea);
    sideLayout->addStretch(1);
    auto *scroll = new QScrollArea(this);
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
    layout->addLayout(top);
    layout->addLayout(nav);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_status);
    m_diff->setPlaceholderText(
        tr("Open a store with lessons (File → Open Sample Store has one per corpus operation)."));
    hideReveal();
}

RowId LessonsPanel::lessonId() const { return m_lessonBox->currentData().toLongLong(); }
RowId LessonsPanel::studentId() const { return m_studentBox->currentData().toLongLong(); }

// Lessons and students come from lessons, students (forecasters), kernels (a generation's family walks) and any
// wholesale change; the step shown also shows its pair's forecasts and measurements.
void LessonsPanel::followChange(const StoreChange &change)
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
        if (m_data
            && (change.mayAffectKernel(m_data->step().kernelId)
                || change.mayAffectKernel(m_data->step().referenceKernelId)))
            loadStep();
        return;
    case Kind::Searches:
        return;
    }
}

void LessonsPanel::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

void LessonsPanel::loadCatalog()
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
            applyCatalog(*result);
        });
}

void LessonsPanel::applyCatalog(const lessons::LessonCatalog &catalog)
{
    const QString lesson = m_lessonBox->currentText();
    const RowId student = studentId();
    m_catalog = catalog;
    {
        const QSignalBlocker blockLessons(m_lessonBox);
        const QSignalBlocker blockStudents(m_studentBox);
        m_lessonBox->clear();
        for (const Lesson &l : std::as_const(catalog.lessons))
            m_lessonBox->addItem(l.label(), QVariant::fromValue<qint64>(l.id));
        m_studentBox->clear();
        for (const Forecaster &s : std::as_const(catalog.students))
            m_studentBox->addItem(s.displayName.isEmpty() ? s.name : s.displayName, QVariant::fromValue<qint64>(s.id));
        if (const int at = m_lessonBox->findText(lesson); at >= 0)
            m_lessonBox->setCurrentIndex(at);
        if (const int at = m_studentBox->findData(QVariant::fromValue<qint64>(student)); at >= 0)
            m_studentBox->setCurrentIndex(at);
    }
    const bool any = !catalog.lessons.isEmpty();
    m_editLesson->setEnabled(any);
    m_reportButton->setEnabled(any);
    m_addStudent->setEnabled(m_session->isOpen());
    m_generate->setEnabled(m_session->isOpen());
    if (!any) {
        m_data.reset();
        m_diff->clear();
        m_stepLabel->setText(m_session->isOpen()
                ? tr("This store has no lessons yet: generate them with `gpuf lessons "
                     "generate`, or select kernels and choose New Lesson from Selection.")
                : QString());
        m_previous->setEnabled(false);
        m_next->setEnabled(false);
        m_reveal->setEnabled(false);
        hideReveal();
        return;
    }
    if (m_lessonBox->currentText() != lesson)
        m_index = 0;
    loadStep();
}

void LessonsPanel::goTo(int index)
{
    m_index = std::max(0, index);
    loadStep();
}

void LessonsPanel::loadStep()
{
    const RowId lesson = lessonId();
    if (lesson <= 0 || !m_session->isOpen())
        return;
    // One key for every step of the dock: a quick step-to-step click drops the read of the step left behind.
    m_stepReading = true;
    m_session->read<LessonStepData>(
        QStringLiteral("lessonStep"),
        [lesson, index = m_index, student = studentId()](
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

void LessonsPanel::applyStep(const LessonStepData &data)
{
    // The same step of the same lesson, still comparing the same kernels (a deletion or an edit elsewhere may have put
    // another pair at this index).
    const bool sameStep = m_data && m_data->lesson.id == data.lesson.id && m_data->index == data.index
        && m_data->step().kernelId == data.step().kernelId
        && m_data->step().referenceKernelId == data.step().referenceKernelId;
    m_data = data;
    m_index = data.index;
    const int count = int(data.lesson.steps.size());
    m_stepLabel->setText(tr("Step %1 of %2 · %3 → %4")
                             .arg(data.index + 1)
                             .arg(count)
                             .arg(data.pair.baselineName, data.pair.candidateName));
    m_previous->setEnabled(data.index > 0);
    m_next->setEnabled(data.index + 1 < count);
    if (!sameStep || m_diff->baseline() != data.baseline || m_diff->candidate() != data.candidate) {
        m_diff->setPair(data.baseline, data.candidate);
        m_reasoning->clear();
    }
    m_diff->setForecastAnnotations(data.annotations);
    // The hint about students stands in for an empty status line; it never hides a notice (a generation report).
    const QString hint = tr("Add a student (New Student…) to keep answers and see them in the class report.");
    if (m_status->text().isEmpty() || m_status->text() == hint)
        setStatus(studentId() > 0 ? QString() : hint);
    if (data.answer) {
        // Answered before: the step is already revealed to this student.
        m_editor->setDistribution(data.answer->probabilities, true);
        m_reasoning->setText(data.answer->reasoning);
        showReveal(data.answer->probabilities, data.answer->predictedBin.value_or(m_editor->predictedBin()));
    } else {
        // A fresh step, or one that showed an answer (this student's before, or another student's): nothing of it
        // stays in the editor.
        if (!sameStep || m_revealed) {
            m_editor->reset();
            m_reasoning->clear();
        }
        hideReveal();
    }
    Q_EMIT stepShown(data.index);
}

void LessonsPanel::hideReveal()
{
    m_revealed = false;
    m_revealArea->hide();
    m_truthTable->setRowCount(0);
    m_forecastersTable->setRowCount(0);
    m_scoreLabel->clear();
    m_noteLabel->clear();
    m_answerPlot->clear();
    m_editor->setReadOnly(false);
    m_reasoning->setReadOnly(false);
    m_reveal->setEnabled(m_data.has_value());
    m_reveal->setText(tr("Reveal"));
}

void LessonsPanel::reveal()
{
    if (!m_data || m_revealed)
        return;
    const bins::Distribution p = m_editor->distribution();
    const int bin = m_editor->predictedBin();
    if (studentId() <= 0) {
        showReveal(p, bin); // nobody to keep the answer for: shown, not stored
        return;
    }
    const LessonStep &step = m_data->step();
    const lessons::StepAnswer answer {studentId(), m_data->lesson.name, m_data->index + 1, p, bin, m_reasoning->text(),
        step.referenceKernelId, step.kernelId};
    m_reveal->setEnabled(false);
    ++m_writes;
    m_session->write<lessons::StoredAnswer>([answer](Store &store) { return lessons::answerStep(store, answer); }, this,
        [this, answer, lesson = m_data->lesson.id, p, bin](Result<lessons::StoredAnswer> result) {
            --m_writes;
            const bool sameStep = m_data && m_data->lesson.id == lesson && m_data->index + 1 == answer.step;
            if (!result) {
                // The step may have changed under the dock (a kernel deleted, the lesson edited elsewhere): the
                // lessons are read again, so what the dock shows next is what the store holds.
                setStatus(tr("The answer was not stored: %1. The lesson was read again; check the step before "
                             "answering.")
                              .arg(result.error()));
                m_reveal->setEnabled(sameStep && !m_revealed);
                loadCatalog();
                return;
            }
            if (sameStep)
                showReveal(p, bin);
            // The calibration views, the metrics table and the candidate table score the student with the others.
            m_session->announce(StoreChange::of(StoreChange::Kind::Forecasts, {result->kernelId}));
        });
}

void LessonsPanel::showReveal(const bins::Distribution &p, int predictedBin)
{
    if (!m_data)
        return;
    m_revealed = true;
    m_editor->setReadOnly(true);
    m_reasoning->setReadOnly(true);
    m_reveal->setEnabled(false);
    m_reveal->setText(tr("Revealed"));
    const QList<RevealRow> rows = revealRows(m_data->pair, p, predictedBin);
    m_truthTable->setRowCount(int(rows.size()));
    std::optional<RevealRow> first;
    for (int r = 0; r < rows.size(); ++r) {
        const RevealRow &row = rows.at(r);
        if (!first && row.score)
            first = row;
        setRow(m_truthTable, r,
            {shortGpuName(row.hardware), row.speedup, binText(row.trueBin),
                row.score ? scoreText(*row.score) : QStringLiteral("—"),
                row.score ? QString::number(row.score->brier, 'f', 3) : QStringLiteral("—"),
                row.score ? QString::number(row.score->logScore, 'f', 2) : QStringLiteral("—")});
    }
    if (first) {
        const lessons::StepScore &s = *first->score;
        m_scoreLabel->setText(tr("You said bin %1; on %2 it was bin %3: %4. Brier %5, log score %6.")
                                  .arg(predictedBin)
                                  .arg(shortGpuName(first->hardware))
                                  .arg(s.trueBin)
                                  .arg(scoreText(s))
                                  .arg(s.brier, 0, 'f', 3)
                                  .arg(s.logScore, 0, 'f', 2));
        m_answerPlot->setDistribution(p, predictedBin, s.trueBin, tr("measured %1").arg(first->speedup));
    } else {
        m_scoreLabel->setText(
            tr("You said bin %1. No GPU has a speedup for this step, so it is not scored.").arg(predictedBin));
        m_answerPlot->setDistribution(p, predictedBin);
    }
    const QList<ForecasterSaid> said = forecastersSaid(m_data->pair);
    m_forecastersTable->setRowCount(int(said.size()));
    for (int r = 0; r < said.size(); ++r) {
        const ForecasterSaid &f = said.at(r);
        const QString result = f.trueBin
            ? (f.predictedBin == *f.trueBin ? tr("hit") : tr("off by %1").arg(std::abs(f.predictedBin - *f.trueBin)))
            : QStringLiteral("—");
        setRow(m_forecastersTable, r,
            {f.forecaster, shortGpuName(f.hardware), QString::number(f.predictedBin),
                QStringLiteral("%1%").arg(f.confidence * 100.0, 0, 'f', 0), result});
    }
    for (int r = 0; r < m_truthTable->rowCount(); ++r) {
        if (QTableWidgetItem *bin = m_truthTable->item(r, 2); bin && rows.at(r).trueBin)
            bin->setToolTip(bins::rangeText(*rows.at(r).trueBin));
    }
    fitRows(m_truthTable);
    fitRows(m_forecastersTable);
    const LessonStep &step = m_data->lesson.steps.at(m_data->index);
    m_noteLabel->setText(step.note.isEmpty() ? tr("This step has no teaching note.") : tr("Note: %1").arg(step.note));
    m_revealArea->show();
    Q_EMIT revealed();
}

void LessonsPanel::selectLesson(const QString &name)
{
    for (const Lesson &l : std::as_const(m_catalog.lessons)) {
        if (l.name == name)
            m_lessonBox->setCurrentIndex(m_lessonBox->findData(QVariant::fromValue<qint64>(l.id)));
    }
}

void LessonsPanel::selectStudent(const QString &displayName)
{
    if (const int at = m_studentBox->findText(displayName); at >= 0)
        m_studentBox->setCurrentIndex(at);
}

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

void LessonsPanel::addStudent()
{
    askText(tr("New Student"), tr("The student's name:"), [this](const QString &name) { storeStudent(name); });
}

void LessonsPanel::storeStudent(const QString &name)
{
    ++m_writes;
    m_session->write<Forecaster>([name](Store &store) { return lessons::ensureStudent(store, name); }, this,
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
            applyCatalog(m_catalog);
            selectStudent(result->displayName);
            // A student is a forecaster: the metrics and calibration views list them.
            m_session->announce(StoreChange::of(StoreChange::Kind::Forecasters, {result->id}));
        });
}

void LessonsPanel::newLessonFromSelection()
{
    const QList<RowId> ids = m_selection->selectedIds();
    if (!m_session->isOpen() || ids.size() < 2) {
        Q_EMIT notice(tr("Select at least two kernels of one problem in the candidate table to make a lesson."));
        return;
    }
    askText(tr("New Lesson"), tr("Title of the lesson (%n kernel(s)):", nullptr, int(ids.size())),
        [this, ids](const QString &title) { storeLesson(ids, title); });
}

void LessonsPanel::storeLesson(const QList<RowId> &ids, const QString &title)
{
    ++m_writes;
    m_session->write<Lesson>([ids, title](Store &store) { return lessons::lessonFromKernels(store, ids, title); }, this,
        [this](Result<Lesson> result) {
            --m_writes;
            if (!result) {
                Q_EMIT notice(tr("No lesson made: %1").arg(result.error()));
                setStatus(tr("No lesson made: %1").arg(result.error()));
                return;
            }
            m_catalog.lessons.append(*result);
            applyCatalog(m_catalog);
            selectLesson(result->name);
            Q_EMIT notice(
                tr("Lesson '%1' made with %n step(s)", nullptr, int(result->steps.size())).arg(result->label()));
            m_session->announce(StoreChange::of(StoreChange::Kind::Lessons, {result->id}));
        });
}

void LessonsPanel::editLesson()
{
    for (const Lesson &l : std::as_const(m_catalog.lessons)) {
        if (l.id != lessonId())
            continue;
        auto *dialog = new LessonEditorDialog(m_session, l, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &LessonEditorDialog::saved, this, [this](const Lesson &saved) {
            for (Lesson &l : m_catalog.lessons) {
                if (l.id == saved.id)
                    l = saved;
            }
            applyCatalog(m_catalog);
            m_lessonBox->setCurrentIndex(m_lessonBox->findData(QVariant::fromValue<qint64>(saved.id)));
            goTo(0);
        });
        dialog->open();
        return;
    }
}

void LessonsPanel::showClassReport()
{
    // Every lesson first: a teacher opening it sees every student's answers at once, then narrows to one lesson.
    auto *dialog = new ClassReportDialog(m_session, m_catalog.lessons, QString(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void LessonsPanel::generateLessons()
{
    m_generate->setEnabled(false);
    ++m_writes;
    m_session->write<lessons::GenerationReport>(
        [](Store &store) { return lessons::generateShippedLessons(store, true); }, this,
        [this](Result<lessons::GenerationReport> result) {
            --m_writes;
            m_generate->setEnabled(m_session->isOpen());
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

} // namespace gpuf
