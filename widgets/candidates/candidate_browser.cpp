// CandidateBrowser; see candidate_browser.h.
#include "widgets/candidates/candidate_browser.h"

#include "core/bins/bins.h"
#include "core/session/candidate_source.h"
#include "widgets/candidates/candidate_filter_bar.h"
#include "widgets/candidates/candidate_table_model.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace gpuf {
namespace {

// Column widths from sample contents, so no column is measured row by row (ResizeToContents would read every row).
void setColumnWidths(QTableView *view)
{
    const QFontMetrics metrics = view->fontMetrics();
    const QList<QPair<int, QString>> samples {
        {NameColumn, QStringLiteral("v3_shared_tiled_xx")},
        {ProblemColumn, QStringLiteral("layer_norm_xx")},
        {OriginColumn, QStringLiteral("import:eval_set")},
        {ParentColumn, QStringLiteral("v2_float4_xxxx")},
        {LanguageColumn, QStringLiteral("Language")},
        {ChangedLinesColumn, QStringLiteral("Lines changed")},
        {SpeedupColumn, QStringLiteral("compile failed")},
        {ConfidenceColumn, QStringLiteral("Confidence")},
        {ExpectedSpeedupColumn, QStringLiteral("Expected speedup")},
        {StatusColumn, QStringLiteral("forecast trusted")},
        {CreatedColumn, QStringLiteral("2026-03-02 08:00")},
        {PlausibilityColumn, QStringLiteral("⚠ implausible")},
        {TimesColumn, QStringLiteral("device 11.0 µs · [call 14.7 µs]")},
    };
    // Never narrower than the header: a translated title ("Geänderte Zeilen") can outgrow the English sample.
    const auto headerWidth = [&](int column) {
        return metrics.horizontalAdvance(view->model()->headerData(column, Qt::Horizontal).toString());
    };
    for (const auto &[column, text] : samples) {
        const int width = std::max(metrics.horizontalAdvance(text), headerWidth(column));
        view->setColumnWidth(column, width + 3 * metrics.averageCharWidth());
    }
    int binWidth = 0;
    for (int bin = 1; bin <= bins::kBinCount; ++bin)
        binWidth = std::max(binWidth, metrics.horizontalAdvance(QStringLiteral("8 · ") + bins::label(bin)));
    for (int column : {MeasuredBinColumn, PredictedBinColumn})
        view->setColumnWidth(column, std::max(binWidth, headerWidth(column)) + 3 * metrics.averageCharWidth());
}

// Widens the name columns to the longest name the table holds (found by length, so one name is measured, not every
// row), up to three times the sample width: a 1280-pixel window shows "v10_unfused_two_pass" whole.
void fitNameColumns(QTableView *view, const CandidateTable &table)
{
    const QString *longest = nullptr;
    for (const CandidateRow &row : table.rows) {
        if (!longest || row.name.size() > longest->size())
            longest = &row.name;
    }
    if (!longest)
        return;
    const QFontMetrics metrics = view->fontMetrics();
    const int wanted = metrics.horizontalAdvance(*longest) + 3 * metrics.averageCharWidth();
    for (int column : {NameColumn, ParentColumn}) {
        const int sample = view->columnWidth(column);
        if (wanted > sample)
            view->setColumnWidth(column, std::min(wanted, 3 * sample));
    }
}

} // namespace

CandidateBrowser::CandidateBrowser(CandidateSource *source, Selection *selection, QWidget *parent)
    : QWidget(parent)
    , m_source(source)
    , m_selection(selection)
    , m_filterBar(new CandidateFilterBar(this))
    , m_summary(new QLabel(this))
    , m_clearDrillDown(new QToolButton(this))
    , m_view(new QTableView(this))
    , m_model(new CandidateTableModel(this))
{
    buildLayout();
    connectSource();
    connectChoices();
    connectModel();

    m_model->setPendingIds(m_source->pendingIds());
    applyFilter();
    if (m_source->table())
        showTable(m_source->table());
    updateSummary();
}

