// The pace box and SearchPaceBox; see search_pace.h.
#include "widgets/search/search_pace.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>

namespace gpuf {

QDoubleSpinBox *newPaceBox(QWidget *parent)
{
    auto *box = new QDoubleSpinBox(parent);
    box->setObjectName(QStringLiteral("searchPace"));
    box->setRange(0.0, 100.0);
    box->setDecimals(1);
    box->setSingleStep(0.5);
    box->setSuffix(QObject::tr(" steps/s"));
    box->setSpecialValueText(QObject::tr("full speed"));
    // Sent when the user is done typing ("2.5" passes through 2): each change reaches the engine.
    box->setKeyboardTracking(false);
    box->setToolTip(QObject::tr("At most this many steps a second (gpuf search --pace): a replay answers in "
                                "microseconds,\nso paced it can be watched step by step. Full speed: as fast as it "
                                "runs.\nIt can be changed while the search runs (the Searches toolbar's Pace)."));
    return box;
}

SearchPaceBox::SearchPaceBox(QWidget *parent)
    : QWidget(parent)
    , m_box(newPaceBox(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 0, 0);
    auto *label = new QLabel(tr("Pace:"), this);
    label->setBuddy(m_box);
    layout->addWidget(label);
    layout->addWidget(m_box);
    connect(m_box, &QDoubleSpinBox::valueChanged, this, [this](double pace) {
        if (!m_showing)
            Q_EMIT paceChosen(pace);
    });
}

double SearchPaceBox::pace() const { return m_box->value(); }

void SearchPaceBox::setPace(double stepsPerSecond)
{
    // Not while the user types a pace: the engine's reports come ten times a second, and setting the box, even to the
    // value it holds, would put back its text over what is being typed.
    if (m_box->hasFocus() || m_box->value() == stepsPerSecond)
        return;
    m_showing = true;
    m_box->setValue(stepsPerSecond);
    m_showing = false;
}

} // namespace gpuf
