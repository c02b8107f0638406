// A recorded space as tuning results; see space_export.h.
#include "core/search/space_export.h"

#include "core/search/replay_world.h"

#include <QJsonObject>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace gpuf::search {

Result<interop::TuningResults> recordedTuningResults(
    Store &store, const QString &problem, const QString &family, const QString &hardware)
{
    auto world = loadReplayWorld(store, problem, hardware);
    if (!world)
        return Error {world.error()};
    interop::TuningResults results;
    results.format = interop::TuningFormat::T4;
    results.kernelName = family;
    results.hardware = world->hardware.name;
    QStringList names;
    QList<QSet<qint64>> seen;
    // An imported space's reference is one of its configurations: its runtimes are every feedback's reference side.
    QList<RecordedKernel> kernels = world->kernels;
    if (world->reference.parameters.value(QStringLiteral("family")).toString() == family) {
        for (const RecordedKernel &recorded : std::as_const(world->kernels)) {
            if (recorded.feedback.kind != EvaluationFeedback::Kind::Success)
                continue;
            RecordedKernel reference {world->reference, recorded.feedback};
            for (CaseFeedback &c : reference.feedback.cases)
                c.runtimeNs = c.referenceRuntimeNs;
            kernels.append(reference);
            break;
        }
    }
    for (const RecordedKernel &recorded : std::as_const(kernels)) {
        if (recorded.kernel.parameters.value(QStringLiteral("family")).toString() != family)
            continue;
        const QJsonObject tunables = recorded.kernel.parameters.value(QStringLiteral("tunables")).toObject();
        if (names.isEmpty()) {
            names = tunables.keys();
            seen.resize(names.size());
        }
        if (tunables.keys() != names)
            return Error {QStringLiteral("the kernels of '%1' carry different tunables").arg(family)};
        interop::TuningEntry entry;
        for (qsizetype t = 0; t < names.size(); ++t) {
            const qint64 v = qint64(tunables.value(names.at(t)).toDouble());
            entry.configuration << v;
            seen[t].insert(v);
        }
        const EvaluationFeedback &f = recorded.feedback;
        switch (f.kind) {
        case EvaluationFeedback::Kind::Success: {
            double logSum = 0.0;
            for (const CaseFeedback &c : f.cases)
                logSum += std::log(c.runtimeNs / 1000.0);
            entry.timeUs = f.cases.isEmpty() ? 0.0 : std::exp(logSum / double(f.cases.size()));
            if (f.cases.size() == 1)
                entry.runtimesUs = {entry.timeUs};
            break;
        }
        case EvaluationFeedback::Kind::CompileFailed:
            entry.outcome = interop::TuningEntry::Outcome::CompileFailed;
            entry.reason = QStringLiteral("compile");
            break;
        case EvaluationFeedback::Kind::Incorrect:
            entry.outcome = interop::TuningEntry::Outcome::Incorrect;
            entry.reason = QStringLiteral("correctness");
            break;
        default:
            entry.outcome = interop::TuningEntry::Outcome::RuntimeFailed;
            entry.reason = QStringLiteral("runtime");
            break;
        }
        if (entry.outcome == interop::TuningEntry::Outcome::Ok && !(entry.timeUs > 0.0))
            continue;
        results.entries.append(entry);
    }
    if (results.entries.isEmpty())
        return Error {QStringLiteral("no kernel of '%1' has a recorded outcome for problem '%2' on %3")
                          .arg(family, problem, world->hardware.name)};
    for (qsizetype t = 0; t < names.size(); ++t) {
        QList<qint64> values(seen.at(t).begin(), seen.at(t).end());
        std::sort(values.begin(), values.end());
        results.tunables.append({names.at(t), values});
    }
    return results;
}

} // namespace gpuf::search
