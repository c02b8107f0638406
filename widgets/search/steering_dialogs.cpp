// InjectDialog and SearchSettingsDialog; see steering_dialogs.h.
#include "widgets/search/steering_dialogs.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gpuf {

InjectDialog::InjectDialog(const QString &parentLabel, const QString &code, const QString &language, QWidget *parent)
    : QDialog(parent)
    , m_original(code)
    , m_language(language)
    , m_name(new QLineEdit(this))
    , m_editor(new QPlainTextEdit(this))
    , m_message(new QLabel(this))
    , m_warning(new QLabel(this))
{
    setObjectName(QStringLiteral("injectDialog"));
    setWindowTitle(tr("Edit and Inject"));
    auto *intro = new QLabel(tr("Edit the code of %1. The edit joins the search as its child and is measured at the "
                                "next step, outside the GPU budget.")
                                 .arg(parentLabel),
        this);
    intro->setWordWrap(true);
    m_name->setPlaceholderText(tr("A name for the edit (optional)"));
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setPlainText(code);
    m_message->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Inject"));
    connect(buttons, &QDialogButtonBox::accepted, this, &InjectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_warning->setObjectName(QStringLiteral("injectWarning"));
    m_warning->setWordWrap(true);
    m_warning->setVisible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_warning);
    layout->addWidget(m_name);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    resize(760, 560);
}

void InjectDialog::setWarning(const QString &text)
{
    m_warning->setText(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()));
    m_warning->setVisible(!text.isEmpty());
}

search::Proposal InjectDialog::proposal() const
{
    search::Proposal p;
    p.source = m_editor->toPlainText();
    p.language = m_language;
    p.origin = QStringLiteral("manual");
    p.name = m_name->text().trimmed();
    return p;
}

void InjectDialog::accept()
{
    const QString code = m_editor->toPlainText();
    if (code.trimmed().isEmpty()) {
        m_message->setText(tr("An injected kernel needs code."));
        return;
    }
    if (code == m_original) {
        m_message->setText(tr("The code is unchanged: the search has measured it already. Edit it first."));
        return;
    }
    Q_EMIT injectRequested(proposal());
    QDialog::accept();
}

SearchSettingsDialog::SearchSettingsDialog(const search::SearchConfig &config, QWidget *parent)
    : QDialog(parent)
    , m_config(config)
    , m_steps(new QSpinBox(this))
    , m_proposals(new QSpinBox(this))
    , m_measure(new QSpinBox(this))
    , m_tau(new QDoubleSpinBox(this))
    , m_message(new QLabel(this))
{
    setObjectName(QStringLiteral("searchSettingsDialog"));
    setWindowTitle(tr("Change Search Settings"));
    m_steps->setRange(1, 100000);
    m_steps->setValue(config.steps);
    m_proposals->setRange(1, 1024);
    m_proposals->setValue(config.proposalsPerParent);
    m_measure->setRange(1, 256);
    m_measure->setValue(config.measurementsPerParent);
    m_tau->setRange(0.0, 1.0);
    m_tau->setDecimals(2);
    m_tau->setSingleStep(0.05);
    m_tau->setValue(config.tau);
    const bool standard = config.mode == search::Mode::Standard;
    m_proposals->setEnabled(!standard);
    m_tau->setEnabled(config.mode == search::Mode::Selective);
    m_message->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Apply"));
    connect(buttons, &QDialogButtonBox::accepted, this, &SearchSettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *form = new QFormLayout(this);
    auto *intro = new QLabel(tr("Changes apply from the next step on and are recorded in the search's log."), this);
    intro->setWordWrap(true);
    form->addRow(intro);
    form->addRow(tr("Steps:"), m_steps);
    form->addRow(tr("Proposals per parent:"), m_proposals);
    form->addRow(tr("Measurements per parent:"), m_measure);
    form->addRow(tr("Trust threshold τ:"), m_tau);
    form->addRow(m_message);
    form->addRow(buttons);
    for (QSpinBox *box : {m_steps, m_proposals, m_measure})
        connect(box, &QSpinBox::valueChanged, this, &SearchSettingsDialog::update);
    connect(m_tau, &QDoubleSpinBox::valueChanged, this, &SearchSettingsDialog::update);
    update();
}

QJsonObject SearchSettingsDialog::changes() const
{
    QJsonObject out;
    const bool standard = m_config.mode == search::Mode::Standard;
    if (m_steps->value() != m_config.steps)
        out.insert(QStringLiteral("steps"), m_steps->value());
    if (m_measure->value() != m_config.measurementsPerParent)
        out.insert(QStringLiteral("measurements_per_parent"), m_measure->value());
    // Standard proposes exactly what it measures: the two move together.
    const int proposals = standard ? m_measure->value() : m_proposals->value();
    if (proposals != m_config.proposalsPerParent)
        out.insert(QStringLiteral("proposals_per_parent"), proposals);
    if (!qFuzzyCompare(1.0 + m_tau->value(), 1.0 + m_config.tau))
        out.insert(QStringLiteral("tau"), m_tau->value());
    return out;
}

void SearchSettingsDialog::update()
{
    const QJsonObject c = changes();
    QJsonObject merged = m_config.toJson();
    for (auto it = c.constBegin(); it != c.constEnd(); ++it)
        merged.insert(it.key(), it.value());
    auto config = search::SearchConfig::fromJson(merged);
    const Status valid = config ? config->validate() : Status(Error {config.error()});
    m_message->setText(!valid ? valid.error() : c.isEmpty() ? tr("Nothing changed yet.") : QString());
}

void SearchSettingsDialog::accept()
{
    const QJsonObject c = changes();
    if (c.isEmpty()) {
        QDialog::reject();
        return;
    }
    Q_EMIT changeRequested(c);
    QDialog::accept();
}

} // namespace gpuf
