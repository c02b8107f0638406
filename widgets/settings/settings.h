// Settings: the one typed facade over QSettings, with key constants and change signals (STYLE practice 12).
#pragma once

#include <QByteArray>
#include <QObject>
#include <QStringList>

class QSettings;

namespace gpuf {

class Settings : public QObject
{
    Q_OBJECT

public:
    // Bump when the set or names of docks change, so an old saved layout is not restored onto new docks.
    static constexpr int kDockLayoutVersion = 1;
    static constexpr int kMaxRecentStores = 10;

    explicit Settings(QObject *parent = nullptr);
    ~Settings() override;

    QStringList recentStores() const;
    void addRecentStore(const QString &path);
    void removeRecentStore(const QString &path);
    QString lastStore() const;

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray dockLayout() const; // empty when none saved for kDockLayoutVersion
    void setDockLayout(const QByteArray &state);
    void clearDockLayout();

    bool sampleStoreCreated() const;
    void setSampleStoreCreated(bool created);

Q_SIGNALS:
    void recentStoresChanged();

private:
    QSettings *m_settings;
};

} // namespace gpuf
