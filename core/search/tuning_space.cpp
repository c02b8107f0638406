// Tuning spaces with known outcomes; see tuning_space.h.
#include "core/search/tuning_space.h"

#include "core/search/replay_world.h"

#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace gpuf::search {

int TuningSpace::indexOf(const QList<qint64> &configuration) const
{
    return m_byConfiguration.value(configuration, -1);
}

int TuningSpace::indexOfHash(const QString &contentHash) const { return m_byHash.value(contentHash, -1); }

QList<int> TuningSpace::neighbours(int point) const
{
    QList<int> out;
    const QList<qint64> &from = points.at(point).configuration;
    for (qsizetype t = 0; t < tunables.size(); ++t) {
        const QList<qint64> &list = values.at(t);
        const qsizetype at = list.indexOf(from.at(t));
        for (qsizetype step : {qsizetype(-1), qsizetype(1)}) {
            const qsizetype next = at + step;
            if (at < 0 || next < 0 || next >= list.size())
                continue;
            QList<qint64> moved = from;
            moved[t] = list.at(next);
            if (const int i = indexOf(moved); i >= 0)
                out.append(i);
        }
    }
    return out;
}

double TuningSpace::optimum() const
{
    double best = 0.0;
    for (const SpacePoint &p : points)
        best = std::max(best, p.speedup.value_or(0.0));
    return best;
}

int TuningSpace::countNear(double within) const
{
    const double bar = optimum() / (1.0 + within);
    int n = 0;
    for (const SpacePoint &p : points)
        n += p.speedup && *p.speedup >= bar * (1.0 - 1e-12) ? 1 : 0;
    return n;
}

QString TuningSpace::label(int point) const
{
    QStringList parts;
    const QList<qint64> &c = points.at(point).configuration;
    for (qsizetype t = 0; t < tunables.size() && t < c.size(); ++t)
        parts << QStringLiteral("%1=%2").arg(tunables.at(t)).arg(c.at(t));
    return parts.join(QLatin1Char(' '));
}

Status TuningSpace::index()
{
    m_byConfiguration.clear();
    m_byHash.clear();
    for (qsizetype i = 0; i < points.size(); ++i) {
        const SpacePoint &p = points.at(i);
        if (p.configuration.size() != tunables.size())
            return Error {QStringLiteral("configuration %1 of space '%2' has %3 values for %4 tunables")
                              .arg(i)
                              .arg(name)
                              .arg(p.configuration.size())
                              .arg(tunables.size())};
        if (!tunables.isEmpty()) {
            if (m_byConfiguration.contains(p.configuration))
                return Error {QStringLiteral("space '%1' holds the configuration %2 twice").arg(name, label(int(i)))};
            m_byConfiguration.insert(p.configuration, int(i));
        }
        if (!p.contentHash.isEmpty())
            m_byHash.insert(p.contentHash, int(i));
    }
    return {};
}

Result<TuningSpace> spaceFromWorld(const ReplayWorld &world, const QString &family)
{
    TuningSpace space;
    space.name = family.isEmpty() ? world.problem.name : family;
    space.hardware = world.hardware.name;
    QList<QSet<qint64>> seen;
    bool first = true;
    for (const RecordedKernel &recorded : world.kernels) {
        const QJsonObject tunables = recorded.kernel.parameters.value(QStringLiteral("tunables")).toObject();
        SpacePoint point;
        if (!family.isEmpty()) {
            if (recorded.kernel.parameters.value(QStringLiteral("family")).toString() != family)
                continue;
            if (first) {
                space.tunables = tunables.keys(); // sorted; only needs to be the same for every point
                seen.resize(space.tunables.size());
                first = false;
            } else if (tunables.keys() != space.tunables) {
                return Error {QStringLiteral("the recorded kernels of '%1' carry different tunables (%2, and %3 in "
                                             "'%4')")
                                  .arg(family, space.tunables.join(QLatin1Char(',')),
                                      tunables.keys().join(QLatin1Char(',')), recorded.kernel.name)};
            }
            for (qsizetype t = 0; t < space.tunables.size(); ++t) {
                const qint64 v = qint64(tunables.value(space.tunables.at(t)).toDouble());
                point.configuration.append(v);
                seen[t].insert(v);
            }
        }
        const EvaluationFeedback &f = recorded.feedback;
        if (f.kind == EvaluationFeedback::Kind::Success) {
            point.speedup = f.aggregatedSpeedup;
            for (const CaseFeedback &c : f.cases)
                point.runtimeUs += c.runtimeNs / 1000.0;
        }
        point.contentHash = recorded.kernel.contentHash;
        space.points.append(point);
    }
    // An imported space's reference is one of its configurations (1× by definition), timed like the others.
    const QJsonObject referenceTunables = world.reference.parameters.value(QStringLiteral("tunables")).toObject();
    if (!family.isEmpty() && !space.points.isEmpty()
        && world.reference.parameters.value(QStringLiteral("family")).toString() == family
        && referenceTunables.keys() == space.tunables) {
        SpacePoint point;
        for (qsizetype t = 0; t < space.tunables.size(); ++t) {
            const qint64 v = qint64(referenceTunables.value(space.tunables.at(t)).toDouble());
            point.configuration.append(v);
            seen[t].insert(v);
        }
        point.speedup = 1.0;
        for (const RecordedKernel &recorded : world.kernels) {
            if (recorded.feedback.kind != EvaluationFeedback::Kind::Success)
                continue;
            for (const CaseFeedback &c : recorded.feedback.cases)
                point.runtimeUs += c.referenceRuntimeNs / 1000.0;
            break;
        }
        point.contentHash = world.reference.contentHash;
        space.points.append(point);
    }
    if (space.points.isEmpty())
        return Error {family.isEmpty()
                ? QStringLiteral("no kernel of '%1' has a recorded outcome on %2")
                      .arg(world.problem.name, world.hardware.name)
                : QStringLiteral("no kernel of family '%1' has a recorded outcome on %2 (import its sweep: gpuf sweep "
                                 "--import FILE, or a tuning result: gpuf import --tuning FILE)")
                      .arg(family, world.hardware.name)};
    for (const QSet<qint64> &s : std::as_const(seen)) {
        QList<qint64> list(s.begin(), s.end());
        std::sort(list.begin(), list.end());
        space.values.append(list);
    }
    if (Status s = space.index(); !s)
        return Error {s.error()};
    return space;
}

} // namespace gpuf::search
