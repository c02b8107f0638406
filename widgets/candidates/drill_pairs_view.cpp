// DrillPairsView and its model; see drill_pairs_view.h.
#include "widgets/candidates/drill_pairs_view.h"

#include "core/bins/bins.h"
#include "core/session/candidate_source.h"
#include "widgets/common/view_setup.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace gpuf {
DrillPairsModel::DrillPairsModel(const CandidateSource *source, QObject *parent)
    : QAbstractTableModel(parent)
    , m_source(source)
{ }

void DrillPairsModel::setPairs(const QList<DrillPair> &pairs)
{
    beginResetModel();
    m_pairs = pairs;
    endResetModel();
}

int DrillPairsModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_pairs.size()); }

int DrillPairsModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString DrillPairsModel::kernelName(RowId id) const
{
    const CandidateTablePtr table = m_source ? m_source->table() : nullptr;
    const int row = table ? table->rowOf(id) : -1;
    return row >= 0 ? table->rows[row].displayName() : tr("kernel %1").arg(id);
}

QVariant DrillPairsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_pairs.size())
        return {};
    const DrillPair &p = m_pairs[index.row()];
    if (role == Qt::DisplayRole) {
        switch (Column(index.column())) {
        case CandidateColumn:
            return kernelName(p.candidateId);
        case ReferenceColumn:
            return kernelName(p.referenceId);
        case HardwareColumn:
            return p.hardwareName.isEmpty() ? tr("none") : p.hardwareName;
        case TrueBinColumn:
            return bins::numberedLabel(p.trueBin);
        case PredictedBinColumn:
            return p.predictedBin ? bins::numberedLabel(*p.predictedBin) : tr("unparsed");
        case ForecasterColumn:
            return p.forecaster;
        case SampleColumn:
            return p.repeat + 1;
        case ColumnCount:
            break;
        }
    } else if (role == SortRole) {
        switch (Column(index.column())) {
        case TrueBinColumn:
            return p.trueBin;
        case PredictedBinColumn:
            return p.predictedBin.value_or(0);
        case SampleColumn:
            return p.repeat;
        default:
            return data(index, Qt::DisplayRole);
        }
    } else if (role == Qt::ToolTipRole) {
        return tr("forecast %1 of kernel %2 against kernel %3").arg(p.forecastId).arg(p.candidateId).arg(p.referenceId);
    }
    return {};
}

QVariant DrillPairsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case CandidateColumn:
        return tr("Candidate");
    case ReferenceColumn:
        return tr("Reference");
    case HardwareColumn:
        return tr("GPU");
    case TrueBinColumn:
        return tr("True bin");
    case PredictedBinColumn:
        return tr("Predicted bin");
    case ForecasterColumn:
        return tr("Forecaster");
    case SampleColumn:
        return tr("Sample");
    case ColumnCount:
        break;
    }
    return {};
}

DrillPairsView::DrillPairsView(const CandidateSource *source, Selection *selection, QWidget *parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_summary(new QLabel(this))
    , m_view(new QTableView(this))
    , m_model(new DrillPairsModel(source, this))
{
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Click a bar, a cell or a point of a calibration plot to list the forecasts behind it."));
    auto *proxy = new QSortFilterProxyModel(this);
    m_proxy = proxy;
    proxy->setSourceModel(m_model);
    proxy->setSortRole(DrillPairsModel::SortRole);
    m_view->setModel(proxy);
    setupTableView(m_view, QAbstractItemView::SingleSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the plot's order until the user sorts
    m_view->setAlternatingRowColors(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);

    connect(m_selection, &Selection::drillPairsChanged, this, &DrillPairsView::showPairs);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this, proxy](const QModelIndex &current) {
            const int row = proxy->mapToSource(current).row();
            if (row >= 0 && row < m_model->pairs().size())
                m_selection->setPair(m_model->pairs()[row].candidateId, m_model->pairs()[row].referenceId);
        });
    if (source) // names appear once the table is loaded
        connect(source, &CandidateSource::tableLoaded, m_view->viewport(), qOverload<>(&QWidget::update));
}

QString DrillPairsView::summaryText() const { return m_summary->text(); }

void DrillPairsView::showPairs(const QList<DrillPair> &pairs, const QString &description)
{
    m_model->setPairs(pairs);
    m_summary->setText(pairs.isEmpty() ? tr("No forecast behind this drill-down.")
                                       : tr("%1. Choose a row to see that pair's diff.").arg(description));
    if (pairs.isEmpty())
        return;
    {
        // The first pair is shown already (the plot set it): select its row without setting it again.
        const QSignalBlocker blocker(m_view->selectionModel());
        const QModelIndex first = m_proxy->mapFromSource(m_model->index(0, 0));
        m_view->selectionModel()->setCurrentIndex(
            first, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_view->scrollTo(first);
    }
    m_view->resizeColumnsToContents();
    bringToFront();
}

// The result of the user's click must be seen: the dock holding this view is shown and raised above its tabs.
void DrillPairsView::bringToFront()
{
    for (QWidget *w = parentWidget(); w; w = w->parentWidget()) {
        if (auto *dock = qobject_cast<QDockWidget *>(w)) {
            dock->show();
            dock->raise();
            return;
        }
    }
}

} // namespace gpuf
