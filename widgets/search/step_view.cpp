// StepView; see step_view.h.
#include "widgets/search/step_view.h"

#include "core/search/step_detail.h"
#include "widgets/search/step_models.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gpuf {

namespace {

QTableView *makeTable(QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSortingEnabled(true);
    view->verticalHeader()->setVisible(false);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    return view;
}

} // namespace

StepView::StepView(QWidget *parent)
    : QWidget(parent)
    , m_parents(new StepParentsModel(this))
    , m_proposals(new StepProposalsModel(this))
    , m_proposalsProxy(new QSortFilterProxyModel(this))
    , m_stepBox(new QSpinBox(this))
    , m_latest(new QCheckBox(tr("Latest"), this))
    , m_summary(new QLabel(this))
    , m_parentsView(makeTable(this))
    , m_proposalsView(makeTable(this))
{
    m_stepBox->setPrefix(tr("Step "));
    m_stepBox->setRange(0, 0);
    m_stepBox->setEnabled(false);
    m_latest->setChecked(true);
    m_latest->setToolTip(tr("Follow the step in progress"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *parentsProxy = new QSortFilterProxyModel(this);
    parentsProxy->setSourceModel(m_parents);
    parentsProxy->setSortRole(StepParentsModel::SortRole);
    m_parentsView->setModel(parentsProxy);
    m_parentsView->horizontalHeader()->setStretchLastSection(false);
    m_proposalsProxy->setSourceModel(m_proposals);
    m_proposalsProxy->setSortRole(StepProposalsModel::SortRole);
    m_proposalsView->setModel(m_proposalsProxy);
    m_proposalsView->sortByColumn(StepProposalsModel::NodeColumn, Qt::AscendingOrder);

    connect(m_stepBox, &QSpinBox::valueChanged, this, [this](int step) {
        if (step != m_step)
            showStep(step);
    });
    connect(m_latest, &QCheckBox::toggled, this, [this](bool on) {
        if (on) {
            m_step = latestStep();
            refresh();
        }
    });
    const auto activate = [this](QTableView *view, const QModelIndex &index) {
        const QString id = view->model()->data(index, StepProposalsModel::NodeIdRole).toString();
        if (!id.isEmpty())
            Q_EMIT nodeActivated(id);
    };
    connect(m_proposalsView, &QTableView::activated, this,
        [this, activate](const QModelIndex &index) { activate(m_proposalsView, index); });
    connect(m_parentsView, &QTableView::activated, this,
        [this, activate](const QModelIndex &index) { activate(m_parentsView, index); });

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    bar->addWidget(m_stepBox);
    bar->addWidget(m_latest);
    bar->addWidget(m_summary, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_parentsView);
    split->addWidget(m_proposalsView);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    refresh();
}

StepView::~StepView() = default;

void StepView::setSearch(const search::SearchState &state, const QList<SearchEvent> &events)
{
    m_history.clear();
    m_history.append(events);
    m_state = state;
    if (followsLatest() || m_step >= int(state.steps.size()))
        m_step = latestStep();
    refresh();
}

void StepView::applyEvents(const search::SearchState &state, const QList<SearchEvent> &newEvents)
{
    m_history.append(newEvents);
    m_state = state;
    if (followsLatest())
        m_step = latestStep();
    refresh();
}

int StepView::latestStep() const { return m_state ? int(m_state->steps.size()) - 1 : -1; }

bool StepView::followsLatest() const { return m_latest->isChecked(); }

void StepView::setFollowLatest(bool follow) { m_latest->setChecked(follow); }

void StepView::showStep(int step)
{
    {
        const QSignalBlocker block(m_latest);
        m_latest->setChecked(false);
    }
    m_step = std::clamp(step, 0, std::max(0, latestStep()));
    refresh();
}

void StepView::setNodeNames(const QHash<QString, QString> *names)
{
    m_parents->setNodeNames(names);
    m_proposals->setNodeNames(names);
}

void StepView::selectNode(const QString &nodeId)
{
    const int row = m_proposals->rowOfNode(nodeId);
    if (row < 0) {
        m_proposalsView->clearSelection();
        return;
    }
    const QModelIndex index = m_proposalsProxy->mapFromSource(m_proposals->index(row, 0));
    m_proposalsView->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_proposalsView->scrollTo(index);
}

QString StepView::summaryText() const { return m_summary->text(); }

void StepView::refresh()
{
    const int steps = m_state ? int(m_state->steps.size()) : 0;
    {
        const QSignalBlocker block(m_stepBox);
        m_stepBox->setRange(0, std::max(0, steps - 1));
        m_stepBox->setEnabled(steps > 0);
        m_stepBox->setValue(std::max(0, m_step));
    }
    if (!m_state || m_step < 0 || m_step >= steps) {
        m_parents->setDetail({});
        m_proposals->setDetail({}, 0.5, false);
        m_summary->setText(m_state ? tr("No step has started yet") : tr("No search"));
        return;
    }
    const search::StepDetail detail = search::stepDetail(*m_state, m_history, m_step);
    const bool selective = m_state->config.mode == search::Mode::Selective;
    m_parents->setDetail(detail);
    m_proposals->setDetail(detail, m_state->config.tau, selective);
    // A step holds tens of rows: sizing the columns to them is cheap and keeps the reasons readable.
    m_parentsView->resizeColumnsToContents();
    m_proposalsView->resizeColumnsToContents();
    QString text = tr("%n parent(s), ", nullptr, int(detail.parents.size()))
        + tr("%n proposal(s) shown, ", nullptr, int(detail.proposals.size()))
        + tr("%n sent to the GPU", nullptr, detail.measured);
    if (!detail.completed)
        text += tr(" · in progress");
    if (selective)
        text += tr(" · τ = %1").arg(m_state->config.tau);
    if (!detail.parentScoresKnown && !detail.parents.isEmpty())
        text += tr(" · PUCT scores unknown: %1")
                    .arg(m_history.error().isEmpty() ? tr("the log does not reach this step") : m_history.error());
    m_summary->setText(text);
}

} // namespace gpuf
