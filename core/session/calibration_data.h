// CalibrationData: the scored forecasts of the open store and their metrics, loaded off the GUI thread whenever the
// store opens, a write changes forecasts or measurements, or the request changes, and handed to the calibration views
// as one immutable snapshot.
#pragma once

#include "core/metrics/from_store.h"
#include "core/metrics/label_noise.h"
#include "core/metrics/reference_skill.h"
#include "core/store/scored_pairs.h"

#include <QObject>

#include <memory>

namespace gpuf {

class StoreSession;
struct StoreChange;

// What the calibration views evaluate. Names as stored; empty = all.
struct CalibrationRequest
{
    QStringList forecasters;
    QString problem;
    QString hardware;
    int bootstrapResamples = 200; // 0: no intervals
    quint64 bootstrapSeed = metrics::MetricsOptions {}.bootstrapSeed;
    // Which bin a pair whose interval straddles a bin edge counts in (label_noise.h).
    metrics::StraddlingRule straddling = metrics::StraddlingRule::AsMeasured;
    std::optional<PairOrigin> origin; // only pairs whose candidate has this origin; empty: every origin
    // The two forecasters the Calibration dock compares (ids): their pairs in common become the snapshot's
    // Comparison::ComparedPairs, whichever other forecasters are chosen.
    QList<qint64> compared;

    bool operator==(const CalibrationRequest &) const = default;
    ScoredPairFilter filter() const { return {forecasters, problem, hardware, origin}; }
    metrics::MetricsOptions options() const;
};

// Never changed after it is published; views keep the shared pointer as long as they show it.
struct CalibrationSnapshot
{
    quint64 generation = 0; // 0: nothing loaded yet
    QString storePath; // empty: no store open
    QString error; // non-empty: the load failed (the other fields are empty)
    CalibrationRequest request;
    ScoredPairs pairs; // the forecasters chosen, counts, and every name for the filter choices
    metrics::StoreMetrics metrics; // rows, same-pair rows and the per-forecaster reports of both
    // Per forecaster id: its rows (all pairs / same pairs) that are pairs its model was trained on (training_scope.h);
    // absent when none.
    QHash<qint64, qint64> inSample;
    QHash<qint64, qint64> inSampleSamePairs;
    QHash<qint64, qint64> inSampleCompared;
    // Each forecaster's figures with its straddling pairs counted by every rule (on all its pairs).
    std::vector<metrics::LabelNoise> labelNoise;
    // Per forecaster id: skill against the physics prior's stored forecasts (all pairs / same pairs).
    QHash<qint64, metrics::ReferenceSkill> physicsPrior;
    QHash<qint64, metrics::ReferenceSkill> physicsPriorSamePairs;
    QHash<qint64, metrics::ReferenceSkill> physicsPriorCompared;

    bool isEmpty() const { return metrics.rows.empty(); }
    const QHash<qint64, qint64> &inSampleFor(metrics::Comparison c) const;
    const QHash<qint64, metrics::ReferenceSkill> &physicsPriorFor(metrics::Comparison c) const;
};

class CalibrationData : public QObject
{
    Q_OBJECT

public:
    explicit CalibrationData(StoreSession *session, QObject *parent = nullptr);
    ~CalibrationData() override;

    std::shared_ptr<const CalibrationSnapshot> snapshot() const { return m_snapshot; }
    const CalibrationRequest &request() const { return m_request; }
    bool isLoading() const { return m_loading; }

    // A changed request reloads; an equal one does nothing.
    void setRequest(const CalibrationRequest &request);
    // Loads again with the current request (the store changed).
    void reload();

Q_SIGNALS:
    // A new snapshot replaced the previous one (also after a failed load: snapshot()->error says why).
    void changed();
    void loadingChanged(bool loading);

private:
    void startLoad();
    void followChange(const StoreChange &change);
    void applyResult(std::shared_ptr<const CalibrationSnapshot> result);
    void clear();

    StoreSession *m_session;
    CalibrationRequest m_request;
    std::shared_ptr<const CalibrationSnapshot> m_snapshot;
    quint64 m_generation = 0;
    bool m_loading = false;
};

} // namespace gpuf
