// Tests of the evidence behind a speedup (issue 28): the 95 % interval by hand and against a second computation (a
// parametric Monte Carlo on log times), the bin edge it straddles, the evidence read from a store equal to the stored
// figures, facts a run lacks shown as "not recorded", each verdict rule naming itself, quarantine with its note, and
// a quarantined pair leaving the scored pairs and the metrics (with the share of straddling pairs reported).
#include "core/evidence/evidence_format.h"
#include "core/evidence/evidence_reads.h"
#include "core/evidence/verdict_rules.h"
#include "core/interop/interop.h"
#include "core/metrics/from_store.h"
#include "core/search/search_reads.h"
#include "core/store/measured_speedup.h"
#include "core/store/scored_pairs.h"
#include "core/store/speedup_interval.h"
#include "core/store/verdict_repo.h"
#include "evidence_fixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace gpuf;
using namespace gpuf::testing;
using namespace Qt::StringLiterals;

namespace {

// The percentiles of the geometric-mean speedup when every log time is drawn from N(ln median, RSE²).
std::pair<double, double> monteCarloInterval(const std::vector<CaseSpread> &cand, const std::vector<CaseSpread> &base)
{
    std::mt19937_64 rng(20261129);
    std::normal_distribution<double> normal;
    const int draws = 200000;
    std::vector<double> speedups;
    speedups.reserve(draws);
    for (int i = 0; i < draws; ++i) {
        double sum = 0.0;
        for (size_t c = 0; c < cand.size(); ++c) {
            const double logBase = std::log(base[c].medianNs) + base[c].relStdErr * normal(rng);
            const double logCand = std::log(cand[c].medianNs) + cand[c].relStdErr * normal(rng);
            sum += logBase - logCand;
        }
        speedups.push_back(std::exp(sum / double(cand.size())));
    }
    std::sort(speedups.begin(), speedups.end());
    return {speedups[size_t(0.025 * draws)], speedups[size_t(0.975 * draws)]};
}

QString factValue(const evidence::MeasurementEvidence &m, const QString &key)
{
    for (const evidence::Fact &f : evidence::measurementFacts(m)) {
        if (f.key == key)
            return f.value;
    }
    return u"<no fact %1>"_s.arg(key);
}

QStringList rulesOf(const evidence::MeasurementEvidence &m)
{
    QStringList rules;
    for (const evidence::RuleHit &h : m.verdict.hits)
        rules << h.rule;
    return rules;
}

} // namespace

