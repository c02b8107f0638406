// Import and export jobs; see transfer_jobs.h. Each job opens its own connection on a pool thread.
#include "widgets/session/transfer_jobs.h"

#include "core/interop/interop.h"
#include "core/session/store_session.h"
#include "core/store/store.h"

#include <QFutureWatcher>
#include <QMessageBox>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuf {
namespace {

struct JobResult
{
    bool ok = false;
    QString text;
};

// `writes`: the job changes the store (an import), so views learn of it when it succeeded; an export changes nothing.
void runJob(QWidget *parent, StoreSession *session, const QString &what, std::function<JobResult()> job,
    const QString &title, bool writes)
{
    session->beginWork(what);
    auto *watcher = new QFutureWatcher<JobResult>(session);
    QPointer<QWidget> guard(parent);
    QObject::connect(watcher, &QFutureWatcher<JobResult>::finished, session, [=]() {
        watcher->deleteLater();
        session->endWork();
        const JobResult result = watcher->result();
        if (writes && result.ok)
            session->announce(StoreChange::of(StoreChange::Kind::Import));
        if (!guard)
            return;
        auto *box = new QMessageBox(
            result.ok ? QMessageBox::Information : QMessageBox::Warning, title, result.text, QMessageBox::Ok, guard);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    watcher->setFuture(QtConcurrent::run(std::move(job)));
}

} // namespace

void startImport(QWidget *parent, StoreSession *session, const QStringList &files)
{
    const QString path = session->path();
    runJob(
        parent, session, QObject::tr("Importing %n file(s)", nullptr, int(files.size())),
        [path, files]() {
            auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
            if (!store)
                return JobResult {false, store.error()};
            auto report = interop::importFiles(**store, files);
            if (!report)
                return JobResult {false, QObject::tr("%1\n\nNothing was imported.").arg(report.error())};
            return JobResult {true, report->text()};
        },
        QObject::tr("Import"), true);
}

void startExport(QWidget *parent, StoreSession *session, const QString &file)
{
    const QString path = session->path();
    runJob(
        parent, session, QObject::tr("Exporting to %1").arg(file),
        [path, file]() {
            auto store = Store::open(path, Store::Mode::ExistingOnly, Store::Check::Header);
            if (!store)
                return JobResult {false, store.error()};
            if (Status s = interop::exportBundle(**store, file); !s)
                return JobResult {false, s.error()};
            return JobResult {true, QObject::tr("Exported to %1.").arg(file)};
        },
        QObject::tr("Export"), false);
}

} // namespace gpuf
