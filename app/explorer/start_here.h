// StartHereStrip: on the first start, and again from Help → Start Here, a strip above the diff naming the four things
// the explorer is for — a candidate's diff, the forecast beside it, a search, a lesson — each a button that shows it
// on the open store (the sample store when none is open), with a sentence on what to look at; "Got it" hides it for
// good.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace gpuf {

class MainWindow;

class StartHereStrip : public QFrame
{
    Q_OBJECT

public:
    enum class Step { Diff, Forecast, Search, Lesson };

    // Shown at once unless the window's settings say it was dismissed.
    explicit StartHereStrip(MainWindow *window);

    QPushButton *button(Step step) const;
    QPushButton *dismissButton() const { return m_dismiss; }
    // The sentence under the buttons: what the last step shows and where.
    QString hint() const;

    // Shows the strip again (Help → Start Here), dismissed or not.
    void reveal();
    // Does what the step's button does.
    void showStep(Step step);

private:
    bool showCandidate();
    static QString openingHint(); // while the store a step needs is still opening

    MainWindow *m_window;
    QList<QPushButton *> m_buttons;
    QPushButton *m_dismiss;
    QLabel *m_hint;
};

} // namespace gpuf
