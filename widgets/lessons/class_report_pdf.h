// The class report as a one-page PDF: title, the per-student table (accuracy, within-one, Brier, ECE, steps answered),
// where each student was most wrong, and the reliability diagram of the class against the comparison forecaster
// (drawn by the calibration views' ReliabilityPlot, as vectors).
#pragma once

#include "core/common/result.h"
#include "core/lessons/class_report.h"
#include "widgets/plots/plot_input.h"

namespace gpuf {

// The reliability diagram's input: the class pooled (or the one student) and the comparison forecaster.
PlotInput classReportPlotInput(const lessons::ClassReport &report);

Status writeClassReportPdf(const lessons::ClassReport &report, const QString &title, const QString &path);

} // namespace gpuf
