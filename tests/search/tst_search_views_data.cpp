// The pure data under the live search views: the lineage's nodes and layout, each step's parents (PUCT scores) and
// proposals (forecast, decision, result), the progress curves and the calibration of the measured forecasts — on the
// fixed selective log of search_log_builder.h, whose figures are worked out by hand below.
#include "search_log_builder.h"

#include "core/metrics/report.h"
#include "core/search/lineage.h"
#include "core/search/search_calibration.h"
#include "core/search/search_history.h"
#include "core/search/search_progress.h"
#include "core/search/step_detail.h"

#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace gpuf::search;
using gpuf::testing::dist;
using gpuf::testing::fixedSelectiveLog;

namespace {

SearchState fold(const QList<SearchEvent> &events)
{
    auto state = foldEvents(events);
    if (!state)
        qFatal("the log does not fold: %s", qPrintable(state.error()));
    return *state;
}

// "id<parent@step" (parent empty for roots; step −1 for seeds) → a lineage of those nodes.
Lineage lineageOf(const QStringList &spec)
{
    Lineage lineage;
    for (const QString &s : spec) {
        const QString id = s.section(QLatin1Char('<'), 0, 0);
        const QString rest = s.section(QLatin1Char('<'), 1);
        LineageNode node;
        node.id = id;
        node.parentId = rest.section(QLatin1Char('@'), 0, 0);
        node.step = rest.section(QLatin1Char('@'), 1).toInt();
        lineage.maxStep = std::max(lineage.maxStep, node.step);
        lineage.index.insert(id, int(lineage.nodes.size()));
        lineage.nodes.append(node);
    }
    for (LineageNode &node : lineage.nodes)
        node.parent = lineage.index.value(node.parentId, -1);
    return lineage;
}

bool near(double a, double b, double eps = 1e-6) { return std::abs(a - b) <= eps; }

QStringList reasons(const StepDetail &d)
{
    QStringList out;
    for (const ProposalRow &r : d.proposals)
        out << r.nodeId + QLatin1Char(':') + measureReasonName(r.reason);
    return out;
}

} // namespace

class TestSearchViewsData : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void layout_data();
    void layout();
    void layoutOfFixedLog();
    void kindsAndBestPath();
    void measuredScope();
    void parentScores();
    void historyStopsAtACorruptLog();
    void forecastDistributionRefusesBadPayloads_data();
    void forecastDistributionRefusesBadPayloads();
    void stepDetail();
    void stepDetailOfUnknownStep();
    void measureReasons_data();
    void measureReasons();
    void progress();
    void calibrationByHand();
    void calibrationAgreesWithMetrics();
    void calibrationIsIncremental();
};

