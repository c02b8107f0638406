// Settings facade; see settings.h.
#include "core/session/settings.h"

#include "core/measure/worker_locator.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QSettings>

#include <algorithm>

namespace gpuf {
namespace {
const QString kRecentStores = QStringLiteral("stores/recent");
const QString kWindowGeometry = QStringLiteral("window/geometry");
const QString kDockLayout = QStringLiteral("window/dockLayout");
const QString kDockLayoutVersionKey = QStringLiteral("window/dockLayoutVersion");
const QString kSampleStoreCreated = QStringLiteral("stores/sampleCreated");
const QString kStartHereDismissed = QStringLiteral("window/startHereDismissed");
const QString kColorScheme = QStringLiteral("appearance/colorScheme");
const QString kMeasureConfidenceThreshold = QStringLiteral("measure/confidenceThreshold");
const QString kForecasterName = QStringLiteral("forecast/forecaster");
const QString kForecastHardware = QStringLiteral("forecast/hardware");
const QString kForecastSamples = QStringLiteral("forecast/samples");
const QString kNewSearchChoices = QStringLiteral("search/newSearchChoices");
} // namespace

Settings::Settings(QObject *parent)
    : QObject(parent)
    , m_settings(new QSettings(this))
{ }

Settings::~Settings() = default;

QStringList Settings::recentStores() const { return m_settings->value(kRecentStores).toStringList(); }

void Settings::addRecentStore(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = recentStores();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxRecentStores)
        list.removeLast();
    m_settings->setValue(kRecentStores, list);
    Q_EMIT recentStoresChanged();
}

void Settings::removeRecentStore(const QString &path)
{
    QStringList list = recentStores();
    if (list.removeAll(QFileInfo(path).absoluteFilePath()) > 0) {
        m_settings->setValue(kRecentStores, list);
        Q_EMIT recentStoresChanged();
    }
}

QString Settings::lastStore() const
{
    const QStringList list = recentStores();
    return list.isEmpty() ? QString() : list.first();
}

QByteArray Settings::windowGeometry() const { return m_settings->value(kWindowGeometry).toByteArray(); }
void Settings::setWindowGeometry(const QByteArray &geometry) { m_settings->setValue(kWindowGeometry, geometry); }

QByteArray Settings::dockLayout() const
{
    if (m_settings->value(kDockLayoutVersionKey).toInt() != kDockLayoutVersion)
        return {};
    return m_settings->value(kDockLayout).toByteArray();
}

void Settings::setDockLayout(const QByteArray &state)
{
    m_settings->setValue(kDockLayout, state);
    m_settings->setValue(kDockLayoutVersionKey, kDockLayoutVersion);
}

void Settings::clearDockLayout()
{
    m_settings->remove(kDockLayout);
    m_settings->remove(kDockLayoutVersionKey);
}

QString Settings::colorScheme() const { return m_settings->value(kColorScheme, QStringLiteral("system")).toString(); }
void Settings::setColorScheme(const QString &scheme) { m_settings->setValue(kColorScheme, scheme); }

bool Settings::sampleStoreCreated() const { return m_settings->value(kSampleStoreCreated, false).toBool(); }
void Settings::setSampleStoreCreated(bool created) { m_settings->setValue(kSampleStoreCreated, created); }

bool Settings::startHereDismissed() const { return m_settings->value(kStartHereDismissed, false).toBool(); }
void Settings::setStartHereDismissed(bool dismissed) { m_settings->setValue(kStartHereDismissed, dismissed); }

double Settings::measureConfidenceThreshold() const
{
    return m_settings->value(kMeasureConfidenceThreshold, 0.5).toDouble();
}

void Settings::setMeasureConfidenceThreshold(double threshold)
{
    if (qFuzzyCompare(threshold, measureConfidenceThreshold()))
        return;
    m_settings->setValue(kMeasureConfidenceThreshold, threshold);
    Q_EMIT measureConfidenceThresholdChanged(threshold);
}

bool Settings::pythonUnsandboxed() const
{
    return m_settings->value(QString::fromLatin1(measure::kPythonUnsandboxedKey), false).toBool();
}

void Settings::setPythonUnsandboxed(bool allowed)
{
    if (allowed == pythonUnsandboxed())
        return;
    m_settings->setValue(QString::fromLatin1(measure::kPythonUnsandboxedKey), allowed);
    Q_EMIT pythonUnsandboxedChanged(allowed);
}

QString Settings::forecasterName() const
{
    return m_settings->value(kForecasterName, QStringLiteral("costmodel")).toString();
}

void Settings::setForecasterName(const QString &name)
{
    if (name == forecasterName())
        return;
    m_settings->setValue(kForecasterName, name);
    Q_EMIT forecasterNameChanged(name);
}

QString Settings::forecastHardware() const { return m_settings->value(kForecastHardware).toString(); }

void Settings::setForecastHardware(const QString &preset)
{
    if (preset == forecastHardware())
        return;
    m_settings->setValue(kForecastHardware, preset);
    Q_EMIT forecastHardwareChanged(preset);
}

int Settings::forecastSamples() const { return std::max(1, m_settings->value(kForecastSamples, 1).toInt()); }

void Settings::setForecastSamples(int samples)
{
    samples = std::max(1, samples);
    if (samples == forecastSamples())
        return;
    m_settings->setValue(kForecastSamples, samples);
    Q_EMIT forecastSamplesChanged(samples);
}

QJsonObject Settings::newSearchChoices() const
{
    // Kept as JSON text: QSettings' own formats differ in how they keep nested maps and numbers.
    return QJsonDocument::fromJson(m_settings->value(kNewSearchChoices).toByteArray()).object();
}

void Settings::setNewSearchChoices(const QJsonObject &choices)
{
    m_settings->setValue(kNewSearchChoices, QJsonDocument(choices).toJson(QJsonDocument::Compact));
}

} // namespace gpuf
