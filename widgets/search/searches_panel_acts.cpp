// SearchesPanel's dialogs and the pace box: New Search… (with the choices it remembers), the confirmation before
// Stop, Settings… and the toolbar's pace; see searches_panel.h.
#include "widgets/search/searches_panel.h"

#include "core/session/settings.h"
#include "widgets/search/new_search_dialog.h"
#include "widgets/search/search_controller.h"
#include "widgets/search/search_follower.h"
#include "widgets/search/search_pace.h"
#include "widgets/search/steering_dialogs.h"

#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QToolBar>

namespace gpuf {

NewSearchDialog *SearchesPanel::openNewSearchDialog(const NewSearchChoices &choices, const QString &replayOf)
{
    auto *dialog = new NewSearchDialog(choices, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (m_settings)
        dialog->restoreChoices(m_settings->newSearchChoices());
    const search::SearchState *state = follower()->state();
    if (!replayOf.isEmpty() && state && state->initialized && replayOf == shownName())
        dialog->prefill(state->config, replayOf);
    connect(dialog, &NewSearchDialog::startRequested, this,
        [this, dialog](const QString &name, const search::SearchConfig &config) {
            if (m_settings)
                m_settings->setNewSearchChoices(dialog->choicesToRemember());
            m_live->setText(dialog->startPaused() ? tr("Preparing search %1; it will wait, paused, for Step or "
                                                       "Resume…")
                                                        .arg(name)
                                                  : tr("Preparing search %1…").arg(name));
            m_controller->create(name, config, {dialog->pace(), dialog->startPaused()});
        });
    dialog->open();
    return dialog;
}

void SearchesPanel::confirmStop(const QString &name)
{
    // Stopping cannot be undone (Pause can): asked first, without blocking the window.
    auto *box = new QMessageBox(QMessageBox::Question, tr("Stop Search"),
        tr("Stop the search %1 for good? A stopped search cannot be resumed; Pause keeps it resumable.").arg(name),
        QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("stopConfirmation"));
    QPushButton *stop = box->addButton(tr("Stop"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, name, stop](QAbstractButton *clicked) {
        if (clicked == stop && m_controller)
            m_controller->stop(name);
    });
    box->open();
}

void SearchesPanel::changeSettings()
{
    const search::SearchState *state = follower()->state();
    if (!state || !m_controller)
        return;
    auto *dialog = new SearchSettingsDialog(state->config, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString name = shownName();
    connect(dialog, &SearchSettingsDialog::changeRequested, this,
        [this, name](const QJsonObject &changes) { m_controller->changeConfig(name, changes); });
    dialog->open();
}

// The pace of the search shown, at the toolbar's end: a change reaches its engine at once, and a resume keeps it.
void SearchesPanel::addPaceBox()
{
    m_toolbar->addSeparator();
    m_pace = new SearchPaceBox(m_toolbar);
    m_toolbar->addWidget(m_pace);
    connect(m_pace, &SearchPaceBox::paceChosen, this, [this](double pace) {
        const QString name = shownName();
        if (name.isEmpty() || !m_controller)
            return;
        m_controller->setPace(name, pace);
        updateLiveLabel(); // which names the pace of a running search
    });
}

} // namespace gpuf