void TestSearchViewsData::layout_data()
{
    QTest::addColumn<QStringList>("spec");
    QTest::addColumn<QList<double>>("x");
    QTest::addColumn<QList<double>>("y");
    QTest::newRow("one seed") << QStringList {QStringLiteral("s<@-1")} << QList<double> {0} << QList<double> {0};
    QTest::newRow("three children centred on their parent")
        << QStringList {QStringLiteral("s<@-1"), QStringLiteral("a<s@0"), QStringLiteral("b<s@0"),
               QStringLiteral("c<s@0")}
        << QList<double> {0, 1, 1, 1} << QList<double> {0, -1, 0, 1};
    // a's pair centred on a (−1, 0), b's pushed below (1.5, 2.5), then the column shifted by the median displacement
    // (−0.75): the two groups sit symmetrically around their parents.
    QTest::newRow("two groups share a column")
        << QStringList {QStringLiteral("s<@-1"), QStringLiteral("a<s@0"), QStringLiteral("b<s@0"),
               QStringLiteral("a1<a@1"), QStringLiteral("a2<a@1"), QStringLiteral("b1<b@1"), QStringLiteral("b2<b@1")}
        << QList<double> {0, 1, 1, 2, 2, 2, 2} << QList<double> {0, -0.5, 0.5, -1.75, -0.75, 0.75, 1.75};
    QTest::newRow("groups follow their parents' order, not the request order") << QStringList {QStringLiteral("s<@-1"),
        QStringLiteral("a<s@0"), QStringLiteral("b<s@0"), QStringLiteral("b1<b@1"),
        QStringLiteral("a1<a@1")} << QList<double> {0, 1, 1, 2, 2} << QList<double> {0, -0.5, 0.5, 0.75, -0.75};
    // The root's group goes below the parented ones and does not pull the column.
    QTest::newRow("an injected root goes last")
        << QStringList {QStringLiteral("s<@-1"), QStringLiteral("r<@0"), QStringLiteral("a<s@0")}
        << QList<double> {0, 1, 1} << QList<double> {0, 1.5, 0};
    QTest::newRow("a grandchild two steps on stays level with its parent") << QStringList {QStringLiteral("s<@-1"),
        QStringLiteral("a<s@0"), QStringLiteral("b<s@0"), QStringLiteral("c<s@0"),
        QStringLiteral("c1<c@2")} << QList<double> {0, 1, 1, 1, 3} << QList<double> {0, -1, 0, 1, 1};
}

void TestSearchViewsData::layout()
{
    QFETCH(QStringList, spec);
    QFETCH(QList<double>, x);
    QFETCH(QList<double>, y);
    const Lineage lineage = lineageOf(spec);
    const LineageLayout layout = layoutLineage(lineage);
    QCOMPARE(layout.points.size(), spec.size());
    for (int i = 0; i < spec.size(); ++i) {
        QVERIFY2(near(layout.points[i].x, x[i]), qPrintable(spec[i] + QStringLiteral(" x")));
        QVERIFY2(near(layout.points[i].y, y[i]),
            qPrintable(QStringLiteral("%1: y %2, expected %3").arg(spec[i]).arg(layout.points[i].y).arg(y[i])));
    }
    // Every column is sorted by y with at least one unit between neighbours.
    for (const QList<int> &column : layout.columns) {
        for (qsizetype k = 1; k < column.size(); ++k)
            QVERIFY(layout.points[column[k]].y - layout.points[column[k - 1]].y >= 1.0 - 1e-9);
    }
}

void TestSearchViewsData::layoutOfFixedLog()
{
    const Lineage lineage = buildLineage(fold(fixedSelectiveLog()));
    const LineageLayout layout = layoutLineage(lineage);
    QCOMPARE(layout.columnCount(), 4); // seeds, steps 0, 1, 2
    auto column = [&](int c) {
        QStringList ids;
        for (int i : layout.columns[c])
            ids << lineage.nodes[i].id;
        return ids;
    };
    QCOMPARE(column(0), QStringList {QStringLiteral("seed")});
    QCOMPARE(column(1).join(QLatin1Char(',')), QStringLiteral("a,b,c,d"));
    QCOMPARE(column(2).join(QLatin1Char(',')), QStringLiteral("e,f,g"));
    QCOMPARE(column(3).join(QLatin1Char(',')), QStringLiteral("h,i,j,k"));
    // Children centred on their parent: e, f, g around a (at −1.5), h…k around e.
    const auto y = [&](const char *id) { return layout.points[lineage.index.value(QLatin1StringView(id))].y; };
    QVERIFY(near(y("a"), -1.5));
    QVERIFY(near(y("f"), y("a")));
    QVERIFY(near((y("h") + y("k")) / 2.0, y("e")));
}

