// The search protocol's codecs. Event kinds: every name on disk as it has always been written, both directions, and
// what a name this version does not know becomes: a refusal with its line when a file is imported, an event counted
// and folded as nothing when a store already holds it. And a configuration's GPU source and mutator names.
#include "tests/interop/interop_test_util.h"

#include "core/domain/search_event_kind.h"
#include "core/search/search_run.h"
#include "core/store/search_repo.h"

#include <QSet>
#include <QTest>

using namespace gpuf;
using namespace gpuf::testing;

Q_DECLARE_METATYPE(gpuf::SearchEventKind)

class TestSearchEventKind : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<SearchEventKind>("kind");
        const auto row
            = [](const char *name, SearchEventKind kind) { QTest::newRow(name) << QString::fromLatin1(name) << kind; };
        // The paper's (paper-facts §6).
        row("search_initialized", SearchEventKind::SearchInitialized);
        row("step_started", SearchEventKind::StepStarted);
        row("mutation_requested", SearchEventKind::MutationRequested);
        row("mutation_completed", SearchEventKind::MutationCompleted);
        row("mutation_failed", SearchEventKind::MutationFailed);
        row("evaluation_requested", SearchEventKind::EvaluationRequested);
        row("evaluation_completed", SearchEventKind::EvaluationCompleted);
        row("evaluation_failed", SearchEventKind::EvaluationFailed);
        row("step_completed", SearchEventKind::StepCompleted);
        row("forecast_requested", SearchEventKind::ForecastRequested);
        row("forecast_completed", SearchEventKind::ForecastCompleted);
        row("forecast_failed", SearchEventKind::ForecastFailed);
        row("candidate_selected", SearchEventKind::CandidateSelected);
        row("candidate_deferred", SearchEventKind::CandidateDeferred);
        row("mutations_drained", SearchEventKind::MutationsDrained);
        row("forecasts_drained", SearchEventKind::ForecastsDrained);
        row("evaluations_drained", SearchEventKind::EvaluationsDrained);
        // Ours (docs/search.md, "The event log").
        row("search_completed", SearchEventKind::SearchCompleted);
        row("search_paused", SearchEventKind::SearchPaused);
        row("search_resumed", SearchEventKind::SearchResumed);
        row("search_stopped", SearchEventKind::SearchStopped);
        row("config_changed", SearchEventKind::ConfigChanged);
        row("node_pinned", SearchEventKind::NodePinned);
        row("node_unpinned", SearchEventKind::NodeUnpinned);
        row("node_vetoed", SearchEventKind::NodeVetoed);
        row("node_unvetoed", SearchEventKind::NodeUnvetoed);
        row("measure_forced", SearchEventKind::MeasureForced);
        row("kernel_injected", SearchEventKind::KernelInjected);
        row("drift_alarm", SearchEventKind::DriftAlarm);
    }
    void names()
    {
        QFETCH(QString, name);
        QFETCH(SearchEventKind, kind);
        QCOMPARE(eventKindName(kind), name);
        QCOMPARE(eventKindFromName(name), std::optional(kind));
        SearchEvent event;
        event.kind = name;
        QCOMPARE(eventKindOf(event), std::optional(kind));
    }

    // The table above names every kind once: a kind added without a name, or with another kind's, shows here.
    void everyKindRoundTripsUnderItsOwnName()
    {
        QSet<QString> names;
        for (int i = 0; i < kSearchEventKindCount; ++i) {
            const auto kind = SearchEventKind(i);
            const QString name = eventKindName(kind);
            QVERIFY2(!name.isEmpty(), qPrintable(QString::number(i)));
            QVERIFY2(!names.contains(name), qPrintable(name));
            names.insert(name);
            QCOMPARE(eventKindFromName(name), std::optional(kind));
        }
        QCOMPARE(names.size(), kSearchEventKindCount);
        QCOMPARE(kSearchEventKindCount, 29);
    }

    void unknownNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("a note") << QStringLiteral("operator_note");
        QTest::newRow("empty") << QString();
        QTest::newRow("another case") << QStringLiteral("Step_Started");
        QTest::newRow("padded") << QStringLiteral(" step_started");
        QTest::newRow("the enumerator") << QStringLiteral("StepStarted");
    }
    void unknownNames()
    {
        QFETCH(QString, name);
        QCOMPARE(eventKindFromName(name), std::nullopt);
    }

    void forecastingKinds()
    {
        QSet<SearchEventKind> forecasting;
        for (int i = 0; i < kSearchEventKindCount; ++i) {
            if (isForecastingKind(SearchEventKind(i)))
                forecasting.insert(SearchEventKind(i));
        }
        // The surrogate search's additions (paper-facts §6) and the certified setting's drift alarm, nothing else.
        const QSet<SearchEventKind> expected {SearchEventKind::ForecastRequested, SearchEventKind::ForecastCompleted,
            SearchEventKind::ForecastFailed, SearchEventKind::CandidateSelected, SearchEventKind::CandidateDeferred,
            SearchEventKind::MutationsDrained, SearchEventKind::ForecastsDrained, SearchEventKind::EvaluationsDrained,
            SearchEventKind::DriftAlarm};
        QCOMPARE(forecasting, expected);
    }

    void importRefusesAnUnknownKind_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("error"); // after the file's path
        const QByteArray started = R"({"kind":"step_started","ts":"2026-03-02T08:00:01Z","step":0})";
        QTest::newRow("events.jsonl")
            << QByteArray(R"({"kind":"search_initialized","ts":"2026-03-02T08:00:00Z","run_id":"r"})") + '\n' + started
                + '\n' + R"({"kind":"operator_note","ts":"2026-03-02T08:00:02Z"})" + '\n' + started + '\n'
            << QStringLiteral(":3: unknown search event kind 'operator_note'");
        // The last line may be cut short (a crash while it was written); a whole one of an unknown kind may not.
        QTest::newRow("events.jsonl, last line")
            << started + '\n' + R"({"kind":"StepStarted","ts":"2026-03-02T08:00:02Z"})" + '\n'
            << QStringLiteral(":2: unknown search event kind 'StepStarted'");
        QTest::newRow("published search events")
            << QByteArray(R"({"event_index":0,"event_kind":"search_initialized","payload":{},"source_search":"s"})")
                + '\n' + R"({"event_index":1,"event_kind":"run_note","payload":{},"source_search":"s"})" + '\n'
            << QStringLiteral(":2: unknown search event kind 'run_note'");
        QTest::newRow("gpuf bundle") << QByteArray(R"({"type":"header","format":"gpuf-bundle","version":1})") + '\n'
                + R"({"type":"search","name":"adhoc","mode":"standard"})" + '\n'
                + R"({"type":"search_event","search":"adhoc","sequence":0,"kind":"operator_note"})"
                + '\n' << QStringLiteral(":3: field 'kind': unknown search event kind 'operator_note'");
    }
    void importRefusesAnUnknownKind()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, error);
        QTemporaryDir dir;
        auto store = openStore(dir, QStringLiteral("store.gpuf"));
        QVERIFY(store);
        const QString path = dir.filePath(QStringLiteral("events.jsonl"));
        QVERIFY(writeFile(path, content));
        auto report = interop::importFiles(*store, {path});
        QVERIFY(!report.ok());
        QCOMPARE(report.error(), path + error);
        QCOMPARE(store->counts().value().searches, 0); // nothing written
    }

    void gpuSources_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("known");
        QTest::addColumn<QString>("written"); // what name() gives back
        QTest::newRow("local") << QStringLiteral("local") << true << QStringLiteral("local");
        QTest::newRow("replay") << QStringLiteral("replay") << true << QStringLiteral("replay");
        QTest::newRow("cluster") << QStringLiteral("cluster:lab-h200") << true << QStringLiteral("cluster:lab-h200");
        QTest::newRow("cluster, padded") << QStringLiteral("cluster: lab ") << true << QStringLiteral("cluster:lab");
        QTest::newRow("cluster without profile") << QStringLiteral("cluster:") << false << QString();
        QTest::newRow("remote") << QStringLiteral("remote") << false << QString();
        QTest::newRow("empty") << QString() << false << QString();
    }
    void gpuSources()
    {
        QFETCH(QString, name);
        QFETCH(bool, known);
        QFETCH(QString, written);
        const auto source = search::GpuSource::fromName(name);
        QCOMPARE(source.has_value(), known);
        if (!source)
            return;
        QCOMPARE(source->name(), written);
        QCOMPARE(search::GpuSource::fromName(written), source);
        // The configuration's JSON holds the name, as before the type.
        search::SearchConfig config;
        config.gpu = *source;
        QCOMPARE(config.toJson().value(QStringLiteral("gpu")).toString(), written);
        QCOMPARE(search::SearchConfig::fromJson(config.toJson())->gpu, *source);
    }

    void mutators()
    {
        using search::MutatorKind;
        for (MutatorKind kind : {MutatorKind::Pool, MutatorKind::Injected, MutatorKind::Family, MutatorKind::Llm}) {
            search::SearchConfig config;
            config.mutator = kind;
            const QString name = config.toJson().value(QStringLiteral("mutator")).toString();
            QCOMPARE(search::mutatorFromName(name), std::optional(kind));
            QCOMPARE(search::SearchConfig::fromJson(config.toJson())->mutator, kind);
        }
        QCOMPARE(search::mutatorName(MutatorKind::Pool), QStringLiteral("pool"));
        QCOMPARE(search::mutatorName(MutatorKind::Injected), QStringLiteral("injected"));
        QCOMPARE(search::mutatorName(MutatorKind::Family), QStringLiteral("family"));
        QCOMPARE(search::mutatorName(MutatorKind::Llm), QStringLiteral("llm"));
        QCOMPARE(search::mutatorFromName(QStringLiteral("magic")), std::nullopt);
        QJsonObject json = search::SearchConfig {}.toJson();
        json.insert(QStringLiteral("gpu"), QStringLiteral("remote"));
        QCOMPARE(search::SearchConfig::fromJson(json).error(),
            QStringLiteral("--gpu must be local, replay or cluster:PROFILE, not 'remote'"));
    }

    // A store written by a later version may hold a kind this one does not know: its log still folds.
    void foldCountsAnUnknownKindAndGoesOn()
    {
        search::SeedSpec seed;
        seed.proposal.source = QStringLiteral("__global__ void k() {}");
        seed.reward = 1.0;
        QList<SearchEvent> events = search::SearchRun::initialEvents(
            QStringLiteral("s"), search::SearchConfig {}, {seed}, QDateTime::currentDateTimeUtc());
        SearchEvent note;
        note.sequence = events.size();
        note.kind = QStringLiteral("operator_note");
        events.append(note);
        SearchEvent paused;
        paused.sequence = events.size();
        paused.kind = eventKindName(SearchEventKind::SearchPaused);
        events.append(paused);
        auto state = search::foldEvents(events);
        QVERIFY2(state, qPrintable(state.error()));
        QCOMPARE(state->events, qint64(events.size()));
        QCOMPARE(state->unknownEvents, qint64(1));
        QVERIFY(state->paused); // the events after it are folded as usual

        // Before search_initialized, nothing is known of the search: any kind there is an error, as before.
        auto early = search::foldEvents({note});
        QVERIFY(!early);
        QCOMPARE(early.error(), QStringLiteral("event 1 (operator_note) comes before search_initialized"));
    }
};

QTEST_GUILESS_MAIN(TestSearchEventKind)
#include "tst_search_event_kind.moc"
