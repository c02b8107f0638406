// MetricsTableModel: one row per forecaster, one column per figure of the metrics table (metrics::tableFigures()),
// over an immutable calibration snapshot; the same figures and formatting `gpuf metrics` prints, the forecaster by its
// name (as the CLI) and marked "(in-sample)" where it is scored on pairs it was trained on. Also the table's CSV.
#pragma once

#include "core/session/calibration_data.h"

#include <QAbstractTableModel>

#include <memory>

namespace gpuf {

class MetricsTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    // Column 0 names the forecaster; the others follow metrics::tableFigures() one to one.
    enum Column {
        ForecasterColumn,
        PairsColumn,
        ParsedColumn,
        AccuracyColumn,
        WithinOneColumn,
        EceColumn,
        BrierHalfColumn,
        BrierSumColumn,
        CrpsColumn,
        NllColumn,
        MeanEntropyColumn,
        AurcMaxProbColumn,
        AurcNegEntropyColumn,
        AurcTop2MarginColumn,
        UtilityAt10PctColumn,
        BrierHalfParsedColumn,
        BrierSumParsedColumn,
        CrpsParsedColumn,
        NllParsedColumn,
        RpsSkillBaseRateColumn,
        BrierSkillBaseRateColumn,
        LogSkillBaseRateColumn,
        ColumnCount
    };
    Q_ENUM(Column)
    static_assert(ColumnCount == 1 + 2 + metrics::kScalarCount, "one column per figure of the metrics table");

    enum Role {
        SortRole = Qt::UserRole, // the raw value (the name for column 0); invalid where there is none
        ForecasterIdRole,
        LowRole, // the interval's bounds (invalid without intervals)
        HighRole,
        BestRole, // true where the row holds the column's best value among the forecasters shown
    };

    explicit MetricsTableModel(QObject *parent = nullptr);

    // The model resets and shows the snapshot's reports for `comparison`.
    void setSnapshot(std::shared_ptr<const CalibrationSnapshot> snapshot, metrics::Comparison comparison);
    void setComparison(metrics::Comparison comparison);
    metrics::Comparison comparison() const { return m_comparison; }
    // Compared on the same pairs, but fewer than metrics::kMinSharedPairs of them: no best is marked.
    bool tooFewSharedPairs() const;
    const std::vector<metrics::ForecasterReport> &reports() const;
    static const metrics::Figure *figureOf(int column); // null for column 0

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Rows of the forecaster that are pairs its model was trained on; its name then reads "NAME (in-sample)".
    qint64 inSampleRows(const metrics::ForecasterReport &r) const;

private:
    QString shownName(const metrics::ForecasterReport &r) const;
    void findBest();
    QVariant toolTip(const metrics::ForecasterReport &r, int column) const;

    std::shared_ptr<const CalibrationSnapshot> m_snapshot;
    metrics::Comparison m_comparison = metrics::Comparison::SamePairs;
    std::vector<std::vector<bool>> m_best; // [row][column]
};

// The table as CSV: one row per forecaster, a column per figure with full precision, and <key>_low/<key>_high
// columns when the reports carry intervals. Empty cells for missing values.
QByteArray metricsCsv(const std::vector<metrics::ForecasterReport> &reports);
Status writeMetricsCsv(const QString &path, const std::vector<metrics::ForecasterReport> &reports);

} // namespace gpuf