void TestSearchViewsData::kindsAndBestPath()
{
    const Lineage lineage = buildLineage(fold(fixedSelectiveLog()));
    QCOMPARE(lineage.nodes.size(), 12);
    QStringList kinds;
    for (const LineageNode &n : lineage.nodes)
        kinds << n.id + QLatin1Char('=') + lineageKindName(n.kind);
    QCOMPARE(kinds.join(QLatin1Char(' ')),
        QStringLiteral("seed=seed a=measured b=measured c=measured d=failed e=measured f=failed g=measured h=measured "
                       "i=forecast-only j=deferred k=injected"));
    QCOMPARE(lineage.bestPath, (QStringList {QStringLiteral("seed"), QStringLiteral("a"), QStringLiteral("e")}));
    QVERIFY(lineage.find(QStringLiteral("e"))->best);
    QVERIFY(lineage.find(QStringLiteral("a"))->onBestPath);
    QVERIFY(!lineage.find(QStringLiteral("b"))->onBestPath);
    QVERIFY(lineage.find(QStringLiteral("h"))->pinned);
    QVERIFY(lineage.find(QStringLiteral("b"))->vetoed);
    QCOMPARE(lineage.find(QStringLiteral("a"))->bin, std::optional<int>(6));
    QVERIFY(!lineage.find(QStringLiteral("a"))->binFromForecast);
    // A forecast-only node takes its colour from the forecast.
    QCOMPARE(lineage.find(QStringLiteral("i"))->bin, std::optional<int>(4));
    QVERIFY(lineage.find(QStringLiteral("i"))->binFromForecast);
    QVERIFY(!lineage.find(QStringLiteral("d"))->bin);
    QVERIFY(lineage.find(QStringLiteral("e"))->inArchive);
    QVERIFY(!lineage.find(QStringLiteral("f"))->inArchive);
    QCOMPARE(lineage.find(QStringLiteral("seed"))->kernel, QStringLiteral("reference"));
    QCOMPARE(lineage.find(QStringLiteral("k"))->parent, lineage.index.value(QStringLiteral("e")));
}

void TestSearchViewsData::measuredScope()
{
    SearchState state = fold(fixedSelectiveLog());
    const Lineage all = buildLineage(state);
    QCOMPARE(scopedLineage(all, LineageScope::All).nodes.size(), 12);
    const Lineage measured = scopedLineage(all, LineageScope::Measured);
    QStringList ids;
    for (const LineageNode &n : measured.nodes)
        ids << n.id;
    // d and f failed, i was only forecast, j was a duplicate: gone. b is vetoed (and measured) and stays.
    QCOMPARE(ids.join(QLatin1Char(',')), QStringLiteral("seed,a,b,c,e,g,h,k"));
    QCOMPARE(
        measured.nodes[measured.index.value(QStringLiteral("h"))].parent, measured.index.value(QStringLiteral("e")));
    QCOMPARE(
        measured.nodes[measured.index.value(QStringLiteral("e"))].parent, measured.index.value(QStringLiteral("a")));
    QCOMPARE(measured.maxStep, 2);
    QCOMPARE(measured.bestPath, all.bestPath);
    // A forecast-only node that the user pinned stays, and so does its parent.
    state.pinned.append(QStringLiteral("i"));
    const Lineage pinned = scopedLineage(buildLineage(state), LineageScope::Measured);
    QVERIFY(pinned.find(QStringLiteral("i")));
    QCOMPARE(pinned.find(QStringLiteral("i"))->parent, pinned.index.value(QStringLiteral("e")));
    QCOMPARE(layoutLineage(measured).points.size(), 8);
}

