// CompareTableModel: the figures of a strategy comparison, one row per strategy — GPU evaluations to the optimum, to
// within 1 % and 5 % of it (mean and 95 % interval over the seeds that reached it, and how many did), the performance
// score, the best speedup found, and the cost (GPU evaluations, GPU time, forecasts, forecaster time; means over the
// seeds). Reset from an immutable CompareReport; SortRole carries the raw mean, LowRole/HighRole the interval,
// CountRole the seeds that count.
#pragma once

#include "core/search/compare.h"

#include <QAbstractTableModel>

#include <memory>

namespace gpuf {

class CompareTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        StrategyColumn,
        ToOptimumColumn,
        ToWithin1Column,
        ToWithin5Column,
        ScoreColumn,
        BestColumn,
        GpuEvaluationsColumn,
        GpuSecondsColumn,
        ForecastsColumn,
        ForecasterSecondsColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, // the mean as a number (the strategy's name in StrategyColumn); NaN when none
        LowRole, // the 95 % interval's ends (the mean when one seed counts)
        HighRole,
        CountRole, // the seeds the mean is over (for the evaluations to reach: those that reached it)
    };

    explicit CompareTableModel(QObject *parent = nullptr);

    void setReport(std::shared_ptr<const search::CompareReport> report);
    const search::CompareReport *report() const { return m_report.get(); }
    // The figure a cell shows; n = 0 when it has none (no seed reached it, a score undefined everywhere).
    search::Interval figure(int row, Column column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(int row, Column column) const;

    std::shared_ptr<const search::CompareReport> m_report;
};

} // namespace gpuf
