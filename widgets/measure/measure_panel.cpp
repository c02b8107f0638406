// The measurement queue panel; see measure_panel.h.
#include "widgets/measure/measure_panel.h"

#include "core/measure/cluster_profile.h"
#include "core/measure/measure_queue.h"
#include "core/session/settings.h"
#include "widgets/common/flow_layout.h"
#include "widgets/common/view_setup.h"
#include "widgets/measure/measure_controller.h"
#include "widgets/measure/measure_queue_model.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace gpuf {

MeasurePanel::MeasurePanel(MeasureController *controller, Settings *settings, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_model(new MeasureQueueModel(this))
    , m_view(new QTableView(this))
    , m_banner(new QLabel(this))
    , m_notice(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_threshold(new QDoubleSpinBox(this))
    , m_target(new QComboBox(this))
    , m_unsandboxed(new QCheckBox(tr("Python without sandbox"), this))
{
    setObjectName(QStringLiteral("measurePanel"));
    m_banner->setObjectName(QStringLiteral("measureUnavailable"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->setObjectName(QStringLiteral("measureNotice"));
    m_notice->setWordWrap(true);
    m_threshold->setRange(0.05, 1.0);
    m_threshold->setSingleStep(0.05);
    m_threshold->setDecimals(2);
    m_threshold->setPrefix(tr("confidence < "));
    m_threshold->setToolTip(tr("Candidates whose forecast confidence (probability of the predicted bin) is below this "
                               "are measured by \"Measure low-confidence\" (kept in the settings)."));
    m_threshold->setValue(settings->measureConfidenceThreshold());
    m_target->setObjectName(QStringLiteral("measureTarget"));
    m_target->setToolTip(tr("Where measurements run: this machine's GPU, or the GPUs of a Slurm cluster "
                            "(profiles: gpuf cluster set-profile; docs/cluster.md)"));
    reloadTargets();
    m_unsandboxed->setObjectName(QStringLiteral("measureUnsandboxed"));
    m_unsandboxed->setToolTip(
        tr("Run Python candidates even where their sandbox (bubblewrap) cannot be made. A "
           "candidate then sees your files, your environment and this program; allow it only "
           "for candidates you trust. Idle workers restart at once, busy ones after their kernel."));
    m_unsandboxed->setChecked(settings->pythonUnsandboxed());
    m_view->setModel(m_model);
    setupTableView(m_view, QAbstractItemView::ExtendedSelection);

    // Wraps onto a second line in a narrow dock rather than widening the window.
    auto *buttons = new FlowLayout;
    buttons->addWidget(m_target);
    buttons->addWidget(buttonFor(m_controller->measureSelectedAction(), this));
    buttons->addWidget(buttonFor(m_controller->measureLowConfidenceAction(), this));
    buttons->addWidget(m_threshold);
    buttons->addWidget(m_unsandboxed);
    for (QAction *action : {m_controller->cancelAction(), m_controller->cancelAllAction(),
             m_controller->remeasureAction(), m_controller->clearFinishedAction()})
        buttons->addWidget(buttonFor(action, this));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_notice);

    connect(m_threshold, &QDoubleSpinBox::valueChanged, settings, &Settings::setMeasureConfidenceThreshold);
    connect(settings, &Settings::measureConfidenceThresholdChanged, this, [this](double threshold) {
        if (!qFuzzyCompare(m_threshold->value(), threshold))
            m_threshold->setValue(threshold);
    });
    connect(m_unsandboxed, &QCheckBox::toggled, settings, &Settings::setPythonUnsandboxed);
    connect(settings, &Settings::pythonUnsandboxedChanged, m_unsandboxed, &QCheckBox::setChecked);
    connect(m_target, &QComboBox::currentIndexChanged, this,
        [this] { m_controller->setTargetCluster(m_target->currentData().toString()); });
    connect(m_controller, &MeasureController::targetsChanged, this, &MeasurePanel::reloadTargets);
    connect(m_controller->queue(), &MeasureQueue::notice, m_notice, &QLabel::setText);
    connect(m_controller, &MeasureController::snapshotChanged, this, &MeasurePanel::applySnapshot);
    connect(m_controller, &MeasureController::availabilityChanged, this, &MeasurePanel::showAvailability);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MeasurePanel::chooseItems);
    applySnapshot(m_controller->snapshot());
    showAvailability(m_controller->unavailableReason());
}

MeasurePanel::~MeasurePanel() = default;

void MeasurePanel::reloadTargets()
{
    const QString current = m_controller->targetCluster();
    {
        const QSignalBlocker blocker(m_target);
        m_target->clear();
        m_target->addItem(tr("local GPU"), QString());
        for (const QString &name : MeasureController::clusterProfileNames())
            m_target->addItem(tr("cluster (%1)").arg(name), name);
        m_target->setCurrentIndex(std::max(0, m_target->findData(current)));
        m_target->setVisible(m_target->count() > 1);
    }
    // A profile removed meanwhile falls back to the local GPU.
    m_controller->setTargetCluster(m_target->currentData().toString());
}

void MeasurePanel::applySnapshot(const MeasureSnapshot &snapshot)
{
    m_model->setItems(snapshot.items);
    // Job and node mean something only for cluster items.
    const bool anyCluster = std::any_of(
        snapshot.items.cbegin(), snapshot.items.cend(), [](const MeasureItem &i) { return !i.cluster.isEmpty(); });
    m_view->setColumnHidden(MeasureQueueModel::JobColumn, !anyCluster);
    m_view->setColumnHidden(MeasureQueueModel::NodeColumn, !anyCluster);
    const int total = static_cast<int>(snapshot.items.size());
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(snapshot.finished);
    m_progress->setFormat(total == 0
            ? tr("queue empty")
            : tr("%v of %m finished (%1 running, %2 queued)").arg(snapshot.running).arg(snapshot.queued));
    chooseItems(); // a reset of the rows drops the view's selection without a signal
}

void MeasurePanel::showAvailability(const QString &reason)
{
    const bool deviceMissing = m_controller->snapshot().device.availability == DeviceState::Availability::Unavailable;
    m_banner->setVisible(!reason.isEmpty());
    m_banner->setText(deviceMissing && m_controller->targetCluster().isEmpty()
            ? tr("Measuring on the GPU is unavailable: %1").arg(reason)
            : reason);
}

void MeasurePanel::chooseItems()
{
    QList<quint64> ids;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &index : rows) {
        if (const MeasureItem *item = m_model->itemAt(index.row()))
            ids.append(item->id);
    }
    m_controller->setChosenItems(ids);
}

} // namespace gpuf
