// CompareForm: what a strategy comparison runs on, as the user chooses it — the space (a kernel family or an imported
// tuning space with recorded runtimes), its GPU, the strategies (the three modes and the baselines), seeds, steps,
// parents per step, measurements per parent and the forecaster — and the CompareOptions it makes (the same defaults as
// `gpuf search compare`).
#pragma once

#include "core/search/compare.h"
#include "core/search/search_reads.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace gpuf {

class CompareForm : public QWidget
{
    Q_OBJECT

public:
    explicit CompareForm(QWidget *parent = nullptr);

    // What the store offers; the choices made are kept where they still exist.
    void setChoices(const search::CompareChoices &choices);
    bool hasSpaces() const;

    // The options the form describes; an error says what is missing or wrong ("choose at least one strategy").
    Result<search::CompareOptions> options() const;
    // The GPU evaluations every strategy may spend per search: steps × parents × measure + the seed.
    int budget() const;

    // The controls, for tests and tools.
    QComboBox *spaceBox() const { return m_space; }
    QComboBox *hardwareBox() const { return m_hardware; }
    QComboBox *forecasterBox() const { return m_forecaster; }
    QSpinBox *seedsBox() const { return m_seeds; }
    QSpinBox *stepsBox() const { return m_steps; }
    QSpinBox *parentsBox() const { return m_parents; }
    QSpinBox *measureBox() const { return m_measure; }
    QCheckBox *strategyBox(const QString &name) const; // nullptr for an unknown name
    // Checks exactly the strategies named.
    void setStrategies(const QStringList &names);
    // Chooses a space and its GPU; false when the store offers no such pair.
    bool choose(const QString &space, const QString &hardware);

Q_SIGNALS:
    void changed();

private:
    void fillHardware();
    QSpinBox *addSpin(int minimum, int maximum, int value, const QString &toolTip);

    search::CompareChoices m_choices;
    QComboBox *m_space;
    QComboBox *m_hardware;
    QComboBox *m_forecaster;
    QSpinBox *m_seeds;
    QSpinBox *m_steps;
    QSpinBox *m_parents;
    QSpinBox *m_measure;
    QList<QCheckBox *> m_strategies;
};

} // namespace gpuf
