// CompareForm: what a strategy comparison runs on, as the user chooses it — the space (a kernel family or an imported
// tuning space with recorded runtimes, or a problem's recorded pool), its GPU, the strategies (the three modes and the
// baselines), seeds and the first of them, steps, parents per step, measurements per parent, the surrogate modes' k and
// the selective mode's τ, the forecaster and the cost model's file — and the CompareOptions it makes (the same options
// and defaults as `gpuf search compare`).
#pragma once

#include "core/search/compare.h"
#include "core/search/search_reads.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
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
    // The cost model's model file (`--model`); empty: the built-in one.
    QString costModelPath() const;
    // The GPU evaluations every strategy may spend per search: steps × parents × measure, + 1 for a family's seed.
    int budget() const;
    // Whether the chosen space is a problem's recorded pool (its seed is the reference: no evaluation).
    bool poolChosen() const;

    // The controls, for tests and tools.
    QComboBox *spaceBox() const { return m_space; }
    QComboBox *hardwareBox() const { return m_hardware; }
    QComboBox *forecasterBox() const { return m_forecaster; }
    QSpinBox *seedsBox() const { return m_seeds; }
    QSpinBox *stepsBox() const { return m_steps; }
    QSpinBox *parentsBox() const { return m_parents; }
    QSpinBox *measureBox() const { return m_measure; }
    QSpinBox *firstSeedBox() const { return m_firstSeed; }
    QSpinBox *factorBox() const { return m_factor; }
    QDoubleSpinBox *tauBox() const { return m_tau; }
    QLineEdit *modelEdit() const { return m_model; }
    QCheckBox *strategyBox(const QString &name) const; // nullptr for an unknown name
    // Checks exactly the strategies named.
    void setStrategies(const QStringList &names);
    // Chooses a space (a family or imported space; with `pool`, a problem's recorded pool) and its GPU; false when the
    // store offers no such pair.
    bool choose(const QString &space, const QString &hardware, bool pool = false);

Q_SIGNALS:
    void changed();

private:
    void fillHardware();
    void enableModeFields();
    void browseModel();
    QWidget *buildModelField();
    QHBoxLayout *buildStrategyRow();
    const search::CompareSpace *chosenSpace() const;
    QSpinBox *addSpin(int minimum, int maximum, int value, const QString &toolTip);

    search::CompareChoices m_choices;
    QComboBox *m_space;
    QComboBox *m_hardware;
    QComboBox *m_forecaster;
    QSpinBox *m_seeds;
    QSpinBox *m_steps;
    QSpinBox *m_parents;
    QSpinBox *m_measure;
    QSpinBox *m_firstSeed;
    QSpinBox *m_factor;
    QDoubleSpinBox *m_tau;
    QLineEdit *m_model;
    QList<QCheckBox *> m_strategies;
};

} // namespace gpuf
