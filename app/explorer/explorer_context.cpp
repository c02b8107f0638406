// ExplorerContext; see explorer_context.h.
#include "app/explorer/explorer_context.h"

namespace gpuf {

QList<QDockWidget *> ExplorerContext::Docks::all() const
{
    return {problems, overview, candidates, measurements, metrics, calibration, device, forecast, drillPairs, searches,
        compare, lessons, roofline};
}

QList<QAction *> ExplorerContext::Actions::needingStore() const
{
    return {importFiles, exportBundle, addKernelFromFile, addKernelFromClipboard, closeStore, reloadStore};
}

} // namespace gpuf