void TestSearchViewsData::parentScores()
{
    SearchHistory history;
    history.append(fixedSelectiveLog());
    QVERIFY2(history.error().isEmpty(), qPrintable(history.error()));
    QCOMPARE(history.recordedSteps(), 3);
    // Step 0: the seed alone; scale falls back to 10⁻⁶ (one reward), P = 1, T = 0.
    const ParentScore seed = history.scores(0)->parents.value(0);
    QCOMPARE(seed.nodeId, QStringLiteral("seed"));
    QVERIFY(near(seed.q, 1.0));
    QVERIFY(near(seed.u, 1e-6, 1e-9));
    QCOMPARE(seed.visits, 0);
    // Step 1: archive {seed 1.0, a 2.5, b 1.2}, seed visited once (Q lifted to 2.5), T = 1; scale 2.5 − 1.2 = 1.3;
    // a ranks first: P = 3/6, U = 1.3·0.5·√2/(1+0).
    const ParentScore a = history.scores(1)->parents.value(0);
    QCOMPARE(a.nodeId, QStringLiteral("a"));
    QVERIFY(near(a.q, 2.5));
    QVERIFY(near(a.prior, 0.5));
    QVERIFY(near(a.u, 1.3 * 0.5 * std::sqrt(2.0)));
    QVERIFY(near(a.score, 2.5 + 1.3 * 0.5 * std::sqrt(2.0)));
    QCOMPARE(a.visits, 0);
    QCOMPARE(a.rewardRank, 0);
    QCOMPARE(a.scoreRank, 0);
    QCOMPARE(a.archiveSize, 3);
    QCOMPARE(a.expansions, 1);
    // Step 2: archive {seed, a, b, e 3.5}; T = 2; scale 3.5 − 1.2 = 2.3; e ranks first of 4: P = 4/10.
    const ParentScore e = history.scores(2)->parents.value(0);
    QVERIFY(near(e.u, 2.3 * 0.4 * std::sqrt(3.0)));
    QCOMPARE(e.expansions, 2);
    QVERIFY(!history.scores(3));
    // Forecasts keep their whole distribution.
    QVERIFY(history.forecast(QStringLiteral("a")));
    QVERIFY(near((*history.forecast(QStringLiteral("a")))[5], 0.7));
    QVERIFY(!history.forecast(QStringLiteral("g"))); // its forecast failed
}

void TestSearchViewsData::historyStopsAtACorruptLog()
{
    QList<SearchEvent> events = fixedSelectiveLog();
    // A second step 1 where step 2 was due: the fold refuses it; the steps before keep their scores.
    SearchEvent bad = events.at(1);
    bad.kind = QStringLiteral("step_started");
    bad.payload = {{QStringLiteral("step"), 7}, {QStringLiteral("parents"), QJsonArray {QStringLiteral("seed")}}};
    const qsizetype secondStep = std::find_if(events.cbegin() + 2, events.cend(), [](const SearchEvent &e) {
        return e.kind == QLatin1StringView("step_started");
    }) - events.cbegin();
    events.insert(secondStep, bad);
    SearchHistory history;
    history.append(events);
    QVERIFY(history.error().contains(QStringLiteral("step 7 started")));
    QCOMPARE(history.recordedSteps(), 1);
    QVERIFY(history.forecast(QStringLiteral("h"))); // forecasts are still read
}

void TestSearchViewsData::forecastDistributionRefusesBadPayloads_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QJsonValue>("probabilities");
    QTest::addColumn<bool>("usable");
    const QJsonArray good {0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0};
    QTest::newRow("good") << QStringLiteral("forecast_completed") << QJsonValue(good) << true;
    QTest::newRow("other kind") << QStringLiteral("forecast_failed") << QJsonValue(good) << false;
    QTest::newRow("missing") << QStringLiteral("forecast_completed") << QJsonValue() << false;
    QTest::newRow("seven bins") << QStringLiteral("forecast_completed")
                                << QJsonValue(QJsonArray {0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0}) << false;
    QTest::newRow("a string") << QStringLiteral("forecast_completed")
                              << QJsonValue(QJsonArray {0.0, 0.0, 0.0, QStringLiteral("x"), 0.5, 0.0, 0.0, 0.0})
                              << false;
    QTest::newRow("negative") << QStringLiteral("forecast_completed")
                              << QJsonValue(QJsonArray {0.0, 0.0, 0.0, -0.5, 1.5, 0.0, 0.0, 0.0}) << false;
    QTest::newRow("all zero") << QStringLiteral("forecast_completed")
                              << QJsonValue(QJsonArray {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}) << false;
}

