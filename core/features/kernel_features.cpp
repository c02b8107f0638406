// KernelFeatures, the markers common to every language, and the launch-spec features; see kernel_features.h.
#include "core/features/kernel_features.h"

#include "core/features/source_analysis.h"

#include <QJsonArray>

#include <cmath>

namespace gpuf::features {

void KernelFeatures::addSpan(KernelFeature f, int line)
{
    if (line <= 0)
        return;
    QList<LineSpan> &list = spans[std::size_t(f)];
    for (LineSpan &span : list) {
        if (line >= span.first - 1 && line <= span.last + 1) {
            span.first = std::min(span.first, line);
            span.last = std::max(span.last, line);
            return;
        }
    }
    if (list.size() < kMaxSpansPerFeature)
        list.append({line, line});
}

void KernelFeatures::add(KernelFeature f, double amount, int line)
{
    float &v = values[std::size_t(f)];
    v = float((std::isnan(v) ? 0.0 : double(v)) + amount);
    addSpan(f, line);
}

void KernelFeatures::maxWith(KernelFeature f, double v, int line)
{
    float &current = values[std::size_t(f)];
    if (std::isnan(current) || v > current) {
        current = float(v);
        spans[std::size_t(f)].clear();
    }
    if (float(v) == current)
        addSpan(f, line);
}

namespace detail {

QRegularExpression re(const char *pattern)
{
    return QRegularExpression(QLatin1StringView(pattern), QRegularExpression::MultilineOption);
}

void countMatches(const CleanedSource &source, const QRegularExpression &re, KernelFeature feature, KernelFeatures &out)
{
    QRegularExpressionMatchIterator it = re.globalMatch(source.text());
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        out.add(feature, 1.0, source.lineOf(m.capturedStart()));
    }
}

qsizetype matchingClose(const QString &text, qsizetype open)
{
    if (open < 0 || open >= text.size())
        return -1;
    const QChar o = text[open];
    const QChar c = o == u'(' ? u')' : o == u'[' ? u']' : u'}';
    int depth = 0;
    for (qsizetype i = open; i < text.size(); ++i) {
        if (text[i] == o) {
            ++depth;
        } else if (text[i] == c && --depth == 0) {
            return i + 1;
        }
    }
    return -1;
}

namespace {

struct Marker
{
    KernelFeature feature;
    QRegularExpression pattern;
};

const std::vector<Marker> &commonMarkers()
{
    using F = KernelFeature;
    static const std::vector<Marker> markers {
        {F::Syncthreads, re(R"(\b__syncthreads\w*\s*\(|\btl\.debug_barrier\s*\()")},
        {F::Syncwarp, re(R"(\b__syncwarp\s*\()")},
        {F::Atomics, re(R"(\batomic[A-Z]\w*\s*\(|\btl\.atomic_\w+\s*\()")},
        {F::Shuffles, re(R"(\b__shfl\w*\s*\(|\.shfl\w*\s*\()")},
        {F::WarpReduces,
            re(R"(\b__reduce_\w+_sync\s*\(|\b(?:cg|cooperative_groups)::reduce\s*\(|\btl\.(?:sum|max|min|reduce|cumsum|argmax|argmin)\s*\()")},
        {F::CooperativeGroups, re(R"(\b(?:cooperative_groups|cg)::\w+)")},
        {F::TensorCore, re(R"(\b(?:wmma::)?mma_sync\b|\bmma\.sync\b|\bwgmma\b|\btl\.dot\s*\()")},
        {F::AsyncCopies,
            re(R"(\bcp\.async\b(?!\.(?:wait|commit))|\b__pipeline_memcpy_async\s*\(|\bmemcpy_async\s*\()")},
        {F::Ldg, re(R"(\b__ld(?:g|cs|ca|cg|lu)\s*\(|\bld\.global\.nc\b)")},
        {F::Restrict, re(R"(\b__restrict__\b)")},
        {F::UnrollPragmas, re(R"(#\s*pragma\s+unroll\b|\btl\.static_range\s*\()")},
        {F::LaunchBounds, re(R"(\b__launch_bounds__\s*\()")},
        {F::Kernels, re(R"(\b__global__\b|^\s*@(?:triton\.)?jit\b)")},
        {F::Half,
            re(R"(\b__half2?\b|\bhalf2?\b|\b__nv_half\w*|\b__float2half\w*|\b__half2float\b|\b(?:torch|tl)\.(?:float16|half)\b|\.half\s*\(\s*\)|\bfp16\b)")},
        {F::Bfloat16, re(R"(\b__nv_bfloat16\w*|\bbfloat16\b|\bbf16\b|\b__float2bfloat16\w*)")},
        {F::Double, re(R"(\bdouble[24]?\b|\b(?:torch|tl)\.(?:float64|double)\b|\.double\s*\(\s*\))")},
        {F::Int8, re(R"(\bu?int8_t\b|\bchar4\b|\b__dp4a\b|\b(?:torch|tl)\.u?int8\b)")},
        {F::Fp8, re(R"(\b__nv_fp8\w*|\bfloat8\w*|\bfp8\w*|\be4m3\w*|\be5m2\w*)")},
        {F::FastMath,
            re(R"(\b__(?:expf|exp10f|logf|log2f|log10f|sinf|cosf|tanf|powf|fdividef|frcp_r\w|fsqrt_r\w|frsqrt_rn|fdiv_r\w|saturatef)\s*\(|\brsqrtf?\s*\(|\b(?:libdevice|math)\.fast_\w+\s*\()")},
        {F::PreciseMath,
            re(R"((?<![\w.])(?:expf|exp2f|exp10f|logf|log2f|log1pf|expm1f|sqrtf|powf|sinf|cosf|tanhf|erff|exp|log|sqrt|pow|tanh|erf)\s*\(|\btl\.(?:exp|exp2|log|log2|sqrt|sigmoid|erf|tanh|sin|cos)\s*\()")},
        {F::LibraryCalls,
            re(R"(\bcublas\w*\s*\(|\bcudnn\w*\s*\(|\bcutlass::\w+|\bcub::\w+|\bthrust::\w+|\.(?:matmul|mm|bmm|addmm|baddbmm|einsum|linear|conv[123]d|conv_transpose[123]d|softmax|log_softmax|layer_norm|rms_norm|group_norm|batch_norm|scaled_dot_product_attention|cross_entropy|nll_loss|cumsum|sort|topk)\s*\()")},
        {F::TorchOps, re(R"(\b(?:torch|F)\.[\w.]+\s*\()")},
    };
    return markers;
}

} // namespace

void countCommonMarkers(const CleanedSource &source, KernelFeatures &out)
{
    for (const Marker &m : commonMarkers()) {
        out.set(m.feature, 0.0);
        countMatches(source, m.pattern, m.feature, out);
    }
    // A launch bound or tensor-core marker counts as present once, whatever the number of mentions.
    if (out.value(KernelFeature::LaunchBounds) > 1)
        out.set(KernelFeature::LaunchBounds, 1.0);
    int lines = 0;
    for (int l = 1; l <= source.lineCount(); ++l) {
        if (!source.line(l).trimmed().isEmpty())
            ++lines;
    }
    out.set(KernelFeature::SourceLines, lines);
}

} // namespace detail

