// The equal-budget comparison; see compare.h.
#include "core/search/compare.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace gpuf::search {

Result<SearchState> runInMemory(Store &store, const SearchConfig &config, const SetupOptions &setup)
{
    auto parts = buildParts(store, config, setup);
    if (!parts)
        return Error {parts.error()};
    MutatorSetup mutatorSetup {parts->problem.id, parts->problem.name, config.seed};
    if (Status s = parts->mutator->prepare(mutatorSetup); !s)
        return Error {s.error()};
    SeedSpec seed;
    if (auto own = parts->mutator->seed()) {
        seed.proposal = *own;
    } else {
        seed.proposal = Proposal {parts->reference.source, parts->reference.language, parts->reference.parameters,
            parts->reference.origin, parts->reference.name, {}};
        seed.kernelId = parts->reference.id;
        seed.reward = 1.0;
    }
    auto sink = std::make_unique<MemorySink>();
    if (Status s = SearchRun::initialize(*sink, QStringLiteral("compare"), config, {seed}); !s)
        return Error {s.error()};
    SearchRun run(std::move(sink), std::move(*parts));
    QEventLoop loop;
    run.setNotifier([&loop] {
        QMetaObject::invokeMethod(
            &loop, [&loop] { loop.quit(); }, Qt::QueuedConnection);
    });
    if (Status s = run.open(); !s)
        return Error {s.error()};
    for (;;) {
        if (Status s = run.pump(); !s)
            return Error {s.error()};
        const NextAction next = run.next();
        if (next == NextAction::Done || next == NextAction::Paused)
            break;
        if (next == NextAction::Wait && !run.hasInbox())
            loop.exec(); // asynchronous sources (an LLM endpoint): their answers wake the loop
    }
    return run.state();
}

namespace {

double mean(const QList<double> &v)
{
    if (v.isEmpty())
        return 0.0;
    double s = 0.0;
    for (double x : v)
        s += x;
    return s / double(v.size());
}

double stddev(const QList<double> &v)
{
    if (v.size() < 2)
        return 0.0;
    const double m = mean(v);
    double s = 0.0;
    for (double x : v)
        s += (x - m) * (x - m);
    return std::sqrt(s / double(v.size() - 1));
}

QList<double> curveOf(const SearchState &state, int length)
{
    QList<double> curve(length + 1, 1.0);
    double best = state.bestReward ? 0.0 : 1.0;
    // Seeds measured by definition (the reference) count as the starting best.
    for (const ArchiveNode &n : state.archive.nodes) {
        if (n.seed && n.reward)
            best = std::max(best, *n.reward);
    }
    size_t next = 0;
    for (int e = 0; e <= length; ++e) {
        while (next < state.trajectory.size() && state.trajectory[next].gpuEvaluations <= e) {
            best = std::max(best, state.trajectory[next].best);
            ++next;
        }
        curve[e] = best;
    }
    return curve;
}

} // namespace

Result<CompareReport> compareModes(Store &store, const CompareOptions &options, const SetupOptions &setupIn)
{
    if (options.seeds <= 0)
        return Error {QStringLiteral("--seeds must be at least 1")};
    SetupOptions setup = setupIn;
    if (!setup.world) {
        auto world = loadReplayWorld(store, options.base.problem, options.base.hardware);
        if (!world)
            return Error {world.error()};
        setup.world = std::make_shared<const ReplayWorld>(std::move(*world));
    }
    CompareReport report;
    report.problem = setup.world->problem.name;
    report.hardware = setup.world->hardware.name;
    report.forecaster = options.base.forecaster;
    report.gpuBudgetPerStep = options.base.gpuBudgetPerStep();
    report.steps = options.base.steps;
    const int length = options.base.steps * options.base.gpuBudgetPerStep() + 1;
    QList<double> standardBest; // per seed
    for (Mode mode : options.modes) {
        ModeResult result;
        result.mode = mode;
        for (int s = 0; s < options.seeds; ++s) {
            SearchConfig config = options.base;
            config.mode = mode;
            config.gpu = QStringLiteral("replay");
            config.hardware = setup.world->hardware.name;
            config.seed = options.base.seed + quint64(s);
            config.proposalsPerParent = mode == Mode::Standard
                ? config.measurementsPerParent
                : config.measurementsPerParent * std::max(1, options.proposalFactor);
            auto state = runInMemory(store, config, setup);
            if (!state)
                return Error {
                    QStringLiteral("%1 search, seed %2: %3").arg(modeName(mode)).arg(config.seed).arg(state.error())};
            const QList<double> curve = curveOf(*state, length);
            result.curves.append(curve);
            result.finalBest.append(curve.last());
            result.evaluations.append(state->gpuEvaluations);
            result.forecasts.append(state->forecastsDone);
            if (options.progress)
                options.progress(QStringLiteral("%1 seed %2: best %3× after %4 GPU evaluations")
                                     .arg(modeName(mode))
                                     .arg(config.seed)
                                     .arg(curve.last(), 0, 'f', 3)
                                     .arg(state->gpuEvaluations));
        }
        if (mode == Mode::Standard)
            standardBest = result.finalBest;
        report.modes.append(result);
    }
    for (ModeResult &result : report.modes) {
        for (int s = 0; s < result.curves.size(); ++s) {
            int reached = -1;
            if (s < standardBest.size()) {
                const QList<double> &curve = result.curves.at(s);
                for (int e = 0; e < curve.size(); ++e) {
                    if (curve.at(e) >= standardBest.at(s) - 1e-12) {
                        reached = e;
                        break;
                    }
                }
            }
            result.toReachStandard.append(reached);
        }
    }
    return report;
}

