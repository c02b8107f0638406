// LessonAnswerForm; see lesson_answer_form.h.
#include "widgets/lessons/lesson_answer_form.h"

#include "widgets/lessons/distribution_editor.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gpuf {

LessonAnswerForm::LessonAnswerForm(QWidget *parent)
    : QGroupBox(tr("Your forecast: how much faster is the new kernel?"), parent)
    , m_editor(new DistributionEditor(this))
    , m_reasoning(new QLineEdit(this))
    , m_reveal(new QPushButton(tr("Reveal"), this))
{
    m_reasoning->setPlaceholderText(tr("Why? One sentence (optional)"));
    m_reveal->setDefault(true);
    auto *predict = new QVBoxLayout(this);
    auto *hint = new QLabel(tr("Click a bin to put everything on it, or spread the probability with the sliders "
                               "(they always add up to 100%)."),
        this);
    hint->setWordWrap(true);
    predict->addWidget(hint);
    predict->addWidget(m_editor);
    predict->addWidget(m_reasoning);
    predict->addWidget(m_reveal, 0, Qt::AlignRight);
    connect(m_reveal, &QPushButton::clicked, this,
        [this]() { Q_EMIT answered(m_editor->distribution(), m_editor->predictedBin(), m_reasoning->text()); });
}

void LessonAnswerForm::showAnswer(const bins::Distribution &p, const QString &reasoning)
{
    m_editor->setDistribution(p, true);
    m_reasoning->setText(reasoning);
}

void LessonAnswerForm::reset()
{
    m_editor->reset();
    m_reasoning->clear();
}

void LessonAnswerForm::clearReasoning() { m_reasoning->clear(); }

void LessonAnswerForm::setRevealed(bool revealed, bool canAnswer)
{
    m_editor->setReadOnly(revealed);
    m_reasoning->setReadOnly(revealed);
    m_reveal->setEnabled(!revealed && canAnswer);
    m_reveal->setText(revealed ? tr("Revealed") : tr("Reveal"));
}

} // namespace gpuf
