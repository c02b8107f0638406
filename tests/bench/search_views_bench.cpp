// search_views_bench: the live search views' cost on a search of about 2 000 nodes. Prints one line per figure
// (`<name> <value> <unit>`):
// - building the lineage and laying it out;
// - painting the lineage tree, per frame, fitted (every node on screen), at zoom 1 and zoomed in (culling);
// - one step's detail, the calibration tracker (whole log, then one more step), the event tail's append.
// The search is generated: a surrogate-style log over 62 steps, 2 parents per step chosen by PUCT on the folded state,
// 16 proposals per parent, the 4 with the best forecast measured (speedups drift from the parent's), so the tree has
// the shape of a real one: forecast-only leaves, failures, deep measured lineages.
#include "../search/search_log_builder.h"

#include "core/search/lineage.h"
#include "core/search/search_calibration.h"
#include "core/search/search_history.h"
#include "core/search/step_detail.h"
#include "widgets/search/event_tail.h"
#include "widgets/search/lineage_canvas.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

using namespace gpuf;
using namespace gpuf::search;

namespace {

void report(const char *name, double value, const char *unit)
{
    std::printf("%s %.4g %s\n", name, value, unit);
    std::fflush(stdout);
}

struct Generated
{
    QList<SearchEvent> events;
    SearchState state;
};

Generated generate(int steps, int parents, int proposals, int measure)
{
    testing::SearchLogBuilder b(Mode::Surrogate, measure, proposals);
    std::mt19937_64 rng(20261126);
    std::normal_distribution<double> drift(0.0, 0.22);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    b.init();
    Generated g;
    qsizetype folded = 0;
    auto sync = [&] {
        for (; folded < b.events.size(); ++folded) {
            if (Status s = applyEvent(g.state, b.events[folded]); !s)
                qFatal("generated log does not fold: %s", qPrintable(s.error()));
        }
    };
    sync();
    int next = 0;
    for (int step = 0; step < steps; ++step) {
        const QStringList chosen = selectParents(g.state.archive, parents);
        b.stepStarted(step, chosen);
        struct Proposal
        {
            QString id;
            QString parent;
            double expected = 0.0;
            bool ok = true;
            double speedup = 0.0;
        };
        QList<Proposal> made;
        for (const QString &parent : chosen) {
            const double base = g.state.candidate(parent)->reward.value_or(1.0);
            for (int k = 0; k < proposals; ++k) {
                Proposal p {QStringLiteral("n%1").arg(next++, 5, 10, QLatin1Char('0')), parent};
                p.ok = unit(rng) > 0.05;
                p.speedup = std::clamp(base * std::exp(drift(rng)), 0.05, 20.0);
                made.append(p);
                b.proposal(p.id, parent, p.ok);
            }
        }
        for (Proposal &p : made) {
            if (!p.ok)
                continue;
            // A forecast near the truth's bin, sometimes one off, with a confidence that varies.
            const int truth = bins::binOf(p.speedup).value_or(4);
            const int centre = std::clamp(truth + int(std::lround(drift(rng) * 3)), 1, 8);
            const double peak = 0.35 + 0.5 * unit(rng);
            bins::Distribution d {};
            d[size_t(centre - 1)] = peak;
            d[size_t(std::max(1, centre - 1) - 1)] += (1 - peak) / 2;
            d[size_t(std::min(8, centre + 1) - 1)] += (1 - peak) / 2;
            p.expected = bins::expectedBin(d);
            b.forecast(p.id, d);
        }
        for (const QString &parent : chosen) {
            QList<Proposal *> group;
            for (Proposal &p : made) {
                if (p.parent == parent && p.ok)
                    group.append(&p);
            }
            std::stable_sort(group.begin(), group.end(),
                [](const Proposal *a, const Proposal *b) { return a->expected > b->expected; });
            for (int i = 0; i < group.size(); ++i) {
                if (i < measure)
                    b.selected(group[i]->id, QStringLiteral("top expected bin"));
                else
                    b.deferred(group[i]->id, QStringLiteral("ranked below the GPU budget"));
            }
            for (int i = 0; i < std::min<int>(measure, int(group.size())); ++i)
                b.evaluated(group[i]->id, unit(rng) > 0.1 ? std::optional<double>(group[i]->speedup) : std::nullopt);
        }
        b.stepCompleted();
        sync();
    }
    g.events = b.events;
    return g;
}

template<typename F>
double millisecondsPer(int repeats, F &&f)
{
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < repeats; ++i)
        f();
    return double(timer.nsecsElapsed()) / 1e6 / repeats;
}

