// CandidateFilterBar; see candidate_filter_bar.h.
#include "widgets/candidates/candidate_filter_bar.h"

#include "core/bins/bins.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QTimer>

namespace gpuf {
namespace {

constexpr int kMeasuredRole = Qt::UserRole + 1;
constexpr int kPredictedRole = Qt::UserRole + 2;
constexpr int kStatusNone = -1;

QDoubleSpinBox *probabilitySpin(double value, QWidget *parent)
{
    auto *spin = new QDoubleSpinBox(parent);
    spin->setRange(0.0, 1.0);
    spin->setSingleStep(0.05);
    spin->setDecimals(2);
    spin->setValue(value);
    return spin;
}

} // namespace

CandidateFilterBar::CandidateFilterBar(QWidget *parent)
    : QWidget(parent)
    , m_text(new QLineEdit(this))
    , m_textDelay(new QTimer(this))
    , m_bin(new QComboBox(this))
    , m_minConfidence(probabilitySpin(0.0, this))
    , m_maxConfidence(probabilitySpin(1.0, this))
    , m_status(new QComboBox(this))
    , m_origin(new QComboBox(this))
    , m_hardware(new QComboBox(this))
    , m_forecaster(new QComboBox(this))
    , m_threshold(probabilitySpin(0.5, this))
{
    m_text->setPlaceholderText(tr("Filter kernels: name, hash, problem, origin, language"));
    m_text->setClearButtonEnabled(true);
    m_textDelay->setSingleShot(true);
    m_textDelay->setInterval(200); // typing a word filters once, not once per letter
    m_minConfidence->setToolTip(tr("Smallest confidence (probability of the predicted bin) shown"));
    m_maxConfidence->setToolTip(tr("Largest confidence shown"));
    m_threshold->setToolTip(tr("τ: a forecast whose confidence is at least τ is trusted instead of measured (the same "
                               "τ as the calibration plots and Measure Low-Confidence)"));
    m_hardware->setToolTip(tr("The window's hardware: the speedup columns show its measurements, and new forecasts are "
                              "made for it"));
    m_forecaster->setToolTip(tr("The window's forecaster: the prediction columns show its newest forecasts, and "
                                "Forecast Selected runs it"));
    m_origin->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // A long GPU or forecaster name is elided rather than widening the dock past a 1280-pixel window's share.
    for (QComboBox *box : {m_hardware, m_forecaster}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
    }
    fillBins();
    fillStatuses();
    m_origin->addItem(tr("Any origin"), QString());

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *first = new QHBoxLayout;
    first->addWidget(m_text, 1);
    first->addWidget(m_bin);
    first->addWidget(m_status);
    first->addWidget(m_origin);
    auto *second = new QHBoxLayout;
    second->addWidget(new QLabel(tr("Hardware"), this));
    second->addWidget(m_hardware, 1);
    second->addWidget(new QLabel(tr("Forecaster"), this));
    second->addWidget(m_forecaster, 1);
    second->addWidget(new QLabel(tr("Confidence"), this));
    second->addWidget(m_minConfidence);
    second->addWidget(new QLabel(QStringLiteral("–"), this));
    second->addWidget(m_maxConfidence);
    second->addWidget(new QLabel(tr("Trust τ"), this));
    second->addWidget(m_threshold);
    layout->addLayout(first, 0, 0);
    layout->addLayout(second, 1, 0);

    connect(m_text, &QLineEdit::textChanged, m_textDelay, qOverload<>(&QTimer::start));
    connect(m_textDelay, &QTimer::timeout, this, &CandidateFilterBar::filterChanged);
    for (QComboBox *box : {m_bin, m_status, m_origin})
        connect(box, &QComboBox::currentIndexChanged, this, &CandidateFilterBar::filterChanged);
    for (QDoubleSpinBox *spin : {m_minConfidence, m_maxConfidence})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &CandidateFilterBar::filterChanged);
    connect(m_hardware, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT hardwareChanged(hardwareIndex()); });
    connect(
        m_forecaster, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT forecasterChanged(forecasterIndex()); });
    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, &CandidateFilterBar::trustThresholdChanged);
}

void CandidateFilterBar::fillBins()
{
    auto add = [this](const QString &label, int measured, int predicted) {
        m_bin->addItem(label);
        m_bin->setItemData(m_bin->count() - 1, measured, kMeasuredRole);
        m_bin->setItemData(m_bin->count() - 1, predicted, kPredictedRole);
    };
    add(tr("Any bin"), CandidateFilter::kAnyBin, CandidateFilter::kAnyBin);
    for (int b = 1; b <= bins::kBinCount; ++b)
        add(tr("Measured %1 · %2").arg(b).arg(bins::label(b)), b, CandidateFilter::kAnyBin);
    add(tr("Measured: failed"), CandidateFilter::kFailedBin, CandidateFilter::kAnyBin);
    for (int b = 1; b <= bins::kBinCount; ++b)
        add(tr("Predicted %1 · %2").arg(b).arg(bins::label(b)), CandidateFilter::kAnyBin, b);
}

void CandidateFilterBar::fillStatuses()
{
    m_status->addItem(tr("Any status"), kStatusNone);
    for (CandidateStatus status : {CandidateStatus::Trusted, CandidateStatus::Measured, CandidateStatus::MeasuredReplay,
             CandidateStatus::Pending, CandidateStatus::NotMeasured})
        m_status->addItem(candidateStatusName(status), int(status));
}

