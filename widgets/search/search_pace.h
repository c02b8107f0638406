// A search's pace in steps a second — the box New Search… and the Searches dock's toolbar both show (0 reads "full
// speed") — and the toolbar's control, which sends a change to the search shown at once.
#pragma once

#include <QWidget>

class QDoubleSpinBox;

namespace gpuf {

// The pace New Search… offers a replay until the user chooses another: two steps a second, so a 40-step replay takes
// 20 s to watch instead of three.
inline constexpr double kWatchablePace = 2.0;

// A box for a pace: 0 ("full speed") to 100 steps a second, with its tooltip.
QDoubleSpinBox *newPaceBox(QWidget *parent);

class SearchPaceBox : public QWidget
{
    Q_OBJECT

public:
    explicit SearchPaceBox(QWidget *parent = nullptr);

    double pace() const;
    // Shows `stepsPerSecond` without sending it (the search shown changed), unless the user is typing one.
    void setPace(double stepsPerSecond);
    QDoubleSpinBox *box() const { return m_box; }

Q_SIGNALS:
    void paceChosen(double stepsPerSecond);

private:
    QDoubleSpinBox *m_box;
    bool m_showing = false;
};

} // namespace gpuf
