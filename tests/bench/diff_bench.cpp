// Benchmark of core/diff: full row diff with token highlights for a 2 000-line kernel pair and a 20 000-char line.
#include "core/diff/line_diff.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace gpuf::diff;

namespace {

// A plausible CUDA source: kernels with index arithmetic, shared-memory tiles, loops and launch code.
QStringList cudaLikeLines(int count, QRandomGenerator &random)
{
    QStringList lines;
    int kernel = 0;
    while (lines.size() < count) {
        const int tile = 8 << random.bounded(3);
        lines << QStringLiteral("__global__ void kernel_%1(const float *__restrict__ a, float *out, int n)").arg(kernel)
              << QStringLiteral("{") << QStringLiteral("    __shared__ float tile[%1][%1 + 1];").arg(tile)
              << QStringLiteral("    int idx = blockIdx.x * blockDim.x + threadIdx.x;")
              << QStringLiteral("    float acc = 0.0f;");
        const int body = 10 + random.bounded(20);
        for (int i = 0; i < body; ++i) {
            switch (random.bounded(5)) {
            case 0:
                lines
                    << QStringLiteral("    for (int k = 0; k < %1; ++k) {").arg(tile)
                    << QStringLiteral("        acc += tile[threadIdx.y][k] * a[idx * %1 + k];").arg(random.bounded(64))
                    << QStringLiteral("    }");
                break;
            case 1:
                lines << QStringLiteral("    __syncthreads();");
                break;
            case 2:
                lines << QStringLiteral("    float v%1 = a[idx + %2] * %3.0f;").arg(i).arg(random.bounded(512)).arg(i);
                break;
            case 3:
                lines << QStringLiteral("    if (idx + %1 < n)").arg(i * tile)
                      << QStringLiteral("        out[idx + %1] = fmaxf(acc, v%2);").arg(i * tile).arg(i);
                break;
            default:
                lines << QStringLiteral("    // step %1: accumulate the partial sums of tile %2").arg(i).arg(kernel);
            }
        }
        lines << QStringLiteral("    out[idx] = acc;") << QStringLiteral("}") << QString();
        ++kernel;
    }
    lines.resize(count);
    return lines;
}

// About 5% of the lines edited at scattered places: constants tuned, names changed, lines added and removed.
QStringList edited(QStringList lines, QRandomGenerator &random)
{
    const int edits = static_cast<int>(lines.size()) / 20;
    for (int e = 0; e < edits; ++e) {
        const int at = random.bounded(static_cast<int>(lines.size()));
        switch (random.bounded(4)) {
        case 0:
            lines[at].replace(QStringLiteral("idx"), QStringLiteral("gid"));
            lines[at] += QStringLiteral(" // tuned");
            break;
        case 1:
            lines.insert(at, QStringLiteral("    acc = __fmaf_rn(acc, %1.5f, 0.0f);").arg(e));
            break;
        case 2:
            lines.removeAt(at);
            break;
        default:
            lines[at] = QStringLiteral("    float w%1 = __ldg(&a[idx + %2]);").arg(e).arg(random.bounded(100));
        }
    }
    return lines;
}

QString longLine(int numbers, int changeEvery)
{
    QString line = QStringLiteral("float w[] = {");
    for (int i = 0; i < numbers; ++i)
        line += QString::number(changeEvery > 0 && i % changeEvery == 0 ? i + 7 : i) + u"f, ";
    return line + u"};";
}

template<typename F>
double medianMs(int runs, F work)
{
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer timer;
        timer.start();
        work();
        times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::ranges::sort(times);
    return times[times.size() / 2];
}

} // namespace

int main()
{
    QRandomGenerator random(2024);
    const QStringList reference = cudaLikeLines(2000, random);
    const QString left = reference.join(u'\n') + u'\n';
    const QString right = edited(reference, random).join(u'\n') + u'\n';

    int changedRows = 0;
    const double pairMs = medianMs(21, [&] {
        const DiffResult diff = diffTexts(left, right);
        changedRows = diff.summary.changedLines();
    });
    const double countMs = medianMs(21, [&] { (void)changedLineCount(left, right); });

    const QString longLeft = longLine(3100, 0);
    const QString longRight = longLine(3100, 25);
    bool capped = false;
    const double longMs = medianMs(21, [&] { capped = diffTexts(longLeft, longRight).rows.value(0).highlightsCapped; });

    std::printf("diff_2000_lines_ms %.2f\n", pairMs);
    std::printf("changed_line_count_2000_lines_ms %.2f\n", countMs);
    std::printf("diff_long_line_ms %.2f\n", longMs);
    std::fprintf(stderr, "(2000-line pair: %d non-equal rows; long line: %lld characters, highlights capped: %s)\n",
        changedRows, static_cast<long long>(longLeft.size()), capped ? "yes" : "no");
    return 0;
}
