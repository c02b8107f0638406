// CUDA structure: constants, array declarations, loops, branches, vector widths and launch bounds.
#include "core/features/source_analysis.h"

#include <QRegularExpression>

#include <cmath>

namespace gpuf::features::detail {
namespace {

struct Loop
{
    qsizetype keyword = 0; // offset of for/while/do
    qsizetype headerStart = -1; // '(' of the header; -1 for do
    qsizetype headerEnd = -1; // one past ')'
    qsizetype bodyStart = 0;
    qsizetype bodyEnd = 0; // one past the body
    int line = 0;
};

// End of a statement that starts at `from`: one past its ';' at depth 0, or one past the '}' that closes a block
// opened at depth 0 (a braced body).
qsizetype statementEnd(const QString &text, qsizetype from)
{
    int depth = 0;
    for (qsizetype i = from; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'(' || c == u'[' || c == u'{') {
            ++depth;
        } else if (c == u')' || c == u']' || c == u'}') {
            if (--depth < 0)
                return i; // the enclosing block ended first
            if (depth == 0 && c == u'}')
                return i + 1;
        } else if (c == u';' && depth == 0) {
            return i + 1;
        }
    }
    return text.size();
}

std::vector<Loop> findLoops(const CleanedSource &source)
{
    static const QRegularExpression loopRe = re(R"(\b(for|while)\s*\(|\bdo\s*\{)");
    const QString &text = source.text();
    std::vector<Loop> loops;
    QRegularExpressionMatchIterator it = loopRe.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        Loop loop;
        loop.keyword = m.capturedStart();
        loop.line = source.lineOf(loop.keyword);
        if (m.captured(1).isEmpty()) { // do { … } while (…);
            loop.bodyStart = m.capturedEnd() - 1;
            loop.bodyEnd = matchingClose(text, loop.bodyStart);
        } else {
            loop.headerStart = m.capturedEnd() - 1;
            loop.headerEnd = matchingClose(text, loop.headerStart);
            if (loop.headerEnd < 0)
                continue;
            qsizetype next = loop.headerEnd;
            while (next < text.size() && text[next].isSpace())
                ++next;
            // The while (…); that ends a do-loop is not a loop of its own.
            if (m.captured(1) == QLatin1StringView("while") && next < text.size() && text[next] == u';')
                continue;
            loop.bodyStart = next;
            loop.bodyEnd = statementEnd(text, next);
        }
        if (loop.bodyEnd < 0)
            loop.bodyEnd = text.size();
        loops.push_back(loop);
    }
    return loops;
}

// Names assigned from an expression that mentions one of `words` (e.g. stride = blockDim.x * gridDim.x).
QStringList namesAssignedFrom(const QString &text, const QString &wordsPattern)
{
    const QRegularExpression assign(QStringLiteral(R"(\b([A-Za-z_]\w*)\s*=(?!=)[^;{}]*\b(?:%1)\b)").arg(wordsPattern));
    QStringList names;
    QRegularExpressionMatchIterator it = assign.globalMatch(text);
    while (it.hasNext())
        names.append(it.next().captured(1));
    names.removeDuplicates();
    return names;
}

bool mentionsAny(QStringView text, const QStringList &names)
{
    for (const QString &name : names) {
        const QRegularExpression word(QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(name)));
        if (word.match(text).hasMatch())
            return true;
    }
    return false;
}

