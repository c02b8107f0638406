// The baselines of `gpuf search compare`; see baselines.h.
#include "core/search/baselines.h"

#include <QSet>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>

namespace gpuf::search {

QString baselineName(Baseline baseline)
{
    switch (baseline) {
    case Baseline::Random:
        return QStringLiteral("random");
    case Baseline::HillClimb:
        return QStringLiteral("greedy");
    case Baseline::Genetic:
        return QStringLiteral("genetic");
    }
    return {};
}

std::optional<Baseline> baselineFromName(const QString &name)
{
    for (Baseline b : {Baseline::Random, Baseline::HillClimb, Baseline::Genetic}) {
        if (baselineName(b) == name)
            return b;
    }
    return std::nullopt;
}

namespace {

// std::mt19937_64's output is fixed by the standard; the distributions are not, so draws use plain arithmetic.
class Draw
{
public:
    explicit Draw(quint64 seed)
        : m_rng(seed ^ 0x9E3779B97F4A7C15ULL)
    { }
    int below(int n) { return n <= 1 ? 0 : int(m_rng() % quint64(n)); }
    double unit() { return double(m_rng() >> 11) * (1.0 / 9007199254740992.0); }
    template<typename T>
    void shuffle(QList<T> &list)
    {
        for (qsizetype i = list.size() - 1; i > 0; --i)
            std::swap(list[i], list[below(int(i + 1))]);
    }

private:
    std::mt19937_64 m_rng;
};

// The evaluations so far, with the answer a tuner's cache gives for a configuration seen before.
class Evaluations
{
public:
    Evaluations(const TuningSpace &space, int budget)
        : m_space(space)
        , m_budget(std::min(budget, space.size()))
    { }
    bool done() const { return m_order.size() >= m_budget; }
    bool seen(int point) const { return m_seen.contains(point); }
    // Evaluates `point` unless it was (free); its runtime, lower is better, +inf for a failure.
    double evaluate(int point)
    {
        if (!m_seen.contains(point) && !done()) {
            m_seen.insert(point);
            m_order.append(point);
        }
        const auto &s = m_space.points.at(point).speedup;
        return s ? 1.0 / *s : std::numeric_limits<double>::infinity();
    }
    // A point not evaluated yet, uniformly; -1 when every point is.
    int unseen(Draw &draw) const
    {
        const int left = m_space.size() - int(m_seen.size());
        if (left <= 0)
            return -1;
        // Rejection first (cheap while most are unseen), then a scan.
        for (int tries = 0; tries < 32; ++tries) {
            const int p = draw.below(m_space.size());
            if (!m_seen.contains(p))
                return p;
        }
        int k = draw.below(left);
        for (int p = 0; p < m_space.size(); ++p) {
            if (!m_seen.contains(p) && k-- == 0)
                return p;
        }
        return -1;
    }
    QList<int> take() { return std::move(m_order); }

private:
    const TuningSpace &m_space;
    int m_budget;
    QSet<int> m_seen;
    QList<int> m_order;
};

} // namespace

QList<int> randomSearch(const TuningSpace &space, int budget, quint64 seed)
{
    QList<int> order(space.size());
    std::iota(order.begin(), order.end(), 0);
    Draw draw(seed);
    draw.shuffle(order);
    order.resize(std::clamp(budget, 0, space.size()));
    return order;
}

QList<int> hillClimb(const TuningSpace &space, int budget, quint64 seed)
{
    Draw draw(seed);
    Evaluations evals(space, budget);
    while (!evals.done()) {
        int here = evals.unseen(draw);
        if (here < 0)
            break;
        double time = evals.evaluate(here);
        bool moved = true;
        while (moved && !evals.done()) {
            moved = false;
            QList<int> around = space.neighbours(here);
            draw.shuffle(around);
            for (int n : std::as_const(around)) {
                const double t = evals.evaluate(n);
                if (t < time) {
                    here = n;
                    time = t;
                    moved = true;
                    break;
                }
                if (evals.done())
                    break;
            }
        }
    }
    return evals.take();
}

namespace {

struct Individual
{
    int point = -1;
    double time = 0.0;
};

int tournament(const QList<Individual> &population, int size, Draw &draw)
{
    int best = draw.below(int(population.size()));
    for (int i = 1; i < size; ++i) {
        const int other = draw.below(int(population.size()));
        if (population.at(other).time < population.at(best).time)
            best = other;
    }
    return population.at(best).point;
}

// A child of two parents: uniform crossover, then each tunable moved one step with probability 1/tunables.
QList<qint64> breed(const TuningSpace &space, int a, int b, Draw &draw)
{
    const QList<qint64> &pa = space.points.at(a).configuration;
    const QList<qint64> &pb = space.points.at(b).configuration;
    QList<qint64> child(pa.size());
    const double rate = 1.0 / double(std::max<qsizetype>(1, pa.size()));
    for (qsizetype t = 0; t < pa.size(); ++t) {
        child[t] = draw.below(2) == 0 ? pa.at(t) : pb.at(t);
        if (draw.unit() < rate) {
            const QList<qint64> &list = space.values.at(t);
            const qsizetype at = list.indexOf(child.at(t));
            const qsizetype next = at + (draw.below(2) == 0 ? -1 : 1);
            if (at >= 0 && next >= 0 && next < list.size())
                child[t] = list.at(next);
        }
    }
    return child;
}

} // namespace

QList<int> geneticSearch(const TuningSpace &space, int budget, quint64 seed, const GeneticOptions &options)
{
    Draw draw(seed);
    Evaluations evals(space, budget);
    QList<Individual> population;
    while (population.size() < options.population && !evals.done()) {
        const int p = evals.unseen(draw);
        if (p < 0)
            break;
        population.append({p, evals.evaluate(p)});
    }
    while (!evals.done() && !population.isEmpty()) {
        QList<Individual> next;
        // Elitism: the best individual always survives.
        next.append(*std::min_element(population.begin(), population.end(),
            [](const Individual &x, const Individual &y) { return x.time < y.time; }));
        while (next.size() < population.size() && !evals.done()) {
            int child = -1;
            for (int tries = 0; tries < 8 && child < 0; ++tries) {
                const int a = tournament(population, options.tournament, draw);
                const int b = tournament(population, options.tournament, draw);
                child = space.indexOf(breed(space, a, b, draw));
                // A child seen before is free but adds nothing new; a few tries for a new one.
                if (child >= 0 && evals.seen(child) && tries < 7)
                    child = -1;
            }
            if (child < 0 || evals.seen(child))
                child = evals.unseen(draw); // stalled: fresh blood keeps the budget spent on new configurations
            if (child < 0)
                break;
            next.append({child, evals.evaluate(child)});
        }
        if (next.size() <= 1 && evals.done())
            break;
        population = next;
    }
    return evals.take();
}

QList<int> runBaseline(Baseline baseline, const TuningSpace &space, int budget, quint64 seed)
{
    switch (baseline) {
    case Baseline::Random:
        return randomSearch(space, budget, seed);
    case Baseline::HillClimb:
        return hillClimb(space, budget, seed);
    case Baseline::Genetic:
        return geneticSearch(space, budget, seed);
    }
    return {};
}

} // namespace gpuf::search
