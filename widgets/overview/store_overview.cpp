// StoreOverview; see store_overview.h.
#include "widgets/overview/store_overview.h"

#include "core/session/store_session.h"
#include "widgets/overview/problem_counts_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace gpuf {

StoreOverview::StoreOverview(StoreSession *session, QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_table(new QTableView(this))
    , m_model(new ProblemCountsModel(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(ProblemCountsModel::SortRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ProblemCountsModel::NameColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(ProblemCountsModel::NameColumn, QHeaderView::Stretch);
    m_table->setAlternatingRowColors(true);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);

    connect(session, &StoreSession::opened, this, &StoreOverview::showSnapshot);
    connect(session, &StoreSession::snapshotChanged, this, &StoreOverview::showSnapshot);
    connect(session, &StoreSession::opening, this,
        [this](const QString &path) { showMessage(tr("Opening %1…").arg(path)); });
    connect(session, &StoreSession::openFailed, this,
        [this](const QString &, const QString &message) { showMessage(message); });
    connect(session, &StoreSession::closed, this, [this]() { showMessage(tr("No store is open.")); });
    if (session->isOpen())
        showSnapshot(session->snapshot());
    else
        showMessage(tr("No store is open."));
}

void StoreOverview::showSnapshot(const StoreSnapshot &snapshot)
{
    const StoreCounts &t = snapshot.statistics.totals;
    const QLocale locale;
    // Replays of stored runtimes are counted apart: they were not run here.
    const qint64 replayed = snapshot.statistics.replayedMeasurements;
    const QString measurements = replayed > 0
        ? tr("%1 (%2 replayed ↺)").arg(locale.toString(t.measurements), locale.toString(replayed))
        : locale.toString(t.measurements);
    m_summary->setText(tr("<b>%1</b><br>%2 problems · %3 kernels · %4 measurements · %5 forecasts by %6 forecasters"
                          " · %7 pair labels · %8 searches (%9 events)")
                           .arg(snapshot.path.toHtmlEscaped(), locale.toString(t.problems), locale.toString(t.kernels),
                               measurements, locale.toString(t.forecasts), locale.toString(t.forecasters),
                               locale.toString(t.pairLabels), locale.toString(t.searches), locale.toString(t.events)));
    m_model->setRows(snapshot.statistics.perProblem);
}

void StoreOverview::showMessage(const QString &message)
{
    m_summary->setText(message.toHtmlEscaped());
    m_model->setRows({});
}

} // namespace gpuf
