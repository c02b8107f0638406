// ClassReportDialog; see class_report_dialog.h.
#include "widgets/lessons/class_report_dialog.h"

#include "core/session/store_session.h"
#include "widgets/calibration/reliability_plot.h"
#include "widgets/lessons/class_report_pdf.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace gpuf {
ClassReportDialog::ClassReportDialog(
    StoreSession *session, const QList<Lesson> &lessonList, const QString &lesson, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_lessonBox(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_table(new QTableWidget(0, 8, this))
    , m_plot(new ReliabilityPlot(this))
    , m_csv(new QPushButton(tr("Export CSV…"), this))
    , m_pdf(new QPushButton(tr("Export PDF…"), this))
{
    setWindowTitle(tr("Class Report"));
    m_lessonBox->addItem(tr("All lessons"), QString());
    for (const Lesson &l : lessonList)
        m_lessonBox->addItem(l.label(), l.name);
    m_lessonBox->setCurrentIndex(std::max(0, m_lessonBox->findData(lesson)));
    createLayout();
    connect(m_lessonBox, &QComboBox::currentIndexChanged, this, &ClassReportDialog::load);
    connect(m_csv, &QPushButton::clicked, this, [this]() {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Class Report"), title() + QStringLiteral(".csv"), tr("CSV file (*.csv)"));
        if (Status s = path.isEmpty() ? Status() : exportCsv(path); !s)
            m_summary->setText(s.error());
    });
    connect(m_pdf, &QPushButton::clicked, this, [this]() {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Class Report"), title() + QStringLiteral(".pdf"), tr("PDF document (*.pdf)"));
        if (Status s = path.isEmpty() ? Status() : exportPdf(path); !s)
            m_summary->setText(s.error());
    });
    // A student answering meanwhile (the Lessons dock, another window) or any wholesale change shows at once.
    connect(m_session, &StoreSession::changed, this, [this](const StoreChange &change) {
        if (change.kind != StoreChange::Kind::Kernels && change.kind != StoreChange::Kind::Searches)
            load();
    });
    connect(m_session, &StoreSession::opened, this, &ClassReportDialog::load);
    connect(m_session, &StoreSession::closed, this, &ClassReportDialog::load);
    resize(960, 720);
    load();
}

void ClassReportDialog::createLayout()
{
    m_summary->setWordWrap(true);
    m_table->setHorizontalHeaderLabels({tr("Student"), tr("Lesson"), tr("Answered"), tr("Accuracy"), tr("Within one"),
        tr("Brier"), tr("ECE"), tr("Most wrong")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(true);
    m_plot->setMinimumHeight(280);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Lesson:"), this));
    top->addWidget(m_lessonBox, 1);
    top->addWidget(m_csv);
    top->addWidget(m_pdf);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_plot);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    m_csv->setEnabled(false);
    m_pdf->setEnabled(false);
}

QString ClassReportDialog::title() const
{
    return m_lessonBox->currentIndex() <= 0 ? tr("Class report")
                                            : tr("Class report — %1").arg(m_lessonBox->currentText());
}

void ClassReportDialog::load()
{
    if (!m_session->isOpen()) {
        m_session->cancelReads(this);
        m_summary->setText(tr("No store is open."));
        return;
    }
    if (!m_report)
        m_summary->setText(tr("Reading the answers…"));
    m_session->read<lessons::ClassReport>(
        QStringLiteral("classReport"),
        [lesson = m_lessonBox->currentData().toString()](
            Store &store, const CancelToken &cancel) { return lessons::classReport(store, lesson, cancel); },
        this,
        [this](Result<lessons::ClassReport> result) {
            if (result.isCancelled())
                return;
            if (!result) {
                m_summary->setText(tr("The class report could not be read: %1").arg(result.error()));
                return;
            }
            apply(*result);
        });
}

void ClassReportDialog::apply(const lessons::ClassReport &report)
{
    m_report = report;
    m_table->setRowCount(int(report.entries.size()));
    for (int r = 0; r < report.entries.size(); ++r) {
        const lessons::StudentLessonReport &e = report.entries.at(r);
        QStringList wrong;
        for (const lessons::StepResult &s : e.mostWrong)
            wrong << lessons::stepResultText(s);
        const QStringList cells {e.student, e.lessonTitle, QStringLiteral("%1/%2").arg(e.answeredSteps).arg(e.steps),
            lessons::reportFigure(e.accuracy()), lessons::reportFigure(e.withinOne()), lessons::reportFigure(e.brier()),
            lessons::reportFigure(e.ece()), wrong.isEmpty() ? tr("no miss") : wrong.join(QLatin1Char('\n'))};
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(r, c, new QTableWidgetItem(cells.at(c)));
    }
    m_table->resizeRowsToContents();
    m_plot->setInput(classReportPlotInput(report));
    m_summary->setText(report.entries.isEmpty()
            ? tr("No student has answered a measured step of this lesson yet.")
            : tr("Scores over every answer on every GPU the step was measured on; Brier is ½·Σ (0 best). The diagram "
                 "compares the class with %1 on the same pairs.")
                  .arg(report.comparisonName.isEmpty() ? tr("no other forecaster")
                                                       : tr("“%1”").arg(report.comparisonName)));
    m_csv->setEnabled(!report.entries.isEmpty());
    m_pdf->setEnabled(!report.entries.isEmpty());
    Q_EMIT loaded();
}

Status ClassReportDialog::exportCsv(const QString &path) const
{
    if (!m_report)
        return Error {tr("The report is still being read.")};
    const QByteArray csv = lessons::classReportCsv(*m_report).toUtf8();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(csv) != csv.size() || !file.commit())
        return Error {tr("Could not write \"%1\": %2").arg(path, file.errorString())};
    return {};
}

Status ClassReportDialog::exportPdf(const QString &path) const
{
    if (!m_report)
        return Error {tr("The report is still being read.")};
    return writeClassReportPdf(*m_report, title(), path);
}

} // namespace gpuf