KernelFeatures extractSourceFeatures(const QString &source, const QString &language)
{
    KernelFeatures out;
    for (int i = 0; i < kKernelFeatureCount; ++i) {
        const auto f = KernelFeature(i);
        if (!isCompileFeature(f))
            out.set(f, 0.0);
    }
    // Unknown until a spec or the source says: they have no natural zero.
    for (KernelFeature f : {KernelFeature::ThreadsPerBlock, KernelFeature::TotalThreadsLog2,
             KernelFeature::TotalBlocksLog2, KernelFeature::DynamicSharedBytes, KernelFeature::TritonBlock,
             KernelFeature::TritonNumWarps, KernelFeature::TritonNumStages, KernelFeature::AccessBytes})
        out.set(f, kMissing);
    const CleanedSource cleaned(source, sourceKindOf(language, source));
    detail::countCommonMarkers(cleaned, out);
    if (cleaned.kind() == SourceKind::CLike)
        detail::analyseCLike(cleaned, out);
    else
        detail::analysePython(cleaned, out);
    return out;
}

namespace {

// Launches and cases of a spec evaluated with the kernel-spec (real) arithmetic; a launch that does not evaluate
// leaves the totals missing rather than guessed.
void applyLaunchGeometry(KernelFeatures &features, const QJsonArray &launches, const QJsonArray &cases)
{
    const auto product3 = [](const QJsonArray &dims, const Variables &vars) -> std::optional<double> {
        double p = 1.0;
        for (const QJsonValue d : dims) {
            const auto v
                = d.isDouble() ? std::optional<double>(d.toDouble()) : evaluate(d.toString(), vars, Arithmetic::Real);
            if (!v || *v < 0)
                return std::nullopt;
            p *= *v;
        }
        return p;
    };
    QList<Variables> caseVars;
    for (const QJsonValue c : cases) {
        Variables vars;
        const QJsonObject bindings = c.toObject().value(QStringLiteral("vars")).toObject();
        for (auto it = bindings.begin(); it != bindings.end(); ++it)
            vars.insert(it.key(), it.value().toDouble());
        caseVars.append(vars);
    }
    if (caseVars.isEmpty())
        caseVars.append(Variables {});
    double logThreads = 0.0, logBlocks = 0.0;
    bool complete = true;
    for (qsizetype ci = 0; ci < caseVars.size() && complete; ++ci) {
        double threads = 0.0, blocks = 0.0, heaviest = -1.0;
        for (const QJsonValue l : launches) {
            const QJsonObject launch = l.toObject();
            const auto grid = product3(launch.value(QStringLiteral("grid")).toArray(), caseVars[ci]);
            const auto block = product3(launch.value(QStringLiteral("block")).toArray(), caseVars[ci]);
            if (!grid || !block) {
                complete = false;
                break;
            }
            threads += *grid * *block;
            blocks += *grid;
            if (ci == 0 && *grid * *block > heaviest) {
                heaviest = *grid * *block;
                features.set(KernelFeature::ThreadsPerBlock, *block);
            }
            if (ci == 0) {
                const QJsonValue shared = launch.value(QStringLiteral("shared_bytes"));
                const auto bytes = shared.isDouble()
                    ? std::optional<double>(shared.toDouble())
                    : evaluate(shared.toString(QStringLiteral("0")), caseVars[ci], Arithmetic::Real);
                if (bytes) {
                    const float current = features.value(KernelFeature::DynamicSharedBytes);
                    features.set(KernelFeature::DynamicSharedBytes,
                        std::isnan(current) ? *bytes : std::max(double(current), *bytes));
                }
            }
        }
        if (complete && threads > 0 && blocks > 0) {
            logThreads += std::log2(threads);
            logBlocks += std::log2(blocks);
        } else {
            complete = false;
        }
    }
    if (complete) {
        features.set(KernelFeature::TotalThreadsLog2, logThreads / double(caseVars.size()));
        features.set(KernelFeature::TotalBlocksLog2, logBlocks / double(caseVars.size()));
    }
}

} // namespace

void applyLaunchSpec(KernelFeatures &features, const QJsonObject &spec)
{
    const QJsonArray launches = spec.value(QStringLiteral("launches")).toArray();
    if (!launches.isEmpty()) {
        // The spec is what runs: its launch count replaces a count read from <<<…>>> in the source.
        features.values[std::size_t(KernelFeature::Launches)] = float(launches.size());
        applyLaunchGeometry(features, launches, spec.value(QStringLiteral("cases")).toArray());
    }
    const QJsonArray options = spec.value(QStringLiteral("options")).toArray();
    for (const QJsonValue o : options) {
        if (o.toString() == QLatin1StringView("--use_fast_math") || o.toString() == QLatin1StringView("-use_fast_math"))
            features.add(KernelFeature::FastMath, 1.0, 0);
    }
}

KernelFeatures extractKernelFeatures(const QString &source, const QString &language, const QJsonObject &parameters)
{
    KernelFeatures features = extractSourceFeatures(source, language);
    const QJsonObject spec = parameters.value(QStringLiteral("spec")).toObject();
    if (!spec.isEmpty())
        applyLaunchSpec(features, spec);
    return features;
}

} // namespace gpuf::features
