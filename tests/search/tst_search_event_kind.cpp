// The search event kinds' codec: every name on disk as it has always been written, both directions, and what a name
// this version does not know becomes.
#include "core/domain/search_event_kind.h"

#include <QSet>
#include <QTest>

using namespace gpuf;

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
        QCOMPARE(kSearchEventKindCount, 28);
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
        // The surrogate search's additions (paper-facts §6), and nothing else.
        const QSet<SearchEventKind> expected {SearchEventKind::ForecastRequested, SearchEventKind::ForecastCompleted,
            SearchEventKind::ForecastFailed, SearchEventKind::CandidateSelected, SearchEventKind::CandidateDeferred,
            SearchEventKind::MutationsDrained, SearchEventKind::ForecastsDrained, SearchEventKind::EvaluationsDrained};
        QCOMPARE(forecasting, expected);
    }
};

QTEST_GUILESS_MAIN(TestSearchEventKind)
#include "tst_search_event_kind.moc"
