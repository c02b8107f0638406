// ForecastRowsModel: the forecasts of one pair side by side — every stored sample of every forecaster, the requests
// still queued or running for it, and per forecaster with several parsed samples a combined row (their mean
// distribution). Reset from immutable values; choosing a row shows that forecast.
#pragma once

#include "core/forecasters/forecast_types.h"
#include "core/session/pair_forecasts.h"

#include <QAbstractTableModel>

namespace gpuf {

struct ForecastRow
{
    enum class Kind : quint8 { Stored, Live, Combined };
    Kind kind = Kind::Stored;
    RowId forecasterId = 0;
    RowId hardwareId = 0; // the hardware the forecast was made for (0: none shown, or a live request)
    int repeat = 0; // Stored and Live
    Forecast forecast; // Stored
    ForecastItem item; // Live
    QList<Forecast> samples; // Combined: the forecasts averaged
    std::optional<ForecastFigures> figures; // Stored (parsed) and Combined

    // Stable across reloads: "s<forecast id>", "l<item id>", "c<forecaster id>-<hardware id>".
    QString key() const;
};

// Grouped by forecaster and hardware (ascending ids; samples made for different GPUs are not averaged together): the
// group's combined row first (two or more parsed samples), then its stored forecasts by (repeat, id), then its live
// requests by (repeat, id). `live` is filtered to the pair and to items not
// finished yet.
QList<ForecastRow> forecastRows(const PairForecasts &pair, const QList<ForecastItem> &live);

class ForecastRowsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        ForecasterColumn,
        HardwareColumn,
        RepeatColumn,
        PredictedBinColumn,
        ConfidenceColumn,
        ExpectedSpeedupColumn,
        StatusColumn,
        ColumnCount
    };
    enum Role { KeyRole = Qt::UserRole, SortRole, KindRole };

    explicit ForecastRowsModel(QObject *parent = nullptr);

    void setRows(const PairForecasts &pair, const QList<ForecastRow> &rows);
    const ForecastRow *rowAt(int row) const;
    int rowOfKey(const QString &key) const; // -1 when absent
    const PairForecasts &pair() const { return m_pair; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "ok", "parse failed: …", "error: …", "running", "queued", "mean of 3 samples" as the Status column shows it.
    static QString statusText(const ForecastRow &row);

private:
    QVariant display(const ForecastRow &row, int column) const;
    QString hardwareText(const ForecastRow &row) const;
    QVariant sortKey(const ForecastRow &row, int column) const;

    PairForecasts m_pair;
    QList<ForecastRow> m_rows;
};

} // namespace gpuf
