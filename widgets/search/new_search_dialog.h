// New Search…: what to search (a problem of the store, or a shipped kernel family), the mode, forecaster, mutator,
// budget, τ, GPU and seed — and, before anything starts, the cost the choice implies (GPU evaluations, forecasts,
// LLM calls; search::searchCost). The choices it offers are read off the GUI thread (search::readNewSearchChoices)
// before it opens. It also serves "Replay with…": a recorded search's configuration prefilled, its log as the proposal
// source.
#pragma once

#include "core/search/search_cost.h"
#include "core/search/search_reads.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace gpuf {

// What the dialog offers (read off the GUI thread with search::readNewSearchChoices).
using NewSearchChoices = search::NewSearchChoices;

class NewSearchDialog : public QDialog
{
    Q_OBJECT

public:
    explicit NewSearchDialog(const NewSearchChoices &choices, QWidget *parent = nullptr);

    // Fills the form from a stored configuration (Replay with…: `replayOf` names the search whose log proposes).
    void prefill(const search::SearchConfig &config, const QString &replayOf = {});
    void setSearchName(const QString &name);

    QString searchName() const;
    // The configuration the form describes, or what is wrong with it.
    Result<search::SearchConfig> config() const;
    search::SearchCost cost() const;
    QString costText() const;
    // How the search starts: at most pace() steps a second (a replay's; 0: full speed), paused before its first step.
    double pace() const;
    bool startPaused() const;
    // The choices last started with (Settings::newSearchChoices), restored where this store offers them; and the
    // choices to remember when Start is pressed.
    void restoreChoices(const QJsonObject &choices);
    QJsonObject choicesToRemember() const;

    // For tests and callers that drive the form.
    QComboBox *targetBox() const { return m_target; }
    QComboBox *modeBox() const { return m_mode; }
    QComboBox *mutatorBox() const { return m_mutator; }
    QComboBox *gpuBox() const { return m_gpu; }
    QSpinBox *stepsBox() const { return m_steps; }
    QSpinBox *parentsBox() const { return m_parents; }
    QSpinBox *proposalsBox() const { return m_proposals; }
    QSpinBox *measureBox() const { return m_measure; }
    QDoubleSpinBox *tauBox() const { return m_tau; }
    QComboBox *policyBox() const { return m_policy; }
    QDoubleSpinBox *alphaBox() const { return m_alpha; }
    QLabel *costLabel() const { return m_cost; }
    QLabel *trustPreviewLabel() const { return m_trust; }
    QDoubleSpinBox *paceBox() const { return m_pace; }
    QCheckBox *startPausedBox() const { return m_startPaused; }
    QSpinBox *seedBox() const { return m_seed; }

Q_SIGNALS:
    void startRequested(const QString &name, const gpuf::search::SearchConfig &config);

private:
    void updateForm();
    void updateTrustPreview();
    void capStepsAtPool();
    void setToolTips();
    void addTrustRows(QFormLayout *form);
    void addPaceRows(QFormLayout *form);
    void connectFields();
    void accept() override;

    static constexpr int kMaxSteps = 100000;

    NewSearchChoices m_choices;
    QLineEdit *m_name;
    QComboBox *m_target;
    QComboBox *m_mode;
    QComboBox *m_forecaster;
    QComboBox *m_mutator;
    QComboBox *m_source; // the LLM generator's profile, or the recorded search
    QSpinBox *m_steps;
    QSpinBox *m_parents;
    QSpinBox *m_proposals;
    QSpinBox *m_measure;
    QDoubleSpinBox *m_tau;
    QComboBox *m_policy = nullptr;
    QDoubleSpinBox *m_alpha = nullptr;
    QComboBox *m_gpu;
    QComboBox *m_hardware;
    QSpinBox *m_seed;
    QDoubleSpinBox *m_pace = nullptr;
    QCheckBox *m_startPaused = nullptr;
    QLabel *m_cost;
    QLabel *m_trust = nullptr; // what τ would trust of the forecaster's stored forecasts on the problem
    QDialogButtonBox *m_buttons;
    bool m_updating = false;
    int m_wantedSteps = search::SearchConfig {}.steps; // the steps chosen, below any pool's cap
    int m_lastTarget = -1;
    QString m_lastMode;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::search::SearchConfig)
