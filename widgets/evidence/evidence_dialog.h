// EvidenceDialog: the evidence behind a candidate's measured speedups (core/evidence) — per GPU the speedup with its
// 95 % interval, and per measurement who measured it, how, how certain, checked or not, against the roofline, and its
// verdict — read through the session off the GUI thread. A measurement can be quarantined with a note, or released,
// from here; the change is announced so the metrics and tables follow.
#pragma once

#include "core/evidence/evidence.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace gpuf {

class StoreSession;

class EvidenceDialog : public QDialog
{
    Q_OBJECT

public:
    EvidenceDialog(StoreSession *session, QWidget *parent = nullptr);

    // Reads and shows the evidence of `candidateId` (every GPU it was measured on).
    void showCandidate(RowId candidateId);
    RowId candidateId() const { return m_candidateId; }
    // What is shown, for tests and the title: the last evidence read, empty before.
    const evidence::CandidateEvidence &shown() const { return m_evidence; }

    QTreeWidget *tree() const { return m_tree; }
    QLabel *speedupLabel() const { return m_speedup; }
    QLabel *statusLabel() const { return m_status; }
    QLineEdit *noteEdit() const { return m_note; }
    QPushButton *quarantineButton() const { return m_quarantine; }
    QPushButton *releaseButton() const { return m_release; }
    // The measurement of the current tree item (0: none).
    RowId currentMeasurement() const;

Q_SIGNALS:
    // The evidence was read and shown (or the read failed: statusLabel() says why).
    void loaded();
    // A quarantine or release was stored.
    void verdictStored(gpuf::RowId measurementId);

private:
    void buildLayout();
    void display(const evidence::CandidateEvidence &e);
    QTreeWidgetItem *measurementItem(const evidence::MeasurementEvidence &m);
    void updateButtons();
    void storeVerdict(bool quarantine);

    StoreSession *m_session;
    RowId m_candidateId = 0;
    evidence::CandidateEvidence m_evidence;
    QLabel *m_title = nullptr;
    QLabel *m_speedup = nullptr;
    QTreeWidget *m_tree = nullptr;
    QLineEdit *m_note = nullptr;
    QPushButton *m_quarantine = nullptr;
    QPushButton *m_release = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace gpuf
