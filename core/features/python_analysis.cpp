// Python (Triton and PyTorch) structure: loops and branches by indentation, Triton block sizes, warps, stages, loads
// and launches.
#include "core/features/source_analysis.h"

#include <QRegularExpression>

namespace gpuf::features::detail {
namespace {

int indentOf(QStringView line)
{
    int n = 0;
    for (QChar c : line) {
        if (c == u' ')
            ++n;
        else if (c == u'\t')
            n += 8 - n % 8;
        else
            break;
    }
    return n;
}

void analyseBlocks(const CleanedSource &source, KernelFeatures &out)
{
    static const QRegularExpression loop = re(R"(^\s*(?:async\s+)?(?:for|while)\b)");
    static const QRegularExpression branch = re(R"(^\s*(?:if|elif)\b)");
    std::vector<int> open; // indentation of the loops enclosing the current line
    int maxDepth = 0;
    for (int l = 1; l <= source.lineCount(); ++l) {
        const QStringView line = source.line(l);
        if (line.trimmed().isEmpty())
            continue;
        const int indent = indentOf(line);
        while (!open.empty() && open.back() >= indent)
            open.pop_back();
        if (loop.match(line.toString()).hasMatch()) {
            out.add(KernelFeature::Loops, 1.0, l);
            open.push_back(indent);
            maxDepth = std::max(maxDepth, int(open.size()));
        } else if (branch.match(line.toString()).hasMatch()) {
            out.add(KernelFeature::Branches, 1.0, l);
        }
    }
    if (maxDepth > 0)
        out.set(KernelFeature::LoopDepth, maxDepth);
}

void analyseTriton(const CleanedSource &source, KernelFeatures &out)
{
    const QString &text = source.text();
    static const QRegularExpression block = re(R"(\b(\w*BLOCK\w*)['"]?\s*[:=]\s*(\d+)\b)");
    static const QRegularExpression warps = re(R"(\bnum_warps['"]?\s*[:=]\s*(\d+)\b)");
    static const QRegularExpression stages = re(R"(\bnum_stages['"]?\s*[:=]\s*(\d+)\b)");
    const std::pair<const QRegularExpression *, KernelFeature> maxima[] = {{&block, KernelFeature::TritonBlock},
        {&warps, KernelFeature::TritonNumWarps}, {&stages, KernelFeature::TritonNumStages}};
    for (const auto &[pattern, feature] : maxima) {
        QRegularExpressionMatchIterator it = pattern->globalMatch(text);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            const double v = m.capturedView(m.lastCapturedIndex()).toDouble();
            out.maxWith(feature, v, source.lineOf(m.capturedStart()));
        }
    }
    static const QRegularExpression dot = re(R"(\btl\.dot\s*\()");
    countMatches(source, dot, KernelFeature::TritonDot, out);
    static const QRegularExpression load = re(R"(\btl\.load\s*\()");
    static const QRegularExpression mask = re(R"(\bmask\s*=)");
    QRegularExpressionMatchIterator it = load.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const int line = source.lineOf(m.capturedStart());
        out.add(KernelFeature::TritonLoads, 1.0, line);
        const qsizetype open = m.capturedEnd() - 1;
        const qsizetype close = matchingClose(text, open);
        if (close > open && mask.match(text.mid(open, close - open)).hasMatch())
            out.add(KernelFeature::TritonMaskedLoads, 1.0, line);
    }
    // kernel[grid](…): a Triton launch; x[0](…) is rare enough in kernel code to accept.
    static const QRegularExpression launch = re(R"(\b[A-Za-z_]\w*\[[^\[\]\n]+\]\s*\()");
    countMatches(source, launch, KernelFeature::Launches, out);
}

} // namespace

void analysePython(const CleanedSource &source, KernelFeatures &out)
{
    analyseBlocks(source, out);
    analyseTriton(source, out);
    // CUDA inside load_inline strings: its launches and vector widths still count.
    static const QRegularExpression chevrons = re(R"(<<<)");
    countMatches(source, chevrons, KernelFeature::Launches, out);
}

} // namespace gpuf::features::detail
