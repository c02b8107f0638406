// The class report's PDF; see class_report_pdf.h.
#include "widgets/lessons/class_report_pdf.h"

#include "widgets/calibration/reliability_plot.h"
#include "widgets/plots/plot_qcustomplot.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QPageSize>
#include <QPalette>
#include <QPdfWriter>
#include <QSet>

#include <cmath>

namespace gpuf {
namespace {

QString trClassReport(const char *text) { return QCoreApplication::translate("gpuf::ClassReport", text); }

// Draws one row of cells at `y` in the given column positions.
void drawRow(QPainter &painter, int y, const QList<int> &columns, const QStringList &cells)
{
    for (int c = 0; c < cells.size() && c < columns.size(); ++c)
        painter.drawText(columns.at(c), y, cells.at(c));
}

} // namespace

PlotInput classReportPlotInput(const lessons::ClassReport &report)
{
    PlotInput input;
    if (report.entries.isEmpty())
        return input;
    QSet<RowId> studentIds;
    auto rows = std::make_shared<std::vector<metrics::ScoredRow>>();
    for (const lessons::StudentLessonReport &e : report.entries) {
        studentIds.insert(e.studentId);
        rows->insert(rows->end(), e.rows->begin(), e.rows->end());
    }
    PlotSeries students;
    students.name = studentIds.size() == 1 ? report.entries.first().student : trClassReport("The class");
    students.forecasterId = report.entries.first().studentId;
    students.report = lessons::pooledReport(report);
    students.rows = rows;
    input.series.append(students);
    if (report.comparison) {
        PlotSeries other;
        other.name = report.comparisonName;
        other.report = report.comparison;
        other.rows = report.comparisonRows;
        input.series.append(other);
    }
    return input;
}

Status writeClassReportPdf(const lessons::ClassReport &report, const QString &title, const QString &path)
{
    if (!QFileInfo(path).absoluteDir().exists())
        return Error {trClassReport("Could not write \"%1\": its folder does not exist.").arg(path)};
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setResolution(96);
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("GPU Forecaster Explorer"));
    QCPPainter painter;
    if (!painter.begin(&writer))
        return Error {trClassReport("Could not write \"%1\".").arg(path)};
    const int width = writer.width();
    const int margin = 40;
    QFont font = painter.font();
    font.setPointSizeF(16);
    font.setBold(true);
    painter.setFont(font);
    int y = margin + 20;
    painter.drawText(margin, y, title);
    font.setPointSizeF(9);
    font.setBold(false);
    painter.setFont(font);
    y += 22;
    painter.drawText(margin, y,
        trClassReport("%1 · scores over every answer and GPU; Brier is ½·Σ (0 best, 1 worst)")
            .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd"))));
    y += 26;
    const QList<int> columns {
        margin, margin + 190, margin + 340, margin + 425, margin + 505, margin + 595, margin + 650};
    font.setBold(true);
    painter.setFont(font);
    drawRow(painter, y, columns,
        {trClassReport("Student"), trClassReport("Lesson"), trClassReport("Answered"), trClassReport("Accuracy"),
            trClassReport("Within one"), trClassReport("Brier"), trClassReport("ECE")});
    font.setBold(false);
    painter.setFont(font);
    const QFontMetrics metrics(font);
    for (const lessons::StudentLessonReport &e : report.entries) {
        if (y > 560)
            break; // one page: the diagram below keeps its place
        y += 18;
        drawRow(painter, y, columns,
            {metrics.elidedText(e.student, Qt::ElideRight, 190), metrics.elidedText(e.lesson, Qt::ElideRight, 155),
                QStringLiteral("%1/%2").arg(e.answeredSteps).arg(e.steps), lessons::reportFigure(e.accuracy()),
                lessons::reportFigure(e.withinOne()), lessons::reportFigure(e.brier()),
                lessons::reportFigure(e.ece())});
        for (const lessons::StepResult &r : e.mostWrong) {
            y += 15;
            painter.drawText(margin + 20, y,
                metrics.elidedText(trClassReport("most wrong: %1").arg(lessons::stepResultText(r)), Qt::ElideRight,
                    width - 2 * margin - 20));
        }
    }
    y += 24;
    ReliabilityPlot plot;
    // Paper is white whatever the screen's colour scheme: the diagram is drawn in a light palette.
    plot.setPalette(QPalette(Qt::black, Qt::white));
    plot.setInput(classReportPlotInput(report));
    const int plotWidth = 900, plotHeight = 620;
    const double scale = double(width - 2 * margin) / plotWidth;
    painter.save();
    painter.translate(margin, y);
    painter.scale(scale, scale);
    plot.plot()->toPainter(&painter, plotWidth, plotHeight);
    painter.restore();
    if (!painter.end() || QFileInfo(path).size() == 0)
        return Error {trClassReport("Could not write \"%1\".").arg(path)};
    return {};
}

} // namespace gpuf
