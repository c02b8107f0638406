// The Compare view on a real store: the shipped sgemm_tiled H100 sweep imported, the real ComparePanel offscreen,
// driven through its form and buttons. A comparison run from the view is checked against `gpuf search compare --json`
// (the real program) on the same store with the same seeds: every plotted point of every strategy's mean line and
// interval band, random search's expected curve, every cell of the figures table, the notes and the CSV. Then Cancel, a
// store without any space, a space whose GPU has no recorded runtimes, and a palette change.
#include "../search/search_fixture.h"
#include "core/interop/corpus.h"
#include "core/mutators/shipped_families.h"
#include "core/mutators/sweep_file.h"
#include "core/session/store_session.h"
#include "core/store/hardware_repo.h"
#include "core/store/store.h"
#include "tests/support/cli_run.h"
#include "tests/support/session_open.h"
#include "widgets/plots/plot_qcustomplot.h"
#include "widgets/search/compare_controller.h"
#include "widgets/search/compare_form.h"
#include "widgets/search/compare_panel.h"
#include "widgets/search/compare_plot.h"
#include "widgets/search/compare_table_model.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace gpuf;

namespace {

const QString kSpace = QStringLiteral("sgemm_tiled");
const QString kSweep = QStringLiteral(GPUF_SOURCE_DIR "/resources/sweeps/sgemm_tiled-h100-2026-11-26.jsonl");
const QStringList kStrategies {QStringLiteral("standard"), QStringLiteral("random"), QStringLiteral("greedy")};
constexpr int kSeeds = 3;
constexpr int kSteps = 5;

bool same(double shown, const QJsonValue &expected)
{
    if (expected.isNull())
        return std::isnan(shown) || std::isinf(shown);
    return std::abs(shown - expected.toDouble()) <= 1e-9 * std::max(1.0, std::abs(expected.toDouble()));
}

double meanOf(const QJsonArray &values)
{
    double sum = 0.0;
    for (const QJsonValue v : values)
        sum += v.toDouble();
    return values.isEmpty() ? 0.0 : sum / double(values.size());
}

QString readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// Where the plotted graph differs from the CLI's curve at e = 1..budget ("" when nowhere).
QString graphDiffers(const QCPGraph *graph, const QJsonArray &curve, int budget)
{
    if (!graph)
        return QStringLiteral("no graph");
    if (graph->data()->size() != budget)
        return QStringLiteral("%1 points, budget %2").arg(graph->data()->size()).arg(budget);
    for (int e = 1; e <= budget; ++e) {
        const QCPGraphData &point = *(graph->data()->constBegin() + (e - 1));
        if (point.key != e || !same(point.value, curve.at(e)))
            return QStringLiteral("e=%1: plotted (%2, %3), CLI %4")
                .arg(e)
                .arg(point.key)
                .arg(point.value)
                .arg(curve.at(e).toDouble());
    }
    return {};
}

} // namespace

