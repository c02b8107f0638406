// SearchConfig; see search_config.h.
#include "core/search/search_config.h"

#include <QJsonDocument>

namespace gpuf::search {

QString modeName(Mode mode)
{
    switch (mode) {
    case Mode::Standard:
        return QStringLiteral("standard");
    case Mode::Surrogate:
        return QStringLiteral("surrogate");
    case Mode::Selective:
        return QStringLiteral("selective");
    }
    return {};
}

std::optional<Mode> modeFromName(const QString &name)
{
    for (Mode m : {Mode::Standard, Mode::Surrogate, Mode::Selective}) {
        if (modeName(m) == name)
            return m;
    }
    return std::nullopt;
}

QString policyName(Policy policy)
{
    switch (policy) {
    case Policy::Probability:
        return QStringLiteral("probability");
    case Policy::Paper:
        return QStringLiteral("paper");
    }
    return {};
}

std::optional<Policy> policyFromName(const QString &name)
{
    for (Policy p : {Policy::Probability, Policy::Paper}) {
        if (policyName(p) == name)
            return p;
    }
    return std::nullopt;
}

QString mutatorName(MutatorKind kind)
{
    switch (kind) {
    case MutatorKind::Pool:
        return QStringLiteral("pool");
    case MutatorKind::Injected:
        return QStringLiteral("injected");
    case MutatorKind::Family:
        return QStringLiteral("family");
    case MutatorKind::Llm:
        return QStringLiteral("llm");
    }
    return {};
}

std::optional<MutatorKind> mutatorFromName(const QString &name)
{
    for (MutatorKind k : {MutatorKind::Pool, MutatorKind::Injected, MutatorKind::Family, MutatorKind::Llm}) {
        if (mutatorName(k) == name)
            return k;
    }
    return std::nullopt;
}

QString GpuSource::name() const
{
    switch (kind) {
    case Kind::Local:
        return QStringLiteral("local");
    case Kind::Replay:
        return QStringLiteral("replay");
    case Kind::Cluster:
        return QStringLiteral("cluster:") + profile;
    }
    return {};
}

std::optional<GpuSource> GpuSource::fromName(const QString &name)
{
    if (name == QLatin1StringView("local"))
        return local();
    if (name == QLatin1StringView("replay"))
        return replay();
    if (name.startsWith(QLatin1StringView("cluster:"))) {
        const QString profile = name.mid(8).trimmed();
        if (!profile.isEmpty())
            return cluster(profile);
    }
    return std::nullopt;
}

QJsonObject SearchConfig::toJson() const
{
    QJsonObject o {
        {QStringLiteral("mode"), modeName(mode)},
        {QStringLiteral("steps"), steps},
        {QStringLiteral("parents_per_step"), parentsPerStep},
        {QStringLiteral("proposals_per_parent"), proposalsPerParent},
        {QStringLiteral("measurements_per_parent"), measurementsPerParent},
        {QStringLiteral("keep_per_parent"), keepPerParent},
        {QStringLiteral("capacity"), capacity},
        {QStringLiteral("c"), c},
        {QStringLiteral("tau"), tau},
        {QStringLiteral("policy"), policyName(policy)},
        {QStringLiteral("seed"), QString::number(seed)}, // as text: JSON numbers lose bits past 2^53
        {QStringLiteral("problem"), problem},
        {QStringLiteral("forecaster"), forecaster},
        {QStringLiteral("mutator"), mutatorName(mutator)},
        {QStringLiteral("mutator_config"), mutatorConfig},
        {QStringLiteral("gpu"), gpu.name()},
        {QStringLiteral("hardware"), hardware},
    };
    if (alpha > 0.0) // written only when given, so logs of searches without it stay as they were
        o.insert(QStringLiteral("alpha"), alpha);
    return o;
}

Result<SearchConfig> SearchConfig::fromJson(const QJsonObject &o)
{
    SearchConfig c;
    const auto mode = modeFromName(o.value(QStringLiteral("mode")).toString());
    if (!mode)
        return Error {QStringLiteral("unknown search mode '%1'").arg(o.value(QStringLiteral("mode")).toString())};
    c.mode = *mode;
    auto integer = [&o](const char *key, int fallback) {
        const QJsonValue v = o.value(QLatin1StringView(key));
        return v.isDouble() ? v.toInt() : fallback;
    };
    c.steps = integer("steps", c.steps);
    c.parentsPerStep = integer("parents_per_step", c.parentsPerStep);
    c.proposalsPerParent = integer("proposals_per_parent", c.proposalsPerParent);
    c.measurementsPerParent = integer("measurements_per_parent", c.measurementsPerParent);
    c.keepPerParent = integer("keep_per_parent", c.keepPerParent);
    c.capacity = integer("capacity", c.capacity);
    c.c = o.value(QStringLiteral("c")).toDouble(c.c);
    c.tau = o.value(QStringLiteral("tau")).toDouble(c.tau);
    c.alpha = o.value(QStringLiteral("alpha")).toDouble(c.alpha);
    const QString policy = o.value(QStringLiteral("policy")).toString(policyName(Policy::Paper));
    const auto policyKind = policyFromName(policy);
    if (!policyKind)
        return Error {QStringLiteral("unknown selection policy '%1' (probability, paper)").arg(policy)};
    c.policy = *policyKind;
    const QJsonValue seed = o.value(QStringLiteral("seed"));
    c.seed = seed.isString() ? seed.toString().toULongLong() : quint64(seed.toInteger());
    c.problem = o.value(QStringLiteral("problem")).toString();
    c.forecaster = o.value(QStringLiteral("forecaster")).toString();
    const QString mutator = o.value(QStringLiteral("mutator")).toString(mutatorName(c.mutator));
    const auto mutatorKind = mutatorFromName(mutator);
    if (!mutatorKind)
        return Error {QStringLiteral("unknown mutator '%1' (pool, injected, family, llm)").arg(mutator)};
    c.mutator = *mutatorKind;
    c.mutatorConfig = o.value(QStringLiteral("mutator_config")).toObject();
    const QString gpu = o.value(QStringLiteral("gpu")).toString(c.gpu.name());
    const auto source = GpuSource::fromName(gpu);
    if (!source)
        return Error {QStringLiteral("--gpu must be local, replay or cluster:PROFILE, not '%1'").arg(gpu)};
    c.gpu = *source;
    c.hardware = o.value(QStringLiteral("hardware")).toString();
    return c;
}

Status SearchConfig::validate() const
{
    QStringList problems;
    // Counts beyond their bound first, alone: the checks below would quote numbers derived from them.
    const struct
    {
        const char *option;
        qint64 value;
        qint64 most;
    } bounds[] = {{"--steps", steps, kMaxSteps}, {"--parents", parentsPerStep, kMaxParents},
        {"--measure", measurementsPerParent, kMaxMeasurements}, {"--proposals", proposalsPerParent, kMaxProposals},
        {"--keep", keepPerParent, kMaxKeep}, {"the archive capacity", capacity, kMaxCapacity}};
    for (const auto &b : bounds) {
        if (b.value > b.most)
            problems << QStringLiteral("%1 takes at most %2, not %3")
                            .arg(QLatin1StringView(b.option))
                            .arg(b.most)
                            .arg(b.value);
    }
    if (problems.isEmpty() && qint64(parentsPerStep) * proposalsPerParent > kMaxProposalsPerStep)
        problems << QStringLiteral("--parents × --proposals (%1 × %2) takes at most %3 proposals a step")
                        .arg(parentsPerStep)
                        .arg(proposalsPerParent)
                        .arg(kMaxProposalsPerStep);
    if (!problems.isEmpty())
        return Error {problems.join(QStringLiteral("; "))};
    if (steps <= 0)
        problems << QStringLiteral("--steps must be at least 1 (a budget of %1 steps measures nothing)").arg(steps);
    if (parentsPerStep <= 0)
        problems << QStringLiteral("--parents must be at least 1");
    if (measurementsPerParent <= 0)
        problems << QStringLiteral("--measure must be at least 1 (a GPU budget of 0 measures nothing)");
    if (proposalsPerParent <= 0)
        problems << QStringLiteral("--proposals must be at least 1");
    if (mode == Mode::Standard && proposalsPerParent != measurementsPerParent)
        problems << QStringLiteral("the standard mode measures every proposal: --proposals (%1) must equal --measure"
                                   " (%2)")
                        .arg(proposalsPerParent)
                        .arg(measurementsPerParent);
    if (mode != Mode::Standard && proposalsPerParent < measurementsPerParent)
        problems << QStringLiteral("--proposals (%1) must be at least --measure (%2) in the %3 mode")
                        .arg(proposalsPerParent)
                        .arg(measurementsPerParent)
                        .arg(modeName(mode));
    if (keepPerParent <= 0)
        problems << QStringLiteral("--keep must be at least 1");
    if (capacity <= 0)
        problems << QStringLiteral("the archive capacity must be at least 1");
    if (!(tau >= 0.0 && tau <= 1.0))
        problems << QStringLiteral("--tau must lie in [0, 1]");
    if (!(alpha >= 0.0 && alpha < 1.0))
        problems << QStringLiteral("--alpha must lie in (0, 1) (0: no certified τ)");

    if (mode != Mode::Standard && forecaster.isEmpty())
        problems << QStringLiteral("the %1 mode needs a forecaster (--forecaster)").arg(modeName(mode));
    if (mode != Mode::Standard && forecaster == QLatin1StringView(kLearnerAlone) && policy == Policy::Paper)
        problems << QStringLiteral("--forecaster none leaves the learner alone, and the paper's policy ranks a prior "
                                   "forecaster's bins: use --policy probability or name a forecaster");
    if (gpu.kind == GpuSource::Kind::Cluster && gpu.profile.trimmed().isEmpty())
        problems << QStringLiteral("--gpu must be local, replay or cluster:PROFILE, not '%1'").arg(gpu.name());
    if (problems.isEmpty())
        return {};
    return Error {problems.join(QStringLiteral("; "))};
}

bool SearchConfig::needsForecasts() const
{
    return mode != Mode::Standard && forecaster != QLatin1StringView(kLearnerAlone);
}

QString SearchConfig::clusterProfileName() const
{
    return gpu.kind == GpuSource::Kind::Cluster ? gpu.profile.trimmed() : QString();
}

QStringList configDifferences(const SearchConfig &stored, const SearchConfig &given, bool allowStepsChange)
{
    QJsonObject a = stored.toJson();
    QJsonObject b = given.toJson();
    if (allowStepsChange) {
        a.remove(QStringLiteral("steps"));
        b.remove(QStringLiteral("steps"));
    }
    QStringList out;
    auto text = [](const QJsonValue &v) {
        if (v.isObject())
            return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
        return v.toVariant().toString();
    };
    for (auto it = a.constBegin(); it != a.constEnd(); ++it) {
        if (b.value(it.key()) != it.value())
            out << QStringLiteral("%1: %2 → %3").arg(it.key(), text(it.value()), text(b.value(it.key())));
    }
    return out;
}

} // namespace gpuf::search
