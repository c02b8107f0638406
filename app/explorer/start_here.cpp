// StartHereStrip; see start_here.h.
#include "app/explorer/start_here.h"

#include "app/explorer/main_window.h"
#include "core/session/sample_store.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "widgets/candidates/candidate_browser.h"
#include "widgets/candidates/candidate_table_model.h"
#include "widgets/common/flow_layout.h"
#include "widgets/search/searches_panel.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace gpuf {

StartHereStrip::StartHereStrip(MainWindow *window)
    : QFrame(window)
    , m_window(window)
    , m_dismiss(new QPushButton(tr("Got it"), this))
    , m_hint(new QLabel(this))
{
    setObjectName(QStringLiteral("startHere"));
    setFrameShape(QFrame::StyledPanel);
    // The buttons wrap: the strip must never widen the central area and squeeze the docks beside it.
    auto *buttons = new QWidget(this);
    auto *row = new FlowLayout(buttons);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("<b>Start here:</b>"), buttons));
    const QList<std::pair<Step, QString>> steps {{Step::Diff, tr("1 · A candidate beside its reference")},
        {Step::Forecast, tr("2 · Why it should be faster")}, {Step::Search, tr("3 · Run a search")},
        {Step::Lesson, tr("4 · Predict, then reveal")}};
    for (const auto &[step, text] : steps) {
        auto *button = new QPushButton(text, buttons);
        connect(button, &QPushButton::clicked, this, [this, step = step] { showStep(step); });
        m_buttons.append(button);
        row->addWidget(button);
    }
    m_dismiss->setParent(buttons);
    row->addWidget(m_dismiss);
    m_dismiss->setToolTip(tr("Hide this strip; Help → Start Here shows it again"));
    connect(m_dismiss, &QPushButton::clicked, this, [this] {
        m_window->context().settings->setStartHereDismissed(true);
        hide();
    });
    m_hint->setWordWrap(true);
    m_hint->setText(tr("Four things this window is for, each shown on the open store (the sample store when none is "
                       "open). Press one."));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(buttons);
    layout->addWidget(m_hint);
    // Its width asks nothing of the window: the buttons wrap in whatever the diff's column leaves.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setVisible(!m_window->context().settings->startHereDismissed());
}

QPushButton *StartHereStrip::button(Step step) const { return m_buttons.value(int(step)); }

QString StartHereStrip::hint() const { return m_hint->text(); }

void StartHereStrip::reveal() { QFrame::show(); }

// Focuses the first candidate of the Candidates table that is not its problem's reference; false when the table has
// none yet (no store, or it is still loading).
bool StartHereStrip::showCandidate()
{
    const ExplorerContext &c = m_window->context();
    if (!c.session->isOpen()) {
        openSampleStore(c.session);
        return false;
    }
    c.docks.candidates->show();
    c.docks.candidates->raise();
    CandidateBrowser *browser = c.panels.candidates;
    if (c.selection->candidateId() > 0)
        return true;
    const CandidateTableModel *model = browser->model();
    const CandidateTablePtr table = model->table();
    for (int row = 0; table && row < model->rowCount(); ++row) {
        const int tableRow = model->tableRowAt(row);
        if (tableRow >= 0 && !table->rows[tableRow].isReference && table->rows[tableRow].baselineId > 0) {
            browser->tableView()->setCurrentIndex(model->index(row, 0));
            return true;
        }
    }
    return false;
}

QString StartHereStrip::openingHint()
{
    return tr("Opening the store: press again once the Candidates table lists its kernels.");
}

void StartHereStrip::showStep(Step step)
{
    const ExplorerContext &c = m_window->context();
    switch (step) {
    case Step::Diff:
        m_hint->setText(showCandidate()
                ? tr("The diff shows the chosen candidate (right) beside its problem's reference (left), its changes "
                     "marked; Annotations in the diff's toolbar marks the lines the cost model leans on. Choose "
                     "another row in the Candidates table to compare it.")
                : openingHint());
        break;
    case Step::Forecast:
        if (!showCandidate()) {
            m_hint->setText(openingHint());
            break;
        }
        c.docks.forecast->show();
        c.docks.forecast->raise();
        m_hint->setText(tr("The Forecast dock (right) shows each forecaster's probability over the eight speedup bins, "
                           "its reasoning and, where it was measured, the bin it fell in. Hover a bin for its range; "
                           "Show Evidence… in its menu says how the speedup was measured."));
        break;
    case Step::Search:
        m_window->arrangeLayout(DockLayout::Search);
        m_hint->setText(tr("A search proposes kernels, forecasts them and measures the promising ones. New Search… "
                           "starts one on a recorded pool or sweep (nothing runs on a GPU); watch its lineage grow, "
                           "then pin, veto or inject from a node's menu."));
        if (c.session->isOpen())
            c.panels.searches->newSearchAction()->trigger();
        break;
    case Step::Lesson:
        m_window->arrangeLayout(DockLayout::Lesson);
        m_hint->setText(tr("Pick a lesson and a student, spread your probability over the eight bins, then Reveal: "
                           "the measured speedup, your score and what the forecasters said."));
        break;
    }
}

} // namespace gpuf