void analyseLoops(const CleanedSource &source, KernelFeatures &out)
{
    const QString &text = source.text();
    const std::vector<Loop> loops = findLoops(source);
    QStringList gridNames = namesAssignedFrom(text, QStringLiteral("gridDim"));
    gridNames.append(QStringLiteral("gridDim"));
    QStringList blockNames = namesAssignedFrom(text, QStringLiteral("blockDim"));
    blockNames.append(QStringLiteral("blockDim"));
    QStringList laneNames = namesAssignedFrom(text, QStringLiteral("threadIdx"));
    laneNames.append(QStringLiteral("threadIdx"));
    int maxDepth = 0;
    for (const Loop &loop : loops) {
        int depth = 1;
        for (const Loop &outer : loops) {
            if (&outer != &loop && loop.keyword >= outer.bodyStart && loop.keyword < outer.bodyEnd)
                ++depth;
        }
        maxDepth = std::max(maxDepth, depth);
        out.add(KernelFeature::Loops, 1.0, loop.line);
        if (loop.headerStart < 0)
            continue;
        const QStringView header = QStringView(text).mid(loop.headerStart, loop.headerEnd - loop.headerStart);
        const QList<QStringView> parts = header.mid(1, header.size() - 2).split(u';');
        if (mentionsAny(header, gridNames)) {
            out.add(KernelFeature::GridStrideLoops, 1.0, loop.line);
        } else if (parts.size() == 3 && parts[2].contains(u"+=")
            && (mentionsAny(parts[2], blockNames) || mentionsAny(parts[0], laneNames))) {
            // Starts at the thread's index and steps by the block: the threads of one block share the range.
            out.add(KernelFeature::BlockStrideLoops, 1.0, loop.line);
        }
    }
    if (maxDepth > 0)
        out.set(KernelFeature::LoopDepth, maxDepth);
    static const QRegularExpression barrier = re(R"(\b__syncthreads\w*\s*\()");
    QRegularExpressionMatchIterator it = barrier.globalMatch(text);
    while (it.hasNext()) {
        const qsizetype at = it.next().capturedStart();
        for (const Loop &loop : loops) {
            if (at >= loop.bodyStart && at < loop.bodyEnd) {
                out.add(KernelFeature::SyncthreadsInLoops, 1.0, source.lineOf(at));
                break;
            }
        }
    }
}

void analyseArrays(const std::vector<ArrayDeclaration> &arrays, KernelFeatures &out)
{
    for (const ArrayDeclaration &a : arrays) {
        if (a.shared) {
            out.add(KernelFeature::SharedArrays, 1.0, a.line);
            if (a.dynamic) {
                out.set(KernelFeature::DynamicShared, 1.0);
                out.addSpan(KernelFeature::DynamicShared, a.line);
            } else if (a.elements >= 0) {
                out.add(KernelFeature::SharedBytes, a.elements * a.elementBytes, a.line);
            }
            if (a.padded)
                out.add(KernelFeature::SharedPadded, 1.0, a.line);
        } else if (a.elements > 0) {
            out.add(KernelFeature::RegisterArrayElements, a.elements, a.line);
        }
    }
}

// Widest access: vector types used in the source, else the widest element type the kernels' pointers point to.
void analyseWidths(const CleanedSource &source, KernelFeatures &out)
{
    const QString &text = source.text();
    static const QRegularExpression vectorType = re(
        R"(\b((?:float|double|int|uint|longlong|ulonglong|short|ushort|char|uchar)[234]|half2|__half2|__nv_bfloat162)\b)");
    static const QRegularExpression vectorCast
        = re(R"(\breinterpret_cast\s*<[^<>;]*?[234]\s*\*\s*>|\(\s*(?:const\s+)?\w+[234]\s*\*\s*\))");
    int widest = 0;
    QRegularExpressionMatchIterator it = vectorType.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const int bytes = typeBytes(m.capturedView(1));
        if (bytes > 4 || (bytes == 4 && m.capturedView(1).contains(u'2')))
            out.maxWith(KernelFeature::AccessBytes, bytes, source.lineOf(m.capturedStart()));
        widest = std::max(widest, bytes);
    }
    countMatches(source, vectorCast, KernelFeature::VectorAccesses, out);
    // Element types of the kernels' pointer parameters.
    static const QRegularExpression kernelHead = re(R"(\b__global__\b[^(;{]*\()");
    static const QRegularExpression boundsBefore = re(R"(\b__launch_bounds__\s*$)");
    static const QRegularExpression pointerParam = re(R"(\b([A-Za-z_]\w*)\s*\*)");
    int element = 0;
    int elementLine = 0;
    it = kernelHead.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        qsizetype open = m.capturedEnd() - 1;
        // __global__ void __launch_bounds__(256) f(…): the parameters are in the second parentheses.
        if (boundsBefore.match(QStringView(text).mid(m.capturedStart(), open - m.capturedStart())).hasMatch()) {
            const qsizetype boundsEnd = matchingClose(text, open);
            open = boundsEnd < 0 ? -1 : text.indexOf(u'(', boundsEnd);
        }
        const qsizetype close = matchingClose(text, open);
        if (close < 0)
            continue;
        QRegularExpressionMatchIterator p = pointerParam.globalMatch(text.mid(open, close - open));
        while (p.hasNext()) {
            const QRegularExpressionMatch pm = p.next();
            const int bytes = typeBytes(pm.capturedView(1));
            if (bytes > element) {
                element = bytes;
                elementLine = source.lineOf(open + pm.capturedStart());
            }
        }
    }
    if (std::isnan(out.value(KernelFeature::AccessBytes)) && element > 0)
        out.maxWith(KernelFeature::AccessBytes, element, elementLine);
}