QString CompareReport::text() const
{
    QString out;
    out += QStringLiteral("problem %1 on %2 (replay), forecaster %3, %4 steps × %5 GPU evaluations per step\n")
               .arg(problem, hardware, forecaster.isEmpty() ? QStringLiteral("-") : forecaster)
               .arg(steps)
               .arg(gpuBudgetPerStep);
    out += QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(QStringLiteral("mode"), -10)
               .arg(QStringLiteral("best speedup (mean ± sd)"), -26)
               .arg(QStringLiteral("GPU evals"), 10)
               .arg(QStringLiteral("evals to reach standard's best (mean; reached)"), -10)
               .arg(QString());
    for (const ModeResult &m : modes) {
        QList<double> evals, reach;
        int reached = 0;
        for (int e : m.evaluations)
            evals << e;
        for (int r : m.toReachStandard) {
            if (r >= 0) {
                reach << r;
                ++reached;
            }
        }
        out += QStringLiteral("%1 %2 %3 %4\n")
                   .arg(modeName(m.mode), -10)
                   .arg(QStringLiteral("%1 ± %2").arg(mean(m.finalBest), 0, 'f', 3).arg(stddev(m.finalBest), 0, 'f', 3),
                       -26)
                   .arg(mean(evals), 10, 'f', 1)
                   .arg(reach.isEmpty() ? QStringLiteral("never")
                                        : QStringLiteral("%1 (%2/%3)")
                                              .arg(mean(reach), 0, 'f', 1)
                                              .arg(reached)
                                              .arg(m.toReachStandard.size()));
    }
    // The curve at a few budgets: best speedup (mean ± sd over seeds) after e GPU evaluations.
    if (!modes.isEmpty() && !modes.first().curves.isEmpty()) {
        const int length = int(modes.first().curves.first().size()) - 1;
        QList<int> marks;
        for (int k = 1; k <= 5; ++k)
            marks << std::max(1, length * k / 5);
        out += QStringLiteral("\nbest speedup after e GPU evaluations (mean ± sd)\n%1").arg(QStringLiteral("e"), -10);
        for (int e : std::as_const(marks))
            out += QStringLiteral(" %1").arg(e, 16);
        out += QLatin1Char('\n');
        for (const ModeResult &m : modes) {
            out += QStringLiteral("%1").arg(modeName(m.mode), -10);
            for (int e : std::as_const(marks)) {
                QList<double> at;
                for (const QList<double> &curve : m.curves)
                    at << curve.at(std::min(e, int(curve.size()) - 1));
                out += QStringLiteral(" %1").arg(
                    QStringLiteral("%1 ± %2").arg(mean(at), 0, 'f', 3).arg(stddev(at), 0, 'f', 3), 16);
            }
            out += QLatin1Char('\n');
        }
    }
    return out;
}

QJsonObject CompareReport::toJson() const
{
    QJsonArray modeArray;
    for (const ModeResult &m : modes) {
        QJsonArray best, evals, reach, forecastCounts;
        for (double b : m.finalBest)
            best.append(b);
        for (int e : m.evaluations)
            evals.append(e);
        for (int r : m.toReachStandard)
            reach.append(r >= 0 ? QJsonValue(r) : QJsonValue());
        for (int f : m.forecasts)
            forecastCounts.append(f);
        QList<double> reached;
        for (int r : m.toReachStandard) {
            if (r >= 0)
                reached << r;
        }
        modeArray.append(QJsonObject {{QStringLiteral("mode"), modeName(m.mode)},
            {QStringLiteral("best_speedup_mean"), mean(m.finalBest)},
            {QStringLiteral("best_speedup_sd"), stddev(m.finalBest)}, {QStringLiteral("best_speedup"), best},
            {QStringLiteral("gpu_evaluations"), evals}, {QStringLiteral("forecasts"), forecastCounts},
            {QStringLiteral("evaluations_to_reach_standard_best"), reach},
            {QStringLiteral("evaluations_to_reach_standard_best_mean"),
                reached.isEmpty() ? QJsonValue() : QJsonValue(mean(reached))}});
    }
    return {{QStringLiteral("problem"), problem}, {QStringLiteral("hardware"), hardware},
        {QStringLiteral("forecaster"), forecaster}, {QStringLiteral("gpu_budget_per_step"), gpuBudgetPerStep},
        {QStringLiteral("steps"), steps}, {QStringLiteral("modes"), modeArray}};
}

} // namespace gpuf::search
