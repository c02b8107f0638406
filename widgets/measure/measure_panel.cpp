// The measurement queue panel; see measure_panel.h.
#include "widgets/measure/measure_panel.h"

#include "core/measure/measure_queue.h"
#include "core/session/selection.h"
#include "core/session/settings.h"
#include "core/session/store_session.h"
#include "widgets/measure/measure_queue_model.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace gpuf {

namespace {

QToolButton *buttonFor(QAction *action, QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace

MeasurePanel::MeasurePanel(
    MeasureQueue *queue, StoreSession *session, Selection *selection, Settings *settings, QWidget *parent)
    : QWidget(parent)
    , m_queue(queue)
    , m_session(session)
    , m_selection(selection)
    , m_settings(settings)
    , m_model(new MeasureQueueModel(this))
    , m_view(new QTableView(this))
    , m_banner(new QLabel(this))
    , m_notice(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_threshold(new QDoubleSpinBox(this))
    , m_measureSelected(new QAction(tr("Measure on GPU"), this))
    , m_measureLowConfidence(new QAction(this))
    , m_cancel(new QAction(tr("Cancel"), this))
    , m_cancelAll(new QAction(tr("Cancel all"), this))
    , m_remeasure(new QAction(tr("Re-measure"), this))
    , m_clearFinished(new QAction(tr("Clear finished"), this))
{
    setObjectName(QStringLiteral("measurePanel"));
    m_measureSelected->setObjectName(QStringLiteral("measureSelected"));
    m_measureLowConfidence->setObjectName(QStringLiteral("measureLowConfidence"));
    m_banner->setObjectName(QStringLiteral("measureUnavailable"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->setWordWrap(true);
    m_threshold->setRange(0.05, 1.0);
    m_threshold->setSingleStep(0.05);
    m_threshold->setDecimals(2);
    m_threshold->setPrefix(tr("confidence < "));
    m_threshold->setToolTip(tr("Candidates whose forecast confidence (probability of the predicted bin) is below this "
                               "are measured by \"Measure low-confidence\" (kept in the settings)."));
    m_threshold->setValue(m_settings->measureConfidenceThreshold());
    m_progress->setFormat(tr("%v of %m finished"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);

    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(buttonFor(m_measureSelected, this));
    buttons->addWidget(buttonFor(m_measureLowConfidence, this));
    buttons->addWidget(m_threshold);
    buttons->addStretch();
    buttons->addWidget(buttonFor(m_cancel, this));
    buttons->addWidget(buttonFor(m_cancelAll, this));
    buttons->addWidget(buttonFor(m_remeasure, this));
    buttons->addWidget(buttonFor(m_clearFinished, this));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_notice);

    connect(m_threshold, &QDoubleSpinBox::valueChanged, m_settings, &Settings::setMeasureConfidenceThreshold);
    connect(m_settings, &Settings::measureConfidenceThresholdChanged, this, [this](double threshold) {
        if (!qFuzzyCompare(m_threshold->value(), threshold))
            m_threshold->setValue(threshold);
        updateActions();
    });
    connect(m_measureSelected, &QAction::triggered, this, &MeasurePanel::measureSelected);
    connect(m_measureLowConfidence, &QAction::triggered, this,
        [this] { m_queue->enqueueLowConfidence(m_settings->measureConfidenceThreshold()); });
    connect(m_cancel, &QAction::triggered, this, [this] { m_queue->cancel(selectedItemIds(false)); });
    connect(m_cancelAll, &QAction::triggered, m_queue, &MeasureQueue::cancelAll);
    connect(m_remeasure, &QAction::triggered, this, [this] { m_queue->remeasure(selectedItemIds(true)); });
    connect(m_clearFinished, &QAction::triggered, m_queue, &MeasureQueue::clearFinished);
    connect(m_queue, &MeasureQueue::snapshotChanged, this, &MeasurePanel::applySnapshot);
    connect(m_queue, &MeasureQueue::notice, m_notice, &QLabel::setText);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MeasurePanel::updateActions);
    connect(m_selection, &Selection::selectedIdsChanged, this, &MeasurePanel::updateActions);
    connect(m_selection, &Selection::pairChanged, this, &MeasurePanel::updateActions);
    connect(m_session, &StoreSession::opened, this, [this](const StoreSnapshot &snapshot) {
        m_queue->setStorePath(snapshot.path);
        updateActions();
    });
    connect(m_session, &StoreSession::closed, this, [this] {
        m_queue->setStorePath({});
        updateActions();
    });
    if (m_session->isOpen())
        m_queue->setStorePath(m_session->path());
    applySnapshot(m_queue->snapshot());
    m_queue->probeDevice();
}

MeasurePanel::~MeasurePanel() = default;

QString MeasurePanel::unavailableReason() const
{
    switch (m_snapshot.device.availability) {
    case DeviceState::Availability::Unknown:
    case DeviceState::Availability::Probing:
        return tr("looking for the GPU…");
    case DeviceState::Availability::Unavailable:
        return m_snapshot.device.reason;
    case DeviceState::Availability::Available:
        break;
    }
    if (!m_session->isOpen())
        return tr("no store is open");
    return {};
}

QList<RowId> MeasurePanel::candidateIds() const
{
    QList<RowId> ids = m_selection->selectedIds();
    if (ids.isEmpty() && m_selection->candidateId() != 0)
        ids.append(m_selection->candidateId());
    return ids;
}

void MeasurePanel::measureSelected()
{
    QList<MeasureJob> jobs;
    for (RowId id : candidateIds())
        jobs.append(MeasureJob {id, 1, MeasureMode::Local, {}, 0}); // chosen by hand: ahead of batch work
    if (!jobs.isEmpty())
        m_queue->enqueue(jobs);
}

QList<quint64> MeasurePanel::selectedItemIds(bool finished) const
{
    QList<quint64> ids;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &index : rows) {
        const MeasureItem *item = m_model->itemAt(index.row());
        if (item && isFinished(item->state) == finished)
            ids.append(item->id);
    }
    return ids;
}

void MeasurePanel::applySnapshot(const MeasureSnapshot &snapshot)
{
    m_snapshot = snapshot;
    m_model->setItems(snapshot.items);
    const int total = static_cast<int>(snapshot.items.size());
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(snapshot.finished);
    m_progress->setFormat(total == 0
            ? tr("queue empty")
            : tr("%v of %m finished (%1 running, %2 queued)").arg(snapshot.running).arg(snapshot.queued));
    updateActions();
}

void MeasurePanel::updateActions()
{
    const QString reason = unavailableReason();
    const bool deviceKnownMissing = m_snapshot.device.availability == DeviceState::Availability::Unavailable;
    m_banner->setVisible(!reason.isEmpty());
    m_banner->setText(deviceKnownMissing ? tr("Measuring on the GPU is unavailable: %1").arg(reason) : reason);

    const QList<RowId> candidates = candidateIds();
    const QString gpu = m_snapshot.device.devices.isEmpty() ? QString() : m_snapshot.device.devices.first().name;
    m_measureSelected->setEnabled(reason.isEmpty() && !candidates.isEmpty());
    m_measureSelected->setToolTip(!reason.isEmpty() ? reason
            : candidates.isEmpty()
            ? tr("Select candidates to measure")
            : tr("Measure %n selected candidate(s) on %1", nullptr, int(candidates.size())).arg(gpu));
    const double threshold = m_settings->measureConfidenceThreshold();
    m_measureLowConfidence->setText(tr("Measure low-confidence (< %1)").arg(threshold, 0, 'f', 2));
    m_measureLowConfidence->setEnabled(reason.isEmpty());
    m_measureLowConfidence->setToolTip(reason.isEmpty()
            ? tr("Measure every candidate whose forecast confidence is below %1 and that has no local "
                 "measurement yet")
                  .arg(threshold, 0, 'f', 2)
            : reason);
    for (QAction *a : {m_measureSelected, m_measureLowConfidence})
        a->setStatusTip(a->toolTip());

    m_cancel->setEnabled(!selectedItemIds(false).isEmpty());
    m_remeasure->setEnabled(reason.isEmpty() && !selectedItemIds(true).isEmpty());
    m_remeasure->setToolTip(reason.isEmpty() ? tr("Measure the selected finished items again") : reason);
    m_cancelAll->setEnabled(m_snapshot.queued + m_snapshot.running > 0);
    m_clearFinished->setEnabled(m_snapshot.finished > 0);
}

} // namespace gpuf
