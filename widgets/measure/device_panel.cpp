// The device panel; see device_panel.h.
#include "widgets/measure/device_panel.h"

#include "core/measure/measure_queue.h"

#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace gpuf {

namespace {
const QString kDash = QStringLiteral("—");
}

DevicePanel::DevicePanel(MeasureQueue *queue, QWidget *parent)
    : QWidget(parent)
    , m_queue(queue)
    , m_reason(new QLabel(this))
    , m_form(new QFormLayout)
    , m_probe(new QPushButton(tr("Check again"), this))
{
    setObjectName(QStringLiteral("devicePanel"));
    m_reason->setObjectName(QStringLiteral("deviceReason"));
    m_reason->setWordWrap(true);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (const QString &field : {tr("Device"), tr("Compute capability"), tr("Multiprocessors"), tr("SM clock"),
             tr("Memory clock"), tr("Memory"), tr("L2 cache"), tr("Peak bandwidth"), tr("Driver"), tr("Worker")})
        addField(field);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_reason);
    layout->addLayout(m_form);
    auto *row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(m_probe);
    layout->addLayout(row);
    layout->addStretch();
    connect(m_probe, &QPushButton::clicked, m_queue, &MeasureQueue::probeDevice);
    connect(m_queue, &MeasureQueue::snapshotChanged, this,
        [this](const MeasureSnapshot &snapshot) { applyDevice(snapshot.device); });
    applyDevice(m_queue->snapshot().device);
}

DevicePanel::~DevicePanel() = default;

QLabel *DevicePanel::addField(const QString &name)
{
    auto *value = new QLabel(kDash, this);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_form->addRow(name + QLatin1Char(':'), value);
    m_fields.append({name, value});
    return value;
}

QString DevicePanel::fieldText(const QString &field) const
{
    for (const auto &[name, label] : m_fields) {
        if (name == field)
            return label->text();
    }
    return {};
}

QString DevicePanel::reasonText() const
{
    return m_reason->isVisible() || !m_reason->text().isEmpty() ? m_reason->text() : QString();
}

void DevicePanel::applyDevice(const DeviceState &device)
{
    QStringList values(m_fields.size(), kDash);
    switch (device.availability) {
    case DeviceState::Availability::Unknown:
    case DeviceState::Availability::Probing:
        m_reason->setText(tr("Looking for the GPU…"));
        break;
    case DeviceState::Availability::Unavailable:
        m_reason->setText(tr("No GPU to measure on: %1").arg(device.reason));
        break;
    case DeviceState::Availability::Available:
        m_reason->clear();
        break;
    }
    m_reason->setVisible(!m_reason->text().isEmpty());
    if (!device.devices.isEmpty()) {
        const DeviceDescription &d = device.devices.first();
        const QString more = device.devices.size() > 1 ? tr(" (+%1 more)").arg(device.devices.size() - 1) : QString();
        values[0] = d.name + more;
        values[1] = d.arch.isEmpty() ? d.computeCapability : tr("%1 (%2)").arg(d.computeCapability, d.arch);
        if (d.multiprocessors > 0) {
            values[2] = QString::number(d.multiprocessors);
            values[3] = d.clocksAvailable ? tr("%1 MHz now, %2 MHz max").arg(d.smClockMhz).arg(d.maxSmClockMhz)
                                          : tr("%1 MHz max (current: %2)").arg(d.maxSmClockMhz).arg(d.clocksReason);
            values[4] = d.clocksAvailable ? tr("%1 MHz now, %2 MHz max").arg(d.memoryClockMhz).arg(d.maxMemoryClockMhz)
                                          : tr("%1 MHz max").arg(d.maxMemoryClockMhz);
            values[5] = tr("%1 GiB, %2-bit bus")
                            .arg(double(d.totalMemoryBytes) / double(1LL << 30), 0, 'f', 1)
                            .arg(d.memoryBusWidthBits);
            values[6] = tr("%1 MiB").arg(double(d.l2Bytes) / double(1 << 20), 0, 'f', 0);
            values[7] = tr("%1 GB/s").arg(d.peakBandwidthGBs, 0, 'f', 0);
            values[8] = d.driverVersion;
        }
    }
    if (!device.workerPath.isEmpty())
        values[9] = device.workerVersion.isEmpty()
            ? device.workerPath
            : tr("%1 (gpuf-measure %2, NVRTC %3)").arg(device.workerPath, device.workerVersion, device.nvrtcVersion);
    for (qsizetype i = 0; i < m_fields.size(); ++i)
        m_fields[i].second->setText(values[i]);
}

} // namespace gpuf
