// MetricsTable; see metrics_table.h.
#include "widgets/calibration/metrics_table.h"

#include "core/session/calibration_data.h"
#include "core/session/selection.h"
#include "widgets/calibration/calibration_view.h"
#include "widgets/calibration/metrics_table_model.h"
#include "widgets/common/flow_layout.h"
#include "widgets/common/view_setup.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace gpuf {

namespace {

// Tints each column's best value (the model makes it bold) with the palette's highlight, so it follows light and dark
// themes.
class BestCellDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        if (index.data(MetricsTableModel::BestRole).toBool() && !(option.state & QStyle::State_Selected)) {
            QColor tint = option.palette.color(QPalette::Highlight);
            tint.setAlphaF(0.22f);
            painter->fillRect(option.rect, tint);
        }
        QStyledItemDelegate::paint(painter, option, index);
    }
};

// Sorts by the raw values and keeps rows without a value last in either order.
class MetricsSortProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override
    {
        const bool leftValid = left.data(sortRole()).isValid();
        const bool rightValid = right.data(sortRole()).isValid();
        if (leftValid != rightValid)
            return sortOrder() == Qt::AscendingOrder ? leftValid : rightValid;
        return QSortFilterProxyModel::lessThan(left, right);
    }
};

void fillCombo(QComboBox *combo, const QString &allText, const QList<NamedRow> &rows, const QString &current)
{
    const QSignalBlocker blocker(combo);
    combo->clear();
    combo->addItem(allText, QString());
    for (const NamedRow &row : rows)
        combo->addItem(row.name, row.name);
    combo->setCurrentIndex(std::max(0, combo->findData(current)));
}

} // namespace

MetricsTable::MetricsTable(CalibrationData *data, Selection *selection, QWidget *parent)
    : QWidget(parent)
    , m_data(data)
    , m_selection(selection)
    , m_model(new MetricsTableModel(this))
    , m_proxy(new MetricsSortProxy(this))
    , m_view(new QTableView(this))
{
    buildControls();
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(MetricsTableModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setItemDelegate(new BestCellDelegate(m_view));
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(MetricsTableModel::ForecasterColumn, Qt::AscendingOrder);
    setupTableView(m_view, QAbstractItemView::SingleSelection);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(false);
    connect(m_view, &QTableView::activated, this, &MetricsTable::drillDown);

    connect(m_data, &CalibrationData::changed, this, &MetricsTable::applySnapshot);
    connect(m_data, &CalibrationData::loadingChanged, this, &MetricsTable::updateStatus);
    applySnapshot();
}

MetricsTable::~MetricsTable() = default;

void MetricsTable::buildControls()
{
    m_forecasters = new QToolButton(this);
    m_forecasterMenu = new QMenu(m_forecasters);
    m_forecasters->setMenu(m_forecasterMenu);
    m_forecasters->setPopupMode(QToolButton::InstantPopup);
    m_forecasters->setToolTip(tr("The forecasters to compare"));
    m_problem = new QComboBox(this);
    m_problem->setToolTip(tr("Only candidates of this problem"));
    m_hardware = new QComboBox(this);
    m_hardware->setToolTip(tr("Only forecasts for this hardware"));
    m_samePairs = new QCheckBox(tr("Same pairs only"), this);
    m_samePairs->setToolTip(tr("Compare the forecasters only on the pairs every one of them forecast"));
    m_samePairs->setChecked(true);
    m_bootstrap = new QSpinBox(this);
    m_bootstrap->setRange(0, 10000);
    m_bootstrap->setSingleStep(100);
    m_bootstrap->setSpecialValueText(tr("no intervals"));
    m_bootstrap->setSuffix(tr(" resamples"));
    m_bootstrap->setToolTip(tr("Bootstrap resamples for the 95% intervals"));
    m_bootstrap->setValue(m_data->request().bootstrapResamples);
    m_straddling = new QComboBox(this);
    for (metrics::StraddlingRule rule : metrics::kStraddlingRules)
        m_straddling->addItem(tr("Straddling pairs %1").arg(metrics::straddlingRuleText(rule)), int(rule));
    m_straddling->setToolTip(tr("Pairs whose measured speedup's 95% interval straddles a bin edge could be in either "
                                "bin: count them in the measured bin, the bin below or above the edge, the other "
                                "bin, or leave them out (label noise; the Calibration dock's Ordinal tab compares "
                                "all five)"));
    m_export = new QPushButton(tr("Export CSV…"), this);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    // Wraps in a narrow dock rather than widening the window.
    auto *bar = new FlowLayout;
    bar->addWidget(m_forecasters);
    bar->addWidget(m_problem);
    bar->addWidget(m_hardware);
    bar->addWidget(m_samePairs);
    bar->addWidget(m_bootstrap);
    bar->addWidget(m_straddling);
    bar->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);

    connect(m_problem, &QComboBox::currentIndexChanged, this, &MetricsTable::requestFromControls);
    connect(m_hardware, &QComboBox::currentIndexChanged, this, &MetricsTable::requestFromControls);
    connect(m_bootstrap, &QSpinBox::editingFinished, this, &MetricsTable::requestFromControls);
    connect(m_straddling, &QComboBox::currentIndexChanged, this, &MetricsTable::requestFromControls);
    connect(m_forecasterMenu, &QMenu::triggered, this, &MetricsTable::requestFromControls);
    connect(m_samePairs, &QCheckBox::toggled, this, [this](bool on) {
        m_model->setComparison(on ? metrics::Comparison::SamePairs : metrics::Comparison::AllPairs);
        updateStatus();
    });
    connect(m_export, &QPushButton::clicked, this, &MetricsTable::exportWithDialog);
}

