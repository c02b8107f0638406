// The search engine on a real replay world (the corpus and its recorded H100 runtimes in a real SQLite store): the
// selection rules of each mode, the fold of a stored log against the state of the run that wrote it, determinism,
// export → import → fold, steering and control events, the engine on its own thread, and bad input.
#include "core/interop/interop.h"
#include "core/search/certified_trust.h"
#include "core/search/compare.h"
#include "core/search/search_engine.h"
#include "core/search/search_export.h"
#include "core/search/search_host.h"
#include "core/search/search_setup.h"
#include "core/search/selection.h"
#include "core/store/problem_repo.h"
#include "core/store/search_repo.h"
#include "search_fixture.h"

#include <algorithm>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

using namespace gpuf;
using namespace gpuf::search;
using gpuf::testing::runToEnd;

namespace {

// A QStringList from literals (the project builds with QT_NO_CAST_FROM_ASCII).
[[maybe_unused]] QStringList list(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *item : items)
        out << QString::fromUtf8(item);
    return out;
}

SearchConfig replayConfig(Mode mode, int steps = 4, quint64 seed = 7)
{
    SearchConfig c;
    c.mode = mode;
    c.problem = QStringLiteral("sgemm");
    c.steps = steps;
    c.parentsPerStep = 2;
    c.measurementsPerParent = 2;
    c.proposalsPerParent = mode == Mode::Standard ? 2 : 4;
    c.keepPerParent = 2;
    c.tau = 0.5;
    c.seed = seed;
    c.gpu = GpuSource::replay();
    c.forecaster = mode == Mode::Standard ? QString() : QStringLiteral("costmodel");
    return c;
}

// A state with one active step of proposals for parent "p": "expectedBin:confidence" or "fail" per proposal.
SearchState stateWith(Mode mode, int budget, double tau, const QStringList &proposals)
{
    SearchState s;
    s.initialized = true;
    s.config.mode = mode;
    s.config.parentsPerStep = 1;
    s.config.measurementsPerParent = budget;
    s.config.tau = tau;
    s.config.policy
        = Policy::Paper; // the worked example of the paper's rules; the probability policy has its own suite
    StepRecord step;
    step.step = 0;
    step.parents = {QStringLiteral("p")};
    for (int i = 0; i < proposals.size(); ++i) {
        Candidate c;
        c.nodeId = QStringLiteral("c%1").arg(i);
        c.parentId = QStringLiteral("p");
        c.step = 0;
        c.status = CandidateStatus::Proposed;
        c.contentHash = QStringLiteral("h%1").arg(i);
        const QString &spec = proposals.at(i);
        if (mode != Mode::Standard) {
            c.forecastDone = true;
            if (spec == QLatin1StringView("fail")) {
                c.forecastFailed = true;
            } else {
                c.expectedBin = spec.section(QLatin1Char(':'), 0, 0).toDouble();
                c.confidence = spec.section(QLatin1Char(':'), 1, 1).toDouble();
            }
        }
        s.byNode.insert(c.nodeId, i);
        s.candidates.push_back(c);
        step.candidates.append(i);
    }
    s.steps.push_back(step);
    s.activeStep = 0;
    return s;
}

} // namespace