void analyseLaunchMarkers(const CleanedSource &source, const Variables &constants, KernelFeatures &out)
{
    const QString &text = source.text();
    static const QRegularExpression bounds = re(R"(\b__launch_bounds__\s*\(([^,)]+))");
    QRegularExpressionMatchIterator it = bounds.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        if (const auto v = evaluate(m.capturedView(1).trimmed(), constants, Arithmetic::C))
            out.maxWith(KernelFeature::ThreadsPerBlock, *v, source.lineOf(m.capturedStart()));
    }
    static const QRegularExpression chevrons = re(R"(<<<\s*([^,>]+),\s*([^,>]+))");
    it = chevrons.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const int line = source.lineOf(m.capturedStart());
        out.add(KernelFeature::Launches, 1.0, line);
        if (const auto v = evaluate(m.capturedView(2).trimmed(), constants, Arithmetic::C))
            out.maxWith(KernelFeature::ThreadsPerBlock, *v, line);
    }
}

} // namespace

int typeBytes(QStringView type)
{
    struct Size
    {
        const char *name;
        int bytes;
    };
    static constexpr Size sizes[] = {{"float", 4}, {"int", 4}, {"unsigned", 4}, {"uint", 4}, {"uint32_t", 4},
        {"int32_t", 4}, {"double", 8}, {"long", 8}, {"int64_t", 8}, {"uint64_t", 8}, {"size_t", 8}, {"short", 2},
        {"half", 2}, {"__half", 2}, {"__nv_bfloat16", 2}, {"bfloat16", 2}, {"char", 1}, {"int8_t", 1}, {"uint8_t", 1},
        {"bool", 1}, {"half2", 4}, {"__half2", 4}, {"__nv_bfloat162", 4}, {"float2", 8}, {"float3", 12}, {"float4", 16},
        {"double2", 16}, {"double3", 24}, {"double4", 32}, {"int2", 8}, {"int3", 12}, {"int4", 16}, {"uint2", 8},
        {"uint3", 12}, {"uint4", 16}, {"longlong2", 16}, {"ulonglong2", 16}, {"short2", 4}, {"short4", 8},
        {"ushort2", 4}, {"ushort4", 8}, {"char2", 2}, {"char4", 4}, {"uchar2", 2}, {"uchar4", 4}, {"__nv_fp8_e4m3", 1},
        {"__nv_fp8_e5m2", 1}};
    for (const Size &s : sizes) {
        if (type == QLatin1StringView(s.name))
            return s.bytes;
    }
    return 0;
}

Variables collectConstants(const CleanedSource &source)
{
    static const QRegularExpression define = re(R"(^\s*#\s*define\s+([A-Za-z_]\w*)(?!\()[ \t]+([^\n]+)$)");
    static const QRegularExpression constant = re(
        R"(\b(?:constexpr|const)\s+(?:static\s+)?(?:unsigned\s+)?(?:int|long|size_t|unsigned|int64_t|uint32_t|int32_t|auto)\s+([A-Za-z_]\w*)\s*=\s*([^;]+);)");
    struct Found
    {
        qsizetype at;
        QString name;
        QString expression;
    };
    std::vector<Found> found;
    for (const QRegularExpression *pattern : {&define, &constant}) {
        QRegularExpressionMatchIterator it = pattern->globalMatch(source.text());
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            found.push_back({m.capturedStart(), m.captured(1), m.captured(2).trimmed()});
        }
    }
    std::sort(found.begin(), found.end(), [](const Found &a, const Found &b) { return a.at < b.at; });
    Variables constants;
    for (const Found &f : found) {
        if (const auto v = evaluate(f.expression, constants, Arithmetic::C))
            constants.insert(f.name, *v);
    }
    return constants;
}

