// The one way the calibration plots include QCustomPlot: its header still uses Qt's `foreach` keyword, which the
// project's QT_NO_FOREACH removes, so a range-for stand-in is defined just for that header and dropped after it.
#pragma once

#ifndef foreach
#define GPUF_QCUSTOMPLOT_FOREACH
// NOLINTNEXTLINE(bugprone-macro-parentheses): `declaration` is a declaration; parentheses would not compile.
#define foreach(declaration, container) for (declaration : std::as_const(container))
#endif

#include <qcustomplot.h>

#ifdef GPUF_QCUSTOMPLOT_FOREACH
#undef foreach
#undef GPUF_QCUSTOMPLOT_FOREACH
#endif