double paintMilliseconds(LineageCanvas &canvas, int frames)
{
    QImage image(canvas.size(), QImage::Format_ARGB32_Premultiplied);
    return millisecondsPer(frames, [&] {
        QPainter painter(&image);
        canvas.render(&painter);
    });
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const Generated g = generate(62, 2, 16, 4);
    report("search_nodes", double(g.state.candidates.size()), "nodes");
    report("search_events", double(g.events.size()), "events");

    Lineage lineage;
    report("lineage_build_ms", millisecondsPer(20, [&] { lineage = buildLineage(g.state); }), "ms");
    LineageLayout layout;
    report("lineage_layout_ms", millisecondsPer(20, [&] { layout = layoutLineage(lineage); }), "ms");

    LineageCanvas canvas;
    canvas.resize(1400, 900);
    canvas.setLineage(lineage);
    canvas.fitToView();
    const int frames = 30;
    paintMilliseconds(canvas, 2); // warm up fonts and caches
    report("lineage_paint_fit_2000_ms", paintMilliseconds(canvas, frames), "ms/frame");
    report("lineage_paint_fit_nodes", canvas.paintedNodes(), "nodes");
    canvas.zoomBy(1.0 / canvas.zoom(), QPointF(canvas.width() / 2.0, canvas.height() / 2.0));
    canvas.centreOn(lineage.bestPath.isEmpty() ? lineage.nodes.first().id : lineage.bestPath.last());
    report("lineage_paint_zoom1_ms", paintMilliseconds(canvas, frames), "ms/frame");
    report("lineage_paint_zoom1_nodes", canvas.paintedNodes(), "nodes");
    canvas.zoomBy(2.5, QPointF(canvas.width() / 2.0, canvas.height() / 2.0));
    report("lineage_paint_zoom2.5_ms", paintMilliseconds(canvas, frames), "ms/frame");
    report("lineage_paint_zoom2.5_nodes", canvas.paintedNodes(), "nodes");

    // The worst case: every node on screen and large enough to be drawn in full (a large monitor, fitted).
    canvas.resize(3800, 2400);
    canvas.fitToView();
    report("lineage_paint_all_detailed_radius", canvas.nodeRadius(), "px");
    report("lineage_paint_all_detailed_ms", paintMilliseconds(canvas, 10), "ms/frame");
    report("lineage_paint_all_detailed_nodes", canvas.paintedNodes(), "nodes");

    SearchHistory history;
    report("history_fold_ms",
        millisecondsPer(3,
            [&] {
                history.clear();
                history.append(g.events);
            }),
        "ms");
    const int last = int(g.state.steps.size()) - 1;
    report("step_detail_ms", millisecondsPer(50, [&] { (void)stepDetail(g.state, history, last); }), "ms");
    report("calibration_whole_log_ms",
        millisecondsPer(3,
            [&] {
                CalibrationTracker tracker;
                tracker.update(g.state, history);
            }),
        "ms");
    CalibrationTracker tracker;
    tracker.update(g.state, history);
    report("calibration_no_change_ms", millisecondsPer(20, [&] { tracker.update(g.state, history); }), "ms");

    EventTailModel tail;
    tail.setEvents(g.state, g.events);
    const QList<SearchEvent> batch = g.events.mid(g.events.size() - 20);
    report("event_tail_append20_ms", millisecondsPer(50, [&] { tail.appendEvents(g.state, batch); }), "ms");
    return 0;
}
