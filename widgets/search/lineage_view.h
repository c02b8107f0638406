// LineageView: the search's archive as a lineage tree — the canvas (zoom with the wheel, +/− or the buttons, fit,
// pan by dragging), a line saying what is shown, a switch between every candidate and the measured lineage alone, and
// a legend of the node shapes, marks and bin colours.
//
// Interface for the search dock: setSearch() with the whole folded state (the tree is fitted to the view again),
// applyEvents() after each batch of new events (the tree is rebuilt from the state; zoom, pan and selection stay);
// selectNode() mirrors a selection made elsewhere; nodeActivated() / nodeContextMenuRequested() report the user's
// clicks. Fed values only.
#pragma once

#include "core/domain/search.h"
#include "core/search/lineage.h"
#include "core/search/search_state.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QLabel;
class QToolButton;

namespace gpuf {

class LineageCanvas;

class LineageLegend : public QWidget
{
    Q_OBJECT

public:
    explicit LineageLegend(QWidget *parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    // The legend's entries as text, in order (what a screen reader or a test reads).
    QStringList entries() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Entry
    {
        enum What { Kind, BestPath, Pinned, Vetoed, Bin } what;
        int value; // the kind or the bin
        QString text;
        QRect rect;
    };
    // The entries and where each goes at `width`: symbols and texts flow and wrap; the bins start a new line.
    QList<Entry> layoutEntries(int width) const;
};

class LineageView : public QWidget
{
    Q_OBJECT

public:
    explicit LineageView(QWidget *parent = nullptr);

    void setSearch(const search::SearchState &state);
    void applyEvents(const search::SearchState &state, const QList<SearchEvent> &newEvents);
    void selectNode(const QString &nodeId);
    QString selectedNode() const;

    // Every candidate (the default), or only the measured lineage.
    void setScope(search::LineageScope scope);
    // The nodes' readable names, shown as the kernel in the tooltips (instead of "param #317"); null keeps those.
    void setNodeNames(const QHash<QString, QString> *names) { m_names = names; }
    search::LineageScope scope() const;

    LineageCanvas *canvas() const { return m_canvas; }
    LineageLegend *legend() const { return m_legend; }
    QString summaryText() const;

Q_SIGNALS:
    void nodeActivated(const QString &nodeId);
    void nodeContextMenuRequested(const QString &nodeId, const QPoint &globalPos);

private:
    void refresh(const search::SearchState &state);
    void updateSummary(const search::SearchState &state);
    void showLineage();

    search::Lineage m_full; // every candidate; the canvas gets it through the scope
    const QHash<QString, QString> *m_names = nullptr;
    QString m_wanted; // the node last chosen, marked when the tree has it
    LineageCanvas *m_canvas;
    QCheckBox *m_unmeasured;
    LineageLegend *m_legend;
    QLabel *m_summary;
    QToolButton *m_zoomIn;
    QToolButton *m_zoomOut;
    QToolButton *m_fit;
};

} // namespace gpuf