void TestSearchViewsData::forecastDistributionRefusesBadPayloads()
{
    QFETCH(QString, kind);
    QFETCH(QJsonValue, probabilities);
    QFETCH(bool, usable);
    SearchEvent e;
    e.kind = kind;
    if (!probabilities.isUndefined())
        e.payload.insert(QStringLiteral("probabilities"), probabilities);
    QCOMPARE(forecastDistribution(e).has_value(), usable);
}

void TestSearchViewsData::stepDetail()
{
    const QList<SearchEvent> events = fixedSelectiveLog();
    const SearchState state = fold(events);
    SearchHistory history;
    history.append(events);

    const StepDetail s0 = search::stepDetail(state, history, 0);
    QVERIFY(s0.completed && s0.parentScoresKnown);
    QCOMPARE(s0.parents.size(), 1);
    // c was deferred here and measured in step 2 on the user's word: here it shows as deferred.
    QCOMPARE(
        reasons(s0).join(QLatin1Char(' ')), QStringLiteral("a:selected b:low-confidence c:deferred d:mutation-failed"));
    QCOMPARE(s0.measured, 2);
    const ProposalRow &a = s0.proposals[0];
    QCOMPARE(a.predictedBin, 6);
    QVERIFY(near(a.confidence, 0.7));
    QVERIFY(near(a.expectedBin, 0.2 * 5 + 0.7 * 6 + 0.1 * 7));
    QVERIFY(a.expectedSpeedup
        && near(*a.expectedSpeedup, 0.2 * std::pow(2.0, 0.75) + 0.7 * std::pow(2.0, 1.25) + 0.1 * std::pow(2.0, 1.75)));
    QVERIFY(a.trusted);
    QVERIFY(!s0.proposals[1].trusted);
    QCOMPARE(a.outcome, Outcome::Ok);
    QCOMPARE(a.bin, std::optional<int>(6));
    QVERIFY(a.admitted);
    QCOMPARE(s0.proposals[2].measuredInStep, 2);
    QCOMPARE(s0.proposals[3].outcome, Outcome::NoCode);

    const StepDetail s1 = search::stepDetail(state, history, 1);
    QCOMPARE(reasons(s1).join(QLatin1Char(' ')), QStringLiteral("e:selected f:low-confidence g:queued"));
    QCOMPARE(s1.proposals[1].outcome, Outcome::Incorrect);
    QVERIFY(!s1.proposals[1].admitted);
    QVERIFY(s1.proposals[2].forecastFailed);

    const StepDetail s2 = search::stepDetail(state, history, 2);
    QCOMPARE(reasons(s2).join(QLatin1Char(' ')),
        QStringLiteral("h:selected i:deferred j:duplicate g:from-queue c:forced k:injected"));
    QCOMPARE(s2.measured, 4);
    QCOMPARE(s2.proposals[3].proposedInStep, 1);
    QCOMPARE(s2.proposals[1].outcome, Outcome::NotMeasured);
    QCOMPARE(s2.parents.value(0).nodeId, QStringLiteral("e"));
}

void TestSearchViewsData::stepDetailOfUnknownStep()
{
    const SearchState state = fold(fixedSelectiveLog());
    SearchHistory empty;
    QCOMPARE(search::stepDetail(state, empty, 3).step, -1);
    QCOMPARE(search::stepDetail(state, empty, -1).step, -1);
    // Without a history, parents are listed without scores.
    const StepDetail s1 = search::stepDetail(state, empty, 1);
    QVERIFY(!s1.parentScoresKnown);
    QCOMPARE(s1.parents.value(0).nodeId, QStringLiteral("a"));
    QCOMPARE(s1.parents.value(0).reward, std::optional<double>(2.5));
    QVERIFY(!s1.proposals[0].expectedSpeedup);
}

