// LessonStepBar; see lesson_step_bar.h.
#include "widgets/lessons/lesson_step_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace gpuf {

LessonStepBar::LessonStepBar(QWidget *parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_previous(new QPushButton(tr("◀ Previous Step"), this))
    , m_next(new QPushButton(tr("Next Step ▶"), this))
{
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::PlainText);
    auto *nav = new QHBoxLayout(this);
    nav->setContentsMargins(0, 0, 0, 0);
    nav->addWidget(m_label, 1);
    nav->addWidget(m_previous);
    nav->addWidget(m_next);
}

void LessonStepBar::showStep(int index, int count, const QString &from, const QString &to)
{
    m_label->setText(tr("Step %1 of %2 · %3 → %4").arg(index + 1).arg(count).arg(from, to));
    m_previous->setEnabled(index > 0);
    m_next->setEnabled(index + 1 < count);
}

void LessonStepBar::showNoStep(bool storeOpen)
{
    m_label->setText(storeOpen ? tr("This store has no lessons yet: generate them with `gpuf lessons "
                                    "generate`, or select kernels and choose New Lesson from Selection.")
                               : QString());
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
}

} // namespace gpuf
