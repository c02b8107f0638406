// Settings: the one typed facade over QSettings, with key constants and change signals (STYLE practice 12).
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

class QSettings;

namespace gpuf {

class Settings : public QObject
{
    Q_OBJECT

public:
    // Bump when the set or names of docks change, so an old saved layout is not restored onto new docks.
    static constexpr int kDockLayoutVersion = 6; // 6: the Forecast dock the full height of the window
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

    QString colorScheme() const; // "system" | "light" | "dark"
    void setColorScheme(const QString &scheme);

    bool sampleStoreCreated() const;
    void setSampleStoreCreated(bool created);
    // The start-here strip was dismissed ("Got it"): the explorer no longer shows it at start.
    bool startHereDismissed() const;
    void setStartHereDismissed(bool dismissed);

    // "Measure low-confidence candidates" sends to the GPU every candidate whose forecast confidence (probability of
    // the predicted bin) is below this; 0.5 unless the user set it.
    double measureConfidenceThreshold() const;
    void setMeasureConfidenceThreshold(double threshold);
    // Whether Python candidates run without a sandbox where bubblewrap cannot make one (docs/python-problems.md);
    // false unless the user allowed it. Workers get --unsandboxed (the explorer's are restarted on a change).
    bool pythonUnsandboxed() const;
    void setPythonUnsandboxed(bool allowed);

    // The forecaster "Forecast Selected" runs, by its name in the store; "costmodel" (the built-in model) by default.
    QString forecasterName() const;
    void setForecasterName(const QString &name);
    // The hardware shown to forecasters and whose measurements the tables show, by name (a store's GPU or a preset:
    // "A100", "H100"…); empty: none. Kept for the next start; the window's choice lives in its Selection.
    QString forecastHardware() const;
    void setForecastHardware(const QString &preset);
    // Independent samples per pair (stored individually, combined in the forecast panel); 1 unless the user set it.
    int forecastSamples() const;
    void setForecastSamples(int samples);

    // What New Search… was last started with (its "config" as SearchConfig::toJson writes it, its "pace" and
    // "start_paused"), offered again the next time it opens; empty before the first search.
    QJsonObject newSearchChoices() const;
    void setNewSearchChoices(const QJsonObject &choices);

Q_SIGNALS:
    void recentStoresChanged();
    void measureConfidenceThresholdChanged(double threshold);
    void pythonUnsandboxedChanged(bool allowed);
    void forecasterNameChanged(const QString &name);
    void forecastHardwareChanged(const QString &preset);
    void forecastSamplesChanged(int samples);

private:
    QSettings *m_settings;
};

} // namespace gpuf