void MetricsTable::applySnapshot()
{
    const auto snapshot = m_data->snapshot();
    if (snapshot->error.isEmpty())
        fillChoices();
    m_model->setSnapshot(
        snapshot, m_samePairs->isChecked() ? metrics::Comparison::SamePairs : metrics::Comparison::AllPairs);
    updateStatus();
}

void MetricsTable::fillChoices()
{
    const auto snapshot = m_data->snapshot();
    const CalibrationRequest &request = snapshot->request;
    fillCombo(m_problem, tr("All problems"), snapshot->pairs.problems, request.problem);
    fillCombo(m_hardware, tr("All hardware"), snapshot->pairs.hardware, request.hardware);
    m_forecasterMenu->clear();
    for (const NamedRow &f : snapshot->pairs.allForecasters) {
        QAction *action = m_forecasterMenu->addAction(f.name);
        action->setData(f.name);
        action->setCheckable(true);
        action->setChecked(request.forecasters.isEmpty() || request.forecasters.contains(f.name));
    }
    const qsizetype all = snapshot->pairs.allForecasters.size();
    const qsizetype chosen = request.forecasters.isEmpty() ? all : request.forecasters.size();
    m_forecasters->setText(chosen == all ? tr("All %n forecaster(s)", nullptr, int(all))
                                         : tr("%1 of %2 forecasters").arg(chosen).arg(all));
    const QSignalBlocker blocker(m_bootstrap);
    m_bootstrap->setValue(request.bootstrapResamples);
    const QSignalBlocker blockStraddling(m_straddling);
    m_straddling->setCurrentIndex(std::max(0, m_straddling->findData(int(request.straddling))));
}

void MetricsTable::requestFromControls()
{
    CalibrationRequest request = m_data->request();
    request.problem = m_problem->currentData().toString();
    request.hardware = m_hardware->currentData().toString();
    request.bootstrapResamples = m_bootstrap->value();
    request.straddling = metrics::StraddlingRule(m_straddling->currentData().toInt());
    QStringList chosen;
    const QList<QAction *> actions = m_forecasterMenu->actions();
    for (const QAction *action : actions) {
        if (action->isChecked())
            chosen.append(action->data().toString());
    }
    // All checked means "all", so forecasters added to the store later are included too.
    request.forecasters = chosen.size() == actions.size() ? QStringList() : chosen;
    m_data->setRequest(request);
}

