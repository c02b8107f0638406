// DistributionEditor; see distribution_editor.h.
#include "widgets/lessons/distribution_editor.h"

#include "core/lessons/student_answer.h"

#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

#include <cmath>

namespace gpuf {
namespace {

constexpr int kSliderSteps = 1000;

bins::Distribution uniform()
{
    bins::Distribution p;
    p.fill(1.0 / bins::kBinCount);
    return p;
}

} // namespace

DistributionEditor::DistributionEditor(QWidget *parent)
    : QWidget(parent)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(2);
    for (int bin = 1; bin <= bins::kBinCount; ++bin) {
        auto *share = new QLabel(this);
        share->setAlignment(Qt::AlignCenter);
        share->setObjectName(QStringLiteral("share%1").arg(bin));
        auto *slider = new QSlider(Qt::Vertical, this);
        slider->setRange(0, kSliderSteps);
        slider->setMinimumHeight(120);
        slider->setPageStep(kSliderSteps / 20); // Page Up/Down: 5%
        slider->setObjectName(QStringLiteral("slider%1").arg(bin));
        slider->setAccessibleName(tr("Probability of bin %1 (%2)").arg(bin).arg(bins::rangeText(bin)));
        auto *button = new QToolButton(this);
        button->setText(QString::number(bin));
        button->setObjectName(QStringLiteral("bin%1").arg(bin));
        button->setToolTip(
            tr("All the probability on bin %1: %2 (%3)").arg(bin).arg(bins::label(bin), bins::rangeText(bin)));
        // The range without its "×" signs keeps eight columns narrow; the tooltip gives it in full.
        auto *range = new QLabel(
            bins::rangeText(bin).remove(QStringLiteral("×")).replace(QStringLiteral("–"), QStringLiteral("–\n")), this);
        range->setToolTip(button->toolTip());
        range->setAlignment(Qt::AlignCenter);
        QFont small = range->font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        range->setFont(small);
        grid->addWidget(share, 0, bin - 1, Qt::AlignHCenter);
        grid->addWidget(slider, 1, bin - 1, Qt::AlignHCenter);
        grid->addWidget(button, 2, bin - 1, Qt::AlignHCenter);
        grid->addWidget(range, 3, bin - 1, Qt::AlignHCenter);
        m_sliders.append(slider);
        m_buttons.append(button);
        m_shares.append(share);
        connect(slider, &QSlider::valueChanged, this, [this, bin](int value) {
            m_edited = true;
            show(lessons::withShare(m_p, bin, double(value) / kSliderSteps));
            Q_EMIT distributionChanged(m_p);
        });
        connect(button, &QToolButton::clicked, this, [this, bin]() {
            m_edited = true;
            show(lessons::pointDistribution(bin));
            Q_EMIT distributionChanged(m_p);
        });
    }
    reset();
}

int DistributionEditor::predictedBin() const { return lessons::answerBin(m_p); }

void DistributionEditor::setDistribution(const bins::Distribution &p, bool edited)
{
    m_edited = edited;
    show(p);
    Q_EMIT distributionChanged(m_p);
}

void DistributionEditor::reset() { setDistribution(uniform(), false); }

void DistributionEditor::setReadOnly(bool readOnly)
{
    for (QSlider *s : std::as_const(m_sliders))
        s->setEnabled(!readOnly);
    for (QToolButton *b : std::as_const(m_buttons))
        b->setEnabled(!readOnly);
}

void DistributionEditor::show(const bins::Distribution &p)
{
    m_p = p;
    const int predicted = predictedBin();
    for (int b = 0; b < bins::kBinCount; ++b) {
        const QSignalBlocker block(m_sliders[b]);
        m_sliders[b]->setValue(int(std::lround(p[std::size_t(b)] * kSliderSteps)));
        // Whole percentages where they are exact, else one decimal: eight shares of 12.5% must not read as 13%.
        const double percent = p[std::size_t(b)] * 100.0;
        const bool whole = std::abs(percent - std::round(percent)) < 0.05;
        QString text = QStringLiteral("%1%").arg(percent, 0, 'f', whole ? 0 : 1);
        QFont font = m_shares[b]->font();
        font.setBold(b + 1 == predicted && m_edited);
        m_shares[b]->setFont(font);
        m_shares[b]->setText(text);
    }
}

} // namespace gpuf
