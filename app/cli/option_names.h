// The names of the options that more than one command takes ("--problem", "--seed", …), spelled once.
#pragma once

#include <QString>

namespace gpuf::cli {

inline const QString kArch = QStringLiteral("arch");
inline const QString kCluster = QStringLiteral("cluster");
inline const QString kCsv = QStringLiteral("csv");
inline const QString kFamily = QStringLiteral("family");
inline const QString kForecaster = QStringLiteral("forecaster");
inline const QString kHardware = QStringLiteral("hardware");
inline const QString kModel = QStringLiteral("model");
inline const QString kOut = QStringLiteral("out");
inline const QString kProblem = QStringLiteral("problem");
inline const QString kQuiet = QStringLiteral("quiet");
inline const QString kSeed = QStringLiteral("seed");
// Python candidates run even where their sandbox cannot be made (gpuf measure, sweep and search alike).
inline const QString kUnsandboxed = QStringLiteral("unsandboxed");

} // namespace gpuf::cli