QString MetricsTable::statusText() const { return m_status->text(); }

void MetricsTable::updateStatus()
{
    const auto snapshot = m_data->snapshot();
    QStringList parts;
    if (m_data->isLoading())
        parts.append(tr("Computing metrics…"));
    if (!snapshot->error.isEmpty()) {
        parts.append(tr("The metrics could not be computed: %1").arg(snapshot->error));
    } else if (snapshot->storePath.isEmpty()) {
        parts.append(tr("Open a store to evaluate its forecasts."));
    } else {
        const bool same = m_model->comparison() == metrics::Comparison::SamePairs;
        const std::size_t rows = same ? snapshot->metrics.samePairRows.size() : snapshot->metrics.rows.size();
        const qint64 shared = snapshot->metrics.sharedPairs(metrics::Comparison::SamePairs);
        parts.append(same
                ? tr("%n scored forecast(s) on the %1 pair(s) every forecaster shown forecast", nullptr, int(rows))
                      .arg(shared)
                : tr("%n scored forecast(s)", nullptr, int(rows)));
        if (m_model->tooFewSharedPairs())
            parts.append(tr("too few pairs in common (under %1) to rank the forecasters: no best is marked; untick "
                            "the forecasters with few forecasts (a student, say) or Same pairs only")
                             .arg(metrics::kMinSharedPairs));
        if (const std::optional<PairOrigin> origin = snapshot->request.origin)
            parts.append(tr("only %1 (Calibration ▸ Origin)").arg(pairOriginText(*origin)));
        if (const qint64 missing = snapshot->pairs.withoutTruth(); missing > 0)
            parts.append(tr("%n forecast(s) have no measured truth", nullptr, int(missing)));
        if (const qint64 failed = snapshot->pairs.failedCandidates(); failed > 0)
            parts.append(tr("%n forecast(s) are of failed candidates (not scored)", nullptr, int(failed)));
        qint64 straddling = 0;
        for (const metrics::LabelNoise &n : snapshot->labelNoise)
            straddling += n.straddling;
        if (straddling > 0)
            parts.append(tr("%n scored forecast(s) straddle a bin edge, counted %1", nullptr, int(straddling))
                             .arg(metrics::straddlingRuleText(snapshot->request.straddling)));
    }
    m_status->setText(parts.join(QStringLiteral(" · ")));
    m_export->setEnabled(m_model->rowCount() > 0);
}

void MetricsTable::drillDown(const QModelIndex &proxyIndex)
{
    if (!m_selection || !proxyIndex.isValid())
        return;
    const auto snapshot = m_data->snapshot();
    const RowId forecaster = proxyIndex.data(MetricsTableModel::ForecasterIdRole).toLongLong();
    const bool same = m_model->comparison() == metrics::Comparison::SamePairs;
    const auto &rows = same ? snapshot->metrics.samePairRows : snapshot->metrics.rows;
    QList<RowId> ids;
    for (const metrics::ScoredRow &row : rows) {
        if (row.forecasterId == forecaster)
            ids.append(row.pairId);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    const QString name = proxyIndex.siblingAtColumn(MetricsTableModel::ForecasterColumn).data().toString();
    m_selection->setFilter(ids, tr("Candidates scored for %1 (%n pair(s))", nullptr, int(ids.size())).arg(name));
}

Status MetricsTable::exportCsv(const QString &path) const { return writeMetricsCsv(path, m_model->reports()); }

void MetricsTable::exportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export metrics"), QStringLiteral("metrics.csv"), tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const Status status = exportCsv(path); !status)
        QMessageBox::warning(this, tr("Export metrics"), status.error());
}

void MetricsTable::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        m_view->viewport()->update(); // the best-value tint is derived from the palette
}

} // namespace gpuf
