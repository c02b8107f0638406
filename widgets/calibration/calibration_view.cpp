// CalibrationView; see calibration_view.h.
#include "widgets/calibration/calibration_view.h"

#include "core/session/calibration_data.h"
#include "widgets/calibration/budget_curve_plot.h"
#include "widgets/calibration/confusion_plot.h"
#include "widgets/calibration/cumulative_reliability_plot.h"
#include "widgets/calibration/ordinal_view.h"
#include "widgets/calibration/reliability_plot.h"
#include "widgets/calibration/risk_coverage_plot.h"
#include "widgets/common/flow_layout.h"

#include "core/session/selection.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QTabWidget>
#include <QVBoxLayout>

namespace gpuf {

PlotInput calibrationPlotInput(const std::shared_ptr<const CalibrationSnapshot> &snapshot,
    metrics::Comparison comparison, const QList<RowId> &forecasterIds)
{
    PlotInput input;
    if (!snapshot)
        return input;
    input.options = snapshot->request.options();
    // The pairs two forecasters both forecast are computed for the two the request names: others draw nothing until the
    // snapshot for them arrives, rather than another pair's rows.
    const std::vector<qint64> &compared = snapshot->metrics.compared;
    if (comparison == metrics::Comparison::ComparedPairs
        && (forecasterIds.size() != 2 || compared.size() != 2 || !forecasterIds.contains(compared[0])
            || !forecasterIds.contains(compared[1])))
        return input;
    const std::vector<metrics::ForecasterReport> &reports = snapshot->metrics.reportsFor(comparison);
    const std::vector<metrics::ScoredRow> &rows = snapshot->metrics.rowsFor(comparison);
    for (RowId id : forecasterIds) {
        const auto found = std::find_if(
            reports.begin(), reports.end(), [id](const metrics::ForecasterReport &r) { return r.forecaster.id == id; });
        if (found == reports.end() || input.series.size() >= kMaxPlotSeries)
            continue;
        PlotSeries series;
        series.name = found->forecaster.name; // the name every view and the CLI use
        series.forecasterId = id;
        series.report = std::shared_ptr<const metrics::MetricsReport>(snapshot, &found->report);
        auto own = std::make_shared<std::vector<metrics::ScoredRow>>();
        std::copy_if(rows.begin(), rows.end(), std::back_inserter(*own),
            [id](const metrics::ScoredRow &row) { return row.forecasterId == id; });
        series.rows = std::move(own);
        input.series.append(series);
    }
    auto references = std::make_shared<QHash<RowId, RowId>>();
    references->reserve(snapshot->pairs.pairs.size());
    auto replayed = std::make_shared<QSet<RowId>>();
    for (const ScoredPair &pair : snapshot->pairs.pairs) {
        references->insert(pair.candidateId, pair.referenceId);
        if (pair.truth == TruthSource::Replayed)
            replayed->insert(pair.candidateId);
    }
    input.referenceIds = std::move(references);
    input.replayedCandidates = std::move(replayed);
    for (const NamedRow &problem : snapshot->pairs.problems)
        input.problemNames.insert(problem.id, problem.name);
    auto hardware = std::make_shared<QHash<RowId, QString>>();
    for (const NamedRow &h : snapshot->pairs.hardware)
        hardware->insert(h.id, h.name);
    input.hardwareNames = std::move(hardware);
    return input;
}

// The choosers in a bar that wraps, the status and the scope line under it, and the plots in tabs below.
void CalibrationView::buildLayout()
{
    // Each label stays with its box; the pairs wrap, so four choosers never widen the dock beyond the window.
    auto *choosers = new QWidget(this);
    auto *bar = new FlowLayout(choosers);
    bar->setContentsMargins(0, 0, 0, 0);
    const auto addLabelled = [this, choosers, bar](const QString &text, QWidget *field) {
        auto *pair = new QWidget(choosers);
        auto *row = new QHBoxLayout(pair);
        row->setContentsMargins(0, 0, 0, 0);
        auto *label = new QLabel(text, pair);
        label->setBuddy(field);
        row->addWidget(label);
        row->addWidget(field);
        bar->addWidget(pair);
    };
    addLabelled(tr("&Forecaster:"), m_firstBox);
    addLabelled(tr("Compare &with:"), m_secondBox);
    addLabelled(tr("&Pairs:"), m_comparisonBox);
    addLabelled(tr("&Origin:"), m_originBox);
    m_status->setWordWrap(true); // long notices must not widen the main window

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(choosers);
    layout->addWidget(m_status);
    layout->addWidget(m_scope);
    layout->addWidget(m_tabs, 1);
    m_tabs->addTab(m_reliability, tr("Reliability"));
    m_tabs->addTab(m_confusion, tr("Confusion"));
    m_tabs->addTab(m_riskCoverage, tr("Risk–coverage"));
    m_tabs->addTab(m_budget, tr("Ranking utility"));
    m_tabs->addTab(m_cumulative, tr("Cumulative reliability"));
    m_tabs->addTab(m_ordinal, tr("Ordinal"));
}

CalibrationView::CalibrationView(CalibrationData *data, Selection *selection, QWidget *parent)
    : QWidget(parent)
    , m_data(data)
    , m_firstBox(new QComboBox(this))
    , m_secondBox(new QComboBox(this))
    , m_comparisonBox(new QComboBox(this))
    , m_originBox(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_scope(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_reliability(new ReliabilityPlot(this))
    , m_confusion(new ConfusionPlot(this))
    , m_riskCoverage(new RiskCoveragePlot(this))
    , m_budget(new BudgetCurvePlot(this))
    , m_cumulative(new CumulativeReliabilityPlot(this))
    , m_ordinal(new OrdinalView(this))
{
    setWindowTitle(tr("Calibration"));
    m_comparisonBox->addItem(tr("each on all its pairs"), int(metrics::Comparison::AllPairs));
    // "Both": the two forecasters compared here, whatever else the Metrics dock has ticked.
    m_comparisonBox->addItem(tr("on the pairs both forecast"), int(metrics::Comparison::ComparedPairs));
    m_comparisonBox->setToolTip(tr("Compare the two forecasters on the pairs both forecast, so neither is judged on "
                                   "easier ones"));
    m_originBox->addItem(tr("every origin"), QString());
    for (const PairOrigin origin : {PairOrigin::Corpus, PairOrigin::Imported, PairOrigin::Search, PairOrigin::Other})
        m_originBox->addItem(pairOriginText(origin), pairOriginName(origin));
    m_originBox->setToolTip(tr("Only pairs whose candidate came from the kernel corpus, an import (a published dataset "
                               "or a recorded sweep), a search run in this store, or elsewhere (written by hand or by "
                               "an LLM). The Metrics dock follows the same choice."));
    m_scope->setObjectName(QStringLiteral("calibrationScope"));
    m_scope->setWordWrap(true);
    m_scope->setTextInteractionFlags(Qt::TextSelectableByMouse);

    buildLayout();
    for (PlotWidget *plot :
        std::initializer_list<PlotWidget *> {m_reliability, m_confusion, m_riskCoverage, m_budget, m_cumulative})
        plot->setSelection(selection);
    // The window's τ and forecaster: the slider and the first chooser show them and set them.
    m_selection = selection;
    if (m_selection) {
        m_riskCoverage->setThreshold(m_selection->trustThreshold());
        connect(m_riskCoverage->thresholdSlider(), &QSlider::valueChanged, m_selection,
            [this] { m_selection->setTrustThreshold(m_riskCoverage->threshold()); });
        connect(m_selection, &Selection::trustThresholdChanged, m_riskCoverage, &RiskCoveragePlot::setThreshold);
        connect(m_selection, &Selection::forecasterNameChanged, this, &CalibrationView::showWindowForecaster);
        connect(m_selection, &Selection::scopeChanged, this, &CalibrationView::updateScope);
        connect(m_firstBox, &QComboBox::activated, this, [this] {
            if (const ScoredPairsForecaster *f
                = m_snapshot ? m_snapshot->pairs.forecaster(m_firstBox->currentData().value<RowId>()) : nullptr)
                m_selection->setForecasterName(f->name);
        });
    }

    for (QComboBox *box : {m_firstBox, m_secondBox, m_comparisonBox, m_originBox}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents); // forecaster names are long: never cut them
        connect(box, &QComboBox::currentIndexChanged, this, &CalibrationView::refresh);
    }
    if (m_data) {
        connect(m_data, &CalibrationData::changed, this, &CalibrationView::snapshotChanged);
        connect(m_data, &CalibrationData::loadingChanged, this, &CalibrationView::snapshotChanged);
    }
    snapshotChanged();
}

CalibrationView::~CalibrationView() = default;

QString CalibrationView::statusText() const { return m_status->text(); }

QString CalibrationView::scopeText() const { return m_scope->text(); }

void CalibrationView::setForecasters(RowId first, RowId second)
{
    const QSignalBlocker blockFirst(m_firstBox);
    const QSignalBlocker blockSecond(m_secondBox);
    m_firstBox->setCurrentIndex(std::max(0, m_firstBox->findData(first)));
    m_secondBox->setCurrentIndex(std::max(0, m_secondBox->findData(second)));
    refresh();
}

void CalibrationView::setComparison(metrics::Comparison comparison)
{
    m_comparisonBox->setCurrentIndex(m_comparisonBox->findData(int(comparison)));
}

void CalibrationView::snapshotChanged()
{
    const std::shared_ptr<const CalibrationSnapshot> next = m_data ? m_data->snapshot() : nullptr;
    if (next != m_snapshot) {
        m_snapshot = next;
        refillForecasters();
        if (m_snapshot) {
            const QSignalBlocker blockOrigin(m_originBox);
            const std::optional<PairOrigin> origin = m_snapshot->request.origin;
            m_originBox->setCurrentIndex(
                std::max(0, m_originBox->findData(origin ? pairOriginName(*origin) : QString())));
        }
        refresh();
    }
    QString status;
    if (m_data && m_data->isLoading())
        status = tr("Loading forecasts…");
    else if (!m_snapshot || m_snapshot->storePath.isEmpty())
        status = tr("No store open.");
    else if (!m_snapshot->error.isEmpty())
        status = tr("Could not load the forecasts: %1").arg(m_snapshot->error);
    else if (m_snapshot->isEmpty() && m_snapshot->request.origin)
        status = tr("No forecast of %1 has a measured truth: choose every origin to see the others.")
                     .arg(pairOriginText(*m_snapshot->request.origin));
    else if (m_snapshot->isEmpty())
        status = tr("No forecast in this store has a measured truth yet.");
    else if (const qint64 replayed = m_snapshot->pairs.replayedTruths(); replayed > 0)
        status = tr("↺ %n scored forecast(s) have a truth replayed from stored runtimes, not measured here.", nullptr,
            int(replayed));
    m_status->setText(status);
    m_status->setVisible(!status.isEmpty()); // a line only while there is something to say
}

void CalibrationView::refillForecasters()
{
    // Keep the chosen forecasters across reloads when they are still there.
    const RowId first = m_firstBox->currentData().value<RowId>();
    const RowId second = m_secondBox->currentData().value<RowId>();
    const QSignalBlocker blockFirst(m_firstBox);
    const QSignalBlocker blockSecond(m_secondBox);
    m_firstBox->clear();
    m_secondBox->clear();
    m_secondBox->addItem(tr("(none)"), RowId(0));
    if (m_snapshot) {
        for (const ScoredPairsForecaster &forecaster : m_snapshot->pairs.forecasters) {
            m_firstBox->addItem(forecaster.name, forecaster.id);
            m_secondBox->addItem(forecaster.name, forecaster.id);
        }
    }
    m_firstBox->setCurrentIndex(std::max(0, m_firstBox->findData(first)));
    m_secondBox->setCurrentIndex(std::max(0, m_secondBox->findData(second)));
    // The window's forecaster first, when this store scored it.
    if (const int window = m_selection ? m_firstBox->findText(m_selection->forecasterName()) : -1; window >= 0)
        m_firstBox->setCurrentIndex(window);
}

void CalibrationView::showWindowForecaster(const QString &name)
{
    const int index = m_firstBox->findText(name);
    if (index >= 0 && index != m_firstBox->currentIndex())
        m_firstBox->setCurrentIndex(index); // refresh() follows
}

void CalibrationView::refresh()
{
    QList<RowId> ids;
    if (m_firstBox->count() > 0)
        ids.append(m_firstBox->currentData().value<RowId>());
    const RowId second = m_secondBox->currentData().value<RowId>();
    if (second != 0 && !ids.contains(second))
        ids.append(second);
    auto comparison = metrics::Comparison(m_comparisonBox->currentData().toInt());
    if (ids.size() < 2)
        comparison = metrics::Comparison::AllPairs; // one forecaster: "both" has nothing to intersect with
    const PlotInput input = calibrationPlotInput(m_snapshot, comparison, ids);
    for (PlotWidget *plot :
        std::initializer_list<PlotWidget *> {m_reliability, m_confusion, m_riskCoverage, m_budget, m_cumulative})
        plot->setInput(input);
    m_ordinal->showForecaster(m_snapshot, comparison, ids.isEmpty() ? RowId(0) : ids.first());
    updateScope();
    requestScope(); // nothing when the snapshot already holds these forecasters' pairs in common and this origin
}

void CalibrationView::requestScope()
{
    if (!m_data || !m_snapshot || m_snapshot->storePath.isEmpty())
        return;
    CalibrationRequest request = m_data->request();
    request.origin = pairOriginFromName(m_originBox->currentData().toString());
    const qint64 first = m_firstBox->currentData().value<RowId>();
    const qint64 second = m_secondBox->currentData().value<RowId>();
    request.compared = first != 0 && second != 0 && first != second ? QList<qint64> {first, second} : QList<qint64> {};
    m_data->setRequest(request); // reloads only when something changed
}

void CalibrationView::updateScope()
{
    QList<RowId> ids;
    if (m_firstBox->count() > 0)
        ids.append(m_firstBox->currentData().value<RowId>());
    if (const RowId second = m_secondBox->currentData().value<RowId>(); second != 0 && !ids.contains(second))
        ids.append(second);
    const bool loaded = m_snapshot && !m_snapshot->storePath.isEmpty() && m_snapshot->error.isEmpty();
    m_scope->setText(loaded
            ? calibrationScopeText(*m_snapshot, metrics::Comparison(m_comparisonBox->currentData().toInt()), ids,
                m_selection ? m_selection->problemId() : RowId(0))
            : QString());
    m_scope->setVisible(loaded);
}

} // namespace gpuf
