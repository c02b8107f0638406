// RooflineLoader: follows the Selection's kernel and GPU and reads their roofline (readRooflineData) through the
// session's read (off the GUI thread, latest request wins); again when the store is opened, and when a change may
// alter what it read (a measurement of the kernel, its parent or its reference, a deletion, an import), not on the
// others (forecasts, lessons, a search's events, another kernel's measurements).
#pragma once

#include "core/measure/roofline_data.h"

#include <QObject>

namespace gpuf {

class Selection;
class StoreSession;
struct StoreChange;

class RooflineLoader : public QObject
{
    Q_OBJECT

public:
    RooflineLoader(StoreSession *session, Selection *selection, QObject *parent = nullptr);

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
    // Whether `change` may alter the roofline of the current kernel: followChange reloads on those only.
    bool mayChange(const StoreChange &change) const;
    void followChange(const StoreChange &change);

    StoreSession *m_session;
    RowId m_kernelId = 0;
    QString m_hardwareName;
    bool m_loading = false;
    QList<RowId> m_readKernels; // the kernels the last roofline drew: the kernel, its parent, its reference
    bool m_hardwareKnown = false; // the last roofline had a GPU to draw against
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::RooflineData)
