// Import and export jobs; see transfer_jobs.h. Each runs as a write of the session (a connection of its own).
#include "widgets/session/transfer_jobs.h"

#include "core/interop/interop.h"
#include "core/interop/tuning_import.h"
#include "core/mutators/shipped_sweeps.h"
#include "core/session/store_session.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QPointer>

#include <algorithm>

namespace gpuf {
namespace {

struct TransferJobResult
{
    bool ok = false;
    QString text;
};

// `writes`: the job changes the store (an import), so views learn of it when it succeeded; an export changes nothing.
void runJob(QWidget *parent, StoreSession *session, const QString &what, std::function<TransferJobResult(Store &)> job,
    const QString &title, bool writes)
{
    session->beginWork(what);
    QPointer<QWidget> guard(parent);
    session->write<TransferJobResult>(std::move(job), session, [=](const Result<TransferJobResult> &outcome) {
        session->endWork();
        const TransferJobResult result = outcome ? *outcome : TransferJobResult {false, outcome.error()};
        if (writes && result.ok)
            session->announce(StoreChange::of(StoreChange::Kind::Import));
        if (!guard)
            return;
        auto *box = new QMessageBox(
            result.ok ? QMessageBox::Information : QMessageBox::Warning, title, result.text, QMessageBox::Ok, guard);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
}

} // namespace

void startImport(QWidget *parent, StoreSession *session, const QStringList &files)
{
    runJob(
        parent, session, QObject::tr("Importing %n file(s)", nullptr, int(files.size())),
        [files](Store &store) {
            // Another auto-tuner's results (a Kernel Tuner cache, T4) become a tuning space (docs/interop.md).
            if (files.size() == 1 && interop::looksLikeTuningResults(files.first())) {
                auto results = interop::readTuningResults(files.first());
                if (!results)
                    return TransferJobResult {false, QObject::tr("%1\n\nNothing was imported.").arg(results.error())};
                interop::TuningImportOptions options;
                options.sourceFile = files.first();
                auto report = interop::importTuningResults(store, *results, options);
                if (!report)
                    return TransferJobResult {false, QObject::tr("%1\n\nNothing was imported.").arg(report.error())};
                return TransferJobResult {true, report->text()};
            }
            // Recorded sweeps of the shipped families (resources/sweeps, or made with gpuf sweep): each its own import.
            if (std::all_of(files.cbegin(), files.cend(), families::looksLikeSweep)) {
                QStringList lines;
                for (const QString &file : files) {
                    auto report = families::importSweepFile(store, file);
                    if (!report) {
                        lines.append(QObject::tr("%1\n\nThe sweeps above it were imported; this one and those after "
                                                 "it were not.")
                                         .arg(report.error()));
                        return TransferJobResult {false, lines.join(QLatin1Char('\n'))};
                    }
                    lines.append(QObject::tr("%1: %2 kernels, %3 measurements")
                                     .arg(QFileInfo(file).fileName())
                                     .arg(report->kernels)
                                     .arg(report->measurements));
                }
                return TransferJobResult {true, lines.join(QLatin1Char('\n'))};
            }
            auto report = interop::importFiles(store, files);
            if (!report)
                return TransferJobResult {false, QObject::tr("%1\n\nNothing was imported.").arg(report.error())};
            return TransferJobResult {true, report->text()};
        },
        QObject::tr("Import"), true);
}

void startExport(QWidget *parent, StoreSession *session, const QString &file)
{
    runJob(
        parent, session, QObject::tr("Exporting to %1").arg(file),
        [file](Store &store) {
            if (Status s = interop::exportBundle(store, file); !s)
                return TransferJobResult {false, s.error()};
            return TransferJobResult {true, QObject::tr("Exported to %1.").arg(file)};
        },
        QObject::tr("Export"), false);
}

void startCaseExport(
    QWidget *parent, StoreSession *session, const QString &file, RowId candidateId, const interop::CaseViewChoice &view)
{
    runJob(
        parent, session, QObject::tr("Exporting the case to %1").arg(file),
        [file, candidateId, view](Store &store) {
            if (Status s = interop::exportCase(store, file, candidateId, view); !s)
                return TransferJobResult {false, s.error()};
            return TransferJobResult {true,
                QObject::tr("Exported the case to %1. Double-click it, or open it with File → Open Store…, to see this "
                            "pair in a store of its own; File → Import… adds it to another store.")
                    .arg(file)};
        },
        QObject::tr("Export Case File"), false);
}

} // namespace gpuf
