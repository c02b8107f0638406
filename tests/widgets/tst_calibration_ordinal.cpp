// Offscreen tests of the Calibration dock's Ordinal and Cumulative reliability tabs and the Metrics dock's straddling
// rule, over the shipped sample bundle with physics-prior (roofline) forecasts of the cost model's scored pairs made
// by the real prior: the figures the user reads equal the report's and a second computation here.
#include "core/forecasters/roofline_prior.h"
#include "core/interop/interop.h"
#include "core/metrics/calibration.h"
#include "core/session/calibration_data.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "core/store/forecast_repo.h"
#include "core/store/hardware_repo.h"
#include "core/store/problem_repo.h"
#include "core/store/store.h"
#include "widgets/calibration/calibration_view.h"
#include "widgets/calibration/cumulative_reliability_plot.h"
#include "widgets/calibration/metrics_table.h"
#include "widgets/calibration/ordinal_view.h"
#include "widgets/calibration/prediction_set_plot.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace gpuf;
using namespace Qt::StringLiterals;

namespace {

RowId idOf(const ScoredPairs &pairs, const QString &name)
{
    for (const ScoredPairsForecaster &f : pairs.forecasters) {
        if (f.name == name)
            return f.id;
    }
    return 0;
}

QString cell(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text() : u"<empty>"_s;
}

} // namespace

