// Named dock arrangements; see dock_layouts.h.
#include "app/explorer/dock_layouts.h"

#include <QDockWidget>
#include <QMainWindow>

#include <algorithm>

namespace gpuf {
namespace {

// Shares of the window: the Problems tree's width, the Forecast dock's width and the bottom docks' height.
struct Shares
{
    double forecastWidth;
    double bottomHeight;
};

Shares sharesOf(DockLayout layout)
{
    switch (layout) {
    case DockLayout::Search:
        return {0.30, 0.64}; // the lineage and the step tables under a shorter diff
    case DockLayout::Lesson:
        return {0.30, 0.58}; // the step, the answer and the reveal; the diff above shows the step's two kernels
    case DockLayout::Default:
        break;
    }
    return {0.36, 0.44};
}

QDockWidget *raisedDock(const ExplorerContext::Docks &docks, DockLayout layout)
{
    switch (layout) {
    case DockLayout::Search:
        return docks.searches;
    case DockLayout::Lesson:
        return docks.lessons;
    case DockLayout::Default:
        break;
    }
    return docks.candidates;
}

} // namespace

void setDockCorners(QMainWindow *window)
{
    window->setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
}

void arrangeDocks(QMainWindow *window, const ExplorerContext::Docks &docks, DockLayout layout)
{
    for (QDockWidget *dock : {docks.problems, docks.forecast, raisedDock(docks, layout)}) {
        if (dock->isFloating())
            dock->setFloating(false);
        dock->show();
    }
    raisedDock(docks, layout)->raise();
    const Shares shares = sharesOf(layout);
    const int width = window->width();
    const int height = window->height();
    const int tree = std::clamp(width / 6, 200, 280);
    window->resizeDocks({docks.problems, docks.forecast}, {tree, int(width * shares.forecastWidth)}, Qt::Horizontal);
    window->resizeDocks({raisedDock(docks, layout)}, {int(height * shares.bottomHeight)}, Qt::Vertical);
}

} // namespace gpuf
