// A family search over a recorded sweep, end to end and offline: the shipped H100 sweep of the transpose family
// imported into a real store, the family mutator proposing, the replay evaluator answering from the sweep's runtimes
// (core/search's SearchRun over an in-memory log). Every proposal is a valid configuration one or two steps from its
// parent, every evaluation is a replay, the search improves on the family's default, and the same seed gives the same
// search.
#include "core/mutators/family_mutator.h"
#include "core/mutators/shipped_families.h"
#include "core/mutators/sweep_file.h"
#include "core/search/replay_world.h"
#include "core/search/search_run.h"
#include "core/store/store.h"
#include "gpuf_config.h"

#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace gpuf;
using namespace gpuf::families;
using namespace gpuf::search;
using namespace Qt::StringLiterals;

namespace {

const QString kHardware = u"NVIDIA H100 80GB HBM3"_s;

struct Outcome
{
    SearchState state;
    QStringList proposals; // content hashes in request order
};

Result<Outcome> runFamilySearch(
    const std::shared_ptr<const ReplayWorld> &world, const KernelFamily &family, quint64 seed)
{
    SearchConfig config;
    config.problem = family.problem;
    config.problemId = world->problem.id;
    config.steps = 6;
    config.parentsPerStep = 2;
    config.proposalsPerParent = 4;
    config.measurementsPerParent = 4;
    config.seed = seed;
    config.mutator = search::MutatorKind::Family;
    config.mutatorConfig = QJsonObject {{u"family"_s, family.name}};
    config.gpu = search::GpuSource::replay();
    config.hardware = kHardware;
    RunParts parts;
    auto mutator = std::make_unique<FamilyMutator>(family);
    if (Status s = mutator->prepare({world->problem.id, world->problem.name, seed}); !s)
        return Error {s.error()};
    SeedSpec start;
    start.proposal = *mutator->seed();
    parts.mutator = std::move(mutator);
    parts.evaluator = std::make_unique<ReplayEvaluator>(world);
    parts.problem = world->problem;
    parts.reference = world->reference;
    auto sink = std::make_unique<MemorySink>();
    if (Status s = SearchRun::initialize(*sink, u"family-replay"_s, config, {start}); !s)
        return Error {s.error()};
    SearchRun run(std::move(sink), std::move(parts));
    if (Status s = run.open(); !s)
        return Error {s.error()};
    for (int guard = 0; guard < 100000 && run.next() != NextAction::Done; ++guard) {
        if (Status s = run.pump(); !s)
            return Error {s.error()};
    }
    Outcome out;
    out.state = run.state();
    for (const Candidate &c : out.state.candidates) {
        if (!c.seedNode)
            out.proposals.append(c.contentHash);
    }
    return out;
}

} // namespace

class TestFamilySearch : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;
    KernelFamily m_family;
    std::shared_ptr<const ReplayWorld> m_world;

private Q_SLOTS:
    void initTestCase()
    {
        auto store = Store::open(m_dir.filePath(u"world.gpuf"_s), Store::Mode::CreateIfMissing);
        QVERIFY2(store, qPrintable(store.error()));
        m_store = std::move(*store);
        auto family = findFamily(u"transpose"_s);
        QVERIFY(family);
        m_family = *family;
        auto sweep = readSweep(QStringLiteral(GPUF_SOURCE_DIR "/resources/sweeps/transpose-h100-2026-11-26.jsonl"));
        QVERIFY2(sweep, qPrintable(sweep.error()));
        QVERIFY(importSweep(*m_store, *sweep, m_family, shippedCorpusDir()));
        auto world = loadReplayWorld(*m_store, u"transpose"_s, kHardware);
        QVERIFY2(world, qPrintable(world.error()));
        QCOMPARE(world->kernels.size(), 216);
        m_world = std::make_shared<const ReplayWorld>(std::move(*world));
    }

    void searchRunsOfflineOnTheSweep()
    {
        auto outcome = runFamilySearch(m_world, m_family, 11);
        QVERIFY2(outcome, qPrintable(outcome.error()));
        const SearchState &state = outcome->state;
        QCOMPARE(state.steps.size(), 6);
        QVERIFY(state.gpuEvaluations > 6);
        auto valid = validConfigurations(m_family);
        QVERIFY(valid);
        std::optional<double> seedReward;
        for (const Candidate &c : state.candidates) {
            if (c.seedNode) {
                seedReward = c.reward;
                continue;
            }
            QVERIFY2(c.mutationError.isEmpty(), qPrintable(c.mutationError));
            // The world holds exactly the family's valid configurations: every proposal is one of them.
            QVERIFY(m_world->find(c.contentHash));
            // Nodes that joined the archive keep their parameters: the configuration behind the code.
            if (!c.parameters.isEmpty()) {
                auto configuration = configurationOfParameters(m_family, c.parameters);
                QVERIFY2(configuration, qPrintable(configuration.error()));
                QVERIFY(valid->contains(*configuration));
            }
            if (c.reward)
                QVERIFY(c.feedback.replayed);
        }
        QVERIFY(seedReward);
        QVERIFY(state.bestReward);
        QVERIFY2(*state.bestReward > *seedReward,
            qPrintable(u"best %1 vs default %2"_s.arg(*state.bestReward).arg(*seedReward)));
    }

    void sameSeedSameSearch()
    {
        auto a = runFamilySearch(m_world, m_family, 5);
        auto b = runFamilySearch(m_world, m_family, 5);
        auto c = runFamilySearch(m_world, m_family, 6);
        QVERIFY(a && b && c);
        QCOMPARE(a->proposals, b->proposals);
        QCOMPARE(a->state.bestReward, b->state.bestReward);
        QVERIFY(a->proposals != c->proposals);
        QCOMPARE(QSet<QString>(a->proposals.begin(), a->proposals.end()).size() > 10, true);
    }
};

QTEST_GUILESS_MAIN(TestFamilySearch)
#include "tst_family_search.moc"
