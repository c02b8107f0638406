// Writes small search event logs by hand for the tests of the search views: each call appends the events one act of
// a search writes (a proposal, a forecast, a decision, a measurement), with the payload fields the fold reads. And the
// fixed selective log that those tests share (fixedSelectiveLog()), whose every figure is worked out in the tests.
#pragma once

#include "core/bins/bins.h"
#include "core/domain/search.h"
#include "core/search/search_config.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTimeZone>

#include <optional>

namespace gpuf::testing {

class SearchLogBuilder
{
public:
    explicit SearchLogBuilder(search::Mode mode, int measure = 2, int proposals = 4, double tau = 0.5)
    {
        m_config.mode = mode;
        m_config.steps = 10;
        m_config.parentsPerStep = 1;
        m_config.measurementsPerParent = measure;
        m_config.proposalsPerParent = mode == search::Mode::Standard ? measure : proposals;
        m_config.keepPerParent = 2;
        m_config.tau = tau;
        m_config.problem = QStringLiteral("transpose");
        m_config.forecaster = mode == search::Mode::Standard ? QString() : QStringLiteral("costmodel");
    }

    QList<SearchEvent> events;

    void init(const QString &seed = QStringLiteral("seed"), double reward = 1.0)
    {
        add(QStringLiteral("search_initialized"),
            {{QStringLiteral("search_id"), QStringLiteral("views")}, {QStringLiteral("config"), m_config.toJson()},
                {QStringLiteral("seeds"),
                    QJsonArray {QJsonObject {{QStringLiteral("node_id"), seed}, {QStringLiteral("code"), seed},
                        {QStringLiteral("origin"), QStringLiteral("reference")},
                        {QStringLiteral("reward"), reward}}}}});
    }
    void stepStarted(int step, const QStringList &parents)
    {
        m_step = step;
        add(QStringLiteral("step_started"),
            {{QStringLiteral("step"), step}, {QStringLiteral("parents"), QJsonArray::fromStringList(parents)}});
    }
    // A mutation request and its answer: code "code of <id>" (or `code`), or a failure.
    void proposal(const QString &id, const QString &parent, bool ok = true, const QString &code = {})
    {
        add(QStringLiteral("mutation_requested"),
            {{QStringLiteral("step"), m_step}, {QStringLiteral("parent_id"), parent},
                {QStringLiteral("request_id"), QString(QStringLiteral("m-") + id)}, {QStringLiteral("node_id"), id},
                {QStringLiteral("index"), m_index++}});
        if (ok)
            add(QStringLiteral("mutation_completed"),
                {{QStringLiteral("request_id"), QString(QStringLiteral("m-") + id)},
                    {QStringLiteral("code"), code.isEmpty() ? QString(QStringLiteral("code of ") + id) : code},
                    {QStringLiteral("origin"), QStringLiteral("pool")}});
        else
            add(QStringLiteral("mutation_failed"),
                {{QStringLiteral("request_id"), QString(QStringLiteral("m-") + id)},
                    {QStringLiteral("error"), QStringLiteral("no code")}});
    }
    // A forecast with distribution `p` (bins 1..8) and predicted bin argmax(p).
    void forecast(const QString &id, const bins::Distribution &p)
    {
        add(QStringLiteral("forecast_requested"),
            {{QStringLiteral("request_id"), QString(QStringLiteral("f-") + id)}, {QStringLiteral("node_id"), id}});
        QJsonArray probabilities;
        for (double v : p)
            probabilities.append(v);
        const int predicted = bins::argmaxBin(p);
        add(QStringLiteral("forecast_completed"),
            {{QStringLiteral("request_id"), QString(QStringLiteral("f-") + id)}, {QStringLiteral("node_id"), id},
                {QStringLiteral("probabilities"), probabilities}, {QStringLiteral("predicted_bin"), predicted},
                {QStringLiteral("expected_bin"), bins::expectedBin(p)},
                {QStringLiteral("confidence"), p[size_t(predicted - 1)]}});
    }
    void forecastFailed(const QString &id)
    {
        add(QStringLiteral("forecast_requested"),
            {{QStringLiteral("request_id"), QString(QStringLiteral("f-") + id)}, {QStringLiteral("node_id"), id}});
        add(QStringLiteral("forecast_failed"),
            {{QStringLiteral("request_id"), QString(QStringLiteral("f-") + id)}, {QStringLiteral("node_id"), id},
                {QStringLiteral("error"), QStringLiteral("no tool call")}});
    }
    void selected(const QString &id, const QString &reason)
    {
        add(QStringLiteral("candidate_selected"),
            {{QStringLiteral("node_id"), id}, {QStringLiteral("step"), m_step}, {QStringLiteral("reason"), reason}});
        add(QStringLiteral("evaluation_requested"),
            {{QStringLiteral("request_id"), QString(QStringLiteral("e-") + id)}, {QStringLiteral("node_id"), id}});
    }
    void deferred(const QString &id, const QString &reason, bool queued = false)
    {
        add(QStringLiteral("candidate_deferred"),
            {{QStringLiteral("node_id"), id}, {QStringLiteral("step"), m_step}, {QStringLiteral("reason"), reason},
                {QStringLiteral("queued"), queued}});
    }
    // The measurement's answer: a speedup, or a failure of `kind` ("incorrect", "compile_failed", …).
    void evaluated(const QString &id, std::optional<double> speedup, const QString &kind = QStringLiteral("incorrect"))
    {
        QJsonObject feedback {{QStringLiteral("kind"), speedup ? QStringLiteral("success") : kind}};
        if (speedup)
            feedback.insert(QStringLiteral("aggregated_speedup"), *speedup);
        else
            feedback.insert(QStringLiteral("message"), QStringLiteral("wrong answer"));
        add(QStringLiteral("evaluation_completed"),
            {{QStringLiteral("request_id"), QString(QStringLiteral("e-") + id)}, {QStringLiteral("node_id"), id},
                {QStringLiteral("feedback"), feedback}, {QStringLiteral("replay"), true}});
    }
    void stepCompleted() { add(QStringLiteral("step_completed"), {{QStringLiteral("step"), m_step}}); }
    void act(const QString &kind, QJsonObject payload) { add(kind, std::move(payload)); }

