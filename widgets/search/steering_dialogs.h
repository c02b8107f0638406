// The two dialogs of steering by hand: edit a node's code and inject the edit as its child (measured at the next
// step), and change τ, proposals or measurements per parent (or the step budget) of a running search.
#pragma once

#include "core/mutators/mutator.h"
#include "core/search/search_config.h"

#include <QDialog>
#include <QJsonObject>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace gpuf {

class InjectDialog : public QDialog
{
    Q_OBJECT

public:
    // `parentLabel` names the node the edit becomes a child of; `code` is its source, to edit.
    InjectDialog(const QString &parentLabel, const QString &code, const QString &language, QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_editor; }
    QLineEdit *nameEdit() const { return m_name; }
    search::Proposal proposal() const;
    // Says before anything is injected why the edit may not run (a replay has no runtime for new code).
    void setWarning(const QString &text);
    QLabel *warningLabel() const { return m_warning; }

Q_SIGNALS:
    void injectRequested(const gpuf::search::Proposal &proposal);

private:
    void accept() override;

    QString m_original;
    QString m_language;
    QLineEdit *m_name;
    QPlainTextEdit *m_editor;
    QLabel *m_message;
    QLabel *m_warning;
};

class SearchSettingsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit SearchSettingsDialog(const search::SearchConfig &config, QWidget *parent = nullptr);

    QSpinBox *stepsBox() const { return m_steps; }
    QSpinBox *proposalsBox() const { return m_proposals; }
    QSpinBox *measureBox() const { return m_measure; }
    QDoubleSpinBox *tauBox() const { return m_tau; }
    // Only the keys that differ from the configuration it was opened with (a config_changed event's "changes").
    QJsonObject changes() const;

Q_SIGNALS:
    void changeRequested(const QJsonObject &changes);

private:
    void accept() override;
    void update();

    search::SearchConfig m_config;
    QSpinBox *m_steps;
    QSpinBox *m_proposals;
    QSpinBox *m_measure;
    QDoubleSpinBox *m_tau;
    QLabel *m_message;
};

} // namespace gpuf
