// The feature table; see feature_catalog.h.
#include "core/features/feature_catalog.h"

#include <QCoreApplication>

#include <cmath>

namespace gpuf::features {
namespace {

using G = FeatureGroup;
using S = ValueStyle;

// In KernelFeature order; static_assert below keeps the two in step.
constexpr std::array<FeatureInfo, kKernelFeatureCount> kKernelFeatures {{
    {"access_bytes", G::Memory, S::Bytes, QT_TRANSLATE_NOOP("gpuf::features", "loads %1 bytes per thread access")},
    {"vector_accesses", G::Memory, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 line%s of vector (8/16-byte) loads or stores")},
    {"ldg", G::Memory, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 __ldg read-only load%s")},
    {"restrict", G::Memory, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "marks %1 pointer%s __restrict__")},
    {"coalesced_accesses", G::Memory, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 coalesced global access%s (lanes one element apart)")},
    {"strided_accesses", G::Memory, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 strided global access%s (lanes a stride apart)")},
    {"shared_arrays", G::SharedMemory, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "declares %1 shared-memory array%s")},
    {"shared_bytes", G::SharedMemory, S::Bytes,
        QT_TRANSLATE_NOOP("gpuf::features", "uses %1 bytes of static shared memory")},
    {"shared_padded", G::SharedMemory, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "pads %1 shared array%s against bank conflicts")},
    {"shared_column_accesses", G::SharedMemory, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 column-wise access%s to an unpadded shared tile (bank conflicts)")},
    {"dynamic_shared", G::SharedMemory, S::Flag, QT_TRANSLATE_NOOP("gpuf::features", "uses dynamic shared memory"),
        QT_TRANSLATE_NOOP("gpuf::features", "uses no dynamic shared memory")},
    {"syncthreads", G::Synchronisation, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 __syncthreads() barrier%s")},
    {"syncthreads_in_loops", G::Synchronisation, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 __syncthreads() barrier%s inside loops")},
    {"syncwarp", G::Synchronisation, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 __syncwarp() call%s")},
    {"atomics", G::Synchronisation, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 atomic operation%s")},
    {"shuffles", G::Synchronisation, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 warp shuffle%s")},
    {"warp_reduces", G::Synchronisation, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 warp-level reduce intrinsic%s")},
    {"cooperative_groups", G::Synchronisation, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 cooperative-groups call%s")},
    {"tensor_core", G::Synchronisation, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 tensor-core operation%s (wmma/mma/tl.dot)")},
    {"async_copies", G::Memory, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 asynchronous copy instruction%s (cp.async)")},
    {"loops", G::ControlFlow, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 loop%s")},
    {"loop_depth", G::ControlFlow, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "nests loops %1 deep")},
    {"unroll_pragmas", G::ControlFlow, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 unroll pragma%s")},
    {"grid_stride_loops", G::ControlFlow, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 grid-stride loop%s")},
    {"block_stride_loops", G::ControlFlow, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 block-stride loop%s (threads of a block share a row)")},
    {"branches", G::ControlFlow, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 branch%s")},
    {"divergent_branches", G::ControlFlow, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 warp-divergent branch%s (lane modulo tests)")},
    {"kernels", G::Launch, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "defines %1 kernel%s")},
    {"launches", G::Launch, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "makes %1 kernel launch%s")},
    {"launch_bounds", G::Launch, S::Flag, QT_TRANSLATE_NOOP("gpuf::features", "declares __launch_bounds__"),
        QT_TRANSLATE_NOOP("gpuf::features", "declares no __launch_bounds__")},
    {"threads_per_block", G::Launch, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "runs %1 thread%s per block")},
    {"total_threads_log2", G::Launch, S::Log2, QT_TRANSLATE_NOOP("gpuf::features", "launches about %1 threads")},
    {"total_blocks_log2", G::Launch, S::Log2, QT_TRANSLATE_NOOP("gpuf::features", "launches about %1 blocks")},
    {"dynamic_shared_bytes", G::Launch, S::Bytes,
        QT_TRANSLATE_NOOP("gpuf::features", "asks for %1 bytes of dynamic shared memory")},
    {"register_array_elements", G::Launch, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "keeps %1 element%s in per-thread arrays (register tiles)")},
    {"half", G::Precision, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "uses fp16 in %1 place%s")},
    {"bfloat16", G::Precision, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "uses bf16 in %1 place%s")},
    {"double", G::Precision, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "uses fp64 in %1 place%s")},
    {"int8", G::Precision, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "uses int8 in %1 place%s")},
    {"fp8", G::Precision, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "uses fp8 in %1 place%s")},
    {"fast_math", G::Precision, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "uses %1 fast-math intrinsic%s (__expf, rsqrtf, …)")},
    {"precise_math", G::Precision, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "calls %1 precise math function%s (expf, sqrtf, …)")},
    {"library_calls", G::Library, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "makes %1 library call%s (cuBLAS/cuDNN/torch ops)")},
    {"torch_ops", G::Library, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "calls %1 torch op%s")},
    {"triton_block", G::Triton, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "uses Triton blocks of %1")},
    {"triton_num_warps", G::Triton, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "runs Triton with %1 warp%s")},
    {"triton_num_stages", G::Triton, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "pipelines Triton loads over %1 stage%s")},
    {"triton_dot", G::Triton, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 tl.dot call%s")},
    {"triton_loads", G::Triton, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 tl.load call%s")},
    {"triton_masked_loads", G::Triton, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 masked tl.load call%s")},
    {"source_lines", G::Size, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 line%s of code")},
    {"registers", G::Compile, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "uses %1 register%s per thread")},
    {"spill_bytes", G::Compile, S::Bytes, QT_TRANSLATE_NOOP("gpuf::features", "spills %1 bytes to local memory")},
    {"compiled_shared_bytes", G::Compile, S::Bytes,
        QT_TRANSLATE_NOOP("gpuf::features", "compiles to %1 bytes of static shared memory")},
    {"local_bytes", G::Compile, S::Bytes,
        QT_TRANSLATE_NOOP("gpuf::features", "uses %1 bytes of local memory per thread")},
    {"ptx_ld_global_v4", G::Compile, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 ld.global.v4 instruction%s in PTX")},
    {"ptx_ld_global_v2", G::Compile, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 ld.global.v2 instruction%s in PTX")},
    {"ptx_ld_global", G::Compile, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 global load%s in PTX")},
    {"ptx_st_global", G::Compile, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 global store%s in PTX")},
    {"ptx_mma", G::Compile, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 mma/wgmma instruction%s in PTX")},
    {"ptx_cp_async", G::Compile, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 cp.async instruction%s in PTX")},
    {"ptx_bar_sync", G::Compile, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 bar.sync barrier%s in PTX")},
    {"ptx_atomics", G::Compile, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 atom/red instruction%s in PTX")},
    {"ptx_shuffles", G::Compile, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 shfl instruction%s in PTX")},
    {"ptx_instructions", G::Compile, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "compiles to %1 PTX instruction%s")},
}};

constexpr std::array<FeatureInfo, kHardwareFeatureCount> kHardwareFeatures {{
    {"hw_compute_capability", G::Hardware, S::Number, QT_TRANSLATE_NOOP("gpuf::features", "has compute capability %1")},
    {"hw_sm_count", G::Hardware, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has %1 SM%s")},
    {"hw_max_threads_per_sm", G::Hardware, S::Count,
        QT_TRANSLATE_NOOP("gpuf::features", "runs up to %1 threads per SM")},
    {"hw_clock_ghz", G::Hardware, S::Number, QT_TRANSLATE_NOOP("gpuf::features", "clocks at %1 GHz")},
    {"hw_memory_clock_ghz", G::Hardware, S::Number, QT_TRANSLATE_NOOP("gpuf::features", "clocks memory at %1 GHz")},
    {"hw_bus_width_bits", G::Hardware, S::Count, QT_TRANSLATE_NOOP("gpuf::features", "has a %1-bit memory bus")},
    {"hw_l2_mb", G::Hardware, S::Number, QT_TRANSLATE_NOOP("gpuf::features", "has %1 MB of L2")},
    {"hw_shared_per_sm_kb", G::Hardware, S::Number,
        QT_TRANSLATE_NOOP("gpuf::features", "has %1 KB of shared memory per SM")},
}};

QString translated(const char *text) { return QCoreApplication::translate("gpuf::features", text); }

} // namespace

const FeatureInfo &kernelFeatureInfo(KernelFeature feature) { return kKernelFeatures[std::size_t(feature)]; }
const FeatureInfo &hardwareFeatureInfo(HardwareFeature feature) { return kHardwareFeatures[std::size_t(feature)]; }
QString kernelFeatureKey(KernelFeature feature) { return QLatin1StringView(kernelFeatureInfo(feature).key); }
QString hardwareFeatureKey(HardwareFeature feature) { return QLatin1StringView(hardwareFeatureInfo(feature).key); }

bool isCompileFeature(KernelFeature feature) { return kernelFeatureInfo(feature).group == FeatureGroup::Compile; }

QString formatValue(const FeatureInfo &info, double value)
{
    if (std::isnan(value))
        return QStringLiteral("—");
    switch (info.style) {
    case ValueStyle::Flag:
        return value != 0.0 ? translated("yes") : translated("no");
    case ValueStyle::Log2: {
        const double v = std::exp2(value);
        return v >= 1e9 ? QString::number(v, 'g', 3) : QString::number(qint64(std::llround(v)));
    }
    case ValueStyle::Number:
        return QString::number(value, 'g', 4);
    case ValueStyle::Count:
    case ValueStyle::Bytes:
        break;
    }
    return value == std::floor(value) ? QString::number(qint64(value)) : QString::number(value, 'g', 4);
}

QString describeValue(const FeatureInfo &info, double value)
{
    if (std::isnan(value)) {
        QString phrase = translated(info.phrase);
        return phrase.replace(QStringLiteral("%s"), QStringLiteral("s")).arg(QStringLiteral("?"))
            + translated(" (unknown)");
    }
    if (info.style == ValueStyle::Flag)
        return translated(value != 0.0 || !info.absentPhrase ? info.phrase : info.absentPhrase);
    QString phrase = translated(info.phrase);
    // "branch%s" → "branches": a word ending in s, x or h takes "es".
    const bool one = value == 1.0;
    for (qsizetype at = phrase.indexOf(QStringLiteral("%s")); at >= 0; at = phrase.indexOf(QStringLiteral("%s"))) {
        const QChar before = at > 0 ? phrase.at(at - 1) : QChar();
        const bool es = before == u's' || before == u'x' || before == u'h';
        phrase.replace(at, 2, one ? QString() : (es ? QStringLiteral("es") : QStringLiteral("s")));
    }
    return phrase.arg(formatValue(info, value));
}

static_assert(kKernelFeatures.size() == std::size_t(KernelFeature::Count));
static_assert(kHardwareFeatures.size() == std::size_t(HardwareFeature::Count));

} // namespace gpuf::features
