// DistributionEditor: where a student gives their forecast for a lesson step — a bin (one click puts all the
// probability on it) or a distribution over the 8 bins with one slider per bin. Moving a slider sets that bin's share
// and rescales the others (core/lessons withShare), so the distribution always sums to 1.
#pragma once

#include "core/bins/bins.h"

#include <QWidget>

class QLabel;
class QSlider;
class QToolButton;

namespace gpuf {

class DistributionEditor : public QWidget
{
    Q_OBJECT

public:
    explicit DistributionEditor(QWidget *parent = nullptr);

    const bins::Distribution &distribution() const { return m_p; }
    int predictedBin() const; // the most probable bin
    // Shows `p` (normalised by the caller); `edited` false marks it as the untouched starting point.
    void setDistribution(const bins::Distribution &p, bool edited = false);
    void reset(); // the uniform distribution, untouched
    bool isEdited() const { return m_edited; }
    void setReadOnly(bool readOnly);

    QSlider *slider(int bin) const { return m_sliders.at(bin - 1); }
    QToolButton *binButton(int bin) const { return m_buttons.at(bin - 1); }
    QLabel *shareLabel(int bin) const { return m_shares.at(bin - 1); }

Q_SIGNALS:
    void distributionChanged(const gpuf::bins::Distribution &p);

private:
    void show(const bins::Distribution &p);

    QList<QSlider *> m_sliders;
    QList<QToolButton *> m_buttons;
    QList<QLabel *> m_shares;
    bins::Distribution m_p {};
    bool m_edited = false;
};

} // namespace gpuf
