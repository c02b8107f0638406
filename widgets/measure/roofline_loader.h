// RooflineLoader: follows the Selection's kernel and GPU and reads their roofline (readRooflineData) through the
// session's read (off the GUI thread, latest request wins); again when the store is opened or changed (a new
// measurement, a deletion).
#pragma once

#include "core/measure/roofline_data.h"

#include <QObject>

namespace gpuf {

class Selection;
class StoreSession;

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
    StoreSession *m_session;
    RowId m_kernelId = 0;
    QString m_hardwareName;
    bool m_loading = false;
};

} // namespace gpuf

Q_DECLARE_METATYPE(gpuf::RooflineData)
