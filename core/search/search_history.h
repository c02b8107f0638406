// What the live views need of a search that its folded state forgets: each step's parents with their PUCT scores as
// they stood when the step chose them (the archive moves on at every step's end), and each forecast's whole bin
// distribution (the state keeps its expected bin and confidence only). Fed the event log in order, once or in
// pieces; a pure value with no I/O.
#pragma once

#include "core/bins/bins.h"
#include "core/search/search_state.h"

#include <QHash>
#include <QList>

#include <optional>

namespace gpuf::search {

// One parent of a step, scored as PUCT scored it when the step started (paper-facts §6).
struct ParentScore
{
    QString nodeId;
    std::optional<double> reward; // r(s)
    double q = 0.0; // Q(s)
    double u = 0.0; // the exploration term c·scale·P(s)·√(1+T)/(1+n(s))
    double score = 0.0; // Q + U
    double prior = 0.0; // P(s)
    int visits = 0; // n(s)
    int rewardRank = 0; // rank(s): 0 = best reward
    int scoreRank = 0; // the node's place in the sorted score list (0 = highest score)
    int archiveSize = 0; // N
    int expansions = 0; // T
    bool pinned = false; // chosen because the user pinned it
};

struct StepScores
{
    int step = 0;
    QList<ParentScore> parents; // in the order the step took them
};

class SearchHistory
{
public:
    // Without `scoreParents`, only forecasts are kept (no fold of its own: what the calibration views need).
    explicit SearchHistory(bool scoreParents = true)
        : m_scoreParents(scoreParents)
    { }

    // Folds `events` (the log's next ones, in order). A log the fold refuses stops the PUCT record there (its message
    // in error()); forecasts are still read.
    void append(const QList<SearchEvent> &events);
    void append(const SearchEvent &event);
    void clear();

    // The scores of `step`'s parents; nullptr when that step has not started (or the log could not be folded to it).
    const StepScores *scores(int step) const;
    int recordedSteps() const { return int(m_steps.size()); }
    // The bin distribution of a node's forecast (renormalised, bins 1..8); nullptr when it has none.
    const bins::Distribution *forecast(const QString &nodeId) const;
    qint64 events() const { return m_events; }
    const QString &error() const { return m_error; }

private:
    void recordScores(const SearchEvent &event);

    SearchState m_fold;
    QList<StepScores> m_steps; // index = step
    QHash<QString, bins::Distribution> m_forecasts;
    qint64 m_events = 0;
    QString m_error;
    bool m_scoreParents = true;
};

// The bin distribution a forecast_completed event carries ("probabilities": 8 numbers); nullopt for other events and
// for a payload without a usable distribution. Renormalised like every forecast.
std::optional<bins::Distribution> forecastDistribution(const SearchEvent &event);

// The scores PUCT gives `parents` in `archive` (in the order given; ids the archive lacks are left out).
QList<ParentScore> scoreParents(
    const Archive &archive, const QStringList &parents, double c, const QStringList &pinned = {});

} // namespace gpuf::search