void TestSearchViewsData::measureReasons_data()
{
    QTest::addColumn<QString>("decision");
    QTest::addColumn<bool>("selected");
    QTest::addColumn<QString>("reason");
    QTest::newRow("standard") << QStringLiteral("measure all") << true << QStringLiteral("selected");
    QTest::newRow("surrogate top") << QStringLiteral("top expected bin") << true << QStringLiteral("selected");
    QTest::newRow("surrogate below") << QStringLiteral("ranked below the GPU budget") << false
                                     << QStringLiteral("deferred");
    QTest::newRow("untrusted") << QStringLiteral("untrusted forecast: measured") << true
                               << QStringLiteral("low-confidence");
    QTest::newRow("queued") << QStringLiteral("untrusted forecast: queued for a free GPU slot") << false
                            << QStringLiteral("queued");
    QTest::newRow("from queue") << QStringLiteral("queued earlier: a free GPU slot") << true
                                << QStringLiteral("from-queue");
    QTest::newRow("forced") << QStringLiteral("measurement forced by the user") << true << QStringLiteral("forced");
    QTest::newRow("injected") << QStringLiteral("injected by the user") << true << QStringLiteral("injected");
    QTest::newRow("vetoed") << QStringLiteral("vetoed") << false << QStringLiteral("vetoed");
    QTest::newRow("duplicate") << QStringLiteral("duplicate of code already measured") << false
                               << QStringLiteral("duplicate");
    QTest::newRow("unknown selected") << QStringLiteral("picked by hand") << true << QStringLiteral("selected");
    QTest::newRow("unknown deferred") << QStringLiteral("") << false << QStringLiteral("deferred");
    QTest::newRow("kind wins over words") << QStringLiteral("vetoed") << true << QStringLiteral("selected");
}

void TestSearchViewsData::measureReasons()
{
    QFETCH(QString, decision);
    QFETCH(bool, selected);
    QFETCH(QString, reason);
    QCOMPARE(measureReasonName(measureReasonOf(decision, selected)), reason);
}

void TestSearchViewsData::progress()
{
    const ProgressCurve curve = progressCurve(fold(fixedSelectiveLog()));
    QStringList byEvaluations, byCandidates;
    for (const ProgressPoint &p : curve.byEvaluations)
        byEvaluations << QStringLiteral("%1:%2").arg(p.x).arg(p.best);
    for (const ProgressPoint &p : curve.byCandidates)
        byCandidates << QStringLiteral("%1:%2").arg(p.x).arg(p.best);
    // The reference's 1.0 at no cost; a, b; e (3.5); f (incorrect) counts an evaluation; h, g, c, k.
    QCOMPARE(
        byEvaluations.join(QLatin1Char(' ')), QStringLiteral("0:1 1:2.5 2:2.5 3:3.5 4:3.5 5:3.5 6:3.5 7:3.5 8:3.5"));
    // a b c (d has no code); e f g; h i j and the injected k.
    QCOMPARE(byCandidates.join(QLatin1Char(' ')), QStringLiteral("0:1 3:2.5 6:3.5 10:3.5"));
    QCOMPARE(candidatesConsidered(fold(fixedSelectiveLog()), 0), 3);
}

