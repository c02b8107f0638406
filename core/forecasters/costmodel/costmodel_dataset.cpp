// loadTrainingSet; see costmodel_dataset.h. Reads through the store's repositories (no SQL here).
#include "core/forecasters/costmodel/costmodel_dataset.h"

#include "core/bins/bins.h"
#include "core/store/hardware_repo.h"
#include "core/store/measured_speedup.h"
#include "core/store/measurement_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"

#include <QCryptographicHash>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace gpuf::costmodel {

QList<RowId> TrainingSet::problemIds() const
{
    std::set<RowId> ids;
    for (const MeasuredPair &p : pairs)
        ids.insert(p.problemId);
    return QList<RowId>(ids.begin(), ids.end());
}

QString TrainingSet::hash() const
{
    QStringList lines;
    lines.reserve(pairs.size());
    for (const MeasuredPair &p : pairs) {
        lines.append(QStringLiteral("%1 %2 %3 %4")
                         .arg(kernels.value(p.referenceId).contentHash, kernels.value(p.candidateId).contentHash,
                             hardware.value(p.hardwareId).name, QString::number(p.speedup, 'g', 6)));
    }
    lines.sort(); // independent of row ids and store order
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const QString &line : std::as_const(lines)) {
        h.addData(line.toUtf8());
        h.addData(QByteArrayView("\n"));
    }
    return QString::fromLatin1(h.result().toHex());
}

Result<TrainingSet> loadTrainingSet(Store &store, const CancelToken &cancel)
{
    const auto cancelled = [cancel] { return cancel.isCancelled(); };
    TrainingSet set;
    auto problems = ProblemRepo(store).list();
    if (!problems)
        return problems.failure();
    for (const Problem &p : std::as_const(*problems))
        set.problems.insert(p.id, p.name);
    auto kernels = KernelRepo(store).list();
    if (!kernels)
        return kernels.failure();
    for (const Kernel &k : std::as_const(*kernels))
        set.kernels.insert(k.id, k);
    auto hardware = HardwareRepo(store).list();
    if (!hardware)
        return hardware.failure();
    for (const Hardware &h : std::as_const(*hardware))
        set.hardware.insert(h.id, h);
    if (cancelled())
        return Error::cancelled();
    auto measurements = MeasurementRepo(store).list();
    if (!measurements)
        return measurements.failure();

    // The newest measurement per (kernel, hardware, case): the list is in id order, so later rows replace earlier.
    QHash<QString, int> caseIds;
    std::map<std::pair<RowId, RowId>, std::map<int, CaseTiming>> timings; // (hardware, kernel) → case → timing
    for (const Measurement &m : std::as_const(*measurements)) {
        auto caseId = caseIds.constFind(m.caseName);
        if (caseId == caseIds.cend())
            caseId = caseIds.insert(m.caseName, int(caseIds.size()));
        const double median = m.runtime ? m.runtime->medianNs : 0.0;
        timings[{m.hardwareId, m.kernelId}][*caseId]
            = CaseTiming {*caseId, caseStatus(measurementStatusName(m.status), median), median};
    }
    // Kernels per (problem, hardware) with their case timings in ascending case id.
    std::map<std::pair<RowId, RowId>, std::vector<std::pair<RowId, std::vector<CaseTiming>>>> groups;
    for (const auto &[key, cases] : timings) {
        const auto kernel = set.kernels.constFind(key.second);
        if (kernel == set.kernels.cend())
            continue;
        std::vector<CaseTiming> list;
        for (const auto &[id, timing] : cases)
            list.push_back(timing);
        groups[{kernel->problemId, key.first}].emplace_back(key.second, std::move(list));
    }
    for (const auto &[group, members] : groups) {
        if (cancelled())
            return Error::cancelled();
        for (const auto &[reference, referenceCases] : members) {
            for (const auto &[candidate, candidateCases] : members) {
                if (candidate == reference)
                    continue;
                const MeasuredSpeedup s = measuredSpeedup(candidateCases, referenceCases);
                if (s.state != MeasuredSpeedup::State::Speedup)
                    continue;
                const std::optional<int> bin = bins::binOf(s.speedup);
                if (!bin)
                    continue;
                set.pairs.append({reference, candidate, group.second, group.first, s.speedup, *bin});
            }
        }
    }
    return set;
}

} // namespace gpuf::costmodel
