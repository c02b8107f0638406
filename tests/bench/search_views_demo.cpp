// search_views_demo: the five live search views side by side on a stored search, for looking at them (and for
// screenshots) outside the explorer. It reads the search's events from a store, folds them and feeds the views the
// way the search dock does: the whole log, or (with --live) the log in batches on a timer, as a running search
// delivers it. Other searches of the same store are overlaid on the progress plot.
//
//   search_views_demo (--store S.gpuf --search NAME | --fixed-log) [--overlay NAME]... [--dark] [--upto N] [--live]
//                     [--measured] [--select NODE] [--zoom F] [--step N] [--screenshot DIR]
//
// --upto N stops after the first N events (a search caught mid-step); --screenshot writes DIR/<scheme>-window.png and
// one PNG per view, then quits. --fixed-log shows the small hand-written log of the tests, which has every kind of
// node and mark (injected, forced, queued, pinned, vetoed).
#include "../search/search_log_builder.h"

#include "core/search/lineage.h"
#include "core/search/search_progress.h"
#include "core/search/search_reads.h"
#include "core/search/search_summary.h"
#include "core/store/store.h"
#include "widgets/common/color_scheme.h"
#include "widgets/search/event_tail.h"
#include "widgets/search/lineage_canvas.h"
#include "widgets/search/lineage_view.h"
#include "widgets/search/progress_plot.h"
#include "widgets/search/search_calibration_view.h"
#include "widgets/search/step_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QHBoxLayout>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

using namespace gpuf;

