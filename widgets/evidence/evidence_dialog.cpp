// EvidenceDialog; see evidence_dialog.h.
#include "widgets/evidence/evidence_dialog.h"

#include "core/evidence/evidence_format.h"
#include "core/evidence/evidence_reads.h"
#include "core/session/store_session.h"
#include "core/store/verdict_repo.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace gpuf {

namespace {

constexpr int kMeasurementRole = Qt::UserRole;
constexpr int kStateRole = Qt::UserRole + 1;

} // namespace

EvidenceDialog::EvidenceDialog(StoreSession *session, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("evidenceDialog"));
    setWindowTitle(tr("Evidence"));
    buildLayout();
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &EvidenceDialog::updateButtons);
    connect(m_note, &QLineEdit::textChanged, this, &EvidenceDialog::updateButtons);
    connect(m_quarantine, &QPushButton::clicked, this, [this] { storeVerdict(true); });
    connect(m_release, &QPushButton::clicked, this, [this] { storeVerdict(false); });
    resize(760, 620);
    updateButtons();
}

void EvidenceDialog::buildLayout()
{
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_speedup = new QLabel(this);
    m_speedup->setObjectName(QStringLiteral("evidenceSpeedup"));
    m_speedup->setWordWrap(true);
    m_speedup->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("evidenceTree"));
    m_tree->setHeaderLabels({tr("Measurement / fact"), tr("Value")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setAlternatingRowColors(true);
    m_note = new QLineEdit(this);
    m_note->setObjectName(QStringLiteral("quarantineNote"));
    m_note->setPlaceholderText(tr("Why set this measurement aside (required to quarantine)"));
    m_quarantine = new QPushButton(tr("&Quarantine"), this);
    m_quarantine->setObjectName(QStringLiteral("quarantineButton"));
    m_release = new QPushButton(tr("&Release"), this);
    m_release->setObjectName(QStringLiteral("releaseButton"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("evidenceStatus"));
    m_status->setWordWrap(true);
    auto *verdictRow = new QHBoxLayout;
    verdictRow->addWidget(m_note, 1);
    verdictRow->addWidget(m_quarantine);
    verdictRow->addWidget(m_release);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_speedup);
    layout->addWidget(m_tree, 1);
    layout->addLayout(verdictRow);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
}

void EvidenceDialog::showCandidate(RowId candidateId)
{
    m_candidateId = candidateId;
    m_status->setText(tr("Reading the evidence…"));
    m_session->read<evidence::CandidateEvidence>(
        QStringLiteral("evidence"),
        [candidateId](Store &store, const CancelToken &cancel) {
            return evidence::readCandidateEvidence(store, candidateId, {}, cancel);
        },
        this,
        [this](Result<evidence::CandidateEvidence> result) {
            if (!result) {
                m_status->setText(tr("The evidence could not be read: %1").arg(result.error()));
            } else {
                m_status->clear();
                display(*result);
            }
            Q_EMIT loaded();
        });
}

void EvidenceDialog::display(const evidence::CandidateEvidence &e)
{
    const RowId current = currentMeasurement();
    m_evidence = e;
    setWindowTitle(tr("Evidence — %1").arg(e.candidateName));
    m_title->setText(e.baselineId != 0 ? tr("Kernel %1 (%2) of %3, against its reference %4 (%5)")
                                             .arg(e.candidateId)
                                             .arg(e.candidateName, e.problemName)
                                             .arg(e.baselineId)
                                             .arg(e.baselineName)
                                       : tr("Kernel %1 (%2) of %3; its problem has no reference")
                                             .arg(e.candidateId)
                                             .arg(e.candidateName, e.problemName));
    QStringList lines;
    for (const evidence::HardwareEvidence &hw : e.hardware)
        lines << hw.hardwareName + QStringLiteral(": ") + evidence::speedupText(hw);
    if (lines.isEmpty())
        lines << tr("No measurement of this kernel is stored.");
    m_speedup->setText(lines.join(u'\n'));
    if (!e.hardware.isEmpty() && e.hardware.first().interval)
        m_speedup->setToolTip(tr("95 % interval: %1").arg(e.hardware.first().intervalMethod));
    m_tree->clear();
    for (const evidence::HardwareEvidence &hw : e.hardware) {
        auto *gpu = new QTreeWidgetItem(m_tree, {hw.hardwareName, evidence::speedupText(hw)});
        for (const evidence::MeasurementEvidence &m : hw.measurements) {
            QTreeWidgetItem *item = measurementItem(m);
            gpu->addChild(item);
            if (m.measurementId == current)
                m_tree->setCurrentItem(item);
        }
        gpu->setExpanded(true);
    }
    updateButtons();
}

QTreeWidgetItem *EvidenceDialog::measurementItem(const evidence::MeasurementEvidence &m)
{
    auto *item = new QTreeWidgetItem({tr("%1 · case %2 · measurement %3").arg(m.role, m.caseName).arg(m.measurementId),
        evidence::verdictText(m.verdict)});
    item->setData(0, kMeasurementRole, m.measurementId);
    item->setData(0, kStateRole, int(m.verdict.state));
    for (const evidence::Fact &f : evidence::measurementFacts(m)) {
        auto *fact = new QTreeWidgetItem(item, {f.label, f.value});
        fact->setData(0, kMeasurementRole, m.measurementId);
        fact->setData(0, kStateRole, int(m.verdict.state));
        fact->setData(1, Qt::UserRole, f.key);
    }
    for (const evidence::RuleHit &h : m.verdict.hits) {
        auto *rule = new QTreeWidgetItem(item, {tr("Rule %1").arg(h.rule), h.detail});
        rule->setData(0, kMeasurementRole, m.measurementId);
        rule->setData(0, kStateRole, int(m.verdict.state));
    }
    // Expanded where something is wrong, so the fired rule is in sight.
    item->setExpanded(m.verdict.state != evidence::Verdict::State::Clean);
    return item;
}

RowId EvidenceDialog::currentMeasurement() const
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    return item ? item->data(0, kMeasurementRole).toLongLong() : 0;
}

