// The window's named dock arrangements (View → Layout): Default (a candidate, its diff and its forecast), Search (a
// search's lineage, steps and nodes with room) and Lesson (a lesson's step, answer and reveal). Sizes are shares of
// the window, so each arrangement's key picture stays readable at 1280×800 as at 1600×1000.
#pragma once

#include "app/explorer/explorer_context.h"

class QMainWindow;

namespace gpuf {

enum class DockLayout { Default, Search, Lesson };

// The right dock area runs the window's full height: the Forecast dock's chart and reasoning get the height the
// bottom docks would otherwise take from them.
void setDockCorners(QMainWindow *window);

// Shows and raises the docks `layout` is about and sizes the dock areas as shares of the window's present size.
void arrangeDocks(QMainWindow *window, const ExplorerContext::Docks &docks, DockLayout layout);

} // namespace gpuf