class TestSearchEngine : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_world; // a pristine world store; tests copy it

    QString freshStore(const QString &name)
    {
        QString path = m_dir.filePath(name);
        QFile::remove(path);
        QFile::copy(m_world, path);
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_world = m_dir.filePath(QStringLiteral("world.gpuf"));
        const QString error = testing::makeWorldStore(m_world);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    // The worked example of docs/search.md: one parent, a GPU budget of 2, eight proposals.
    void selection_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QStringList>("proposals");
        QTest::addColumn<QStringList>("measured");
        QTest::addColumn<QStringList>("queued");
        const QStringList example
            = list({"5.1:0.62", "4.2:0.35", "6.0:0.71", "fail", "5.1:0.55", "3.0:0.90", "5.8:0.30", "4.9:0.45"});
        QTest::newRow("standard measures every proposal")
            << int(Mode::Standard) << list({"-", "-"}) << list({"c0", "c1"}) << QStringList {};
        QTest::newRow("surrogate: top 2 by expected bin")
            << int(Mode::Surrogate) << example << list({"c2", "c6"}) << QStringList {};
        QTest::newRow("selective: best trusted, then untrusted in request order")
            << int(Mode::Selective) << example << list({"c1", "c2"}) << list({"c3", "c6", "c7"});
        QTest::newRow("surrogate: ties by request order")
            << int(Mode::Surrogate) << list({"5:0.9", "5:0.9", "5:0.9"}) << list({"c0", "c1"}) << QStringList {};
        QTest::newRow("selective: all trusted behaves like surrogate")
            << int(Mode::Selective) << list({"4:0.9", "6:0.9", "5:0.9"}) << list({"c1", "c2"}) << QStringList {};
        QTest::newRow("selective: nothing trusted measures in request order, queues the rest")
            << int(Mode::Selective) << list({"4:0.1", "6:0.2", "fail"}) << list({"c0", "c1"}) << list({"c2"});
    }
    void selection()
    {
        QFETCH(int, mode);
        QFETCH(QStringList, proposals);
        QFETCH(QStringList, measured);
        QFETCH(QStringList, queued);
        const SearchState state = stateWith(Mode(mode), 2, 0.5, proposals);
        QStringList gotMeasured, gotQueued;
        for (const Decision &d : selectCandidates(state)) {
            if (d.measure)
                gotMeasured << state.candidates[size_t(d.position)].nodeId;
            else if (d.queue)
                gotQueued << state.candidates[size_t(d.position)].nodeId;
        }
        QCOMPARE(gotMeasured, measured);
        QCOMPARE(gotQueued, queued);
    }

    // A branch veto reaches every descendant (parents and proposals alike); an unveto undoes it; a plain veto stops
    // at its node.
    void branchVetoAndUnveto()
    {
        SearchState s;
        s.initialized = true;
        // seed ← b ← c, seed ← d; b, c and the seed in the archive.
        const QList<std::pair<QString, QString>> lineage {{QStringLiteral("seed"), QString()},
            {QStringLiteral("b"), QStringLiteral("seed")}, {QStringLiteral("c"), QStringLiteral("b")},
            {QStringLiteral("d"), QStringLiteral("seed")}};
        for (const auto &[node, parent] : lineage) {
            Candidate c;
            c.nodeId = node;
            c.parentId = parent;
            s.byNode.insert(node, int(s.candidates.size()));
            s.candidates.push_back(c);
        }
        s.archive.add({QStringLiteral("seed"), {}, 1.0, true});
        s.archive.add({QStringLiteral("b"), {QStringLiteral("seed")}, 1.5});
        s.archive.add({QStringLiteral("c"), {QStringLiteral("b"), QStringLiteral("seed")}, 2.0});
        s.archive.rebuildIndex();
        s.queue = {QStringLiteral("c"), QStringLiteral("d")};
        s.pinned = {QStringLiteral("c")};
        auto steer = [&s](const char *kind, const char *node, bool branch) {
            SearchEvent e;
            e.kind = QString::fromUtf8(kind);
            e.payload = {{QStringLiteral("node_id"), QString::fromUtf8(node)}};
            if (branch)
                e.payload.insert(QStringLiteral("branch"), true);
            return applyEvent(s, e);
        };
        QVERIFY(steer("node_vetoed", "b", true));
        QVERIFY(isVetoed(s, QStringLiteral("b")));
        QVERIFY(isVetoed(s, QStringLiteral("c")));
        QVERIFY(!isVetoed(s, QStringLiteral("d")));
        QVERIFY(!isVetoed(s, QStringLiteral("seed")));
        QCOMPARE(s.queue, QStringList {QStringLiteral("d")});
        QVERIFY(s.pinned.isEmpty());
        QCOMPARE(vetoedArchiveNodes(s), (QStringList {QStringLiteral("b"), QStringLiteral("c")}));
        QCOMPARE(selectParents(s.archive, 2, {}, vetoedArchiveNodes(s)), QStringList {QStringLiteral("seed")});

        QVERIFY(steer("node_unvetoed", "b", false));
        QVERIFY(!isVetoed(s, QStringLiteral("b")));
        QVERIFY(!isVetoed(s, QStringLiteral("c")));
        QVERIFY(vetoedArchiveNodes(s).isEmpty());
        QCOMPARE(selectParents(s.archive, 1, {}, vetoedArchiveNodes(s)), QStringList {QStringLiteral("c")});

        QVERIFY(steer("node_vetoed", "b", false));
        QVERIFY(isVetoed(s, QStringLiteral("b")));
        QVERIFY(!isVetoed(s, QStringLiteral("c")));
        QCOMPARE(s.events, qint64(3));
    }

    void foldEqualsRun_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("standard") << int(Mode::Standard);
        QTest::newRow("surrogate") << int(Mode::Surrogate);
        QTest::newRow("selective") << int(Mode::Selective);
    }
    void foldEqualsRun()
    {
        QFETCH(int, mode);
        const QString path = freshStore(QStringLiteral("fold-%1.gpuf").arg(mode));
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY2(store, qPrintable(store.error()));
        const SearchConfig config = replayConfig(Mode(mode));
        auto id = createSearch(**store, QStringLiteral("s"), config);
        QVERIFY2(id, qPrintable(id.error()));
        auto parts = buildParts(**store, config);
        QVERIFY2(parts, qPrintable(parts.error()));
        SearchRun run(std::make_unique<StoreSink>(**store, *id), std::move(*parts));
        QVERIFY(run.open());
        while (run.next() != NextAction::Done)
            QVERIFY2(run.pump(), "pump failed");
        const SearchState &live = run.state();
        QCOMPARE(live.completedSteps(), 4);
        QVERIFY(live.gpuEvaluations > 0);
        QVERIFY(live.gpuEvaluations <= 4 * config.gpuBudgetPerStep());
        QCOMPARE(live.replayedEvaluations, live.gpuEvaluations);
        if (Mode(mode) != Mode::Standard)
            QVERIFY(live.forecastsDone > 0);
        auto folded = foldStoredSearch(**store, QStringLiteral("s"));
        QVERIFY2(folded, qPrintable(folded.error()));
        QCOMPARE(canonicalArchive(*folded), canonicalArchive(live));
        QVERIFY(live.bestReward && *live.bestReward >= 1.0);
        QCOMPARE(folded->bestNode, live.bestNode);
        QCOMPARE(folded->events, live.events);
    }

    void deterministicReplay()
    {
        QStringList canon;
        for (int i = 0; i < 2; ++i) {
            const QString path = freshStore(QStringLiteral("det-%1.gpuf").arg(i));
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(store);
            QVERIFY(createSearch(**store, QStringLiteral("d"), replayConfig(Mode::Selective, 5, 11)));
            QVERIFY(runToEnd(**store, QStringLiteral("d")));
            auto state = foldStoredSearch(**store, QStringLiteral("d"));
            QVERIFY(state);
            canon << canonicalArchive(*state);
        }
        QCOMPARE(canon.at(0), canon.at(1));
    }

    // A family search under the probability policy, run twice from scratch: the same decisions with the same learner
    // versions and probabilities, in the same order; the first steps say why the prior alone forecasts, later ones
    // are forecast by a learned version. Under --policy paper no decision carries a learner version.
    void learnedReplaySameLog()
    {
        QList<QStringList> logs;
        for (int i = 0; i < 3; ++i) {
            const QString path = freshStore(QStringLiteral("learned-%1.gpuf").arg(i));
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(store);
            SearchConfig config = replayConfig(Mode::Selective, 6, 5);
            config.mutator = MutatorKind::Family;
            config.mutatorConfig = {{QStringLiteral("family"), QStringLiteral("sgemm_tiled")}};
            config.policy = i < 2 ? Policy::Probability : Policy::Paper;
            auto id = createSearch(**store, QStringLiteral("l"), config);
            QVERIFY2(id, qPrintable(id.error()));
            QVERIFY(runToEnd(**store, QStringLiteral("l")));
            auto events = SearchRepo(**store).events(*id);
            QVERIFY(events);
            QStringList log;
            for (const SearchEvent &e : std::as_const(*events)) {
                QJsonObject p = e.payload;
                for (const char *key : {"id", "node_id", "request_id", "parent_id", "forecast_id", "kernel_id"})
                    p.remove(QLatin1StringView(key));
                if (e.kind.startsWith(QLatin1StringView("candidate_"))
                    || e.kind == QLatin1StringView("forecasts_drained"))
                    log << e.kind + QLatin1Char(' ')
                            + QString::fromUtf8(QJsonDocument(p).toJson(QJsonDocument::Compact));
            }
            logs << log;
        }
        QCOMPARE(logs.at(0), logs.at(1));
        const QString first = logs.at(0).join(QLatin1Char('\n'));
        QVERIFY(first.contains(QLatin1StringView("\"prior_only\":\"1 measurement(s) so far")));
        QVERIFY(first.contains(QLatin1StringView("\"learner_version\":5")));
        QVERIFY(!logs.at(2).join(QLatin1Char('\n')).contains(QLatin1StringView("learner_version")));
    }

    // The certified setting (α): every selection logs the τ conformal risk control set and whether each decision
    // trusted its forecast, the same in two runs of the same seed; under both policies.
    void certifiedReplaySameLog_data()
    {
        QTest::addColumn<int>("policy");
        QTest::newRow("probability") << int(Policy::Probability);
        QTest::newRow("paper") << int(Policy::Paper);
    }
    void certifiedReplaySameLog()
    {
        QFETCH(int, policy);
        QList<QStringList> logs;
        for (int i = 0; i < 2; ++i) {
            const QString path = freshStore(QStringLiteral("certified-%1-%2.gpuf").arg(policy).arg(i));
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(store);
            SearchConfig config = replayConfig(Mode::Selective, 6, 5);
            config.mutator = MutatorKind::Family;
            config.mutatorConfig = {{QStringLiteral("family"), QStringLiteral("sgemm_tiled")}};
            config.policy = Policy(policy);
            config.alpha = 0.2;
            auto id = createSearch(**store, QStringLiteral("c"), config);
            QVERIFY2(id, qPrintable(id.error()));
            QVERIFY(runToEnd(**store, QStringLiteral("c")));
            auto events = SearchRepo(**store).events(*id);
            QVERIFY(events);
            QStringList log;
            int drained = 0, certified = 0, decisions = 0, withTrust = 0;
            for (const SearchEvent &e : std::as_const(*events)) {
                QJsonObject p = e.payload;
                for (const char *key : {"id", "node_id", "request_id", "parent_id", "forecast_id", "kernel_id"})
                    p.remove(QLatin1StringView(key));
                if (e.kind == QLatin1StringView("forecasts_drained")) {
                    ++drained;
                    certified
                        += p.value(QStringLiteral("certified")).toObject().value(QStringLiteral("alpha")).toDouble()
                        == 0.2;
                }
                if (e.kind.startsWith(QLatin1StringView("candidate_"))) {
                    ++decisions;
                    withTrust += p.value(QStringLiteral("trusted")).isBool();
                }
                if (e.kind.startsWith(QLatin1StringView("candidate_"))
                    || e.kind == QLatin1StringView("forecasts_drained") || e.kind == QLatin1StringView("drift_alarm"))
                    log << e.kind + QLatin1Char(' ')
                            + QString::fromUtf8(QJsonDocument(p).toJson(QJsonDocument::Compact));
            }
            QCOMPARE(drained, 6);
            QCOMPARE(certified, drained);
            QVERIFY(decisions > 0);
            QCOMPARE(withTrust, decisions);
            logs << log;
            // The folded state holds the latest certification, and status says it.
            auto state = foldEvents(*events);
            QVERIFY(state);
            QVERIFY(!state->certified.isEmpty());
            QVERIFY(trustStatusLines(*state).first().startsWith(QStringLiteral("certified τ")));
        }
        QCOMPARE(logs.at(0), logs.at(1));
        // The first selection has no measured pair but the seed's: nothing can be certified, so nothing is trusted.
        QVERIFY(logs.at(0).first().contains(QLatin1StringView("\"pairs\":0")));
    }

    void exportImportRoundTrip_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("standard (v2)") << int(Mode::Standard);
        QTest::newRow("selective (v3)") << int(Mode::Selective);
    }
    void exportImportRoundTrip()
    {
        QFETCH(int, mode);
        const QString path = freshStore(QStringLiteral("rt-%1.gpuf").arg(mode));
        const QString file = m_dir.filePath(QStringLiteral("rt-%1.jsonl").arg(mode));
        QString canon;
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(store);
            QVERIFY(createSearch(**store, QStringLiteral("rt"), replayConfig(Mode(mode))));
            QVERIFY(runToEnd(**store, QStringLiteral("rt")));
            canon = canonicalArchive(foldStoredSearch(**store, QStringLiteral("rt")).value());
            QVERIFY(exportEventLog(**store, QStringLiteral("rt"), file));
        }
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray first = f.readLine();
        QVERIFY(first.startsWith("{\"id\":\""));
        QVERIFY(first.contains("\"kind\":\"search_initialized\""));
        QVERIFY(first.contains(Mode(mode) == Mode::Standard ? "\"format_version\":2" : "\"format_version\":3"));
        f.close();
        const QString other = m_dir.filePath(QStringLiteral("rt-import-%1.gpuf").arg(mode));
        {
            auto store = Store::open(other);
            QVERIFY(store);
            auto report = interop::importFiles(**store, {file});
            QVERIFY2(report, qPrintable(report.error()));
            auto state = foldStoredSearch(**store, QStringLiteral("rt"));
            QVERIFY2(state, qPrintable(state.error()));
            QCOMPARE(canonicalArchive(*state), canon);
            auto search = SearchRepo(**store).findByName(QStringLiteral("rt"));
            QCOMPARE((*search)->mode, modeName(Mode(mode)));
            const QString again = m_dir.filePath(QStringLiteral("rt-again-%1.jsonl").arg(mode));
            QVERIFY(exportEventLog(**store, QStringLiteral("rt"), again));
            QFile a(file), b(again);
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QCOMPARE(b.readAll(), a.readAll());
        }
    }

    void steeringAndControl()
    {
        const QString path = freshStore(QStringLiteral("steer.gpuf"));
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY(store);
        const SearchConfig config = replayConfig(Mode::Surrogate, 3);
        auto id = createSearch(**store, QStringLiteral("st"), config);
        QVERIFY(id);
        auto parts = buildParts(**store, config);
        QVERIFY(parts);
        SearchRun run(std::make_unique<StoreSink>(**store, *id), std::move(*parts));
        QVERIFY(run.open());
        QVERIFY(run.pause());
        QVERIFY(run.pump());
        QCOMPARE(run.next(), NextAction::Paused);
        QCOMPARE(run.state().completedSteps(), 0);
        QVERIFY(run.resume());
        QVERIFY(run.pump(3)); // step 0 started, forecasts asked, selection made
        // Find a deferred proposal and force its measurement; veto another.
        QString deferred;
        for (const Candidate &c : run.state().candidates) {
            // "ranked below the GPU budget" (paper policy), "expected gain below the GPU budget" (probability)
            if (c.status == CandidateStatus::Deferred && c.decision.contains(QLatin1StringView("below the GPU budget")))
                deferred = c.nodeId;
        }
        QVERIFY2(!deferred.isEmpty(), "a surrogate step defers proposals ranked below the budget");
        const QString seed = run.state().archive.nodes.front().id;
        QVERIFY(!run.unveto(seed)); // nothing to undo
        QVERIFY(run.veto(seed, true));
        QVERIFY(isVetoed(run.state(), deferred)); // a proposal of the vetoed branch
        QVERIFY(run.unveto(seed));
        QVERIFY(!isVetoed(run.state(), seed));
        QVERIFY(!isVetoed(run.state(), deferred));
        QVERIFY(run.forceMeasure(deferred));
        QVERIFY(run.pin(seed));
        QVERIFY(!run.pin(QStringLiteral("no-such-node")));
        QVERIFY(run.inject(Proposal {run.state().candidates.front().code + QStringLiteral("\n// injected\n"),
                               QStringLiteral("cuda"), {}, QStringLiteral("manual"), QStringLiteral("mine"), {}},
            seed));
        QVERIFY(run.changeConfig({{QStringLiteral("tau"), 0.3}}));
        while (run.next() != NextAction::Done)
            QVERIFY(run.pump());
        const Candidate *forced = run.state().candidate(deferred);
        QVERIFY(forced->status == CandidateStatus::Evaluated);
        QCOMPARE(forced->decision, QStringLiteral("measurement forced by the user"));
        QCOMPARE(run.state().config.tau, 0.3);
        bool injectedMeasured = false;
        for (const Candidate &c : run.state().candidates)
            injectedMeasured = injectedMeasured || (c.injected && c.status != CandidateStatus::Proposed);
        QVERIFY(injectedMeasured);
        auto folded = foldStoredSearch(**store, QStringLiteral("st"));
        QVERIFY(folded);
        QCOMPARE(canonicalArchive(*folded), canonicalArchive(run.state()));
        QVERIFY(folded->pinned.contains(seed));
    }

    // A recorded pool from a stored search's log: its proposals in its order, replayed with its outcomes.
    void recordedLogPool()
    {
        const QString path = freshStore(QStringLiteral("recorded.gpuf"));
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY(createSearch(**store, QStringLiteral("original"), replayConfig(Mode::Standard, 4)));
        QVERIFY(runToEnd(**store, QStringLiteral("original")));
        SearchConfig again = replayConfig(Mode::Standard, 4);
        again.mutatorConfig = {{QStringLiteral("source"), QStringLiteral("search")},
            {QStringLiteral("search"), QStringLiteral("original")}};
        QVERIFY(createSearch(**store, QStringLiteral("again"), again));
        QVERIFY(runToEnd(**store, QStringLiteral("again")));
        QCOMPARE(canonicalArchive(foldStoredSearch(**store, QStringLiteral("again")).value()),
            canonicalArchive(foldStoredSearch(**store, QStringLiteral("original")).value()));

        // The paper's log format: proposals and outcomes linked by order within a step.
        QVERIFY(interop::importFiles(**store, {QStringLiteral(GPUF_TEST_DATA_DIR "/interop/events_standard.jsonl")}));
        SearchConfig paper = replayConfig(Mode::Standard, 2);
        paper.mutatorConfig = {{QStringLiteral("source"), QStringLiteral("search")},
            {QStringLiteral("search"), QStringLiteral("run-std-1")}};
        QVERIFY(createSearch(**store, QStringLiteral("paper"), paper));
        QVERIFY(runToEnd(**store, QStringLiteral("paper")));
        auto state = foldStoredSearch(**store, QStringLiteral("paper"));
        QVERIFY(state);
        QCOMPARE(state->gpuEvaluations, 1);
        QCOMPARE(*state->bestReward, 1.31);
        QVERIFY(state->candidate(state->bestNode)->feedback.replayed);

        SearchConfig missing = paper;
        missing.mutatorConfig.insert(QStringLiteral("search"), QStringLiteral("nope"));
        auto refused = createSearch(**store, QStringLiteral("missing"), missing);
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QLatin1StringView("no search named 'nope'")), qPrintable(refused.error()));
    }

    void engineOnItsThread()
    {
        const QString path = freshStore(QStringLiteral("engine.gpuf"));
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(createSearch(**store, QStringLiteral("e"), replayConfig(Mode::Selective, 6)));
        }
        QThread thread;
        auto *engine = new SearchEngine(storeRunFactory(path, QStringLiteral("e")));
        engine->moveToThread(&thread);
        connect(&thread, &QThread::finished, engine, &QObject::deleteLater);
        QSignalSpy snapshots(engine, &SearchEngine::snapshotReady);
        QSignalSpy steps(engine, &SearchEngine::stepCompleted);
        QSignalSpy finished(engine, &SearchEngine::finished);
        thread.start();
        // Paused before its first step: the queued pause is served between actions.
        QMetaObject::invokeMethod(engine, &SearchEngine::start, Qt::QueuedConnection);
        QMetaObject::invokeMethod(engine, &SearchEngine::pause, Qt::QueuedConnection);
        QTRY_COMPARE(finished.size(), 1);
        const SearchSnapshot paused = finished.at(0).at(0).value<SearchSnapshot>();
        QCOMPARE(runStatusName(paused.status), QStringLiteral("paused"));
        QVERIFY(paused.step < 6);
        QMetaObject::invokeMethod(engine, &SearchEngine::singleStep, Qt::QueuedConnection);
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(finished.at(1).at(0).value<SearchSnapshot>().step, paused.step + 1);
        QMetaObject::invokeMethod(engine, &SearchEngine::resume, Qt::QueuedConnection);
        QTRY_COMPARE(finished.size(), 3);
        const SearchSnapshot done = finished.at(2).at(0).value<SearchSnapshot>();
        QCOMPARE(runStatusName(done.status), QStringLiteral("finished"));
        QCOMPARE(done.step, 6);
        QCOMPARE(steps.size(), 6);
        QVERIFY(!snapshots.isEmpty());
        QVERIFY(done.bestSpeedup.has_value());
        thread.quit();
        QVERIFY(thread.wait(10000));
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        auto folded = foldStoredSearch(**store, QStringLiteral("e"));
        QVERIFY(folded);
        QCOMPARE(folded->gpuEvaluations, done.gpuEvaluations);
    }

    // The host that the explorer and `gpuf search` share: engines by name on their own threads, a pause appended by
    // another writer (appendControlEvent) folded in by the running engine, resume through the host, the finished
    // engine released, and the stored log folding to the figures the host last reported.
    void hostRunsEnginesByName()
    {
        const QString path = freshStore(QStringLiteral("host.gpuf"));
        RowId searchId = 0;
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            auto id = createSearch(**store, QStringLiteral("h"), replayConfig(Mode::Standard, 30));
            QVERIFY2(id, qPrintable(id.error()));
            searchId = *id;
        }
        SearchHost host;
        QSignalSpy halted(&host, &SearchHost::halted);
        QSignalSpy gone(&host, &SearchHost::engineGone);
        QSignalSpy notices(&host, &SearchHost::notice);
        host.pause(QStringLiteral("h")); // not running: said, nothing started
        QCOMPARE(notices.size(), 1);
        QVERIFY(!host.isRunning(QStringLiteral("h")));
        QVERIFY(!host.run(QStringLiteral("h"))); // no store yet
        {
            // Another process's pause: one event in the log, which the engine folds in as it starts.
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(appendControlEvent(
                **store, searchId, SearchEventKind::SearchPaused, {{QStringLiteral("by"), QStringLiteral("test")}}));
        }
        host.setStorePath(path);
        QVERIFY(host.run(QStringLiteral("h")));
        QVERIFY(host.isRunning(QStringLiteral("h")));
        QCOMPARE(host.runningSearches(), QStringList {QStringLiteral("h")});
        QTRY_VERIFY_WITH_TIMEOUT(!halted.isEmpty(), 30000);
        const SearchSnapshot paused = halted.at(0).at(0).value<SearchSnapshot>();
        QCOMPARE(runStatusName(paused.status), QStringLiteral("paused"));
        QCOMPARE(paused.step, 0);
        QVERIFY(host.isRunning(QStringLiteral("h"))); // a paused engine stays
        QCOMPARE(runStatusName(host.snapshot(QStringLiteral("h")).status), QStringLiteral("paused"));
        host.resume(QStringLiteral("h"));
        QTRY_VERIFY_WITH_TIMEOUT(halted.size() >= 2, 60000);
        const SearchSnapshot done = halted.last().at(0).value<SearchSnapshot>();
        QCOMPARE(runStatusName(done.status), QStringLiteral("finished"));
        QCOMPARE(done.step, 30);
        QCOMPARE(gone.size(), 1); // a finished search's engine goes
        QVERIFY(!host.isRunning(QStringLiteral("h")));
        host.waitForReleased();
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        auto folded = foldStoredSearch(**store, QStringLiteral("h"));
        QVERIFY2(folded, qPrintable(folded.error()));
        QCOMPARE(folded->gpuEvaluations, done.gpuEvaluations);
        QVERIFY(folded->finished);
        // The pause appended from outside is in the log once, with an id of its own, as the run's events have.
        auto events = SearchRepo(**store).events(searchId);
        QVERIFY2(events, qPrintable(events.error()));
        int pauses = 0;
        for (const SearchEvent &e : std::as_const(*events)) {
            if (e.kind == eventKindName(SearchEventKind::SearchPaused)) {
                ++pauses;
                QCOMPARE(e.payload.value(QStringLiteral("id")).toString().size(), 26);
                QVERIFY(e.time.isValid());
            }
        }
        QCOMPARE(pauses, 1);
    }

    // A pace holds the steps apart by a timer on the engine's thread (the caller's thread keeps running), changes while
    // the search runs, and never holds a pause back.
    void hostPacesSteps()
    {
        const QString path = freshStore(QStringLiteral("paced.gpuf"));
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            for (const char *name : {"p", "q", "r"})
                QVERIFY(createSearch(**store, QString::fromLatin1(name), replayConfig(Mode::Standard, 6)));
        }
        SearchHost host;
        host.setStorePath(path);
        QSignalSpy halted(&host, &SearchHost::halted);
        QList<qint64> stepTimes;
        QElapsedTimer clock;
        connect(&host, &SearchHost::stepCompleted, this, [&](const SearchSnapshot &s) {
            if (s.name == QLatin1StringView("p"))
                stepTimes << clock.elapsed();
        });
        int ticks = 0; // this thread's timer, which a blocking wait would starve
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(10);
        // 10 steps a second: a step begins at least 100 ms after the one before it ended.
        host.setPace(QStringLiteral("p"), 10.0);
        QCOMPARE(host.pace(QStringLiteral("p")), 10.0);
        clock.start();
        QVERIFY(host.run(QStringLiteral("p")));
        QTRY_VERIFY_WITH_TIMEOUT(halted.size() == 1, 30000);
        const qint64 took = clock.elapsed();
        QCOMPARE(runStatusName(halted.at(0).at(0).value<SearchSnapshot>().status), QStringLiteral("finished"));
        QCOMPARE(stepTimes.size(), 6);
        for (int i = 1; i < stepTimes.size(); ++i)
            QVERIFY2(stepTimes.at(i) - stepTimes.at(i - 1) >= 95,
                qPrintable(QString::number(stepTimes.at(i) - stepTimes.at(i - 1))));
        QVERIFY2(took >= 500, qPrintable(QString::number(took)));
        QVERIFY2(ticks >= took / 10 / 3, qPrintable(QStringLiteral("%1 ticks in %2 ms").arg(ticks).arg(took)));

        // One step every 10 s, then full speed while it waits: the rest runs at once.
        host.setPace(QStringLiteral("q"), 0.1);
        QVERIFY(host.run(QStringLiteral("q")));
        QSignalSpy steps(&host, &SearchHost::stepCompleted);
        QTRY_VERIFY_WITH_TIMEOUT(!steps.isEmpty(), 30000);
        clock.restart();
        host.setPace(QStringLiteral("q"), 0.0);
        QTRY_VERIFY_WITH_TIMEOUT(halted.size() == 2, 30000);
        QVERIFY2(clock.elapsed() < 8000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(halted.at(1).at(0).value<SearchSnapshot>().step, 6);

        // A pause while the next step waits 10 s for the pace is acted on at once, not after the wait.
        host.setPace(QStringLiteral("r"), 0.1);
        steps.clear();
        QVERIFY(host.run(QStringLiteral("r")));
        QTRY_VERIFY_WITH_TIMEOUT(!steps.isEmpty(), 30000);
        clock.restart();
        host.pause(QStringLiteral("r"));
        QTRY_VERIFY_WITH_TIMEOUT(halted.size() == 3, 30000);
        QVERIFY2(clock.elapsed() < 8000, qPrintable(QString::number(clock.elapsed())));
        const SearchSnapshot paused = halted.at(2).at(0).value<SearchSnapshot>();
        QCOMPARE(runStatusName(paused.status), QStringLiteral("paused"));
        QCOMPARE(paused.step, 1);
        host.releaseAll();
        host.waitForReleased();
    }

    void compareStrategiesInMemory()
    {
        const QString path = freshStore(QStringLiteral("compare.gpuf"));
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY(store);
        const StoreCounts before = (*store)->counts().value();
        CompareOptions options;
        options.base = replayConfig(Mode::Standard, 4);
        options.base.forecaster = QStringLiteral("costmodel");
        options.storePath = path;
        options.seeds = 2;
        options.jobs = 2;
        options.strategies = *strategiesFromNames(QStringLiteral("standard,surrogate,selective,random,greedy"));
        int progressCalls = 0;
        options.progress = [&](int done, int total, const QString &) {
            ++progressCalls;
            QVERIFY(done <= total);
        };
        auto report = compareStrategies(options);
        QVERIFY2(report, qPrintable(report.error()));
        // The recorded pool has no tunables: greedy cannot move in it and says so instead of running.
        QCOMPARE(report->strategies.size(), 4);
        QVERIFY(report->notes.join(QLatin1Char(' ')).contains(QLatin1StringView("greedy was not run")));
        QCOMPARE(progressCalls, 8);
        QCOMPARE(report->budget, 4 * options.base.gpuBudgetPerStep()); // the pool's search starts from the reference
        for (const StrategyResult &m : report->strategies) {
            QCOMPARE(m.curves.size(), 2);
            for (int e : m.evaluations)
                QVERIFY(e <= report->budget); // equal GPU budget
            for (const QList<double> &curve : m.curves) {
                QCOMPARE(curve.size(), report->budget + 1);
                QVERIFY(std::is_sorted(curve.begin(), curve.end())); // the best so far never falls
                QVERIFY(curve.last() <= report->optimum + 1e-9);
            }
        }
        QVERIFY(report->text().contains(QLatin1StringView("selective")));
        QVERIFY(report->text().contains(QLatin1StringView("random search's expectation")));
        const StoreCounts after = (*store)->counts().value();
        QCOMPARE(after.searches, before.searches); // in memory: no search written
        QCOMPARE(after.events, before.events);
    }

    // --gpu local through the real measurement queue and a stand-in worker: every proposal sent to the GPU is
    // measured once (the corpus's stored H100 runs are of another GPU and answer nothing here), the reference once.
    void localGpu()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("the stand-in gpuf-measure worker is a python3 script, and there is no python3 here");
        const QString path = freshStore(QStringLiteral("local.gpuf"));
        const QString log = m_dir.filePath(QStringLiteral("worker.log"));
        qputenv("GPUF_FAKE_WORKER_LOG", log.toUtf8());
        SetupOptions options;
        options.measureConfig.workerPath = QStringLiteral(GPUF_SEARCH_TEST_DIR "/fake_measure_worker.py");
        SearchConfig config = replayConfig(Mode::Standard, 3);
        config.gpu = GpuSource::local();
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        auto id = createSearch(**store, QStringLiteral("l"), config, options);
        QVERIFY2(id, qPrintable(id.error()));
        QCOMPARE(storedConfig(**store, QStringLiteral("l"))->hardware, QStringLiteral("Fake GPU 1"));
        {
            auto parts = buildParts(**store, *storedConfig(**store, QStringLiteral("l")), options);
            QVERIFY2(parts, qPrintable(parts.error()));
            SearchRun run(std::make_unique<StoreSink>(**store, *id), std::move(*parts));
            QVERIFY(run.open());
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    if (!run.pump())
                        return true;
                    return run.next() == NextAction::Done;
                }(),
                60000);
            QCOMPARE(run.state().replayedEvaluations, 0);
            QVERIFY(run.state().gpuEvaluations > 0);
        }
        auto state = foldStoredSearch(**store, QStringLiteral("l"));
        QVERIFY(state);
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> measured = f.readAll().split('\n');
        f.close();
        // One worker request per kernel sent to the GPU, plus the reference once (it had no local run).
        QCOMPARE(int(measured.size()) - 1, state->gpuEvaluations + 1);
        QVERIFY(state->bestReward.has_value());
        QVERIFY(!state->candidate(state->bestNode)->feedback.replayed);
        qunsetenv("GPUF_FAKE_WORKER_LOG");
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::newRow("problem without reference")
            << QStringLiteral("noref") << QStringLiteral("has no reference kernel");
        QTest::newRow("unknown problem") << QStringLiteral("noproblem") << QStringLiteral("no problem 'nope'");
        QTest::newRow("unknown forecaster")
            << QStringLiteral("forecaster") << QStringLiteral("unknown forecaster 'oracle'");
        QTest::newRow("budget 0") << QStringLiteral("budget") << QStringLiteral("GPU budget of 0");
        QTest::newRow("no steps") << QStringLiteral("steps") << QStringLiteral("--steps must be at least 1");
        QTest::newRow("unknown mutator") << QStringLiteral("mutator") << QStringLiteral("unknown mutator 'magic'");
        QTest::newRow("name taken") << QStringLiteral("taken") << QStringLiteral("already exists");
        QTest::newRow("unknown hardware") << QStringLiteral("hardware") << QStringLiteral("no hardware 'B300'");
        QTest::newRow("huge proposals") << QStringLiteral("proposals")
                                        << QStringLiteral("--proposals takes at most 16384, not 2000000000");
        QTest::newRow("huge measure alone")
            << QStringLiteral("measure") << QStringLiteral("--measure takes at most 4096, not 1000000000");
        QTest::newRow("huge steps") << QStringLiteral("hugesteps") << QStringLiteral("--steps takes at most 10000000");
        QTest::newRow("proposals a step")
            << QStringLiteral("perstep") << QStringLiteral("--parents × --proposals (1024 × 16384)");
    }
    void badInput()
    {
        QFETCH(QString, what);
        QFETCH(QString, message);
        const QString path = freshStore(QStringLiteral("bad-%1.gpuf").arg(what));
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        QVERIFY(store);
        SearchConfig config = replayConfig(Mode::Surrogate);
        if (what == QLatin1StringView("noref")) {
            Problem p;
            p.name = QStringLiteral("orphan");
            QVERIFY(ProblemRepo(**store).insert(p));
            config.problem = p.name;
        } else if (what == QLatin1StringView("noproblem")) {
            config.problem = QStringLiteral("nope");
        } else if (what == QLatin1StringView("forecaster")) {
            config.forecaster = QStringLiteral("oracle");
        } else if (what == QLatin1StringView("budget")) {
            config.measurementsPerParent = 0;
        } else if (what == QLatin1StringView("steps")) {
            config.steps = 0;
        } else if (what == QLatin1StringView("mutator")) {
            // No configuration holds a mutator of another name: one read from JSON is refused there.
            QJsonObject json = config.toJson();
            json.insert(QStringLiteral("mutator"), QStringLiteral("magic"));
            auto parsed = SearchConfig::fromJson(json);
            QVERIFY(!parsed);
            QVERIFY2(parsed.error().contains(message), qPrintable(parsed.error()));
            return;
        } else if (what == QLatin1StringView("taken")) {
            QVERIFY(createSearch(**store, QStringLiteral("b"), config));
        } else if (what == QLatin1StringView("hardware")) {
            config.hardware = QStringLiteral("B300");
        } else if (what == QLatin1StringView("proposals")) {
            config.proposalsPerParent = 2000000000;
        } else if (what == QLatin1StringView("measure")) {
            config.measurementsPerParent = 1000000000;
            config.proposalsPerParent = SearchConfig::kMaxProposals; // the CLI's default for it, clamped
        } else if (what == QLatin1StringView("hugesteps")) {
            config.steps = 1 << 30;
        } else if (what == QLatin1StringView("perstep")) {
            config.parentsPerStep = 1024;
            config.proposalsPerParent = 16384;
        }
        if (what == QLatin1StringView("measure")) // one bound broken: only it is named, no derived figure
            QVERIFY(!config.validate().error().contains(QLatin1StringView("proposals")));
        const StoreCounts before = (*store)->counts().value();
        auto id = createSearch(**store, QStringLiteral("b"), config);
        QVERIFY(!id);
        QVERIFY2(id.error().contains(message), qPrintable(id.error()));
        QVERIFY2(!id.error().contains(QLatin1StringView("SELECT")) && !id.error().contains(QLatin1StringView("INSERT")),
            qPrintable(id.error()));
        const StoreCounts after = (*store)->counts().value();
        QCOMPARE(after.searches, before.searches);
        QCOMPARE(after.events, before.events);
        QCOMPARE(after.kernels, before.kernels);
    }

    void corruptEvent_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("payload");
        QTest::addColumn<QString>("message");
        QTest::newRow("evaluation without feedback")
            << QStringLiteral("evaluation_completed") << R"({"request_id":"nope"})"
            << QStringLiteral("request 'nope' was never made");
        QTest::newRow("step out of order")
            << QStringLiteral("step_started") << R"({"step":9})" << QStringLiteral("step 9 started");
        QTest::newRow("mutation without parent")
            << QStringLiteral("mutation_requested") << R"({"step":0})" << QStringLiteral("'parent_id'");
    }
    void corruptEvent()
    {
        QFETCH(QString, kind);
        QFETCH(QString, payload);
        QFETCH(QString, message);
        const QString path = freshStore(QStringLiteral("corrupt.gpuf"));
        auto store = Store::open(path, Store::Mode::ExistingOnly);
        auto id = createSearch(**store, QStringLiteral("c"), replayConfig(Mode::Standard, 2));
        QVERIFY(id);
        SearchEvent e;
        e.searchId = *id;
        e.kind = kind;
        e.payload = QJsonDocument::fromJson(payload.toUtf8()).object();
        QVERIFY(SearchRepo(**store).append(e));
        const qint64 events = (*store)->counts().value().events;
        auto state = foldStoredSearch(**store, QStringLiteral("c"));
        QVERIFY(!state);
        QVERIFY2(state.error().contains(QLatin1StringView("is corrupt")) || state.error().contains(message),
            qPrintable(state.error()));
        QVERIFY2(state.error().contains(message), qPrintable(state.error()));
        QVERIFY2(state.error().contains(QLatin1StringView("event 1")), qPrintable(state.error()));
        // Resuming refuses as well, and writes nothing.
        QVERIFY(!runToEnd(**store, QStringLiteral("c")));
        QCOMPARE((*store)->counts().value().events, events);
    }
};

QTEST_GUILESS_MAIN(TestSearchEngine)
#include "tst_search_engine.moc"
