// LessonEditorDialog; see lesson_editor_dialog.h.
#include "widgets/lessons/lesson_editor_dialog.h"

#include "widgets/lessons/lessons_controller.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace gpuf {

LessonEditorDialog::LessonEditorDialog(LessonsController *controller, const Lesson &lesson, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_lesson(lesson)
    , m_title(new QLineEdit(lesson.label(), this))
    , m_steps(new QListWidget(this))
    , m_error(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Edit Lesson"));
    m_error->setWordWrap(true);
    m_error->setObjectName(QStringLiteral("lessonEditorError"));
    auto *up = new QPushButton(tr("Move Up"), this);
    auto *down = new QPushButton(tr("Move Down"), this);
    auto *remove = new QPushButton(tr("Remove Step"), this);
    auto *side = new QVBoxLayout;
    side->addWidget(up);
    side->addWidget(down);
    side->addWidget(remove);
    side->addStretch(1);
    auto *middle = new QHBoxLayout;
    middle->addWidget(m_steps, 1);
    middle->addLayout(side);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Title:"), this));
    layout->addWidget(m_title);
    layout->addWidget(new QLabel(tr("Steps, in teaching order:"), this));
    layout->addLayout(middle, 1);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    connect(up, &QPushButton::clicked, this, [this]() { moveCurrent(-1); });
    connect(down, &QPushButton::clicked, this, [this]() { moveCurrent(1); });
    connect(remove, &QPushButton::clicked, this, &LessonEditorDialog::removeCurrent);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &LessonEditorDialog::save);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(620, 420);
    fill(0);
}

void LessonEditorDialog::fill(int current)
{
    m_steps->clear();
    for (qsizetype i = 0; i < m_lesson.steps.size(); ++i) {
        const LessonStep &s = m_lesson.steps.at(i);
        const QString note = s.note.isEmpty() ? tr("(no note)") : s.note.left(90);
        m_steps->addItem(
            tr("%1. kernel %2 → kernel %3: %4").arg(i + 1).arg(s.referenceKernelId).arg(s.kernelId).arg(note));
    }
    m_steps->setCurrentRow(std::clamp(current, 0, int(m_lesson.steps.size()) - 1));
}

void LessonEditorDialog::moveCurrent(int by)
{
    const int from = m_steps->currentRow();
    auto moved = lessons::moveStep(m_lesson.steps, from, from + by);
    if (!moved)
        return; // already at the end
    m_lesson.steps = *moved;
    fill(from + by);
}

void LessonEditorDialog::removeCurrent()
{
    const int at = m_steps->currentRow();
    auto removed = lessons::removeStep(m_lesson.steps, at);
    if (!removed) {
        m_error->setText(removed.error());
        return;
    }
    m_lesson.steps = *removed;
    fill(at);
}

void LessonEditorDialog::save()
{
    m_lesson.title = m_title->text().simplified();
    m_buttons->setEnabled(false);
    m_controller->saveLesson(m_lesson, this, [this](const Result<Lesson> &result) {
        m_buttons->setEnabled(true);
        if (!result) {
            m_error->setText(tr("Not saved: %1.").arg(result.error()));
            return;
        }
        Q_EMIT saved(*result);
        accept();
    });
}

} // namespace gpuf
