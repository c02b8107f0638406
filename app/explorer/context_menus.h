// ContextMenus: the right-click menus of the problems tree, the candidate table, the forecast table and the metrics
// table, composed from the actions the panels and controllers own (measure, forecast, compare, copy, delete), plus
// the Delete and Copy keys where those views have focus.
#pragma once

#include "core/store/deletion.h"

#include <QObject>

class QMenu;
class QModelIndex;
class QWidget;

namespace gpuf {

class CandidateBrowser;
class CandidateSource;
class DeletionController;
class EvidenceActions;
class ForecastController;
class ForecastPanel;
class KernelActions;
class LessonsPanel;
class MeasureController;
class MetricsTable;
class ProblemTree;
class Selection;

class ContextMenus : public QObject
{
    Q_OBJECT

public:
    struct Parts
    {
        ProblemTree *tree = nullptr;
        CandidateBrowser *candidates = nullptr;
        ForecastPanel *forecasts = nullptr;
        MetricsTable *metrics = nullptr;
        MeasureController *measure = nullptr;
        ForecastController *forecaster = nullptr;
        KernelActions *kernels = nullptr;
        DeletionController *deletion = nullptr;
        CandidateSource *source = nullptr;
        Selection *selection = nullptr;
        LessonsPanel *lessons = nullptr; // "New Lesson from Selection…" in the candidate table's menu
        EvidenceActions *evidence = nullptr; // "Show Evidence…"; a double-click on a measured speedup opens it too
    };

    // Installs the menus on the parts' views; `window` parents the confirmations.
    ContextMenus(const Parts &parts, QWidget *window);

private:
    void fillTree(QMenu *menu, const QModelIndex &index);
    void fillCandidates(QMenu *menu);
    void fillForecasts(QMenu *menu, const QModelIndex &index);
    void fillMetrics(QMenu *menu, const QModelIndex &index);
    void openEvidenceOnDoubleClick(const QModelIndex &index);
    // An entry that asks the deletion controller for `request`'s rows; disabled with the reason when it cannot.
    void addDeletion(QMenu *menu, const QString &text, const DeletionRequest &request, QString reason = {});

    Parts m_parts;
    QWidget *m_window;
};

} // namespace gpuf