void CandidateFilterBar::refill(QComboBox *box, const QStringList &labels, const QList<QVariant> &keys, int fallback)
{
    const QVariant current = box->currentData();
    const QSignalBlocker blocker(box); // the caller reports the outcome once
    box->clear();
    for (qsizetype i = 0; i < labels.size(); ++i)
        box->addItem(labels[i], keys[i]);
    const int kept = current.isValid() ? box->findData(current) : -1;
    box->setCurrentIndex(kept >= 0 ? kept : fallback);
}

void CandidateFilterBar::updateCounts(const CandidateTablePtr &table)
{
    if (!table)
        return;
    for (const CandidateHardware &h : table->hardware) {
        if (const int i = m_hardware->findData(h.id); i >= 0)
            m_hardware->setItemText(i, tr("%1 (%n measured)", nullptr, int(h.measurements)).arg(h.name));
    }
    for (const CandidateForecaster &f : table->forecasters) {
        if (const int i = m_forecaster->findData(f.id); i >= 0)
            m_forecaster->setItemText(i, tr("%1 (%n forecast(s))", nullptr, int(f.forecasts)).arg(f.name));
    }
}

void CandidateFilterBar::setTable(const CandidateTablePtr &table)
{
    const int hardwareBefore = m_hardware->currentIndex();
    const int forecasterBefore = m_forecaster->currentIndex();
    const QString originBefore = m_origin->currentData().toString();
    QStringList labels;
    QList<QVariant> keys;
    m_hardwareNames.clear();
    m_forecasterNames.clear();
    if (table) {
        for (const CandidateHardware &h : table->hardware) {
            labels.append(tr("%1 (%n measured)", nullptr, int(h.measurements)).arg(h.name));
            keys.append(h.id);
            m_hardwareNames.append(h.name);
        }
    }
    refill(m_hardware, labels, keys, table ? table->defaultHardware : -1);
    labels.clear();
    keys.clear();
    if (table) {
        // The forecaster's name, as the CLI and every other view show it; its description in the tooltip.
        for (const CandidateForecaster &f : table->forecasters) {
            labels.append(tr("%1 (%n forecast(s))", nullptr, int(f.forecasts)).arg(f.name));
            keys.append(f.id);
            m_forecasterNames.append(f.name);
        }
    }
    refill(m_forecaster, labels, keys, table ? table->defaultForecaster : -1);
    if (table) {
        for (int i = 0; i < table->forecasters.size(); ++i) {
            const CandidateForecaster &f = table->forecasters[i];
            if (!f.displayName.isEmpty() && f.displayName != f.name)
                m_forecaster->setItemData(i, f.displayName, Qt::ToolTipRole);
        }
    }
    labels = QStringList {tr("Any origin")};
    keys = QList<QVariant> {QString()};
    if (table) {
        for (const QString &origin : table->origins) {
            labels.append(origin);
            keys.append(origin);
        }
    }
    refill(m_origin, labels, keys, 0);
    if (m_hardware->currentIndex() != hardwareBefore)
        Q_EMIT hardwareChanged(hardwareIndex());
    if (m_forecaster->currentIndex() != forecasterBefore)
        Q_EMIT forecasterChanged(forecasterIndex());
    if (m_origin->currentData().toString() != originBefore)
        Q_EMIT filterChanged();
}

void CandidateFilterBar::showChoice(
    QComboBox *box, int tableCount, const QStringList &names, const QString &name, const QString &placeholder)
{
    const QSignalBlocker blocker(box);
    while (box->count() > tableCount)
        box->removeItem(box->count() - 1);
    const int found = int(names.indexOf(name));
    if (found >= 0) {
        box->setCurrentIndex(found);
        return;
    }
    box->addItem(placeholder);
    box->setCurrentIndex(box->count() - 1);
}

void CandidateFilterBar::showForecaster(const QString &name, const QString &placeholder)
{
    showChoice(m_forecaster, int(m_forecasterNames.size()), m_forecasterNames, name, placeholder);
}

void CandidateFilterBar::showHardware(const QString &name, const QString &placeholder)
{
    showChoice(m_hardware, int(m_hardwareNames.size()), m_hardwareNames, name, placeholder);
}

void CandidateFilterBar::showTrustThreshold(double tau)
{
    const QSignalBlocker blocker(m_threshold);
    m_threshold->setValue(tau);
}

CandidateFilter CandidateFilterBar::filter() const
{
    CandidateFilter f;
    f.text = m_text->text().trimmed();
    f.measuredBin = m_bin->currentData(kMeasuredRole).toInt();
    f.predictedBin = m_bin->currentData(kPredictedRole).toInt();
    f.minConfidence = m_minConfidence->value();
    f.maxConfidence = m_maxConfidence->value();
    const int status = m_status->currentData().toInt();
    if (status != kStatusNone)
        f.status = CandidateStatus(status);
    f.origin = m_origin->currentData().toString();
    return f;
}

int CandidateFilterBar::hardwareIndex() const
{
    const int i = m_hardware->currentIndex();
    return i < m_hardwareNames.size() ? i : -1;
}

int CandidateFilterBar::forecasterIndex() const
{
    const int i = m_forecaster->currentIndex();
    return i < m_forecasterNames.size() ? i : -1;
}

double CandidateFilterBar::trustThreshold() const { return m_threshold->value(); }

void CandidateFilterBar::setText(const QString &text)
{
    m_text->setText(text);
    m_textDelay->stop();
    Q_EMIT filterChanged();
}

} // namespace gpuf