namespace {

Result<QList<SearchSummary>> summariesOf(const QString &path)
{
    auto store = Store::open(path, Store::Mode::ReadOnly);
    if (!store)
        return store.failure();
    return search::readSearchSummaries(**store, {});
}

Result<QList<SearchEvent>> eventsOf(const QString &path, const QList<SearchSummary> &searches, const QString &name)
{
    for (const SearchSummary &s : searches) {
        if (s.search.name != name)
            continue;
        auto store = Store::open(path, Store::Mode::ReadOnly);
        if (!store)
            return store.failure();
        return search::readSearchEventsFrom(**store, s.search.id, 0, {});
    }
    return Error {QStringLiteral("the store has no search named '%1'").arg(name)};
}

int fail(const QString &message)
{
    std::fprintf(stderr, "search_views_demo: %s\n", qPrintable(message));
    return 1;
}

struct Views
{
    QWidget window;
    LineageView *lineage = nullptr;
    ProgressPlot *progress = nullptr;
    StepView *steps = nullptr;
    SearchCalibrationView *calibration = nullptr;
    EventTailView *tail = nullptr;
};

void compose(Views &v)
{
    v.lineage = new LineageView;
    v.progress = new ProgressPlot;
    v.steps = new StepView;
    v.calibration = new SearchCalibrationView;
    v.tail = new EventTailView;
    auto *right = new QSplitter(Qt::Vertical);
    right->addWidget(v.progress);
    right->addWidget(v.calibration);
    auto *top = new QSplitter(Qt::Horizontal);
    top->addWidget(v.lineage);
    top->addWidget(right);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    auto *bottom = new QTabWidget;
    bottom->addTab(v.steps, QStringLiteral("Step"));
    bottom->addTab(v.tail, QStringLiteral("Events"));
    auto *all = new QSplitter(Qt::Vertical);
    all->addWidget(top);
    all->addWidget(bottom);
    all->setStretchFactor(0, 3);
    all->setStretchFactor(1, 2);
    auto *layout = new QHBoxLayout(&v.window);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(all);
    QObject::connect(v.lineage, &LineageView::nodeActivated, v.steps, &StepView::selectNode);
    QObject::connect(v.steps, &StepView::nodeActivated, v.lineage, &LineageView::selectNode);
    QObject::connect(v.tail, &EventTailView::nodeActivated, v.lineage, &LineageView::selectNode);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({QStringLiteral("store"), QStringLiteral("The store."), QStringLiteral("path")});
    parser.addOption({QStringLiteral("search"), QStringLiteral("The search to watch."), QStringLiteral("name")});
    parser.addOption(
        {QStringLiteral("fixed-log"), QStringLiteral("Show the tests' fixed selective log instead of a store.")});
    parser.addOption({QStringLiteral("overlay"), QStringLiteral("Another search to overlay."), QStringLiteral("name")});
    parser.addOption({QStringLiteral("measured"), QStringLiteral("The tree shows the measured lineage alone.")});
    parser.addOption({QStringLiteral("dark"), QStringLiteral("Dark colour scheme.")});
    parser.addOption({QStringLiteral("upto"), QStringLiteral("Only the first N events."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("live"), QStringLiteral("Feed the events in batches on a timer.")});
    parser.addOption({QStringLiteral("select"), QStringLiteral("Select this node."), QStringLiteral("node")});
    parser.addOption(
        {QStringLiteral("zoom"), QStringLiteral("Zoom the tree by F around the selection."), QStringLiteral("F")});
    parser.addOption({QStringLiteral("step"), QStringLiteral("Show this step's table."), QStringLiteral("N")});
    parser.addOption(
        {QStringLiteral("screenshot"), QStringLiteral("Write PNGs here and quit."), QStringLiteral("dir")});
    parser.process(app);
    applyColorScheme(parser.isSet(QStringLiteral("dark")) ? ColorScheme::Dark : ColorScheme::Light);

    const QString store = parser.value(QStringLiteral("store"));
    const bool fixed = parser.isSet(QStringLiteral("fixed-log"));
    auto searches = fixed ? Result<QList<SearchSummary>>(QList<SearchSummary> {}) : summariesOf(store);
    if (!searches)
        return fail(searches.error());
    auto events = fixed ? Result<QList<SearchEvent>>(testing::fixedSelectiveLog())
                        : eventsOf(store, *searches, parser.value(QStringLiteral("search")));
    if (!events)
        return fail(events.error());
    if (parser.isSet(QStringLiteral("upto")))
        *events = events->mid(0, parser.value(QStringLiteral("upto")).toInt());
    QList<ProgressSeries> overlays;
    for (const QString &name : parser.values(QStringLiteral("overlay"))) {
        auto other = eventsOf(store, *searches, name);
        if (!other)
            return fail(other.error());
        auto state = search::foldEvents(*other);
        if (!state)
            return fail(state.error());
        overlays.append({name, search::progressCurve(*state), false});
    }

    Views v;
    compose(v);
    v.window.setWindowTitle(QStringLiteral("Search views — %1").arg(parser.value(QStringLiteral("search"))));
    v.window.resize(1600, 1000);
    v.progress->setSeries(overlays);

    search::SearchState state;
    const QString name = parser.value(QStringLiteral("search"));
    if (parser.isSet(QStringLiteral("live"))) {
        // The dock's path: an empty search first, then batches as the engine commits them.
        auto *timer = new QTimer(&app);
        auto position = std::make_shared<qsizetype>(0);
        const QList<SearchEvent> all = *events;
        QObject::connect(timer, &QTimer::timeout, &app, [&, timer, position, all] {
            const QList<SearchEvent> batch = all.mid(*position, 25);
            *position += batch.size();
            for (const SearchEvent &e : batch) {
                if (Status s = search::applyEvent(state, e); !s) {
                    std::fprintf(stderr, "search_views_demo: %s\n", qPrintable(s.error()));
                    timer->stop();
                    return;
                }
            }
            v.lineage->applyEvents(state, batch);
            v.progress->setSearch(state, name);
            v.steps->applyEvents(state, batch);
            v.calibration->applyEvents(state, batch);
            v.tail->applyEvents(state, batch);
            if (*position >= all.size())
                timer->stop();
        });
        timer->start(50);
    } else {
        auto folded = search::foldEvents(*events);
        if (!folded)
            return fail(folded.error());
        state = *folded;
        v.lineage->setSearch(state);
        v.progress->setSearch(state, name);
        v.steps->setSearch(state, *events);
        v.calibration->setSearch(state, *events);
        v.tail->setSearch(state, *events);
    }
    if (parser.isSet(QStringLiteral("measured")))
        v.lineage->setScope(search::LineageScope::Measured);
    if (parser.isSet(QStringLiteral("step")))
        v.steps->showStep(parser.value(QStringLiteral("step")).toInt());
    v.window.show();
    if (parser.isSet(QStringLiteral("select"))) {
        v.lineage->selectNode(parser.value(QStringLiteral("select")));
        v.steps->selectNode(parser.value(QStringLiteral("select")));
    }
    if (parser.isSet(QStringLiteral("zoom"))) {
        QTimer::singleShot(300, &app, [&] {
            LineageCanvas *canvas = v.lineage->canvas();
            canvas->zoomBy(parser.value(QStringLiteral("zoom")).toDouble(), QPointF(canvas->width() / 2.0, 0));
            if (!v.lineage->selectedNode().isEmpty())
                canvas->centreOn(v.lineage->selectedNode());
        });
    }

    if (parser.isSet(QStringLiteral("screenshot"))) {
        const QString dir = parser.value(QStringLiteral("screenshot"));
        QDir().mkpath(dir);
        const QString scheme = parser.isSet(QStringLiteral("dark")) ? QStringLiteral("dark") : QStringLiteral("light");
        QTimer::singleShot(parser.isSet(QStringLiteral("live")) ? 8000 : 1500, &app, [&] {
            const auto save = [&](QWidget *w, const QString &what) {
                const QString path = QDir(dir).filePath(scheme + QLatin1Char('-') + what + QStringLiteral(".png"));
                if (!w->grab().save(path))
                    std::fprintf(stderr, "could not write %s\n", qPrintable(path));
                else
                    std::printf("%s\n", qPrintable(path));
            };
            save(&v.window, QStringLiteral("window"));
            save(v.lineage, QStringLiteral("lineage"));
            save(v.progress, QStringLiteral("progress"));
            save(v.calibration, QStringLiteral("calibration"));
            save(v.steps, QStringLiteral("steps"));
            save(v.tail, QStringLiteral("events"));
            QCoreApplication::quit();
        });
    }
    return QApplication::exec();
}
