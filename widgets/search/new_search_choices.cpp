// NewSearchDialog's pace rows and the choices it remembers; see new_search_dialog.h.
#include "widgets/search/new_search_dialog.h"

#include "widgets/search/search_pace.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>

namespace gpuf {

// How fast a replay runs, and whether it waits for the user before its first step.
void NewSearchDialog::addPaceRows(QFormLayout *form)
{
    m_pace = newPaceBox(this);
    m_pace->setValue(kWatchablePace);
    m_startPaused = new QCheckBox(tr("Start paused: Step runs one step, Resume runs on"), this);
    m_startPaused->setObjectName(QStringLiteral("startPaused"));
    m_startPaused->setToolTip(tr("Create the search and pause it before its first step, so each step can be "
                                 "watched or steered from the start (gpuf search start --paused)."));
    form->addRow(tr("Pace:"), m_pace);
    form->addRow(QString(), m_startPaused);
    connect(m_pace, &QDoubleSpinBox::valueChanged, this, &NewSearchDialog::updateForm);
}

double NewSearchDialog::pace() const
{
    auto made = config();
    return made && made->gpu.isReplay() ? m_pace->value() : 0.0;
}

bool NewSearchDialog::startPaused() const { return m_startPaused->isChecked(); }

void NewSearchDialog::restoreChoices(const QJsonObject &choices)
{
    // A configuration this build cannot read (or none yet) leaves the defaults.
    if (auto config = search::SearchConfig::fromJson(choices.value(QStringLiteral("config")).toObject());
        config && choices.contains(QStringLiteral("config"))) {
        // Another search's proposals were a Replay with… of that search: a new search starts from the pool again.
        if (config->mutatorConfig.contains(QStringLiteral("source")))
            config->mutatorConfig = {};
        prefill(*config);
    }
    if (const QJsonValue pace = choices.value(QStringLiteral("pace")); pace.isDouble())
        m_pace->setValue(pace.toDouble());
    m_startPaused->setChecked(choices.value(QStringLiteral("start_paused")).toBool());
}

QJsonObject NewSearchDialog::choicesToRemember() const
{
    auto made = config();
    return {{QStringLiteral("config"), made ? made->toJson() : QJsonObject {}},
        {QStringLiteral("pace"), m_pace->value()}, {QStringLiteral("start_paused"), m_startPaused->isChecked()}};
}

} // namespace gpuf
