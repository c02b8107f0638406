// DevicePanel: the local GPU as gpuf-measure reports it (name, compute capability, SMs, clocks, memory, driver,
// worker), or the exact reason there is none.
#pragma once

#include "core/measure/measure_types.h"

#include <QWidget>

class QFormLayout;
class QLabel;
class QPushButton;

namespace gpuf {

class MeasureQueue;

class DevicePanel : public QWidget
{
    Q_OBJECT

public:
    explicit DevicePanel(MeasureQueue *queue, QWidget *parent = nullptr);
    ~DevicePanel() override;

    // The shown value of a field ("Device", "Multiprocessors", "SM clock", …), for tests.
    QString fieldText(const QString &field) const;
    QString reasonText() const;

private:
    void applyDevice(const DeviceState &device);
    QLabel *addField(const QString &name);

    MeasureQueue *m_queue;
    QLabel *m_reason;
    QFormLayout *m_form;
    QList<std::pair<QString, QLabel *>> m_fields;
    QPushButton *m_probe;
};

} // namespace gpuf
