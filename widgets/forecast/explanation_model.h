// ExplanationModel: a cost-model forecast's top contributions (core/forecasters/explanation.h) as a table — feature,
// reference value → candidate value, contribution toward the predicted bin — each row's sentence as its tooltip.
#pragma once

#include "core/forecasters/explanation.h"

#include <QAbstractTableModel>

namespace gpuf {

class ExplanationModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { FeatureColumn, ReferenceColumn, CandidateColumn, ContributionColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole };
    static constexpr int kMaxItems = 20; // the items come by decreasing |contribution|: the tail says little

    explicit ExplanationModel(QObject *parent = nullptr);

    // Keeps the items by strength, those where the kernels differ first and the baseline (equal in both) last.
    void setExplanation(const Explanation &explanation);
    // A kernel feature with the same value in both kernels: context, not a difference.
    static bool isBaseline(const ExplanationItem &item);
    void clear();
    const Explanation &explanation() const { return m_explanation; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString valueText(double value); // "—" for a missing (NaN) value

private:
    Explanation m_explanation;
    int m_rows = 0;
};

} // namespace gpuf