void CandidateBrowser::buildLayout()
{
    m_clearDrillDown->setText(tr("Show all"));
    m_clearDrillDown->setToolTip(tr("Leave the drill-down and show every kernel of the scope again"));
    m_clearDrillDown->hide();
    auto *summaryRow = new QHBoxLayout;
    summaryRow->addWidget(m_summary, 1);
    summaryRow->addWidget(m_clearDrillDown);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filterBar);
    layout->addLayout(summaryRow);
    layout->addWidget(m_view, 1);

    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    // Uniform row heights: the view never asks each row for its size.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionsMovable(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    setColumnWidths(m_view);
}

// The table as the source loads, updates and patches it.
void CandidateBrowser::connectSource()
{
    connect(m_source, &CandidateSource::tableLoaded, this, &CandidateBrowser::showTable);
    connect(m_source, &CandidateSource::tableUpdated, m_model, &CandidateTableModel::updateTable);
    connect(m_source, &CandidateSource::tableUpdated, this, &CandidateBrowser::updateSummary);
    connect(m_source, &CandidateSource::rowsPatched, m_model, &CandidateTableModel::patchRows);
    connect(m_source, &CandidateSource::rowsPatched, this, &CandidateBrowser::updateSummary);
    // A patch changes counts too (a GPU's measurements, a forecaster's forecasts): the choices say them.
    connect(m_source, &CandidateSource::rowsPatched, m_filterBar,
        [this](const CandidateTablePtr &table) { m_filterBar->updateCounts(table); });
    connect(m_source, &CandidateSource::loadingStarted, this, [this]() {
        m_message.clear();
        updateSummary();
    });
    connect(m_source, &CandidateSource::loadFailed, this, [this](const QString &message) {
        m_message = message;
        updateSummary();
    });
    connect(m_source, &CandidateSource::cleared, this, [this]() { showTable(nullptr); });
    connect(m_source, &CandidateSource::pendingIdsChanged, m_model, &CandidateTableModel::setPendingIds);
}

// The filter bar's choices and the Selection's, which move together.
void CandidateBrowser::connectChoices()
{
    connect(m_filterBar, &CandidateFilterBar::filterChanged, this, &CandidateBrowser::applyFilter);
    connect(m_filterBar, &CandidateFilterBar::hardwareChanged, this, &CandidateBrowser::chooseHardware);
    connect(m_filterBar, &CandidateFilterBar::forecasterChanged, this, &CandidateBrowser::chooseForecaster);
    connect(m_filterBar, &CandidateFilterBar::trustThresholdChanged, m_selection, &Selection::setTrustThreshold);
    // The window's choices, whoever changed them (a menu, the calibration plots, another store opened).
    connect(m_selection, &Selection::forecasterNameChanged, this, [this] {
        if (!m_settingChoices)
            showChoices(false);
    });
    connect(m_selection, &Selection::hardwareNameChanged, this, [this] {
        if (!m_settingChoices)
            showChoices(false);
    });
    connect(m_selection, &Selection::trustThresholdChanged, this, [this](double tau) {
        m_filterBar->showTrustThreshold(tau);
        m_model->setTrustThreshold(tau);
    });

    connect(m_selection, &Selection::answersHiddenChanged, this, &CandidateBrowser::showAnswers);
    connect(m_selection, &Selection::scopeChanged, this, &CandidateBrowser::applyFilter);
    connect(m_selection, &Selection::filterChanged, this, &CandidateBrowser::applyFilter);
    connect(m_selection, &Selection::pairChanged, this, &CandidateBrowser::followPair);
    connect(m_selection, &Selection::baselineKindChanged, this,
        [this]() { writePair(m_view->selectionModel()->currentIndex().row()); });
    connect(m_clearDrillDown, &QToolButton::clicked, m_selection, &Selection::clearFilter);
}

// The model's resets and new orders, and the view's current row and selection, written to the Selection.
void CandidateBrowser::connectModel()
{
    // A reset clears the view's selection silently; once the new rows are in place it is taken from the Selection.
    connect(m_model, &CandidateTableModel::modelReset, this, [this]() { m_restorePending = true; });
    connect(m_model, &CandidateTableModel::orderApplied, this, [this]() {
        if (std::exchange(m_restorePending, false))
            restoreSelection();
        const QModelIndex current = m_view->selectionModel()->currentIndex();
        if (current.isValid())
            m_view->scrollTo(current);
        updateSummary();
    });
    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CandidateBrowser::onCurrentChanged);
    connect(
        m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &CandidateBrowser::onSelectionChanged);
}