class TestCompareView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_store;
    QString m_hardware;

    struct View
    {
        StoreSession session;
        ComparePanel panel {&session};
    };

    // Opens `path` in the view and waits until it knows the store's spaces.
    static bool openIn(View &view, const QString &path)
    {
        return test::openSession(view.session, path)
            && QTest::qWaitFor([&] { return view.panel.controller()->hasChoices(); }, 60000);
    }

    QString copyOfStore(const QString &name) const
    {
        const QString path = m_dir.filePath(name);
        QFile::remove(path);
        return QFile::copy(m_store, path) ? path : QString();
    }

    // The form set to the space on the sweep's GPU with these strategies and budget.
    bool fillForm(View &view, const QStringList &strategies, int seeds, int steps) const
    {
        CompareForm *form = view.panel.form();
        if (!form->choose(kSpace, m_hardware))
            return false;
        form->setStrategies(strategies);
        form->seedsBox()->setValue(seeds);
        form->stepsBox()->setValue(steps);
        return view.panel.runButton()->isEnabled();
    }

    // `gpuf search compare` on the store with the view's settings, its --json output and its --csv file.
    QJsonObject runCli(const QString &csvPath, QString *error) const
    {
        const auto run = test::asText(test::runProgram(QStringLiteral(GPUF_CLI_PATH),
            {QStringLiteral("search"), QStringLiteral("compare"), m_store, QStringLiteral("--family"), kSpace,
                QStringLiteral("--hardware"), m_hardware, QStringLiteral("--strategies"),
                kStrategies.join(QLatin1Char(',')), QStringLiteral("--seeds"), QString::number(kSeeds),
                QStringLiteral("--steps"), QString::number(kSteps), QStringLiteral("--csv"), csvPath,
                QStringLiteral("--json"), QStringLiteral("--quiet")},
            300000));
        if (run.exitCode != 0) {
            *error = QStringLiteral("exit %1: %2").arg(run.exitCode).arg(run.err);
            return {};
        }
        return QJsonDocument::fromJson(run.out.toUtf8()).object();
    }

    // Every plotted point against the CLI's curves: each strategy's mean line and band edges, random's expectation.
    static void comparePlot(const ComparePlot *plot, const QJsonObject &json)
    {
        const int budget = json.value(QStringLiteral("budget")).toInt();
        const QJsonArray strategies = json.value(QStringLiteral("strategies")).toArray();
        QCOMPARE(strategies.size(), kStrategies.size());
        for (const QJsonValue value : strategies) {
            const QJsonObject s = value.toObject();
            const QString name = s.value(QStringLiteral("name")).toString();
            const QJsonObject curve = s.value(QStringLiteral("curve")).toObject();
            const QString mean
                = graphDiffers(plot->meanGraph(name), curve.value(QStringLiteral("mean")).toArray(), budget);
            QVERIFY2(mean.isEmpty(), qPrintable(name + QStringLiteral(" mean: ") + mean));
            const QString low
                = graphDiffers(plot->lowGraph(name), curve.value(QStringLiteral("low")).toArray(), budget);
            QVERIFY2(low.isEmpty(), qPrintable(name + QStringLiteral(" low: ") + low));
            const QString high
                = graphDiffers(plot->highGraph(name), curve.value(QStringLiteral("high")).toArray(), budget);
            QVERIFY2(high.isEmpty(), qPrintable(name + QStringLiteral(" high: ") + high));
            // The band is the area between the two edges, in the strategy's colour; the mean line has a legend entry.
            QCOMPARE(plot->highGraph(name)->channelFillGraph(), plot->lowGraph(name));
            QCOMPARE(plot->highGraph(name)->brush().color().rgb(), plot->strategyColor(name).rgb());
            QVERIFY(plot->plot()->legend->hasItemWithPlottable(plot->meanGraph(name)));
            QVERIFY(!plot->plot()->legend->hasItemWithPlottable(plot->highGraph(name)));
        }
        const QJsonArray expected
            = json.value(QStringLiteral("random")).toObject().value(QStringLiteral("expected_curve")).toArray();
        const QString random = graphDiffers(plot->expectedGraph(), expected, budget);
        QVERIFY2(random.isEmpty(), qPrintable(QStringLiteral("random (expected): ") + random));
        QCOMPARE(plot->expectedGraph()->pen().style(), Qt::DashLine);
        QCOMPARE(plot->plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
    }

    // A dark palette: the plot rebuilds in lighter colours on a dark background, drawing the same points.
    static void darkPaletteRedraws(View &view, const QJsonObject &json)
    {
        const ComparePlot *plot = view.panel.plot();
        const QColor light = plot->meanGraph(QStringLiteral("standard"))->pen().color();
        QPalette dark = view.panel.palette();
        dark.setColor(QPalette::Base, QColor(30, 30, 34));
        dark.setColor(QPalette::Text, QColor(230, 230, 230));
        view.panel.setPalette(dark);
        QTRY_VERIFY(plot->meanGraph(QStringLiteral("standard"))->pen().color().lightnessF() > light.lightnessF());
        QCOMPARE(plot->plot()->legend->brush().color(), QColor(30, 30, 34));
        comparePlot(plot, json);
    }

    // Every cell of the figures table against the CLI's figures for the same strategy.
    static void compareTable(const CompareTableModel *model, const QJsonArray &strategies, int seeds = kSeeds)
    {
        QCOMPARE(model->rowCount(), strategies.size());
        using C = CompareTableModel;
        const std::pair<C::Column, const char *> intervals[] = {{C::ToOptimumColumn, "evaluations_to_optimum"},
            {C::ToWithin1Column, "evaluations_to_within_1pct"}, {C::ToWithin5Column, "evaluations_to_within_5pct"},
            {C::ScoreColumn, "score"}, {C::BestColumn, "best_speedup"}};
        const std::pair<C::Column, const char *> means[] = {{C::GpuEvaluationsColumn, "gpu_evaluations"},
            {C::GpuSecondsColumn, "gpu_seconds"}, {C::ForecastsColumn, "forecasts"}};
        for (int row = 0; row < model->rowCount(); ++row) {
            const QJsonObject s = strategies.at(row).toObject();
            QCOMPARE(
                model->index(row, C::StrategyColumn).data().toString(), s.value(QStringLiteral("name")).toString());
            for (const auto &[column, key] : intervals) {
                const QJsonObject figure = s.value(QLatin1StringView(key)).toObject();
                const QModelIndex cell = model->index(row, column);
                QVERIFY2(same(cell.data(C::SortRole).toDouble(), figure.value(QStringLiteral("mean"))), key);
                QVERIFY2(same(cell.data(C::LowRole).toDouble(), figure.value(QStringLiteral("low"))), key);
                QVERIFY2(same(cell.data(C::HighRole).toDouble(), figure.value(QStringLiteral("high"))), key);
                QCOMPARE(cell.data(C::CountRole).toInt(), figure.value(QStringLiteral("n")).toInt());
                if (figure.contains(QStringLiteral("reached")))
                    QVERIFY2(
                        cell.data().toString().endsWith(
                            QStringLiteral("(%1/%2)").arg(figure.value(QStringLiteral("reached")).toInt()).arg(seeds)),
                        qPrintable(cell.data().toString()));
            }
            for (const auto &[column, key] : means) {
                const double expected = meanOf(s.value(QLatin1StringView(key)).toArray());
                QVERIFY2(same(model->index(row, column).data(C::SortRole).toDouble(), expected), key);
            }
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_store = m_dir.filePath(QStringLiteral("sgemm_tiled.gpuf"));
        auto store = Store::open(m_store);
        QVERIFY2(store, qPrintable(store.error()));
        auto family = families::findFamily(kSpace);
        QVERIFY2(family, qPrintable(family.error()));
        auto sweep = families::readSweep(kSweep);
        QVERIFY2(sweep, qPrintable(sweep.error()));
        auto imported = families::importSweep(**store, *sweep, *family, families::shippedCorpusDir());
        QVERIFY2(imported, qPrintable(imported.error()));
        m_hardware = sweep->hardwareName();
        QVERIFY(!m_hardware.isEmpty());
    }

    // The view's comparison and the CLI's for the same seeds: the same points, the same figures, the same CSV.
    void plotAndTableEqualTheCli()
    {
        View view;
        QVERIFY(openIn(view, m_store));
        QAbstractItemModelTester tester(
            view.panel.tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(
            view.panel.tableView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(view.panel.form()->hardwareBox()->count(), 1);
        QVERIFY(fillForm(view, kStrategies, kSeeds, kSteps));
        QTest::mouseClick(view.panel.runButton(), Qt::LeftButton);
        QVERIFY(view.panel.controller()->isRunning());
        QVERIFY(view.panel.cancelButton()->isEnabled());
        QVERIFY(!view.panel.runButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!view.panel.controller()->isRunning(), 240000);
        const auto report = view.panel.controller()->report();
        QVERIFY2(report, qPrintable(view.panel.statusText()));
        QCOMPARE(view.panel.progressBar()->maximum(), int(kStrategies.size()) * kSeeds);
        QCOMPARE(view.panel.progressBar()->value(), int(kStrategies.size()) * kSeeds);

        QString error;
        const QString cliCsv = m_dir.filePath(QStringLiteral("cli.csv"));
        const QJsonObject json = runCli(cliCsv, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const int budget = json.value(QStringLiteral("budget")).toInt();
        QCOMPARE(budget, kSteps * 2 * 4 + 1);
        QCOMPARE(report->budget, budget);
        QCOMPARE(report->spaceSize, json.value(QStringLiteral("space_size")).toInt());
        QVERIFY(view.panel.form()->hardwareBox()->currentText().contains(QString::number(report->spaceSize)));

        comparePlot(view.panel.plot(), json);
        if (QTest::currentTestFailed())
            return;
        compareTable(view.panel.tableModel(), json.value(QStringLiteral("strategies")).toArray());
        if (QTest::currentTestFailed())
            return;
        for (const QJsonValue note : json.value(QStringLiteral("notes")).toArray())
            QVERIFY2(view.panel.notesText().contains(note.toString()), qPrintable(note.toString()));
        QVERIFY(view.panel.notesText().contains(QStringLiteral("optimum %1×").arg(report->optimum, 0, 'f', 3)));
        QVERIFY2(view.panel.notesText().contains(QStringLiteral("(5 steps × 8 + the seed)")),
            qPrintable(view.panel.notesText()));

        // Sorting through the view's proxy: by name.
        view.panel.tableView()->sortByColumn(CompareTableModel::StrategyColumn, Qt::AscendingOrder);
        const QAbstractItemModel *sorted = view.panel.tableView()->model();
        QCOMPARE(sorted->index(0, 0).data().toString(), QStringLiteral("greedy"));
        QCOMPARE(sorted->index(2, 0).data().toString(), QStringLiteral("standard"));

        // Exports: the CSV is the CLI's byte for byte; the plot writes a PNG.
        const QString csv = m_dir.filePath(QStringLiteral("view.csv"));
        QVERIFY(view.panel.csvButton()->isEnabled());
        const Status written = view.panel.exportCsv(csv);
        QVERIFY2(written, qPrintable(written.error()));
        QCOMPARE(readAll(csv), readAll(cliCsv));
        const QString png = m_dir.filePath(QStringLiteral("view.png"));
        QVERIFY(view.panel.plot()->exportTo(png, QSize(900, 600)));
        QVERIFY(!QImage(png).isNull());

        darkPaletteRedraws(view, json);
    }

    // The physics prior is offered beside the cost model (and any LLM forecaster), so a comparison can be run on the
    // roofline alone: the baseline for the same comparison with a learned or LLM forecaster.
    void offersThePhysicsPrior()
    {
        View view;
        QVERIFY(openIn(view, m_store));
        QComboBox *box = view.panel.form()->forecasterBox();
        QCOMPARE(box->itemText(0), QStringLiteral("costmodel"));
        QCOMPARE(box->itemText(1), QStringLiteral("roofline"));
        QVERIFY(fillForm(view, {QStringLiteral("surrogate")}, 1, 2));
        box->setCurrentIndex(1);
        QTest::mouseClick(view.panel.runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!view.panel.controller()->isRunning(), 120000);
        const auto report = view.panel.controller()->report();
        QVERIFY2(report, qPrintable(view.panel.statusText()));
        QCOMPARE(report->forecaster, QStringLiteral("roofline"));
        QCOMPARE(view.panel.tableModel()->rowCount(), 1);
        QVERIFY(report->strategies.first().forecasts.first() > 0);
    }

    // Cancel stops a long comparison before its end; nothing of it is shown.
    void cancelStopsARun()
    {
        View view;
        QVERIFY(openIn(view, m_store));
        QVERIFY(fillForm(view,
            {QStringLiteral("standard"), QStringLiteral("surrogate"), QStringLiteral("selective"),
                QStringLiteral("random"), QStringLiteral("greedy"), QStringLiteral("genetic")},
            50, 40));
        QTest::mouseClick(view.panel.runButton(), Qt::LeftButton);
        QVERIFY(view.panel.controller()->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(view.panel.progressBar()->value() >= 1, 120000);
        QTest::mouseClick(view.panel.cancelButton(), Qt::LeftButton);
        QVERIFY(!view.panel.cancelButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!view.panel.controller()->isRunning(), 60000);
        QVERIFY(!view.panel.controller()->report());
        QVERIFY2(
            view.panel.statusText().startsWith(QStringLiteral("Cancelled after")), qPrintable(view.panel.statusText()));
        QCOMPARE(view.panel.progressBar()->maximum(), 300);
        QVERIFY(view.panel.progressBar()->value() < 300);
        QVERIFY(view.panel.runButton()->isEnabled());
        QVERIFY(!view.panel.csvButton()->isEnabled());
        QCOMPARE(view.panel.tableModel()->rowCount(), 0);
    }

    // A store whose kernels have no recorded runtimes at all: nothing to run, and why.
    void storeWithoutSpaces()
    {
        const QString path = m_dir.filePath(QStringLiteral("corpus.gpuf"));
        {
            auto store = Store::open(path);
            QVERIFY2(store, qPrintable(store.error()));
            auto corpus = interop::importCorpus(**store, testing::corpusDir());
            QVERIFY2(corpus, qPrintable(corpus.error()));
        }
        View view;
        QVERIFY(openIn(view, path));
        QVERIFY(view.panel.controller()->choices().spaces.isEmpty());
        QVERIFY(!view.panel.runButton()->isEnabled());
        QVERIFY2(view.panel.statusText().contains(QStringLiteral("has recorded runtimes")),
            qPrintable(view.panel.statusText()));
        QVERIFY(view.panel.statusText().contains(QStringLiteral("File → Import…")));
    }

    // A problem's recorded pool, with the first seed, k, τ and a cost model file set in the form: the view draws what
    // `gpuf search compare --problem … --seed … --k … --tau … --model …` prints; a missing or broken model file is
    // refused with its reason.
    void poolWithEveryOptionEqualsTheCli()
    {
        View view;
        QVERIFY(openIn(view, m_store));
        CompareForm *form = view.panel.form();
        QVERIFY(form->choose(QStringLiteral("sgemm"), m_hardware, true));
        QVERIFY(form->poolChosen());
        QVERIFY2(form->hardwareBox()->currentText().endsWith(QStringLiteral("kernels")),
            qPrintable(form->hardwareBox()->currentText()));
        const QStringList strategies {QStringLiteral("standard"), QStringLiteral("surrogate"),
            QStringLiteral("selective"), QStringLiteral("random")};
        form->setStrategies(strategies);
        form->seedsBox()->setValue(2);
        form->stepsBox()->setValue(3);
        form->firstSeedBox()->setValue(7);
        form->factorBox()->setValue(2);
        form->tauBox()->setValue(0.3);
        QVERIFY(form->factorBox()->isEnabled());
        QVERIFY(form->tauBox()->isEnabled());
        QCOMPARE(form->budget(), 3 * 2 * 4); // a pool starts from the reference: no seed evaluation
        QVERIFY2(view.panel.statusText().contains(QStringLiteral("starts from the reference")),
            qPrintable(view.panel.statusText()));

        form->modelEdit()->setText(m_dir.filePath(QStringLiteral("no-such-model.json")));
        QVERIFY(!form->options());
        QVERIFY2(form->options().error().contains(QStringLiteral("There is no cost model file at")),
            qPrintable(form->options().error()));
        const QString broken = m_dir.filePath(QStringLiteral("broken-model.json"));
        {
            QFile file(broken);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\"not\": \"a model\"}");
        }
        form->modelEdit()->setText(broken);
        QTest::mouseClick(view.panel.runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!view.panel.controller()->isRunning(), 60000);
        QVERIFY(!view.panel.controller()->report());
        QVERIFY2(view.panel.statusText().contains(QStringLiteral("cost model"))
                && view.panel.statusText().contains(QFileInfo(broken).completeBaseName()),
            qPrintable(view.panel.statusText()));

        const QString model = QStringLiteral(GPUF_SOURCE_DIR "/resources/models/costmodel.json");
        form->modelEdit()->setText(model);
        QTest::mouseClick(view.panel.runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!view.panel.controller()->isRunning(), 240000);
        QVERIFY2(view.panel.controller()->report(), qPrintable(view.panel.statusText()));

        const auto run = test::asText(test::runProgram(QStringLiteral(GPUF_CLI_PATH),
            {QStringLiteral("search"), QStringLiteral("compare"), m_store, QStringLiteral("--problem"),
                QStringLiteral("sgemm"), QStringLiteral("--hardware"), m_hardware, QStringLiteral("--strategies"),
                strategies.join(QLatin1Char(',')), QStringLiteral("--seeds"), QStringLiteral("2"),
                QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--seed"), QStringLiteral("7"),
                QStringLiteral("--k"), QStringLiteral("2"), QStringLiteral("--tau"), QStringLiteral("0.3"),
                QStringLiteral("--model"), model, QStringLiteral("--json"), QStringLiteral("--quiet")},
            300000));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(json.value(QStringLiteral("budget")).toInt(), 3 * 2 * 4);
        QCOMPARE(view.panel.controller()->report()->spaceSize, json.value(QStringLiteral("space_size")).toInt());
        QVERIFY(
            form->hardwareBox()->currentText().contains(QString::number(view.panel.controller()->report()->spaceSize)));
        const QJsonArray figures = json.value(QStringLiteral("strategies")).toArray();
        QCOMPARE(figures.size(), strategies.size());
        for (const QJsonValue value : figures) {
            const QJsonObject s = value.toObject();
            const QString name = s.value(QStringLiteral("name")).toString();
            const QString mean = graphDiffers(view.panel.plot()->meanGraph(name),
                s.value(QStringLiteral("curve")).toObject().value(QStringLiteral("mean")).toArray(), 3 * 2 * 4);
            QVERIFY2(mean.isEmpty(), qPrintable(name + QStringLiteral(": ") + mean));
        }
        compareTable(view.panel.tableModel(), figures, 2);
        QVERIFY2(
            view.panel.notesText().contains(QStringLiteral("24 GPU evaluations per search (3 steps × 8), 2 seeds")),
            qPrintable(view.panel.notesText()));

        // τ and k only where a checked strategy uses them.
        form->setStrategies({QStringLiteral("standard"), QStringLiteral("random")});
        QVERIFY(!form->factorBox()->isEnabled());
        QVERIFY(!form->tauBox()->isEnabled());
    }

    // A GPU the store knows but on which the space was never run: the comparison says so instead of running.
    void spaceWithoutRuntimesOnTheGpu()
    {
        const QString path = copyOfStore(QStringLiteral("other-gpu.gpuf"));
        QVERIFY(!path.isEmpty());
        {
            auto store = Store::open(path, Store::Mode::ExistingOnly);
            QVERIFY(store);
            Hardware other;
            other.name = QStringLiteral("Test GPU without runs");
            QVERIFY(HardwareRepo(**store).ensure(other));
        }
        View view;
        QVERIFY(openIn(view, path));
        QCOMPARE(view.panel.form()->hardwareBox()->count(), 1); // only where the space has runtimes
        QVERIFY(fillForm(view, kStrategies, 2, 2));
        auto options = view.panel.form()->options();
        QVERIFY2(options, qPrintable(options.error()));
        options->base.hardware = QStringLiteral("Test GPU without runs");
        view.panel.controller()->run(*options);
        QTRY_VERIFY_WITH_TIMEOUT(!view.panel.controller()->isRunning(), 60000);
        QVERIFY(!view.panel.controller()->report());
        QVERIFY2(view.panel.statusText().contains(QStringLiteral("has no recorded runtime on Test GPU without runs")),
            qPrintable(view.panel.statusText()));
    }
};

QTEST_MAIN(TestCompareView)
#include "tst_compare_view.moc"
