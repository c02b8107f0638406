// RooflineLoader: follows the Selection's kernel and GPU and reads their roofline (readRooflineData) off the GUI
// thread, latest request wins; again when the store is refreshed (a new measurement) or changed.
#pragma once

#include "core/measure/roofline_data.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace gpuf {

class Selection;
class StoreSession;

class RooflineLoader : public QObject
{
    Q_OBJECT

public:
    RooflineLoader(StoreSession *session, Selection *selection, QObject *parent = nullptr);
    ~RooflineLoader() override;

    RowId kernelId() const { return m_kernelId; }
    QString hardwareName() const { return m_hardwareName; }
    bool isLoading() const { return m_loading; }

    void load(RowId kernelId, const QString &hardwareName);
    void reload() { load(m_kernelId, m_hardwareName); }

Q_SIGNALS:
    void loaded(const gpuf::RooflineData &data);
    void cleared(const QString &why);
    void failed(const QString &message);

private:
    StoreSession *m_session;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic_bool> m_cancel; // the running read's flag, set when a newer one starts
    RowId m_kernelId = 0;
    QString m_hardwareName;
    bool m_loading = false;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::RooflineData)
