// MainWindow's dialogs for the File and Forecast menus: open and new store (a case file opens in a store of its own),
// import, export (a store, a case file), add a kernel (from files, the clipboard or a drop) and the endpoints. Each
// opens without blocking and acts through the session.
#include "app/explorer/main_window.h"

#include "core/interop/case_file.h"
#include "core/session/case_store.h"
#include "core/session/selection.h"
#include "core/session/store_session.h"
#include "widgets/candidates/add_kernel_dialog.h"
#include "widgets/forecast/endpoints_dialog.h"
#include "widgets/forecast/forecast_controller.h"
#include "widgets/session/transfer_jobs.h"

#include <QClipboard>
#include <QFileDialog>
#include <QGuiApplication>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStatusBar>

#include <optional>

namespace gpuf {

void MainWindow::openStoreDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Store"), QString(),
        tr("gpuf stores and case files (*.gpuf *.gpufcase *.sqlite *.db);;Case files of one pair (*.gpufcase);;"
           "All files (*)"));
    if (!path.isEmpty())
        openPath(path);
}

void MainWindow::openPath(const QString &path)
{
    if (interop::isCaseFileName(path))
        openCaseFile(m_context.session, m_context.selection, path);
    else
        m_context.session->open(path);
}

void MainWindow::exportCaseDialog(RowId candidateId, const QString &kernelName)
{
    QString name = kernelName;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
    const QString file = QFileDialog::getSaveFileName(this, tr("Export Case File"),
        (name.isEmpty() ? QStringLiteral("case") : name) + QStringLiteral(".gpufcase"),
        tr("Case files of one pair (*.gpufcase)"));
    if (file.isEmpty())
        return;
    const Selection &s = *m_context.selection;
    startCaseExport(this, m_context.session, file, candidateId,
        {s.forecasterName(), s.hardwareName(), std::optional<double>(s.trustThreshold())});
}

void MainWindow::newStoreDialog()
{
    const QString path
        = QFileDialog::getSaveFileName(this, tr("New Store"), QStringLiteral("store.gpuf"), tr("gpuf stores (*.gpuf)"));
    if (!path.isEmpty())
        m_context.session->create(path);
}

void MainWindow::importDialog()
{
    if (!m_context.session->isOpen()) {
        QMessageBox::information(this, tr("Import"), tr("Open or create a store first."));
        return;
    }
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Import"), QString(),
        tr("gpuf bundles, case files, recorded sweeps and tuning results (*.jsonl *.gpufcase *.json *.ndjson "
           "*.json.gz);;Case files of one pair (*.gpufcase);;Recorded sweeps of kernel families (*.jsonl);;"
           "Kernel Tuner caches and T4 results (*.json *.json.gz);;All files (*)"));
    if (!files.isEmpty())
        startImport(this, m_context.session, files);
}

void MainWindow::exportDialog()
{
    if (!m_context.session->isOpen())
        return;
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Export Bundle"), QStringLiteral("bundle.jsonl"), tr("gpuf bundles (*.jsonl)"));
    if (!file.isEmpty())
        startExport(this, m_context.session, file);
}

void MainWindow::addKernelFromFileDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Add Kernel"), QString(), tr("Kernel sources (*.cu *.cuh *.py);;All files (*)"));
    if (!files.isEmpty())
        showAddKernelDialog(files, {});
}

void MainWindow::addKernelFromClipboard()
{
    const QString text = QGuiApplication::clipboard()->text();
    if (text.trimmed().isEmpty()) {
        statusBar()->showMessage(tr("The clipboard holds no text to add as a kernel."), 8000);
        return;
    }
    showAddKernelDialog({}, text);
}

void MainWindow::showAddKernelDialog(const QStringList &files, const QString &text)
{
    if (!m_context.session->isOpen()) {
        statusBar()->showMessage(tr("Open or create a store first: a kernel is added to one of its problems."), 8000);
        return;
    }
    auto *dialog = new AddKernelDialog(m_context.session, m_context.selection, files, text, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &AddKernelDialog::kernelsAdded, this,
        [this](RowId problemId, const QList<RowId> &ids, RowId baselineId, const QString &summary) {
            m_context.selection->setScope(problemId);
            m_context.selection->setSelectedIds(ids);
            m_context.selection->setPair(ids.first(), baselineId);
            statusBar()->showMessage(summary, 10000);
        });
    dialog->open();
}

void MainWindow::showEndpointsDialog()
{
    auto *dialog = new EndpointsDialog(m_context.session, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &EndpointsDialog::forecastersChanged, m_context.forecasts, &ForecastController::reloadForecasters);
    dialog->open();
}

} // namespace gpuf
