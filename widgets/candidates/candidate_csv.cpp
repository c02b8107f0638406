// The candidate table as CSV; see candidate_csv.h.
#include "widgets/candidates/candidate_csv.h"

#include "widgets/candidates/candidate_table_model.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QSaveFile>
#include <QStringList>

namespace gpuf {

namespace {

QString candidateCsvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString candidateCsvTr(const char *text) { return QCoreApplication::translate("gpuf::CandidateCsv", text); }

} // namespace

QString candidateTableCsv(const CandidateTableModel &model)
{
    QStringList lines;
    QStringList header;
    for (int column = 0; column < model.columnCount(); ++column)
        header << candidateCsvField(model.headerData(column, Qt::Horizontal).toString());
    lines << header.join(QLatin1Char(','));
    for (int row = 0; row < model.rowCount(); ++row) {
        QStringList cells;
        for (int column = 0; column < model.columnCount(); ++column)
            cells << candidateCsvField(model.index(row, column).data(Qt::DisplayRole).toString());
        lines << cells.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

Status writeCandidateTableCsv(const CandidateTableModel &model, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(candidateTableCsv(model).toUtf8()) < 0 || !file.commit())
        return Error {candidateCsvTr("Could not write \"%1\": %2").arg(path, file.errorString())};
    return {};
}

void exportCandidateTableInteractively(const CandidateTableModel &model, QWidget *parent)
{
    const QString path = QFileDialog::getSaveFileName(parent, candidateCsvTr("Export Candidates"),
        QDir::home().filePath(QStringLiteral("candidates.csv")), candidateCsvTr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (const Status s = writeCandidateTableCsv(model, path); !s)
        QMessageBox::warning(parent, candidateCsvTr("Export Candidates"), s.error());
}

} // namespace gpuf
