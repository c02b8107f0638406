// The cost a search's configuration implies (searchCost), against hand-counted budgets.
#include "core/search/search_cost.h"

#include <QTest>

using namespace gpuf::search;

class TestSearchCost : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cost_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("parents");
        QTest::addColumn<int>("proposals");
        QTest::addColumn<int>("measure");
        QTest::addColumn<int>("keep");
        QTest::addColumn<QString>("mutator");
        QTest::addColumn<bool>("llmForecaster");
        QTest::addColumn<int>("expansions");
        QTest::addColumn<int>("gpu");
        QTest::addColumn<int>("forecasts");
        QTest::addColumn<int>("llm");

        // Step 0: the seed (1 parent, 4 evaluations); step 1: 2 admitted, 2 parents; then 2 a step: 1+2+2 = 5.
        QTest::newRow("standard, 3 steps")
            << "standard" << 3 << 2 << 4 << 4 << 2 << "pool" << false << 5 << 20 << 0 << 0;
        // Standard ignores a proposals figure above the budget: it proposes exactly what it measures.
        QTest::newRow("standard ignores k")
            << "standard" << 3 << 2 << 16 << 4 << 2 << "pool" << false << 5 << 20 << 0 << 0;
        // Keep 1: step 1 has one admitted node, so one parent; step 2 has two. 1+1+2 = 4.
        QTest::newRow("keep 1 limits step 1")
            << "standard" << 3 << 2 << 2 << 2 << 1 << "pool" << false << 4 << 8 << 0 << 0;
        // Surrogate: 16 proposals per parent, 4 measured; 5 expansions → 80 forecasts + the first check.
        QTest::newRow("surrogate") << "surrogate" << 3 << 2 << 16 << 4 << 2 << "pool" << false << 5 << 20 << 81 << 0;
        // Selective with the LLM mutator and an LLM forecaster: 80 generations + 81 forecasts.
        QTest::newRow("selective, all LLM")
            << "selective" << 3 << 2 << 16 << 4 << 2 << "llm" << true << 5 << 20 << 81 << 161;
        // One step: the seed alone, whatever the parents.
        QTest::newRow("one step") << "standard" << 1 << 8 << 4 << 4 << 2 << "llm" << false << 1 << 4 << 0 << 4;
        QTest::newRow("no steps") << "standard" << 0 << 2 << 4 << 4 << 2 << "pool" << false << 0 << 0 << 0 << 0;
    }

    void cost()
    {
        QFETCH(QString, mode);
        QFETCH(int, steps);
        QFETCH(int, parents);
        QFETCH(int, proposals);
        QFETCH(int, measure);
        QFETCH(int, keep);
        QFETCH(QString, mutator);
        QFETCH(bool, llmForecaster);
        SearchConfig config;
        config.mode = *modeFromName(mode);
        config.steps = steps;
        config.parentsPerStep = parents;
        config.proposalsPerParent = proposals;
        config.measurementsPerParent = measure;
        config.keepPerParent = keep;
        config.mutator = *mutatorFromName(mutator);
        config.forecaster = QStringLiteral("costmodel");
        const SearchCost cost = searchCost(config, llmForecaster);
        QTEST(cost.parentExpansions, "expansions");
        QTEST(cost.gpuEvaluations, "gpu");
        QTEST(cost.forecasts, "forecasts");
        QTEST(cost.llmCalls, "llm");
    }
};

QTEST_GUILESS_MAIN(TestSearchCost)
#include "tst_search_cost.moc"