void EvidenceDialog::updateButtons()
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    const RowId measurement = currentMeasurement();
    const bool quarantined = item && item->data(0, kStateRole).toInt() == int(evidence::Verdict::State::Quarantined);
    m_quarantine->setEnabled(measurement != 0 && !quarantined && !m_note->text().trimmed().isEmpty());
    m_release->setEnabled(measurement != 0 && quarantined);
    m_quarantine->setToolTip(measurement == 0 ? tr("Choose a measurement first")
            : quarantined                     ? tr("This measurement is quarantined")
            : m_note->text().trimmed().isEmpty()
            ? tr("Write a note saying why first")
            : tr("Set this measurement aside: the pairs resting on it leave the metrics and searches' bests"));
}

void EvidenceDialog::storeVerdict(bool quarantine)
{
    const RowId measurement = currentMeasurement();
    if (measurement == 0)
        return;
    const QString note = m_note->text().trimmed();
    m_status->setText(quarantine ? tr("Quarantining measurement %1…").arg(measurement)
                                 : tr("Releasing measurement %1…").arg(measurement));
    m_session->write<bool>(
        [measurement, note, quarantine](Store &store) -> Result<bool> {
            VerdictRepo verdicts(store);
            if (!quarantine)
                return verdicts.release(measurement);
            if (Status s = verdicts.quarantine(measurement, note); !s)
                return s.failure();
            return true;
        },
        this,
        [this, measurement, quarantine](const Result<bool> &result) {
            if (!result) {
                m_status->setText(tr("Not stored: %1").arg(result.error()));
                return;
            }
            if (quarantine)
                m_note->clear();
            // The metrics, the calibration views and the candidate table read the kernel's pairs again.
            QList<RowId> kernels {m_candidateId};
            if (m_evidence.baselineId != 0)
                kernels.append(m_evidence.baselineId);
            std::sort(kernels.begin(), kernels.end());
            m_session->announce(StoreChange::of(StoreChange::Kind::Measurements, kernels));
            Q_EMIT verdictStored(measurement);
            showCandidate(m_candidateId);
        });
}

} // namespace gpuf