void TestSearchViewsData::calibrationByHand()
{
    const QList<SearchEvent> events = fixedSelectiveLog();
    SearchHistory history;
    history.append(events);
    CalibrationTracker tracker;
    tracker.update(fold(events), history);
    QCOMPARE(tracker.steps().size(), 3);
    // Step 0: a (6 at 0.7, true 6), b (5 at 0.4, true 4). ECE: ½·|0.7 − 1| + ½·|0.4 − 0|.
    const CalibrationFigures s0 = tracker.steps()[0].atStep;
    QCOMPARE(s0.rows, 2);
    QVERIFY(near(s0.accuracy, 0.5));
    QVERIFY(near(s0.ece, 0.35));
    QVERIFY(near(s0.brier, (0.5 * (0.09 + 0.04 + 0.01) + 0.5 * (0.4225 + 0.16 + 0.0625)) / 2.0));
    // Step 1: e alone (f was incorrect: no bin).
    const CalibrationFigures s1 = tracker.steps()[1].atStep;
    QCOMPARE(s1.rows, 1);
    QVERIFY(near(s1.accuracy, 1.0));
    QVERIFY(near(s1.ece, 0.2));
    QVERIFY(near(s1.brier, 0.03));
    // Step 2: h, c right; g's forecast failed: a row for Brier (uniform), none for accuracy; k had no forecast.
    const CalibrationFigures s2 = tracker.steps()[2].atStep;
    QCOMPARE(s2.rows, 3);
    QCOMPARE(s2.parsed, 2);
    QVERIFY(near(s2.accuracy, 1.0));
    QVERIFY(near(s2.brier, (0.01 + 0.4375 + 0.12) / 3.0));
    const CalibrationFigures total = tracker.total();
    QCOMPARE(total.rows, 6);
    QCOMPARE(total.parsed, 5);
    QVERIFY(near(total.accuracy, 0.8));
    QCOMPARE(tracker.steps()[1].cumulative.rows, 3);
}

void TestSearchViewsData::calibrationAgreesWithMetrics()
{
    const QList<SearchEvent> events = fixedSelectiveLog();
    SearchHistory history;
    history.append(events);
    CalibrationTracker tracker;
    tracker.update(fold(events), history);
    // The same six pairs written out by hand, scored by core/metrics.
    auto row = [](std::optional<bins::Distribution> p, int trueBin) {
        metrics::ScoredRow r;
        r.trueBin = trueBin;
        if (p) {
            r.p = *p;
            r.predictedBin = bins::argmaxBin(*p);
            r.parsed = true;
        }
        return r;
    };
    const std::vector<metrics::ScoredRow> rows {row(dist({{5, 0.2}, {6, 0.7}, {7, 0.1}}), 6),
        row(dist({{4, 0.35}, {5, 0.4}, {6, 0.25}}), 4), row(dist({{6, 0.1}, {7, 0.8}, {8, 0.1}}), 7),
        row(dist({{6, 0.9}, {7, 0.1}}), 6), row(std::nullopt, 3), row(dist({{2, 0.2}, {3, 0.6}, {4, 0.2}}), 3)};
    const metrics::MetricsReport report = metrics::computeReport(rows);
    const CalibrationFigures total = tracker.total();
    QVERIFY(near(total.accuracy, report.scalar(metrics::Scalar::Accuracy)));
    QVERIFY(near(total.ece, report.scalar(metrics::Scalar::Ece)));
    QVERIFY(near(total.brier, report.scalar(metrics::Scalar::BrierHalf)));
}

void TestSearchViewsData::calibrationIsIncremental()
{
    const QList<SearchEvent> events = fixedSelectiveLog();
    const qsizetype secondStepEnd = [&] {
        int completed = 0;
        for (qsizetype i = 0; i < events.size(); ++i) {
            if (events[i].kind == QLatin1StringView("step_completed") && ++completed == 2)
                return i + 1;
        }
        return qsizetype(0);
    }();
    SearchHistory history;
    history.append(events.mid(0, secondStepEnd));
    CalibrationTracker tracker;
    tracker.update(fold(events.mid(0, secondStepEnd)), history);
    QCOMPARE(tracker.lastRecomputed(), 2);
    history.append(events.mid(secondStepEnd));
    tracker.update(fold(events), history);
    QCOMPARE(tracker.lastRecomputed(), 1); // step 2 only
    QVERIFY(near(tracker.total().accuracy, 0.8));
    tracker.update(fold(events), history);
    QCOMPARE(tracker.lastRecomputed(), 0);
}

QTEST_GUILESS_MAIN(TestSearchViewsData)
#include "tst_search_views_data.moc"