class TestCalibrationOrdinal : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    int m_priorForecasts = 0;

    struct Fixture
    {
        StoreSession session;
        Selection selection;
        CalibrationData data {&session};
        CalibrationView view {&data, &selection};
        MetricsTable table {&data, &selection};
    };

    std::unique_ptr<Fixture> load()
    {
        auto f = std::make_unique<Fixture>();
        CalibrationRequest request;
        request.bootstrapResamples = 0;
        f->data.setRequest(request);
        f->view.resize(1100, 760);
        f->view.show();
        f->session.open(m_path);
        return f;
    }

    static bool loaded(const Fixture &f) { return f.data.snapshot()->generation > 0 && !f.data.isLoading(); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_path = m_dir.filePath(u"sample.gpuf"_s);
        auto store = Store::open(m_path);
        QVERIFY2(store.ok(), qPrintable(store.error()));
        const QString bundle = QStringLiteral(GPUF_SOURCE_DIR "/resources/sample/sample-bundle.jsonl");
        QVERIFY(interop::importFiles(**store, {bundle}).ok());
        // The physics prior's forecast of every pair the cost model was scored on, as gpuf forecast stores it.
        auto prior = ensureRooflineForecaster(**store);
        QVERIFY(prior);
        auto pairs = loadScoredPairs(**store, {{u"costmodel"_s}, {}, {}});
        QVERIFY(pairs && !pairs->pairs.isEmpty());
        std::map<std::tuple<RowId, RowId, RowId>, bool> done;
        for (const ScoredPair &p : std::as_const(pairs->pairs)) {
            if (!done.emplace(std::tuple {p.referenceId, p.candidateId, p.hardwareId}, true).second)
                continue;
            ForecastRequest request;
            request.reference = **KernelRepo(**store).find(p.referenceId);
            request.candidate = **KernelRepo(**store).find(p.candidateId);
            if (p.hardwareId != 0)
                request.hardware = **HardwareRepo(**store).find(p.hardwareId);
            Forecast f = rooflineForecast(request, forecastFor(request, prior->id, QString()), {});
            f.hardwareId = p.hardwareId;
            f.cacheKey = u"test-%1"_s.arg(++m_priorForecasts);
            QVERIFY(ForecastRepo(**store).insert(f));
        }
        QVERIFY(m_priorForecasts > 10);
    }

    void ordinalTabShowsTheFigures()
    {
        auto f = load();
        QTRY_VERIFY_WITH_TIMEOUT(loaded(*f), 60000);
        const auto snapshot = f->data.snapshot();
        QVERIFY2(snapshot->error.isEmpty(), qPrintable(snapshot->error));
        QTabWidget *tabs = f->view.tabs();
        QCOMPARE(tabs->tabText(tabs->indexOf(f->view.ordinalView())), u"Ordinal"_s);
        QCOMPARE(tabs->tabText(tabs->indexOf(f->view.cumulativeReliabilityPlot())), u"Cumulative reliability"_s);
        const RowId costModel = idOf(snapshot->pairs, u"costmodel"_s);
        const RowId prior = idOf(snapshot->pairs, u"roofline"_s);
        QVERIFY(costModel && prior);
        f->view.setForecasters(costModel);
        const OrdinalView *ordinal = f->view.ordinalView();
        QVERIFY2(ordinal->headline().startsWith(u"costmodel: "_s), qPrintable(ordinal->headline()));

        const metrics::MetricsReport *report = nullptr;
        for (const metrics::ForecasterReport &r : snapshot->metrics.reports)
            report = r.forecaster.id == costModel ? &r.report : report;
        QVERIFY(report);
        const QTableWidget *skill = ordinal->skillTable();
        QCOMPARE(skill->rowCount(), 3);
        QCOMPARE(cell(skill, 0, 0), metrics::formatValue(report->scalar(metrics::Scalar::Crps)));
        QCOMPARE(cell(skill, 0, 1), metrics::formatValue(report->baseRate.rps));
        QCOMPARE(cell(skill, 0, 2), metrics::formatValue(report->scalar(metrics::Scalar::RpsSkillBaseRate)));

        // Against the prior, computed here a second way: the mean RPS of both on the cost model's rows whose pair the
        // prior forecast (one forecast per pair).
        std::map<std::tuple<qint64, qint64, qint64>, bins::Distribution> priorOf;
        for (const metrics::ScoredRow &row : snapshot->metrics.rows) {
            if (row.forecasterId == prior)
                priorOf.emplace(std::tuple {row.poolKey, row.pairId, row.hardwareId}, row.p);
        }
        double own = 0.0, theirs = 0.0;
        int n = 0;
        for (const metrics::ScoredRow &row : snapshot->metrics.rows) {
            const auto it = priorOf.find(std::tuple {row.poolKey, row.pairId, row.hardwareId});
            if (row.forecasterId != costModel || it == priorOf.end())
                continue;
            own += metrics::crps(row.parsed ? row.p : metrics::uniformDistribution(), row.trueBin);
            theirs += metrics::crps(it->second, row.trueBin);
            ++n;
        }
        QVERIFY(n > 10);
        QCOMPARE(cell(skill, 0, 3), metrics::formatValue(own / n));
        QCOMPARE(cell(skill, 0, 4), metrics::formatValue(theirs / n));
        QCOMPARE(cell(skill, 0, 5), metrics::formatValue(1.0 - own / theirs));

        // The prior against itself: skill 0 on every score.
        f->view.setForecasters(prior);
        for (int r = 0; r < 3; ++r)
            QCOMPARE(cell(ordinal->skillTable(), r, 5), metrics::formatValue(0.0));

        // Label noise: a row per rule, the measured one first; prediction sets: a row per target.
        f->view.setForecasters(costModel);
        const QTableWidget *noise = ordinal->labelNoiseTable();
        QCOMPARE(noise->rowCount(), 5);
        QCOMPARE(noise->verticalHeaderItem(0)->text(), u"in the measured bin"_s);
        QCOMPARE(noise->verticalHeaderItem(4)->text(), u"left out"_s);
        QCOMPARE(cell(noise, 0, 0), QString::number(report->nTotal));
        QCOMPARE(cell(noise, 0, 2), metrics::formatValue(report->scalar(metrics::Scalar::Accuracy)));
        const QTableWidget *sets = ordinal->setsTable();
        QCOMPARE(sets->rowCount(), int(report->predictionSets.size()));
        QCOMPARE(sets->verticalHeaderItem(2)->text(), u"90.0 % target"_s);
        QCOMPARE(cell(sets, 2, 4), metrics::formatValue(report->predictionSets[2].conformalThreshold));
        // Beside the table, its plot: a point per target on each curve, at the width and coverage the table lists,
        // and a dotted line at each target.
        const PredictionSetPlot *setsPlot = ordinal->setsPlot();
        QVERIFY(setsPlot->ownCurve() && setsPlot->conformalCurve());
        QCOMPARE(setsPlot->ownCurve()->data()->size(), sets->rowCount());
        for (int row = 0; row < sets->rowCount(); ++row) {
            const metrics::CoverageRow &c = report->predictionSets[std::size_t(row)];
            QCOMPARE(setsPlot->ownCurve()->data()->at(row)->key, c.forecastWidth);
            QCOMPARE(setsPlot->ownCurve()->data()->at(row)->value, c.forecastCoverage);
            QCOMPARE(setsPlot->conformalCurve()->data()->at(row)->key, c.conformalWidth);
            QCOMPARE(setsPlot->conformalCurve()->data()->at(row)->value, c.conformalCoverage);
            QCOMPARE(metrics::formatValue(setsPlot->ownCurve()->data()->at(row)->key), cell(sets, row, 1));
            QCOMPARE(setsPlot->targetLine(row)->data()->at(0)->value, 1.0 - c.alpha);
        }
        QVERIFY2(setsPlot->title().startsWith(u"Prediction sets of costmodel"_s), qPrintable(setsPlot->title()));
        QVERIFY2(setsPlot->title().contains(u"targets 50 %, 80 %, 90 %, 95 % dotted"_s), qPrintable(setsPlot->title()));

        // Cumulative reliability: a curve per edge through each non-empty bucket's (mean forecast, observed share).
        const CumulativeReliabilityPlot *plot = f->view.cumulativeReliabilityPlot();
        for (const metrics::EdgeReliability &e : report->cumulativeReliability) {
            const QCPGraph *curve = plot->edgeCurve(e.edge);
            QVERIFY(curve);
            int point = 0;
            for (const metrics::CumulativeBucket &b : e.buckets) {
                if (b.count == 0)
                    continue;
                QCOMPARE(curve->data()->at(point)->key, b.meanForecast);
                QCOMPARE(curve->data()->at(point)->value, b.observed);
                ++point;
            }
            QCOMPARE(curve->data()->size(), point);
            // The legend names the edge as the bins do: "≥ 1.41×", not the digits of 2^0.5.
            QVERIFY2(curve->name().startsWith(u"≥ "_s + QString::number(e.speedup, 'f', 2) + u"× ("_s),
                qPrintable(curve->name()));
        }
        QVERIFY(plot->title().contains(u"costmodel"_s));

        // Bin-free: each edge's isotonic fit as steps, block by block, at the fitted frequency over its forecasts.
        QVERIFY(!plot->isotonicCurve(1));
        plot->binFreeBox()->setChecked(true);
        for (const metrics::EdgeReliability &e : report->cumulativeReliability) {
            const QCPGraph *fit = plot->isotonicCurve(e.edge);
            QVERIFY(fit && !e.isotonic.empty());
            QCOMPARE(fit->data()->size(), int(2 * e.isotonic.size()));
            double previous = -1.0;
            for (std::size_t b = 0; b < e.isotonic.size(); ++b) {
                QCOMPARE(fit->data()->at(int(2 * b))->key, e.isotonic[b].forecastLow);
                QCOMPARE(fit->data()->at(int(2 * b + 1))->key, e.isotonic[b].forecastHigh);
                QCOMPARE(fit->data()->at(int(2 * b))->value, e.isotonic[b].fitted);
                QVERIFY(e.isotonic[b].fitted >= previous); // a fit that never falls
                previous = e.isotonic[b].fitted;
            }
        }
        QVERIFY2(plot->title().contains(u"bin-free isotonic fit"_s), qPrintable(plot->title()));
        plot->binFreeBox()->setChecked(false);
    }

    // The Metrics dock's straddling box: leaving straddling pairs out scores each forecaster on its other pairs, in
    // the table and in the Calibration dock alike.
    void straddlingRuleFromTheMetricsDock()
    {
        auto f = load();
        QTRY_VERIFY_WITH_TIMEOUT(loaded(*f), 60000);
        const auto before = f->data.snapshot();
        QComboBox *box = nullptr;
        for (QComboBox *c : f->table.findChildren<QComboBox *>())
            box = c->findText(u"Straddling pairs left out"_s) >= 0 ? c : box;
        QVERIFY(box);
        QCOMPARE(box->currentText(), u"Straddling pairs in the measured bin"_s);
        box->setCurrentIndex(box->findText(u"Straddling pairs left out"_s));
        QTRY_VERIFY_WITH_TIMEOUT(loaded(*f) && f->data.snapshot() != before, 60000);
        const auto after = f->data.snapshot();
        QCOMPARE(after->request.straddling, metrics::StraddlingRule::Drop);
        for (const metrics::LabelNoise &n : before->labelNoise) {
            qint64 was = 0, is = 0;
            for (const metrics::ForecasterReport &r : before->metrics.reports)
                was = r.forecaster.id == n.forecasterId ? r.report.nTotal : was;
            for (const metrics::ForecasterReport &r : after->metrics.reports)
                is = r.forecaster.id == n.forecasterId ? r.report.nTotal : is;
            QCOMPARE(is, was - n.straddling);
            QCOMPARE(n.rows.back().scored, is);
        }
        f->view.setForecasters(idOf(after->pairs, u"costmodel"_s));
        QVERIFY(f->view.ordinalView()->headline().endsWith(u"straddling pairs counted left out."_s));
    }
};

QTEST_MAIN(TestCalibrationOrdinal)
#include "tst_calibration_ordinal.moc"