std::vector<ArrayDeclaration> findArrays(const CleanedSource &source, const Variables &constants)
{
    static const QRegularExpression decl = re(
        R"((\bextern\s+)?(\b__shared__\s+|\b__device__\s+|\b__constant__\s+)?(?:__align__\s*\(\s*\d+\s*\)\s*)?(?:(?:volatile|const|static)\s+)*\b([A-Za-z_]\w*)\s+(?:__align__\s*\(\s*\d+\s*\)\s*)?([A-Za-z_]\w*)\s*((?:\[[^\]\n]*\]\s*)+)(?=[;=,]))");
    static const QRegularExpression more = re(R"(\G\s*,\s*([A-Za-z_]\w*)\s*((?:\[[^\]\n]*\]\s*)+)(?=[;=,]))");
    static const QRegularExpression dim(QStringLiteral(R"(\[([^\]]*)\])"));
    static const QRegularExpression plusOne(QStringLiteral(R"(\+\s*1\s*$)"));
    const QString &text = source.text();
    std::vector<ArrayDeclaration> arrays;
    const auto add = [&](const QRegularExpressionMatch &m, const QString &type, bool shared, bool external,
                         const QString &name, const QString &dims) {
        ArrayDeclaration a;
        a.name = name;
        a.type = type;
        a.shared = shared;
        a.elementBytes = typeBytes(type);
        a.start = m.capturedStart();
        a.end = m.capturedEnd();
        a.line = source.lineOf(m.capturedStart());
        a.elements = 1.0;
        QRegularExpressionMatchIterator d = dim.globalMatch(dims);
        QString last;
        while (d.hasNext()) {
            last = d.next().captured(1).trimmed();
            ++a.dimensions;
            const auto v = evaluate(last, constants, Arithmetic::C);
            if (last.isEmpty()) {
                a.dynamic = shared && external;
                a.elements = -1.0;
            } else if (!v || *v < 0) {
                a.elements = -1.0;
            } else if (a.elements >= 0) {
                a.elements *= *v;
            }
        }
        const auto lastValue = evaluate(last, constants, Arithmetic::C);
        a.padded = a.dimensions > 1
            && (plusOne.match(last).hasMatch() || (lastValue && *lastValue > 1 && std::fmod(*lastValue, 2.0) == 1.0));
        arrays.push_back(a);
    };
    QRegularExpressionMatchIterator it = decl.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const QString type = m.captured(3);
        if (typeBytes(type) == 0)
            continue; // "return x[i];" and the like: not a declaration
        if (m.captured(2).startsWith(QLatin1StringView("__device__"))
            || m.captured(2).startsWith(QLatin1StringView("__constant__")))
            continue; // a global array: its accesses are global ones
        const bool shared = m.capturedLength(2) > 0;
        const bool external = m.capturedLength(1) > 0;
        add(m, type, shared, external, m.captured(4), m.captured(5));
        // Further declarators of the same statement: float regM[TM], regN[TN];
        qsizetype at = m.capturedEnd();
        for (;;) {
            const QRegularExpressionMatch next = more.match(text, at);
            if (!next.hasMatch())
                break;
            add(next, type, shared, external, next.captured(1), next.captured(2));
            at = next.capturedEnd();
        }
    }
    return arrays;
}

void analyseCLike(const CleanedSource &source, KernelFeatures &out)
{
    const Variables constants = collectConstants(source);
    const std::vector<ArrayDeclaration> arrays = findArrays(source, constants);
    static const QRegularExpression branch = re(R"(\bif\s*\()");
    countMatches(source, branch, KernelFeature::Branches, out);
    analyseLoops(source, out);
    analyseArrays(arrays, out);
    analyseWidths(source, out);
    analyseLaunchMarkers(source, constants, out);
    analyseAccessPatterns(source, constants, arrays, out);
}

} // namespace gpuf::features::detail
