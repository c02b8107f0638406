// CandidateFilterBar: the controls above the candidate table — text, bin, confidence range, status, origin — and
// which hardware and forecaster the table's columns show, with the trust threshold τ (the window's shared choices,
// kept in the Selection by the browser; this bar only shows them and reports the user's changes).
#pragma once

#include "core/session/candidate_query.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QTimer;

namespace gpuf {

class CandidateFilterBar : public QWidget
{
    Q_OBJECT

public:
    explicit CandidateFilterBar(QWidget *parent = nullptr);

    // Fills the origin, hardware and forecaster choices; keeps the current ones the new table still has, else
    // picks the table's defaults.
    void setTable(const CandidateTablePtr &table);
    // Relabels the hardware and forecaster choices with the counts of `table` (rows patched after a write stored
    // measurements or forecasts); which choices there are, and the current ones, stay.
    void updateCounts(const CandidateTablePtr &table);

    // Shows the choice named `name`: the table's entry of that name, else an extra entry "`placeholder`" (a choice the
    // store holds nothing for). Emits nothing.
    void showForecaster(const QString &name, const QString &placeholder);
    void showHardware(const QString &name, const QString &placeholder);
    void showTrustThreshold(double tau);

    // The filter fields this bar owns (text, bins, confidence, status, origin); scope and ids stay unset.
    CandidateFilter filter() const;
    // Indexes into the table's hardware and forecasters; -1 for none, and for an extra entry.
    int hardwareIndex() const;
    int forecasterIndex() const;
    double trustThreshold() const;

    void setText(const QString &text); // applies at once (no typing delay)
    QLineEdit *textEdit() const { return m_text; }
    QComboBox *binBox() const { return m_bin; }
    QComboBox *statusBox() const { return m_status; }
    QComboBox *originBox() const { return m_origin; }
    QComboBox *hardwareBox() const { return m_hardware; }
    QComboBox *forecasterBox() const { return m_forecaster; }
    QDoubleSpinBox *minConfidenceBox() const { return m_minConfidence; }
    QDoubleSpinBox *maxConfidenceBox() const { return m_maxConfidence; }

Q_SIGNALS:
    void filterChanged();
    void hardwareChanged(int index);
    void forecasterChanged(int index);
    void trustThresholdChanged(double threshold);

private:
    void fillBins();
    void fillStatuses();
    static void refill(QComboBox *box, const QStringList &labels, const QList<QVariant> &keys, int fallback);
    static void showChoice(
        QComboBox *box, int tableCount, const QStringList &names, const QString &name, const QString &placeholder);

    QLineEdit *m_text;
    QTimer *m_textDelay;
    QComboBox *m_bin;
    QDoubleSpinBox *m_minConfidence;
    QDoubleSpinBox *m_maxConfidence;
    QComboBox *m_status;
    QComboBox *m_origin;
    QComboBox *m_hardware;
    QComboBox *m_forecaster;
    QDoubleSpinBox *m_threshold;
    QStringList m_hardwareNames; // the table's, in its order
    QStringList m_forecasterNames;
};

} // namespace gpuf