void CandidateBrowser::showTable(const CandidateTablePtr &table)
{
    {
        const QSignalBlocker blocker(m_filterBar); // the model takes the bar's choices below, once
        m_filterBar->setTable(table);
    }
    m_model->setTable(table);
    const QString path = table ? m_source->path() : QString();
    const bool newStore = path != m_storePath;
    m_storePath = path;
    showChoices(newStore);
    m_filterBar->showTrustThreshold(m_selection->trustThreshold());
    m_model->setTrustThreshold(m_selection->trustThreshold());
    if (table)
        fitNameColumns(m_view, *table);
    applyFilter();
    updateSummary();
}

void CandidateBrowser::showChoices(bool newStore)
{
    const CandidateTablePtr table = m_model->table();
    if (!table)
        return;
    const QString builtIn = QStringLiteral("costmodel"); // every store's forecaster, created on first use
    QString forecaster = m_selection->forecasterName();
    const auto hasForecaster = [&table](const QString &name) {
        return std::any_of(table->forecasters.cbegin(), table->forecasters.cend(),
            [&name](const CandidateForecaster &f) { return f.name == name; });
    };
    m_settingChoices = true; // the Selection's signals come back here: shown once, below
    // Another store's forecaster (or none chosen yet) gives way to this store's busiest, else the built-in one. In the
    // same store an unknown name is one just added (a retrained model's) that the next table will hold: it stays.
    if (!hasForecaster(forecaster) && forecaster != builtIn && (newStore || forecaster.isEmpty())) {
        forecaster = table->defaultForecaster >= 0 ? table->forecasters[table->defaultForecaster].name : builtIn;
        m_selection->setForecasterName(forecaster);
    }
    QString hardware = m_selection->hardwareName();
    const auto hasHardware = [&table](const QString &name) {
        return std::any_of(table->hardware.cbegin(), table->hardware.cend(),
            [&name](const CandidateHardware &h) { return h.name == name; });
    };
    // Another store: a GPU it never saw is replaced by the one it measured most. The same store keeps "none" and a
    // preset the user chose, shown as measuring nothing.
    if (!hasHardware(hardware) && table->defaultHardware >= 0 && newStore) {
        hardware = table->hardware[table->defaultHardware].name;
        m_selection->setHardwareName(hardware);
    }
    m_settingChoices = false;
    m_filterBar->showForecaster(forecaster, tr("%1 (no forecasts in this store yet)").arg(forecaster));
    m_filterBar->showHardware(hardware,
        hardware.isEmpty() ? tr("None (forecasts name no GPU; nothing measured shown)")
                           : tr("%1 (nothing measured on it in this store)").arg(hardware));
    m_model->setForecasterIndex(m_filterBar->forecasterIndex());
    m_model->setHardwareIndex(m_filterBar->hardwareIndex());
}

void CandidateBrowser::chooseForecaster(int index)
{
    const CandidateTablePtr table = m_model->table();
    if (table && index >= 0 && index < table->forecasters.size())
        m_selection->setForecasterName(table->forecasters[index].name);
}

void CandidateBrowser::chooseHardware(int index)
{
    const CandidateTablePtr table = m_model->table();
    if (table && index >= 0 && index < table->hardware.size())
        m_selection->setHardwareName(table->hardware[index].name);
}

void CandidateBrowser::applyFilter()
{
    CandidateFilter filter = m_filterBar->filter();
    filter.problemId = m_selection->problemId();
    filter.searchId = m_selection->searchId();
    filter.ids = m_selection->filterIds();
    filter.restrictToIds = !filter.ids.isEmpty();
    std::sort(filter.ids.begin(), filter.ids.end());
    m_model->setFilter(filter);
    m_clearDrillDown->setVisible(filter.restrictToIds);
    updateSummary();
}