class TestEvidence : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    EvidenceStore m_s;

    const evidence::MeasurementEvidence *find(const evidence::CandidateEvidence &e, RowId measurementId)
    {
        for (const evidence::HardwareEvidence &hw : e.hardware) {
            for (const evidence::MeasurementEvidence &m : hw.measurements) {
                if (m.measurementId == measurementId)
                    return &m;
            }
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto store = Store::open(m_dir.filePath(u"evidence.gpuf"_s), Store::Mode::Create);
        QVERIFY2(store, qPrintable(store.error()));
        m_store = std::move(*store);
        m_s = buildEvidenceStore(*m_store);
    }

    void intervalByHand()
    {
        // One case, 200 ns against 100 ns, 1 % RSE each: ln S = ln 2, SE = √(2·10⁻⁴) = 0.0141421.
        const std::vector<CaseSpread> cand {{0, 100.0, 0.01}};
        const std::vector<CaseSpread> base {{0, 200.0, 0.01}};
        const auto i = speedupInterval(cand, base);
        QVERIFY(i);
        QCOMPARE(i->cases, 1);
        QCOMPARE(i->speedup, 2.0);
        QVERIFY(std::abs(i->logStdErr - 0.0141421356) < 1e-9);
        QVERIFY(std::abs(i->low - 1.945324) < 1e-5);
        QVERIFY(std::abs(i->high - 2.056212) < 1e-5);
        QCOMPARE(i->straddledEdge, std::optional<double>(2.0)); // 2× is itself the edge of bins 5 and 6
        const auto off = speedupInterval(cand, std::vector<CaseSpread> {{0, 180.0, 0.01}});
        QVERIFY(off && !off->straddles()); // 1.8× ± 2.8 % stays inside bin 5
    }

    void intervalMatchesMonteCarlo()
    {
        const std::vector<CaseSpread> cand {{0, 1250.0, 0.005}, {1, 5000.0, 0.03}, {2, 700.0, 0.012}};
        const std::vector<CaseSpread> base {{0, 2000.0, 0.004}, {1, 8000.0, 0.003}, {2, 900.0, 0.02}};
        const auto i = speedupInterval(cand, base);
        QVERIFY(i);
        const auto [low, high] = monteCarloInterval(cand, base);
        QVERIFY2(std::abs(i->low / low - 1.0) < 0.002, qPrintable(u"%1 vs %2"_s.arg(i->low).arg(low)));
        QVERIFY2(std::abs(i->high / high - 1.0) < 0.002, qPrintable(u"%1 vs %2"_s.arg(i->high).arg(high)));
    }

    void intervalNeedsSpreads()
    {
        const std::vector<CaseSpread> cand {{0, 100.0, -1.0}};
        const std::vector<CaseSpread> base {{0, 200.0, 0.01}};
        QVERIFY(!speedupInterval(cand, base));
        QVERIFY(!speedupInterval(cand, std::vector<CaseSpread> {{1, 200.0, 0.01}})); // no shared case
    }

    void straddledEdge_data()
    {
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<double>("speedup");
        QTest::addColumn<double>("edge"); // 0: none
        QTest::newRow("around 1") << 0.95 << 1.05 << 1.0 << 1.0;
        QTest::newRow("inside bin 4") << 1.05 << 1.3 << 1.2 << 0.0;
        QTest::newRow("two edges, nearest") << 0.69 << 1.02 << 0.9 << 1.0;
        QTest::newRow("around √2") << 1.39 << 1.45 << 1.42 << std::sqrt(2.0);
        QTest::newRow("edge at the bound is not inside") << 1.0 << 1.3 << 1.1 << 0.0;
    }
    void straddledEdge()
    {
        QFETCH(double, low);
        QFETCH(double, high);
        QFETCH(double, speedup);
        QFETCH(double, edge);
        const auto got = straddledBinEdge(low, high, speedup);
        QCOMPARE(got.has_value(), edge > 0);
        if (got)
            QVERIFY(std::abs(*got - edge) < 1e-12);
    }

    void figuresEqualStored()
    {
        auto e = evidence::readCandidateEvidence(*m_store, m_s.k);
        QVERIFY2(e, qPrintable(e.error()));
        QCOMPARE(e->candidateId, m_s.k);
        QCOMPARE(e->baselineId, m_s.reference);
        QCOMPARE(e->problemName, u"copy"_s);
        QCOMPARE(e->hardware.size(), 1);
        const evidence::HardwareEvidence &hw = e->hardware.first();
        QCOMPARE(hw.hardwareName, u"Test GPU"_s);
        // The speedup is the candidate table's rule: the geometric mean of 2000/1250 and 8000/5000.
        const std::vector<CaseTiming> cand {
            {0, MeasurementStatus::Ok, 1250.0, false}, {1, MeasurementStatus::Ok, 5000.0, false}};
        const std::vector<CaseTiming> base {
            {0, MeasurementStatus::Ok, 2000.0, false}, {1, MeasurementStatus::Ok, 8000.0, false}};
        QVERIFY(hw.speedup);
        QCOMPARE(*hw.speedup, measuredSpeedup(cand, base).speedup);
        QCOMPARE(hw.cases, 2);
        QVERIFY(hw.interval);
        // Var(ln S) = (0.005² + 0.004² + 0.03² + 0.003²) / 4 by hand.
        QVERIFY(std::abs(hw.interval->logStdErr - std::sqrt(237.5e-6)) < 1e-12);
        QVERIFY(!hw.interval->straddles());
        QCOMPARE(hw.measurements.size(), 4);

        auto stored = MeasurementRepo(*m_store).list();
        QVERIFY(stored);
        for (const Measurement &m : std::as_const(*stored)) {
            const evidence::MeasurementEvidence *ev = find(*e, m.id);
            if (m.kernelId != m_s.k && m.kernelId != m_s.reference) {
                QVERIFY(!ev);
                continue;
            }
            QVERIFY(ev);
            QCOMPARE(ev->role, m.kernelId == m_s.k ? u"candidate"_s : u"baseline"_s);
            QCOMPARE(ev->caseName, m.caseName);
            QCOMPARE(*ev->medianNs, m.runtime->medianNs);
            QCOMPARE(*ev->relStdErr, m.runtime->relStdErr);
            QCOMPARE(*ev->samples, m.runtime->samples);
            QCOMPARE(ev->timingMethod, m.timingMethod);
            QCOMPARE(ev->binaryHash, u"c0ffee"_s);
            // Roofline: bytes ÷ 256 GB/s, and floor ÷ time as the fraction of peak bandwidth.
            const double floorNs = m.counters.value(u"bytes_moved"_s).toDouble() / 256.0;
            QCOMPARE(*ev->roofline.floorNs, floorNs);
            QVERIFY(std::abs(*ev->roofline.fractionOfPeak - floorNs / m.runtime->medianNs) < 1e-12);
        }
        const evidence::MeasurementEvidence *small = find(*e, m_s.kSmall);
        QCOMPARE(factValue(*small, u"measured_by"_s), u"this machine's worker (gpuf-measure 0.9)"_s);
        QCOMPARE(factValue(*small, u"clocks_before"_s), u"SM 1980 MHz, memory 2619 MHz"_s);
        QCOMPARE(factValue(*small, u"clocks_after"_s), u"SM 1500 MHz, memory 2619 MHz"_s);
        QCOMPARE(factValue(*small, u"median"_s), u"1.25 µs"_s);
        QCOMPARE(factValue(*small, u"rse"_s), u"0.500 %"_s);
        QCOMPARE(factValue(*small, u"samples"_s), u"120"_s);
        QCOMPARE(factValue(*small, u"l2_flush"_s), u"yes, before every sample"_s);
        QCOMPARE(factValue(*small, u"stop_rule"_s),
            u"stopped when the RSE reached the target 0.5 % (10–2000 samples, 2000 ms budget, 3 warm-up runs)"_s);
        QCOMPARE(factValue(*small, u"correctness"_s), u"2 run(s), 1048576 elements, 0 mismatches"_s);
        QCOMPARE(factValue(*small, u"worst_error"_s),
            u"absolute 2e-06, relative 1e-05 (tolerance: rtol 0.001, atol 1e-05)"_s);
        QCOMPARE(factValue(*small, u"roofline_floor"_s), u"1 µs"_s);
        QCOMPARE(factValue(*small, u"fraction_of_peak"_s), u"80.0 %"_s);
    }

    void verdictRulesNameThemselves()
    {
        auto e = evidence::readCandidateEvidence(*m_store, m_s.k);
        QVERIFY(e);
        const auto *small = find(*e, m_s.kSmall);
        QCOMPARE(small->verdict.state, evidence::Verdict::State::Suspicious);
        QCOMPARE(rulesOf(*small), QStringList {u"unstable-clocks"_s});
        QCOMPARE(factValue(*small, u"verdict"_s), u"suspicious: unstable-clocks"_s);
        const auto *large = find(*e, m_s.kLarge);
        QCOMPARE(rulesOf(*large), QStringList {u"rse-over-bound"_s});
        QVERIFY(large->verdict.hits.first().detail.contains(u"3.00 %"_s));
        const auto *ref = find(*e, m_s.refSmall);
        QCOMPARE(ref->verdict.state, evidence::Verdict::State::Clean);

        // A time below the floor: the rule compares the median with bytes ÷ peak bandwidth.
        evidence::MeasurementEvidence fast = *ref;
        fast.medianNs = 900.0;
        QCOMPARE(evidence::firedRules(fast, std::nullopt).first().rule, u"below-floor"_s);
    }

    void straddlingIntervalIsSuspicious()
    {
        auto e = evidence::readCandidateEvidence(*m_store, m_s.s);
        QVERIFY(e);
        const evidence::HardwareEvidence &hw = e->hardware.first();
        QVERIFY(hw.interval && hw.interval->straddles());
        QVERIFY(std::abs(*hw.interval->straddledEdge - std::sqrt(2.0)) < 1e-12);
        QVERIFY(evidence::speedupText(hw).contains(u"straddles the bin edge 1.414×"_s));
        const auto *s = find(*e, m_s.sSmall);
        QCOMPARE(rulesOf(*s), QStringList {u"interval-straddles-edge"_s});
        // The rule is the candidate's: the baseline's run in the same pair stays clean.
        QCOMPARE(find(*e, m_s.refSmall)->verdict.state, evidence::Verdict::State::Clean);
    }

    void missingFactsAreNotRecorded()
    {
        auto e = evidence::readCandidateEvidence(*m_store, m_s.q);
        QVERIFY(e);
        const evidence::HardwareEvidence &hw = e->hardware.first();
        QVERIFY(hw.speedup);
        QVERIFY(!hw.interval);
        QVERIFY(evidence::speedupText(hw).contains(u"95 % interval: not recorded"_s));
        const auto *q = find(*e, m_s.qSmall);
        QVERIFY(q);
        QCOMPARE(factValue(*q, u"measured_by"_s), u"imported"_s);
        for (const QString &key : {u"clocks_before"_s, u"clocks_after"_s, u"timing_method"_s, u"l2_flush"_s,
                 u"samples"_s, u"stop_rule"_s, u"rse"_s, u"correctness"_s, u"worst_error"_s, u"binary_hash"_s})
            QCOMPARE(factValue(*q, key), u"not recorded"_s);
        const QJsonObject json = evidence::toJson(*q);
        QVERIFY(json.value(u"rel_std_err"_s).isNull());
        QVERIFY(json.value(u"clocks_before"_s).isNull());
        QCOMPARE(json.value(u"median_ns"_s).toDouble(), 1400.0);
    }

    void unknownCandidateIsAnError()
    {
        auto e = evidence::readCandidateEvidence(*m_store, 9999);
        QVERIFY(!e);
        QCOMPARE(e.error(), u"the store has no kernel 9999"_s);
        auto gpu = evidence::readCandidateEvidence(*m_store, m_s.k, u"Other GPU"_s);
        QVERIFY(!gpu);
        QVERIFY(gpu.error().contains(u"was not measured on 'Other GPU'"_s));
    }

    void quarantineKeepsEvidenceAndNote()
    {
        VerdictRepo verdicts(*m_store);
        QCOMPARE(verdicts.quarantine(m_s.kSmall, u"  "_s).error(), u"a quarantine needs a note saying why"_s);
        QCOMPARE(verdicts.quarantine(424242, u"x"_s).error(), u"the store has no measurement 424242"_s);
        QVERIFY(verdicts.quarantine(m_s.kSmall, u"clock throttled by a neighbour job"_s));
        auto e = evidence::readCandidateEvidence(*m_store, m_s.k);
        QVERIFY(e);
        const auto *small = find(*e, m_s.kSmall);
        QCOMPARE(small->verdict.state, evidence::Verdict::State::Quarantined);
        QCOMPARE(small->verdict.note, u"clock throttled by a neighbour job"_s);
        QCOMPARE(rulesOf(*small), QStringList {u"unstable-clocks"_s}); // the rules that fired are kept
        QCOMPARE(*small->medianNs, 1250.0); // and so is the evidence
        auto released = verdicts.release(m_s.kSmall);
        QVERIFY(released && *released);
        auto again = verdicts.release(m_s.kSmall);
        QVERIFY(again && !*again);
        auto after = evidence::readCandidateEvidence(*m_store, m_s.k);
        QCOMPARE(find(*after, m_s.kSmall)->verdict.state, evidence::Verdict::State::Suspicious);
    }

    void verdictsGoThroughExportAndImport()
    {
        QVERIFY(VerdictRepo(*m_store).quarantine(m_s.kLarge, u"noisy neighbour"_s));
        const QString bundle = m_dir.filePath(u"verdicts.jsonl"_s);
        QVERIFY(interop::exportBundle(*m_store, bundle));
        QTemporaryDir dir;
        auto opened = Store::open(dir.filePath(u"copy.gpuf"_s), Store::Mode::Create);
        QVERIFY(opened);
        Store &copy = **opened;
        auto first = interop::importFiles(copy, {bundle});
        QVERIFY2(first, qPrintable(first.error()));
        QCOMPARE(first->total(u"verdict"_s).added, 1);
        const auto quarantinedNotes = [](Store &store) {
            QStringList notes;
            auto all = VerdictRepo(store).all();
            for (const StoredVerdict &v : std::as_const(*all))
                notes << v.verdict + u": "_s + v.note;
            return notes;
        };
        QCOMPARE(quarantinedNotes(copy), QStringList {u"quarantined: noisy neighbour"_s});
        // Imported again: nothing twice, the verdict already there.
        auto second = interop::importFiles(copy, {bundle});
        QVERIFY2(second, qPrintable(second.error()));
        QCOMPARE(second->total(u"verdict"_s).added, 0);
        QCOMPARE(second->total(u"verdict"_s).deduplicated, 1);
        QCOMPARE(second->total(u"measurement"_s).added, 0);
        QCOMPARE(quarantinedNotes(copy), QStringList {u"quarantined: noisy neighbour"_s});
        // The copy exports the same bytes: the verdict went through whole.
        const QString again = dir.filePath(u"again.jsonl"_s);
        QVERIFY(interop::exportBundle(copy, again));
        QFile a(bundle), b(again);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), a.readAll());
        QVERIFY(VerdictRepo(*m_store).release(m_s.kLarge));
    }

    void quarantinedRunLeavesSearchBest()
    {
        Search search;
        search.name = u"run-evidence"_s;
        search.mode = u"standard"_s;
        search.problemId = m_s.problem;
        SearchRepo repo(*m_store);
        auto id = repo.ensure(search);
        QVERIFY(id);
        const auto evaluation = [&](qint64 sequence, double speedup, RowId measurement) {
            SearchEvent e;
            e.searchId = *id;
            e.sequence = sequence;
            e.kind = u"evaluation_completed"_s;
            e.payload = {{u"feedback"_s, QJsonObject {{u"kind"_s, u"success"_s}, {u"aggregated_speedup"_s, speedup}}},
                {u"measurement_ids"_s, QJsonArray {measurement}}};
            e.time = QDateTime::currentDateTimeUtc();
            return repo.append(e).ok();
        };
        QVERIFY(evaluation(0, 1.6, m_s.kSmall));
        QVERIFY(evaluation(1, 1.42, m_s.sSmall));
        const auto best = [this, id]() -> std::pair<double, qint64> {
            auto summaries = search::readSearchSummaries(*m_store, {});
            if (!summaries)
                return {-1.0, -1};
            for (const SearchSummary &s : std::as_const(*summaries)) {
                if (s.search.id == *id)
                    return {s.bestSpeedup.value_or(0.0), s.quarantinedEvaluations};
            }
            return {-2.0, -1};
        };
        QCOMPARE(best(), std::make_pair(1.6, qint64(0)));
        QVERIFY(VerdictRepo(*m_store).quarantine(m_s.kSmall, u"throttled"_s));
        QCOMPARE(best(), std::make_pair(1.42, qint64(1)));
        QVERIFY(VerdictRepo(*m_store).release(m_s.kSmall));
        QCOMPARE(best(), std::make_pair(1.6, qint64(0)));
    }

    void quarantinedPairLeavesMetrics()
    {
        QTemporaryDir dir;
        auto opened = Store::open(dir.filePath(u"metrics.gpuf"_s), Store::Mode::Create);
        QVERIFY(opened);
        Store &store = **opened;
        const MetricsStore s = buildMetricsStore(store);
        auto before = loadScoredPairs(store);
        QVERIFY(before);
        const auto hasPair = [](const ScoredPairs &pairs, RowId candidate) {
            return std::any_of(pairs.pairs.cbegin(), pairs.pairs.cend(),
                [candidate](const ScoredPair &p) { return p.candidateId == candidate; });
        };
        QVERIFY(hasPair(*before, s.a));
        const metrics::StoreMetrics metricsBefore = metrics::computeStoreMetrics(*before);
        // C's speedup is 0.5 exactly, on the edge of bins 2 and 3: its interval straddles that edge. So do B's (4×)
        // and X's (2×), and C's parse failure (a scored row too): 4 of alpha's rows.
        const ScoredPair *c = nullptr;
        for (const ScoredPair &p : before->pairs)
            c = p.candidateId == s.c ? &p : c;
        QVERIFY(c && c->straddledEdge);
        QCOMPARE(*c->straddledEdge, 0.5);
        QCOMPARE(before->forecaster(s.alpha)->straddling, 4);

        // Quarantine A's newest run of case "small" (the one its speedup rests on).
        auto runs = MeasurementRepo(store).forKernel(s.a, s.h1);
        QVERIFY(runs);
        RowId newestSmall = 0;
        for (const Measurement &m : std::as_const(*runs))
            newestSmall = m.caseName == u"small"_s ? m.id : newestSmall;
        QVERIFY(VerdictRepo(store).quarantine(newestSmall, u"wrong stream"_s));

        auto after = loadScoredPairs(store);
        QVERIFY(after);
        QVERIFY(!hasPair(*after, s.a));
        QCOMPARE(after->forecaster(s.alpha)->quarantined, 1);
        QCOMPARE(after->forecaster(s.beta)->quarantined, 1);
        QCOMPARE(after->forecaster(s.alpha)->scored, before->forecaster(s.alpha)->scored - 1);
        const metrics::StoreMetrics metricsAfter = metrics::computeStoreMetrics(*after);
        const auto alphaTotal = [&s](const metrics::StoreMetrics &m) {
            for (const metrics::ForecasterReport &r : m.reports) {
                if (r.forecaster.id == s.alpha)
                    return r.report.nTotal;
            }
            return qint64(-1);
        };
        QCOMPARE(alphaTotal(metricsAfter), alphaTotal(metricsBefore) - 1);
        const QJsonObject json = metrics::storeMetricsJson(metricsAfter.reports);
        const QJsonObject alpha = json.value(u"alpha"_s).toObject();
        QCOMPARE(alpha.value(u"n_quarantined"_s).toInteger(), 1);
        QCOMPARE(alpha.value(u"n_straddling"_s).toInteger(), 4);
        QCOMPARE(alpha.value(u"straddling_share"_s).toDouble(), 4.0 / double(after->forecaster(s.alpha)->scored));

        // Released, the pair is scored again: the store kept it all along.
        QVERIFY(VerdictRepo(store).release(newestSmall));
        auto released = loadScoredPairs(store);
        QVERIFY(released && hasPair(*released, s.a));
    }
};

QTEST_GUILESS_MAIN(TestEvidence)
#include "tst_evidence.moc"
