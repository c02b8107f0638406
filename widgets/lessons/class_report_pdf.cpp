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

constexpr int kMargin = 40;

// The title and the line under it; returns where the table starts.
int drawHeading(QPainter &painter, const QString &title)
{
    QFont font = painter.font();
    font.setPointSizeF(16);
    font.setBold(true);
    painter.setFont(font);
    int y = kMargin + 20;
    painter.drawText(kMargin, y, title);
    font.setPointSizeF(9);
    font.setBold(false);
    painter.setFont(font);
    y += 22;
    painter.drawText(kMargin, y,
        trClassReport("%1 · scores over every answer and GPU; Brier is ½·Σ (0 best, 1 worst)")
            .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd"))));
    return y + 26;
}

// The table of students and lessons with each one's most wrong steps, from `y` on a page `width` wide; returns where
// it ends.
int drawEntries(QPainter &painter, const lessons::ClassReport &report, int width, int y)
{
    const QList<int> columns {
        kMargin, kMargin + 190, kMargin + 340, kMargin + 425, kMargin + 505, kMargin + 595, kMargin + 650};
    QFont font = painter.font();
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
            painter.drawText(kMargin + 20, y,
                metrics.elidedText(trClassReport("most wrong: %1").arg(lessons::stepResultText(r)), Qt::ElideRight,
                    width - 2 * kMargin - 20));
        }
    }
    return y;
}

// The reliability diagram of the class (and the comparison) at `y`, as wide as the page's text.
void drawDiagram(QCPPainter &painter, const lessons::ClassReport &report, int width, int y)
{
    ReliabilityPlot plot;
    // Paper is white whatever the screen's colour scheme: the diagram is drawn in a light palette.
    plot.setPalette(QPalette(Qt::black, Qt::white));
    plot.setInput(classReportPlotInput(report));
    const int plotWidth = 900, plotHeight = 620;
    const double scale = double(width - 2 * kMargin) / plotWidth;
    painter.save();
    painter.translate(kMargin, y);
    painter.scale(scale, scale);
    plot.plot()->toPainter(&painter, plotWidth, plotHeight);
    painter.restore();
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
    int y = drawHeading(painter, title);
    y = drawEntries(painter, report, writer.width(), y);
    drawDiagram(painter, report, writer.width(), y + 24);
    if (!painter.end() || QFileInfo(path).size() == 0)
        return Error {trClassReport("Could not write \"%1\".").arg(path)};
    return {};
}

} // namespace gpuf