// Classroom mode: the columns that give a lesson's answer away (measured and forecast) are hidden until it is
// revealed, and the summary says why.
void CandidateBrowser::showAnswers()
{
    const bool hidden = m_selection->answersHidden();
    for (int column : {CandidateColumn::SpeedupColumn, CandidateColumn::MeasuredBinColumn,
             CandidateColumn::PredictedBinColumn, CandidateColumn::ConfidenceColumn,
             CandidateColumn::ExpectedSpeedupColumn, CandidateColumn::PlausibilityColumn, CandidateColumn::TimesColumn})
        m_view->setColumnHidden(column, hidden);
    // The filters on measured bins and forecast confidence would tell the same: off, the bin back to "any".
    if (hidden)
        m_filterBar->binBox()->setCurrentIndex(0);
    for (QWidget *filter : std::initializer_list<QWidget *> {
             m_filterBar->binBox(), m_filterBar->minConfidenceBox(), m_filterBar->maxConfidenceBox()}) {
        filter->setEnabled(!hidden);
        filter->setToolTip(hidden ? tr("Off until the lesson's step is revealed (classroom mode)") : QString());
    }
    updateSummary();
}

QString CandidateBrowser::summaryText() const { return m_summary->text(); }

void CandidateBrowser::updateSummary()
{
    QStringList parts;
    const QLocale locale;
    if (!m_message.isEmpty())
        parts.append(m_message);
    if (m_source->isLoading())
        parts.append(tr("Loading kernels…"));
    else if (m_model->table())
        parts.append(tr("%1 of %2 kernels")
                         .arg(locale.toString(m_model->rowCount()), locale.toString(m_model->totalRowCount())));
    if (m_model->isUpdating())
        parts.append(tr("updating…"));
    if (!m_selection->filterIds().isEmpty())
        parts.append(tr("drill-down: %1").arg(m_selection->filterDescription()));
    if (m_source->changedLinesPending())
        parts.append(tr("lines changed: computing…"));
    if (m_selection->answersHidden())
        parts.append(tr("measured and forecast columns hidden until the lesson's step is revealed"));
    m_summary->setText(parts.join(QStringLiteral(" · ")));
}

void CandidateBrowser::restoreSelection()
{
    m_restoring = true;
    QItemSelectionModel *selection = m_view->selectionModel();
    const QList<RowId> wanted = m_selection->selectedIds();
    const QSet<RowId> ids(wanted.cbegin(), wanted.cend());
    QItemSelection rows;
    const int last = m_model->columnCount() - 1;
    if (!ids.isEmpty()) {
        for (int row = 0; row < m_model->rowCount(); ++row) {
            if (ids.contains(m_model->kernelIdAt(row)))
                rows.select(m_model->index(row, 0), m_model->index(row, last));
        }
    }
    const int current = m_model->viewRowOf(m_selection->candidateId());
    if (current >= 0)
        selection->setCurrentIndex(m_model->index(current, 0), QItemSelectionModel::NoUpdate);
    selection->select(rows, QItemSelectionModel::ClearAndSelect);
    if (current >= 0)
        m_view->scrollTo(m_model->index(current, 0));
    m_restoring = false;
    onSelectionChanged(); // the selection is what the table shows selected
}

void CandidateBrowser::followPair(RowId candidateId)
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (current.isValid() && m_model->kernelIdAt(current.row()) == candidateId)
        return;
    const int row = m_model->viewRowOf(candidateId);
    if (row < 0)
        return;
    m_restoring = true;
    m_view->selectionModel()->setCurrentIndex(
        m_model->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(m_model->index(row, 0));
    m_restoring = false;
    onSelectionChanged();
}

void CandidateBrowser::onCurrentChanged(const QModelIndex &current)
{
    if (!m_restoring && current.isValid())
        writePair(current.row());
}

void CandidateBrowser::writePair(int viewRow)
{
    const int row = m_model->tableRowAt(viewRow);
    if (row < 0)
        return;
    const CandidateTable &table = *m_model->table();
    m_selection->setPair(
        table.rows[row].id, pairBaseline(table, row, m_selection->baselineKind(), m_selection->baselineId()));
}

void CandidateBrowser::onSelectionChanged()
{
    if (m_restoring)
        return;
    QList<RowId> ids;
    const QItemSelection selected = m_view->selectionModel()->selection();
    for (const QItemSelectionRange &range : selected) {
        for (int row = range.top(); row <= range.bottom(); ++row)
            ids.append(m_model->kernelIdAt(row));
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    m_selection->setSelectedIds(ids);
}

} // namespace gpuf