    void add(const QString &kind, QJsonObject payload)
    {
        SearchEvent e;
        e.id = events.size() + 1;
        e.searchId = 1;
        e.sequence = events.size();
        e.kind = kind;
        e.payload = std::move(payload);
        e.time = QDateTime(QDate(2026, 11, 26), QTime(12, 0), QTimeZone::utc()).addSecs(events.size());
        events.append(e);
    }

private:
    search::SearchConfig m_config;
    int m_step = -1;
    int m_index = 0;
};

inline bins::Distribution dist(std::initializer_list<std::pair<int, double>> mass)
{
    bins::Distribution p {};
    for (const auto &[bin, v] : mass)
        p[size_t(bin - 1)] = v;
    return p;
}

// A selective search (τ = 0.5, two GPU slots per parent, one parent per step), three steps:
// - step 0, parent seed: a (bin 6 at 0.7) best trusted, measured 2.5×; b (bin 5 at 0.4) untrusted, measured 1.2×;
//   c (bin 3 at 0.6) trusted, ranked below the budget; d's mutation fails. a and b join the archive.
// - step 1, parent a: e (bin 7 at 0.8) measured 3.5×; f (bin 2 at 0.3) untrusted, measured, incorrect; g's forecast
//   fails: queued for a free slot.
// - the user forces c; step 2, parent e: h (bin 6 at 0.9) measured 2.2×; i (bin 4 at 0.6) ranked below the budget;
//   j repeats a's code (a duplicate); the user injects k under e; g from the queue measures 0.9×, c 0.8×, k 1.5×.
// - then h is pinned and b vetoed.
inline QList<SearchEvent> fixedSelectiveLog()
{
    SearchLogBuilder b(search::Mode::Selective);
    b.init();
    b.stepStarted(0, {QStringLiteral("seed")});
    for (const char *id : {"a", "b", "c"})
        b.proposal(QLatin1StringView(id), QStringLiteral("seed"));
    b.proposal(QStringLiteral("d"), QStringLiteral("seed"), false);
    b.act(QStringLiteral("mutations_drained"), {{QStringLiteral("step"), 0}});
    b.forecast(QStringLiteral("a"), dist({{5, 0.2}, {6, 0.7}, {7, 0.1}}));
    b.forecast(QStringLiteral("b"), dist({{4, 0.35}, {5, 0.4}, {6, 0.25}}));
    b.forecast(QStringLiteral("c"), dist({{2, 0.2}, {3, 0.6}, {4, 0.2}}));
    b.act(QStringLiteral("forecasts_drained"), {{QStringLiteral("step"), 0}});
    b.selected(QStringLiteral("a"), QStringLiteral("best trusted forecast"));
    b.selected(QStringLiteral("b"), QStringLiteral("untrusted forecast: measured"));
    b.deferred(QStringLiteral("c"), QStringLiteral("trusted forecast, ranked below the GPU budget"));
    b.evaluated(QStringLiteral("a"), 2.5);
    b.evaluated(QStringLiteral("b"), 1.2);
    b.stepCompleted();

    b.stepStarted(1, {QStringLiteral("a")});
    for (const char *id : {"e", "f", "g"})
        b.proposal(QLatin1StringView(id), QStringLiteral("a"));
    b.act(QStringLiteral("mutations_drained"), {{QStringLiteral("step"), 1}});
    b.forecast(QStringLiteral("e"), dist({{6, 0.1}, {7, 0.8}, {8, 0.1}}));
    b.forecast(QStringLiteral("f"), dist({{1, 0.25}, {2, 0.3}, {3, 0.25}, {4, 0.2}}));
    b.forecastFailed(QStringLiteral("g"));
    b.act(QStringLiteral("forecasts_drained"), {{QStringLiteral("step"), 1}});
    b.selected(QStringLiteral("e"), QStringLiteral("best trusted forecast"));
    b.selected(QStringLiteral("f"), QStringLiteral("untrusted forecast: measured"));
    b.deferred(QStringLiteral("g"), QStringLiteral("untrusted forecast: queued for a free GPU slot"), true);
    b.evaluated(QStringLiteral("e"), 3.5);
    b.evaluated(QStringLiteral("f"), std::nullopt);
    b.stepCompleted();

    b.act(QStringLiteral("measure_forced"), {{QStringLiteral("node_id"), QStringLiteral("c")}});
    b.stepStarted(2, {QStringLiteral("e")});
    b.proposal(QStringLiteral("h"), QStringLiteral("e"));
    b.proposal(QStringLiteral("i"), QStringLiteral("e"));
    b.proposal(QStringLiteral("j"), QStringLiteral("e"), true, QStringLiteral("code of a"));
    b.act(QStringLiteral("kernel_injected"),
        {{QStringLiteral("node_id"), QStringLiteral("k")}, {QStringLiteral("parent_id"), QStringLiteral("e")},
            {QStringLiteral("code"), QStringLiteral("code of k")},
            {QStringLiteral("origin"), QStringLiteral("manual")}});
    b.act(QStringLiteral("mutations_drained"), {{QStringLiteral("step"), 2}});
    b.forecast(QStringLiteral("h"), dist({{6, 0.9}, {7, 0.1}}));
    b.forecast(QStringLiteral("i"), dist({{3, 0.2}, {4, 0.6}, {5, 0.2}}));
    b.act(QStringLiteral("forecasts_drained"), {{QStringLiteral("step"), 2}});
    b.selected(QStringLiteral("h"), QStringLiteral("best trusted forecast"));
    b.deferred(QStringLiteral("i"), QStringLiteral("trusted forecast, ranked below the GPU budget"));
    b.deferred(QStringLiteral("j"), QStringLiteral("duplicate of code already measured"));
    b.selected(QStringLiteral("g"), QStringLiteral("queued earlier: a free GPU slot"));
    b.selected(QStringLiteral("c"), QStringLiteral("measurement forced by the user"));
    b.selected(QStringLiteral("k"), QStringLiteral("injected by the user"));
    b.evaluated(QStringLiteral("h"), 2.2);
    b.evaluated(QStringLiteral("g"), 0.9);
    b.evaluated(QStringLiteral("c"), 0.8);
    b.evaluated(QStringLiteral("k"), 1.5);
    b.stepCompleted();
    b.act(QStringLiteral("node_pinned"), {{QStringLiteral("node_id"), QStringLiteral("h")}});
    b.act(QStringLiteral("node_vetoed"), {{QStringLiteral("node_id"), QStringLiteral("b")}});
    return b.events;
}

} // namespace gpuf::testing
