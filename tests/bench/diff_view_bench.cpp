// Benchmark of widgets/diff: a 2 000-line CUDA pair from setPair() to the painted view, and its two halves.
#include "gpuf_config.h"
#include "widgets/diff/diff_pane.h"
#include "widgets/diff/diff_view.h"
#include "widgets/diff/syntax_highlighting.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace gpuf;

namespace {

// The corpus kernels one after another until there are `count` lines: real CUDA, as the view shows it.
QStringList corpusLines(int count)
{
    QStringList pool;
    const QDir corpus(QStringLiteral(GPUF_SOURCE_DIR "/resources/corpus"));
    for (const QString &problem : corpus.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir dir(corpus.filePath(problem));
        for (const QString &name : dir.entryList({QStringLiteral("*.cu")}, QDir::Files, QDir::Name)) {
            QFile file(dir.filePath(name));
            if (file.open(QIODevice::ReadOnly))
                pool += QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
        }
    }
    QStringList lines;
    while (!pool.isEmpty() && lines.size() < count)
        lines += pool.mid(0, count - lines.size());
    return lines;
}

// Every 40th line edited in one of four ways: a constant tuned, a name changed, a line added, a line removed.
QStringList edited(QStringList lines, int seed)
{
    for (int at = static_cast<int>(lines.size()) - 1 - seed % 7; at > 0; at -= 40) {
        switch ((at / 40 + seed) % 4) {
        case 0:
            lines[at] += QStringLiteral(" // tuned %1").arg(seed);
            break;
        case 1:
            lines[at].replace(QStringLiteral("int "), QStringLiteral("long "));
            break;
        case 2:
            lines.insert(at, QStringLiteral("    acc = __fmaf_rn(acc, %1.5f, 0.0f);").arg(at));
            break;
        default:
            lines.removeAt(at);
        }
    }
    return lines;
}

double median(std::vector<double> times)
{
    std::ranges::sort(times);
    return times[times.size() / 2];
}

double msSince(const QElapsedTimer &timer) { return static_cast<double>(timer.nsecsElapsed()) / 1e6; }

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const auto syntax = std::make_shared<const SyntaxHighlighting>();

    const QStringList reference = corpusLines(2000);
    const QString left = reference.join(QLatin1Char('\n')) + QLatin1Char('\n');
    constexpr int Runs = 11;
    std::vector<QString> candidates;
    for (int run = 0; run < Runs; ++run)
        candidates.push_back(edited(reference, run).join(QLatin1Char('\n')) + QLatin1Char('\n'));

    DiffView view(syntax);
    view.resize(1400, 900);
    view.show();
    std::vector<double> total;
    std::vector<double> build;
    std::vector<double> show;
    int hunks = 0;
    for (int run = 0; run < Runs; ++run) {
        QElapsedTimer timer;
        timer.start();
        QEventLoop loop;
        QObject::connect(&view, &DiffView::documentReady, &loop, &QEventLoop::quit);
        view.setPair({QStringLiteral("reference.cu"), QStringLiteral("cuda"), left},
            {QStringLiteral("candidate.cu"), QStringLiteral("cuda"), candidates[run]});
        loop.exec();
        (void)view.grab(); // lays out and paints what is on screen
        total.push_back(msSince(timer));
        hunks = view.hunkCount();

        // The halves: the background build, and the GUI thread's share (both panes filled and painted).
        timer.restart();
        auto document = std::make_shared<const DiffDocument>(buildDiffDocument(
            {{QString(), QStringLiteral("cuda"), left}, {QString(), QStringLiteral("cuda"), candidates[run]}},
            syntax.get()));
        build.push_back(msSince(timer));
        DiffPane leftPane(PaneSide::Left);
        DiffPane rightPane(PaneSide::Right);
        leftPane.resize(700, 860);
        rightPane.resize(700, 860);
        timer.restart();
        leftPane.setDiffDocument(document);
        rightPane.setDiffDocument(document);
        (void)leftPane.grab();
        (void)rightPane.grab();
        show.push_back(msSince(timer));
    }

    std::printf("diff_view_2000_lines_ms %.2f\n", median(total));
    std::printf("diff_view_2000_lines_build_ms %.2f\n", median(build));
    std::printf("diff_view_2000_lines_gui_ms %.2f\n", median(show));
    std::fprintf(stderr, "(%lld lines, %d hunks, syntax highlighting %s)\n", static_cast<long long>(reference.size()),
        hunks, SyntaxHighlighting::isAvailable() ? "on" : "off (built without KSyntaxHighlighting)");
    return 0;
}
