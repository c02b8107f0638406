// loadScoredPairs; see scored_pairs.h.
#include "core/store/scored_pairs.h"

#include "core/store/measured_speedup.h"
#include "core/store/speedup_interval.h"
#include "core/store/sql.h"
#include "core/store/store.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <vector>

namespace gpuf {

namespace {

// The sum of one count over every forecaster's pairs.
qint64 sumOverForecasters(const QList<ScoredPairsForecaster> &forecasters, qint64 ScoredPairsForecaster::*count)
{
    qint64 n = 0;
    for (const ScoredPairsForecaster &f : forecasters)
        n += f.*count;
    return n;
}

// A candidate's origin by its kernel's (domain/kernel.h): seed and corpus kernels are the corpus, import:<source> and
// the configurations of a recorded sweep (param, until a search names them) are imported.
PairOrigin pairOriginOfKernel(const QString &origin)
{
    if (origin == QLatin1StringView("corpus") || origin == QLatin1StringView("seed"))
        return PairOrigin::Corpus;
    if (origin.startsWith(QLatin1StringView("import")) || origin == QLatin1StringView("param"))
        return PairOrigin::Imported;
    return PairOrigin::Other;
}

} // namespace

QString pairOriginName(PairOrigin origin)
{
    switch (origin) {
    case PairOrigin::Corpus:
        return QStringLiteral("corpus");
    case PairOrigin::Imported:
        return QStringLiteral("imported");
    case PairOrigin::Search:
        return QStringLiteral("search");
    case PairOrigin::Other:
        break;
    }
    return QStringLiteral("other");
}

std::optional<PairOrigin> pairOriginFromName(const QString &name)
{
    for (const PairOrigin origin : {PairOrigin::Corpus, PairOrigin::Imported, PairOrigin::Search, PairOrigin::Other}) {
        if (pairOriginName(origin) == name)
            return origin;
    }
    return std::nullopt;
}

qint64 ScoredPairs::otherOrigin() const { return sumOverForecasters(forecasters, &ScoredPairsForecaster::otherOrigin); }

qint64 ScoredPairs::withoutTruth() const
{
    return sumOverForecasters(forecasters, &ScoredPairsForecaster::withoutTruth);
}

qint64 ScoredPairs::replayedTruths() const { return sumOverForecasters(forecasters, &ScoredPairsForecaster::replayed); }

qint64 ScoredPairs::straddling() const { return sumOverForecasters(forecasters, &ScoredPairsForecaster::straddling); }

qint64 ScoredPairs::quarantined() const { return sumOverForecasters(forecasters, &ScoredPairsForecaster::quarantined); }

qint64 ScoredPairs::failedCandidates() const
{
    qint64 n = 0;
    for (const ScoredPairsForecaster &f : forecasters)
        n += f.failedCandidates;
    return n;
}

const ScoredPairsForecaster *ScoredPairs::forecaster(RowId id) const
{
    for (const ScoredPairsForecaster &f : forecasters) {
        if (f.id == id)
            return &f;
    }
    return nullptr;
}

namespace {

// (kernel or pair, hardware) and (reference, candidate, hardware) keys for the lookups below.
struct KernelOnHardware
{
    RowId kernel = 0;
    RowId hardware = 0;
    bool operator==(const KernelOnHardware &) const = default;
};
size_t qHash(const KernelOnHardware &k, size_t seed = 0) { return qHashMulti(seed, k.kernel, k.hardware); }

struct PairOnHardware
{
    RowId reference = 0;
    RowId candidate = 0;
    RowId hardware = 0;
    bool operator==(const PairOnHardware &) const = default;
};
size_t qHash(const PairOnHardware &k, size_t seed = 0)
{
    return qHashMulti(seed, k.reference, k.candidate, k.hardware);
}

struct ForecastKey
{
    RowId forecaster = 0;
    PairOnHardware pair;
    int repeat = 0;
    bool operator==(const ForecastKey &) const = default;
};
size_t qHash(const ForecastKey &k, size_t seed = 0) { return qHashMulti(seed, k.forecaster, qHash(k.pair), k.repeat); }

struct Label
{
    std::optional<double> speedup;
    std::optional<int> trueBin;
    QString search;
};

QString knownNames(const QList<NamedRow> &rows)
{
    QStringList names;
    for (const NamedRow &row : rows)
        names.append(row.name);
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

Result<RowId> resolveName(const QList<NamedRow> &rows, const QString &name, const QString &what)
{
    if (name.isEmpty())
        return RowId(0);
    for (const NamedRow &row : rows) {
        if (row.name == name)
            return row.id;
    }
    return Error {QStringLiteral("unknown %1 '%2' (the store has: %3)").arg(what, name, knownNames(rows))};
}

class PairsLoader
{
public:
    PairsLoader(Store &store, const ScoredPairFilter &filter, const CancelToken &cancel)
        : m_db(store.database())
        , m_filter(filter)
        , m_cancel(cancel)
    { }

    Result<ScoredPairs> run();

private:
    Status loadNames();
    Status resolveFilter();
    Status loadForecasts();
    Status loadLabels();
    Status loadMeasurements();
    Status loadSearchMembers();
    void decide();
    Result<QList<NamedRow>> namedRows(const QString &table);

    QSqlDatabase &m_db;
    const ScoredPairFilter &m_filter;
    CancelToken m_cancel;
    ScoredPairs m_result;
    QList<QString> m_displayNames; // parallel to m_result.allForecasters
    RowId m_problemId = 0;
    RowId m_hardwareId = 0;
    QHash<RowId, int> m_forecasterIndex; // chosen forecaster id → index in m_result.forecasters
    std::vector<ScoredPair> m_forecasts; // before their truths are known
    QSet<RowId> m_kernels; // every kernel a forecast names
    QHash<PairOnHardware, Label> m_labels;
    QHash<KernelOnHardware, std::vector<CaseTiming>> m_timings; // ascending caseId
    QHash<KernelOnHardware, std::vector<CaseSpread>> m_spreads; // the ok cases' spreads, ascending caseId
    QSet<KernelOnHardware> m_quarantined; // a newest measurement of the kernel on the GPU is quarantined
    QHash<RowId, RowId> m_searchOfKernel; // the first search (lowest id) whose events name the kernel
};

Result<ScoredPairs> PairsLoader::run()
{
    // One read transaction: every query sees the same snapshot of the store.
    const bool inTransaction = m_db.transaction();
    const auto stages = {&PairsLoader::loadNames, &PairsLoader::resolveFilter, &PairsLoader::loadForecasts,
        &PairsLoader::loadLabels, &PairsLoader::loadMeasurements, &PairsLoader::loadSearchMembers};
    Status status;
    for (auto stage : stages) {
        if (m_cancel.isCancelled()) {
            status = Error::cancelled();
            break;
        }
        status = (this->*stage)();
        if (!status)
            break;
    }
    if (inTransaction)
        m_db.rollback(); // nothing was written
    if (!status)
        return status.failure();
    decide();
    return std::move(m_result);
}

Result<QList<NamedRow>> PairsLoader::namedRows(const QString &table)
{
    // `table` is one of the fixed names below, never user input.
    auto q = sql::run(m_db, QStringLiteral("SELECT id, name FROM ") + table + QStringLiteral(" ORDER BY id"));
    if (!q)
        return q.failure();
    QList<NamedRow> rows;
    while (q->next())
        rows.append({q->value(0).toLongLong(), q->value(1).toString()});
    return rows;
}

Status PairsLoader::loadNames()
{
    const std::pair<QString, QList<NamedRow> *> tables[] = {{QStringLiteral("problems"), &m_result.problems},
        {QStringLiteral("hardware"), &m_result.hardware}, {QStringLiteral("searches"), &m_result.searches}};
    for (const auto &[table, target] : tables) {
        auto rows = namedRows(table);
        if (!rows)
            return rows.failure();
        *target = std::move(*rows);
    }
    auto q = sql::run(m_db, QStringLiteral("SELECT id, name, display_name FROM forecasters ORDER BY id"));
    if (!q)
        return q.failure();
    while (q->next()) {
        m_result.allForecasters.append({q->value(0).toLongLong(), q->value(1).toString()});
        m_displayNames.append(q->value(2).toString());
    }
    return {};
}

Status PairsLoader::resolveFilter()
{
    auto problem = resolveName(m_result.problems, m_filter.problem, QStringLiteral("problem"));
    if (!problem)
        return problem.failure();
    auto hardware = resolveName(m_result.hardware, m_filter.hardware, QStringLiteral("hardware"));
    if (!hardware)
        return hardware.failure();
    m_problemId = *problem;
    m_hardwareId = *hardware;

    QList<int> chosen; // indexes into allForecasters, ascending id
    for (const QString &name : m_filter.forecasters) {
        const auto it = std::find_if(m_result.allForecasters.cbegin(), m_result.allForecasters.cend(),
            [&name](const NamedRow &row) { return row.name == name; });
        if (it == m_result.allForecasters.cend()) {
            return Error {QStringLiteral("unknown forecaster '%1' (the store has: %2)")
                              .arg(name, knownNames(m_result.allForecasters))};
        }
        chosen.append(int(it - m_result.allForecasters.cbegin()));
    }
    if (m_filter.forecasters.isEmpty()) {
        for (int i = 0; i < m_result.allForecasters.size(); ++i)
            chosen.append(i);
    }
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    for (int i : std::as_const(chosen)) {
        ScoredPairsForecaster f;
        f.id = m_result.allForecasters[i].id;
        f.name = m_result.allForecasters[i].name;
        f.displayName = m_displayNames[i];
        m_forecasterIndex.insert(f.id, int(m_result.forecasters.size()));
        m_result.forecasters.append(f);
    }
    return {};
}

Status PairsLoader::loadForecasts()
{
    auto q = sql::run(m_db,
        QStringLiteral(
            "SELECT f.id, f.reference_kernel_id, f.candidate_kernel_id, COALESCE(f.hardware_id, 0),"
            " f.forecaster_id, f.repeat, f.p1, f.p2, f.p3, f.p4, f.p5, f.p6, f.p7, f.p8, f.predicted_bin,"
            " f.status, k.problem_id, k.origin FROM forecasts f JOIN kernels k ON k.id = f.candidate_kernel_id"
            " WHERE (? = 0 OR k.problem_id = ?) AND (? = 0 OR f.hardware_id = ?) ORDER BY f.id"),
        {m_problemId, m_problemId, m_hardwareId, m_hardwareId});
    if (!q)
        return q.failure();
    QHash<ForecastKey, qsizetype> newest; // rows in id order: a later forecast of the same key replaces the earlier
    while (q->next()) {
        const RowId forecaster = q->value(4).toLongLong();
        if (!m_forecasterIndex.contains(forecaster))
            continue;
        ScoredPair pair;
        pair.forecastId = q->value(0).toLongLong();
        pair.referenceId = q->value(1).toLongLong();
        pair.candidateId = q->value(2).toLongLong();
        pair.hardwareId = q->value(3).toLongLong();
        pair.forecasterId = forecaster;
        pair.repeat = q->value(5).toInt();
        pair.problemId = q->value(16).toLongLong();
        pair.origin = pairOriginOfKernel(q->value(17).toString()); // Search once decide() knows the search members
        const QString status = q->value(15).toString();
        if (status == QLatin1StringView("error")) {
            // No answer at all: counted, and it never replaces an earlier answer to the same question.
            ++m_result.forecasters[m_forecasterIndex.value(forecaster)].errors;
            continue;
        }
        if (status == QLatin1StringView("ok")) {
            bins::Distribution p {};
            for (int b = 0; b < bins::kBinCount; ++b)
                p[b] = q->value(6 + b).toDouble();
            // Stored forecasts are renormalised already; a distribution that cannot be is a parse failure.
            if (const auto normalised = bins::renormalised(p)) {
                pair.p = *normalised;
                pair.parsed = true;
                const std::optional<int> chosen = sql::optionalInt(q->value(14));
                pair.predictedBin
                    = chosen && *chosen >= 1 && *chosen <= bins::kBinCount ? *chosen : bins::argmaxBin(pair.p);
            }
        }
        const ForecastKey key {forecaster, {pair.referenceId, pair.candidateId, pair.hardwareId}, pair.repeat};
        if (const auto it = newest.constFind(key); it != newest.cend()) {
            m_forecasts[*it] = pair;
        } else {
            newest.insert(key, qsizetype(m_forecasts.size()));
            m_forecasts.push_back(pair);
        }
        m_kernels.insert(pair.referenceId);
        m_kernels.insert(pair.candidateId);
    }
    return {};
}

Status PairsLoader::loadLabels()
{
    auto q = sql::run(m_db,
        QStringLiteral("SELECT reference_kernel_id, candidate_kernel_id, COALESCE(hardware_id, 0), speedup, true_bin,"
                       " CASE WHEN json_valid(extra_json) THEN json_extract(extra_json, '$.source_search') END"
                       " FROM pair_labels ORDER BY id"));
    if (!q)
        return q.failure();
    while (q->next()) {
        const PairOnHardware key {q->value(0).toLongLong(), q->value(1).toLongLong(), q->value(2).toLongLong()};
        if (!m_kernels.contains(key.candidate))
            continue;
        // Rows in id order: the newest label of a pair wins.
        m_labels.insert(key, {sql::optionalDouble(q->value(3)), sql::optionalInt(q->value(4)), q->value(5).toString()});
    }
    return {};
}

Status PairsLoader::loadMeasurements()
{
    // The newest measurement of each (kernel, hardware, case): SQLite takes the bare columns of a MAX() aggregate
    // from the row holding the maximum.
    auto q = sql::run(m_db,
        QStringLiteral("SELECT kernel_id, hardware_id, case_name, status, median_ns, MAX(id), source = 'replay',"
                       " id IN (SELECT measurement_id FROM measurement_verdicts WHERE verdict = 'quarantined'),"
                       " CASE WHEN rel_std_err > 0 OR samples > 1 THEN rel_std_err ELSE -1 END"
                       " FROM measurements"
                       " WHERE (? = 0 OR hardware_id = ?) GROUP BY kernel_id, hardware_id, case_name"),
        {m_hardwareId, m_hardwareId});
    if (!q)
        return q.failure();
    QHash<QString, int> caseIds;
    while (q->next()) {
        const KernelOnHardware key {q->value(0).toLongLong(), q->value(1).toLongLong()};
        if (!m_kernels.contains(key.kernel))
            continue;
        const QString caseName = q->value(2).toString();
        auto caseId = caseIds.constFind(caseName);
        if (caseId == caseIds.cend())
            caseId = caseIds.insert(caseName, int(caseIds.size()));
        const double medianNs = q->value(4).toDouble();
        if (q->value(7).toBool())
            m_quarantined.insert(key);
        if (q->value(3).toString() == QLatin1String("ok") && medianNs > 0)
            m_spreads[key].push_back({*caseId, medianNs, q->value(8).toDouble()});
        m_timings[key].push_back(
            {*caseId, caseStatus(q->value(3).toString(), medianNs), medianNs, q->value(6).toBool()});
    }
    for (auto &timings : m_timings)
        std::sort(timings.begin(), timings.end(),
            [](const CaseTiming &a, const CaseTiming &b) { return a.caseId < b.caseId; });
    for (auto &spreads : m_spreads)
        std::sort(spreads.begin(), spreads.end(),
            [](const CaseSpread &a, const CaseSpread &b) { return a.caseId < b.caseId; });
    return {};
}

Status PairsLoader::loadSearchMembers()
{
    // instr() first: most events name no kernel, and it spares json parsing of those.
    auto q = sql::run(m_db,
        QStringLiteral("SELECT search_id, json_extract(payload_json, '$.kernel_id') FROM search_events"
                       " WHERE instr(payload_json, '\"kernel_id\"') > 0 AND json_valid(payload_json)"
                       " ORDER BY search_id"));
    if (!q)
        return q.failure();
    while (q->next()) {
        const RowId kernel = q->value(1).toLongLong();
        if (m_kernels.contains(kernel) && !m_searchOfKernel.contains(kernel))
            m_searchOfKernel.insert(kernel, q->value(0).toLongLong());
    }
    return {};
}

// Each forecast's truth: the measurement decides (a failed case is a failure), a label stands in where the two
// kernels were not both measured ok on the forecast's hardware.
void PairsLoader::decide()
{
    QHash<QString, RowId> searchByName;
    for (const NamedRow &s : std::as_const(m_result.searches))
        searchByName.insert(s.name, s.id);
    static const std::vector<CaseTiming> none;
    const auto timingsOf = [this](RowId kernel, RowId hardware) -> const std::vector<CaseTiming> & {
        const auto it = m_timings.constFind({kernel, hardware});
        return it == m_timings.cend() ? none : *it;
    };
    m_result.pairs.reserve(qsizetype(m_forecasts.size()));
    for (ScoredPair &pair : m_forecasts) {
        ScoredPairsForecaster &forecaster = m_result.forecasters[m_forecasterIndex.value(pair.forecasterId)];
        pair.searchId = m_searchOfKernel.value(pair.candidateId, 0);
        if (pair.searchId != 0)
            pair.origin = PairOrigin::Search;
        if (m_filter.origin && pair.origin != *m_filter.origin) {
            ++forecaster.otherOrigin;
            continue;
        }
        ++forecaster.forecasts;
        MeasuredSpeedup measured;
        if (pair.hardwareId != 0
            && (m_quarantined.contains({pair.candidateId, pair.hardwareId})
                || m_quarantined.contains({pair.referenceId, pair.hardwareId}))) {
            ++forecaster.quarantined; // its truth rests on a measurement the user set aside
            continue;
        }
        if (pair.hardwareId != 0)
            measured = measuredSpeedup(
                timingsOf(pair.candidateId, pair.hardwareId), timingsOf(pair.referenceId, pair.hardwareId));
        const Label *label = nullptr;
        for (RowId hardware : {pair.hardwareId, RowId(0)}) {
            const auto it = m_labels.constFind({pair.referenceId, pair.candidateId, hardware});
            if (it != m_labels.cend()) {
                label = &*it;
                break;
            }
        }
        if (measured.state == MeasuredSpeedup::State::Failed) {
            ++forecaster.failedCandidates;
            continue;
        }
        std::optional<int> trueBin;
        if (measured.state == MeasuredSpeedup::State::Speedup) {
            pair.truth = measured.replayed ? TruthSource::Replayed : TruthSource::Measured;
            pair.trueSpeedup = measured.speedup;
            trueBin = bins::binOf(measured.speedup);
            const auto interval = speedupInterval(m_spreads.value({pair.candidateId, pair.hardwareId}),
                m_spreads.value({pair.referenceId, pair.hardwareId}));
            if (interval && interval->straddles())
                pair.straddledEdge = interval->straddledEdge;
        } else if (label && (label->trueBin || label->speedup)) {
            pair.truth = TruthSource::Label;
            pair.trueSpeedup = label->speedup;
            trueBin = label->trueBin ? label->trueBin : bins::binOf(*label->speedup);
        } else if (label) {
            ++forecaster.failedCandidates; // a label with neither speedup nor bin says the candidate failed
            continue;
        }
        if (!trueBin || *trueBin < 1 || *trueBin > bins::kBinCount) {
            ++forecaster.withoutTruth;
            continue;
        }
        pair.trueBin = *trueBin;
        if (label && !label->search.isEmpty())
            pair.searchId = searchByName.value(label->search, pair.searchId);
        ++forecaster.scored;
        if (pair.truth == TruthSource::Replayed)
            ++forecaster.replayed;
        if (pair.straddledEdge)
            ++forecaster.straddling;
        m_result.pairs.append(pair);
    }
}

} // namespace

Result<ScoredPairs> loadScoredPairs(Store &store, const ScoredPairFilter &filter, const CancelToken &cancel)
{
    return PairsLoader(store, filter, cancel).run();
}

} // namespace gpuf
