// Tests for core/features: source features of small CUDA and Triton/PyTorch kernels with known answers (values and
// the lines they come from), the expression evaluator, launch-spec geometry, compile results, pair rows and the cache.
#include "core/features/compile_features.h"
#include "core/features/expression.h"
#include "core/features/feature_cache.h"
#include "core/features/kernel_features.h"
#include "core/features/pair_features.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>

using namespace gpuf;
using namespace gpuf::features;
using namespace Qt::StringLiterals;

namespace {

// Line numbers in the expectations below count from the first line of each raw string.
const QString kAxpy = uR"(extern "C" __global__ void axpy(const float* x, const float* y, float* out, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // __syncthreads(); float4 in a comment does not count
    if (i < n)
        out[i] = a * x[i] + y[i];
})"_s;

const QString kAxpyFloat4
    = uR"(extern "C" __global__ void axpy4(const float* x, const float* y, float* out, float a, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n / 4) {
        float4 xv = reinterpret_cast<const float4*>(x)[v];
        float4 yv = reinterpret_cast<const float4*>(y)[v];
        float4 r = make_float4(a * xv.x + yv.x, a * xv.y + yv.y, a * xv.z + yv.z, a * xv.w + yv.w);
        reinterpret_cast<float4*>(out)[v] = r;
    }
})"_s;

const QString kSoftmaxThreadPerRow
    = uR"(extern "C" __global__ void softmax_row(const float* x, float* y, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;
    float m = -1e30f;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, xr[c]);
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += expf(xr[c] - m);
    for (int c = 0; c < cols; ++c) yr[c] = __expf(xr[c] - m) / s;
})"_s;

const QString kTransposeNaive
    = uR"(extern "C" __global__ void transpose(const float* in, float* out, int rows, int cols)
{
    int c = blockIdx.x * 32 + threadIdx.x;
    int r = blockIdx.y * 8 + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
})"_s;

const QString kTransposeTile = uR"(#define TILE 32
extern "C" __global__ void tile_t(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        tile[ty + j][tx] = in[(size_t)(blockIdx.y * TILE + ty + j) * cols + blockIdx.x * TILE + tx];
    __syncthreads();
    for (int j = 0; j < TILE; j += 8)
        out[(size_t)(blockIdx.x * TILE + ty + j) * rows + blockIdx.y * TILE + tx] = tile[tx][ty + j];
})"_s;

const QString kTransposePadded = uR"(#define TILE 32
extern "C" __global__ void tile_p(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = in[(size_t)(blockIdx.y * TILE + ty) * cols + blockIdx.x * TILE + tx];
    __syncthreads();
    out[(size_t)(blockIdx.x * TILE + ty) * rows + blockIdx.y * TILE + tx] = tile[tx][ty];
})"_s;

const QString kDivergentReduce = uR"(#define THREADS 256
extern "C" __global__ void zero(float* out) { out[0] = 0.0f; }
extern "C" __global__ void reduce(const float* x, float* out, int n)
{
    __shared__ float partial[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * THREADS + tid;
    partial[tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int s = 1; s < THREADS; s <<= 1) {
        if (tid % (2 * s) == 0)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, partial[0]);
})"_s;

const QString kWarpGridStride = uR"(__device__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
extern "C" __global__ void __launch_bounds__(256) sum(const double* __restrict__ x, float* out, int n)
{
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc += (float)__ldg(&x[i]);
    acc = warp_sum(acc);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, acc);
})"_s;

const QString kWmma = uR"(#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void gemm(const half* a, const half* b, float* c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    float acc[4][4];
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
})"_s;

const QString kVectorOffsets = uR"(__device__ float g_partials[64];
extern "C" __global__ void vec(const float* A, float* out, int n)
{
    int tid = threadIdx.x;
    int quad = tid * 4;
    float4 a = *reinterpret_cast<const float4*>(A + quad);
    float s = A[quad];
    int warp = tid / 32;
    g_partials[warp] = a.x + s;
    if (tid < (n & 3))
        out[tid] = 0.0f;
})"_s;

const QString kInlinePtx = uR"(extern "C" __global__ void k(float* d, const unsigned* a)
{
    // mma.sync in a comment does not count
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(0), "l"(a));
    asm volatile("cp.async.wait_group 0;" ::);
    printf("mma.sync %d", 1);
})"_s;

const QString kTriton = uR"(import torch
import triton
import triton.language as tl

@triton.autotune(configs=[triton.Config({'BLOCK_M': 128, 'BLOCK_N': 64}, num_warps=8, num_stages=3),
                          triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64}, num_warps=4, num_stages=2)], key=['M'])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Docstring: tl.dot and tl.load here do not count."""
    pid = tl.program_id(0)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, 32):
        a = tl.load(a_ptr + k, mask=k < K, other=0.0)
        b = tl.load(b_ptr + k)
        acc += tl.dot(a, b)
    tl.store(c_ptr, acc.to(tl.float16))

def custom_kernel(data):
    a, b = data
    c = torch.empty((a.shape[0], b.shape[1]), device=a.device, dtype=torch.float16)
    grid = lambda META: (triton.cdiv(a.shape[0], META['BLOCK_M']),)
    matmul_kernel[grid](a, b, c, a.shape[0], b.shape[1], a.shape[1])
    return c
)"_s;

const QString kTorch = uR"(import torch
import torch.nn.functional as F

def custom_kernel(data):
    x, w = data
    h = torch.matmul(x, w)  # a cuBLAS call
    if h.dtype == torch.bfloat16:
        h = h.float()
    return F.softmax(h, dim=-1)
)"_s;

QString spans(const QList<LineSpan> &list)
{
    QStringList parts;
    for (const LineSpan &s : list)
        parts.append(s.first == s.last ? QString::number(s.first) : u"%1-%2"_s.arg(s.first).arg(s.last));
    return parts.join(u',');
}

KernelFeature featureNamed(const QString &key)
{
    for (int i = 0; i < kKernelFeatureCount; ++i) {
        if (kernelFeatureKey(KernelFeature(i)) == key)
            return KernelFeature(i);
    }
    qFatal("unknown feature key");
}

QJsonObject specOf(const char *json) { return QJsonDocument::fromJson(QByteArray(json)).object(); }

} // namespace

class TestFeatures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sourceFeatures_data();
    void sourceFeatures();
    void expressions_data();
    void expressions();
    void launchSpec();
    void launchSpecThatDoesNotEvaluate();
    void compileResult();
    void describe_data();
    void describe();
    void pairRow();
    void pairColumnNamesRoundTrip();
    void cacheReusesEntries();
    void deterministic();
};

void TestFeatures::sourceFeatures_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("feature");
    QTest::addColumn<double>("value"); // NaN: missing
    QTest::addColumn<QString>("lines"); // "" when no span is recorded
    const QString cuda = u"cuda"_s;
    const QString python = u"triton"_s;
    const double missing = std::nan("");

    QTest::newRow("axpy coalesced") << kAxpy << cuda << u"coalesced_accesses"_s << 3.0 << u"6"_s;
    QTest::newRow("axpy strided") << kAxpy << cuda << u"strided_accesses"_s << 0.0 << u""_s;
    QTest::newRow("axpy width from pointers") << kAxpy << cuda << u"access_bytes"_s << 4.0 << u"1"_s;
    QTest::newRow("axpy comment ignored") << kAxpy << cuda << u"syncthreads"_s << 0.0 << u""_s;
    QTest::newRow("axpy kernels") << kAxpy << cuda << u"kernels"_s << 1.0 << u"1"_s;
    QTest::newRow("axpy branches") << kAxpy << cuda << u"branches"_s << 1.0 << u"5"_s;
    QTest::newRow("axpy lines") << kAxpy << cuda << u"source_lines"_s << 6.0 << u""_s;
    QTest::newRow("axpy block unknown") << kAxpy << cuda << u"threads_per_block"_s << missing << u""_s;

    QTest::newRow("float4 width") << kAxpyFloat4 << cuda << u"access_bytes"_s << 16.0 << u"5-8"_s;
    QTest::newRow("float4 vector accesses") << kAxpyFloat4 << cuda << u"vector_accesses"_s << 3.0 << u"5-6,8"_s;
    QTest::newRow("float4 coalesced") << kAxpyFloat4 << cuda << u"coalesced_accesses"_s << 3.0 << u"5-6,8"_s;

    QTest::newRow("row per thread strided")
        << kSoftmaxThreadPerRow << cuda << u"strided_accesses"_s << 4.0 << u"8,10-11"_s;
    QTest::newRow("row per thread loops") << kSoftmaxThreadPerRow << cuda << u"loops"_s << 3.0 << u"8,10-11"_s;
    QTest::newRow("row per thread depth") << kSoftmaxThreadPerRow << cuda << u"loop_depth"_s << 1.0 << u""_s;
    QTest::newRow("precise math") << kSoftmaxThreadPerRow << cuda << u"precise_math"_s << 1.0 << u"10"_s;
    QTest::newRow("fast math") << kSoftmaxThreadPerRow << cuda << u"fast_math"_s << 1.0 << u"11"_s;

    QTest::newRow("naive transpose strided") << kTransposeNaive << cuda << u"strided_accesses"_s << 1.0 << u"6"_s;
    QTest::newRow("naive transpose coalesced") << kTransposeNaive << cuda << u"coalesced_accesses"_s << 1.0 << u"6"_s;

    QTest::newRow("tile bank conflicts") << kTransposeTile << cuda << u"shared_column_accesses"_s << 1.0 << u"10"_s;
    QTest::newRow("tile bytes") << kTransposeTile << cuda << u"shared_bytes"_s << 4096.0 << u"4"_s;
    QTest::newRow("tile not padded") << kTransposeTile << cuda << u"shared_padded"_s << 0.0 << u""_s;
    QTest::newRow("tile both sides coalesced") << kTransposeTile << cuda << u"coalesced_accesses"_s << 2.0 << u"7,10"_s;
    QTest::newRow("tile no strided") << kTransposeTile << cuda << u"strided_accesses"_s << 0.0 << u""_s;
    QTest::newRow("tile barrier outside loops") << kTransposeTile << cuda << u"syncthreads_in_loops"_s << 0.0 << u""_s;
    QTest::newRow("padded") << kTransposePadded << cuda << u"shared_padded"_s << 1.0 << u"4"_s;
    QTest::newRow("padded bytes") << kTransposePadded << cuda << u"shared_bytes"_s << 4224.0 << u"4"_s;
    QTest::newRow("padded no conflicts") << kTransposePadded << cuda << u"shared_column_accesses"_s << 0.0 << u""_s;

    QTest::newRow("divergent branch") << kDivergentReduce << cuda << u"divergent_branches"_s << 1.0 << u"11"_s;
    QTest::newRow("barriers") << kDivergentReduce << cuda << u"syncthreads"_s << 2.0 << u"9,13"_s;
    QTest::newRow("barrier in loop") << kDivergentReduce << cuda << u"syncthreads_in_loops"_s << 1.0 << u"13"_s;
    QTest::newRow("atomics") << kDivergentReduce << cuda << u"atomics"_s << 1.0 << u"15"_s;
    QTest::newRow("two kernels") << kDivergentReduce << cuda << u"kernels"_s << 2.0 << u"2-3"_s;
    QTest::newRow("shared array") << kDivergentReduce << cuda << u"shared_arrays"_s << 1.0 << u"5"_s;

    QTest::newRow("shuffles") << kWarpGridStride << cuda << u"shuffles"_s << 1.0 << u"5"_s;
    QTest::newRow("unroll") << kWarpGridStride << cuda << u"unroll_pragmas"_s << 1.0 << u"3"_s;
    QTest::newRow("grid stride") << kWarpGridStride << cuda << u"grid_stride_loops"_s << 1.0 << u"11"_s;
    QTest::newRow("ldg") << kWarpGridStride << cuda << u"ldg"_s << 1.0 << u"12"_s;
    QTest::newRow("restrict") << kWarpGridStride << cuda << u"restrict"_s << 1.0 << u"8"_s;
    QTest::newRow("launch bounds") << kWarpGridStride << cuda << u"launch_bounds"_s << 1.0 << u"8"_s;
    QTest::newRow("launch bounds block") << kWarpGridStride << cuda << u"threads_per_block"_s << 256.0 << u"8"_s;
    QTest::newRow("double") << kWarpGridStride << cuda << u"double"_s << 1.0 << u"8"_s;
    QTest::newRow("double pointer width") << kWarpGridStride << cuda << u"access_bytes"_s << 8.0 << u"8"_s;
    QTest::newRow("lane mask test") << kWarpGridStride << cuda << u"divergent_branches"_s << 1.0 << u"14"_s;

    QTest::newRow("wmma") << kWmma << cuda << u"tensor_core"_s << 1.0 << u"11"_s;
    QTest::newRow("half") << kWmma << cuda << u"half"_s << 4.0 << u"3,5-6"_s;
    QTest::newRow("register tile") << kWmma << cuda << u"register_array_elements"_s << 16.0 << u"12"_s;

    QTest::newRow("vector offset coalesced") << kVectorOffsets << cuda << u"coalesced_accesses"_s << 2.0 << u"6,11"_s;
    QTest::newRow("scalar stride 4") << kVectorOffsets << cuda << u"strided_accesses"_s << 1.0 << u"7"_s;
    QTest::newRow("tail test not divergent") << kVectorOffsets << cuda << u"divergent_branches"_s << 0.0 << u""_s;
    QTest::newRow("device array is global") << kVectorOffsets << cuda << u"register_array_elements"_s << 0.0 << u""_s;

    QTest::newRow("inline ptx mma") << kInlinePtx << cuda << u"tensor_core"_s << 1.0 << u"4"_s;
    QTest::newRow("inline ptx cp.async") << kInlinePtx << cuda << u"async_copies"_s << 1.0 << u"6"_s;
    QTest::newRow("inline ptx no vectors") << kInlinePtx << cuda << u"vector_accesses"_s << 0.0 << u""_s;

    QTest::newRow("triton kernels") << kTriton << python << u"kernels"_s << 1.0 << u"7"_s;
    QTest::newRow("triton block") << kTriton << python << u"triton_block"_s << 128.0 << u"5"_s;
    QTest::newRow("triton warps") << kTriton << python << u"triton_num_warps"_s << 8.0 << u"5"_s;
    QTest::newRow("triton stages") << kTriton << python << u"triton_num_stages"_s << 3.0 << u"5"_s;
    QTest::newRow("triton dot") << kTriton << python << u"triton_dot"_s << 1.0 << u"15"_s;
    QTest::newRow("triton tensor core") << kTriton << python << u"tensor_core"_s << 1.0 << u"15"_s;
    QTest::newRow("triton loads") << kTriton << python << u"triton_loads"_s << 2.0 << u"13-14"_s;
    QTest::newRow("triton masked") << kTriton << python << u"triton_masked_loads"_s << 1.0 << u"13"_s;
    QTest::newRow("triton loop") << kTriton << python << u"loops"_s << 1.0 << u"12"_s;
    QTest::newRow("triton launch") << kTriton << python << u"launches"_s << 1.0 << u"22"_s;
    QTest::newRow("triton half") << kTriton << python << u"half"_s << 2.0 << u"16,20"_s;

    QTest::newRow("torch library") << kTorch << u"pytorch"_s << u"library_calls"_s << 2.0 << u"6,9"_s;
    QTest::newRow("torch ops") << kTorch << u"pytorch"_s << u"torch_ops"_s << 2.0 << u"6,9"_s;
    QTest::newRow("torch bf16") << kTorch << u"pytorch"_s << u"bfloat16"_s << 1.0 << u"7"_s;
    QTest::newRow("torch branch") << kTorch << u"pytorch"_s << u"branches"_s << 1.0 << u"7"_s;
}

void TestFeatures::sourceFeatures()
{
    QFETCH(QString, source);
    QFETCH(QString, language);
    QFETCH(QString, feature);
    QFETCH(double, value);
    QFETCH(QString, lines);
    const KernelFeatures f = extractSourceFeatures(source, language);
    const KernelFeature id = featureNamed(feature);
    if (std::isnan(value))
        QVERIFY2(std::isnan(f.value(id)), qPrintable(QString::number(f.value(id))));
    else
        QCOMPARE(double(f.value(id)), value);
    QCOMPARE(spans(f.spansOf(id)), lines);
}

void TestFeatures::expressions_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<bool>("cRules");
    QTest::addColumn<double>("expected"); // NaN: does not evaluate
    const double none = std::nan("");
    QTest::newRow("integer division") << u"(BM / TM) * (BN / TN)"_s << true << 256.0;
    QTest::newRow("real division") << u"7 / 2"_s << false << 3.5;
    QTest::newRow("c division") << u"7 / 2"_s << true << 3.0;
    QTest::newRow("ceil_div") << u"ceil_div(rows, 8)"_s << false << 512.0;
    QTest::newRow("min max") << u"max(min(rows, 10), 3) * 2"_s << false << 20.0;
    QTest::newRow("padding") << u"TILE + 1"_s << true << 33.0;
    QTest::newRow("shift and hex") << u"(1 << 5) | 0x40"_s << true << 96.0;
    QTest::newRow("cast") << u"(int)(rows / 3)"_s << true << 1365.0;
    QTest::newRow("float suffix") << u"2.5f * 2"_s << true << 5.0;
    QTest::newRow("unary minus") << u"-TILE + 40"_s << true << 8.0;
    QTest::newRow("unknown name") << u"rows * cols"_s << true << none;
    QTest::newRow("division by zero") << u"rows / 0"_s << false << none;
    QTest::newRow("trailing text") << u"32 32"_s << true << none;
    QTest::newRow("comparison unsupported") << u"rows < 3"_s << true << none;
}

void TestFeatures::expressions()
{
    QFETCH(QString, expression);
    QFETCH(bool, cRules);
    QFETCH(double, expected);
    const Variables vars {
        {u"BM"_s, 128}, {u"TM"_s, 8}, {u"BN"_s, 128}, {u"TN"_s, 8}, {u"TILE"_s, 32}, {u"rows"_s, 4096}};
    const auto v = evaluate(expression, vars, cRules ? Arithmetic::C : Arithmetic::Real);
    if (std::isnan(expected)) {
        QVERIFY(!v);
    } else {
        QVERIFY(v);
        QCOMPARE(*v, expected);
    }
}

void TestFeatures::launchSpec()
{
    const QJsonObject parameters {{u"spec"_s, specOf(R"json({
        "launches": [
            {"entry": "zero", "grid": ["1", "1", "1"], "block": ["1", "1", "1"], "shared_bytes": "0"},
            {"entry": "main", "grid": ["ceil_div(n, 256)", "1", "1"], "block": ["256", "1", "1"],
             "shared_bytes": "4 * 256"}],
        "cases": [{"name": "a", "vars": {"n": 1048576}}, {"name": "b", "vars": {"n": 4194304}}],
        "options": ["--use_fast_math"]})json")}};
    const KernelFeatures f = extractKernelFeatures(kDivergentReduce, u"cuda"_s, parameters);
    QCOMPARE(f.value(KernelFeature::Launches), 2.0f);
    QCOMPARE(f.value(KernelFeature::ThreadsPerBlock), 256.0f);
    QCOMPARE(f.value(KernelFeature::DynamicSharedBytes), 1024.0f);
    QCOMPARE(f.value(KernelFeature::FastMath), 1.0f);
    // Geometric mean over the cases of all threads launched: (2^20 + 1) and (2^22 + 1).
    const double expected = (std::log2(1048577.0) + std::log2(4194305.0)) / 2;
    QVERIFY(std::abs(f.value(KernelFeature::TotalThreadsLog2) - expected) < 1e-4);
    const double blocks = (std::log2(4097.0) + std::log2(16385.0)) / 2;
    QVERIFY(std::abs(f.value(KernelFeature::TotalBlocksLog2) - blocks) < 1e-4);
}

void TestFeatures::launchSpecThatDoesNotEvaluate()
{
    const QJsonObject parameters {{u"spec"_s, specOf(R"json({
        "launches": [{"entry": "main", "grid": ["ceil_div(m, 256)", "1", "1"], "block": ["256", "1", "1"]}],
        "cases": [{"name": "a", "vars": {"n": 1024}}]})json")}};
    const KernelFeatures f = extractKernelFeatures(kAxpy, u"cuda"_s, parameters);
    QCOMPARE(f.value(KernelFeature::Launches), 1.0f);
    QVERIFY(std::isnan(f.value(KernelFeature::TotalThreadsLog2)));
    QVERIFY(std::isnan(f.value(KernelFeature::ThreadsPerBlock)));
}

void TestFeatures::compileResult()
{
    KernelFeatures f = extractSourceFeatures(kAxpy, u"cuda"_s);
    QVERIFY(!hasCompileFeatures(f));
    QVERIFY(!applyCompileResult(f, QJsonObject {}));
    const QJsonObject compile = specOf(R"json({"ok": true, "kernels": [
        {"entry": "a", "registers": 12, "static_shared_bytes": 0, "local_bytes": 0, "spill_store_bytes": 0,
         "spill_load_bytes": 0},
        {"entry": "b", "registers": 40, "static_shared_bytes": 4096, "local_bytes": 16, "spill_store_bytes": 8,
         "spill_load_bytes": 4}],
        "ptx_mix": {"ld_global_v4": 2, "bar_sync": 1, "instructions": 120}})json");
    QVERIFY(applyCompileResult(f, compile));
    QVERIFY(hasCompileFeatures(f));
    QCOMPARE(f.value(KernelFeature::Registers), 40.0f);
    QCOMPARE(f.value(KernelFeature::SpillBytes), 12.0f);
    QCOMPARE(f.value(KernelFeature::CompiledSharedBytes), 4096.0f);
    QCOMPARE(f.value(KernelFeature::LocalBytes), 16.0f);
    QCOMPARE(f.value(KernelFeature::PtxGlobalLoadsV4), 2.0f);
    QCOMPARE(f.value(KernelFeature::PtxBarSync), 1.0f);
    QCOMPARE(f.value(KernelFeature::PtxInstructions), 120.0f);
    QVERIFY(std::isnan(f.value(KernelFeature::PtxMma))); // not reported: missing, not zero
    clearCompileFeatures(f);
    QVERIFY(!hasCompileFeatures(f));
    applyResourceUsage(f, 32, -1, 0);
    QCOMPARE(f.value(KernelFeature::Registers), 32.0f);
    QVERIFY(std::isnan(f.value(KernelFeature::CompiledSharedBytes)));
    QCOMPARE(f.value(KernelFeature::LocalBytes), 0.0f);
}

void TestFeatures::describe_data()
{
    QTest::addColumn<QString>("feature");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("bytes") << u"access_bytes"_s << 16.0 << u"loads 16 bytes per thread access"_s;
    QTest::newRow("plural") << u"syncthreads_in_loops"_s << 8.0 << u"has 8 __syncthreads() barriers inside loops"_s;
    QTest::newRow("singular") << u"syncthreads_in_loops"_s << 1.0 << u"has 1 __syncthreads() barrier inside loops"_s;
    QTest::newRow("es plural") << u"strided_accesses"_s << 2.0
                               << u"has 2 strided global accesses (lanes a stride apart)"_s;
    QTest::newRow("flag on") << u"dynamic_shared"_s << 1.0 << u"uses dynamic shared memory"_s;
    QTest::newRow("flag off") << u"dynamic_shared"_s << 0.0 << u"uses no dynamic shared memory"_s;
    QTest::newRow("log2") << u"total_threads_log2"_s << 20.0 << u"launches about 1048576 threads"_s;
    QTest::newRow("unknown") << u"registers"_s << std::nan("") << u"uses ? registers per thread (unknown)"_s;
}

void TestFeatures::describe()
{
    QFETCH(QString, feature);
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(describeValue(kernelFeatureInfo(featureNamed(feature)), value), text);
}

void TestFeatures::pairRow()
{
    const KernelFeatures ref = extractSourceFeatures(kAxpy, u"cuda"_s);
    const KernelFeatures cand = extractSourceFeatures(kAxpyFloat4, u"cuda"_s);
    Hardware h200;
    h200.computeCapability = u"9.0"_s;
    h200.smCount = 132;
    h200.l2Bytes = 62914560;
    std::vector<float> row(kPairColumnCount);
    fillPairRow(ref, cand, hardwareRow(h200), row);
    const int f = int(KernelFeature::AccessBytes);
    QCOMPARE(row[std::size_t(f)], 4.0f);
    QCOMPARE(row[std::size_t(kKernelFeatureCount + f)], 16.0f);
    QCOMPARE(row[std::size_t(2 * kKernelFeatureCount + f)], 12.0f);
    QCOMPARE(row[std::size_t(pairColumnOf(u"hw_sm_count"_s))], 132.0f);
    QCOMPARE(row[std::size_t(pairColumnOf(u"hw_l2_mb"_s))], 60.0f);
    QCOMPARE(row[std::size_t(pairColumnOf(u"hw_compute_capability"_s))], 9.0f);
    QVERIFY(std::isnan(row[std::size_t(pairColumnOf(u"hw_clock_ghz"_s))])); // 0 = unknown
    QVERIFY(std::isnan(row[std::size_t(pairColumnOf(u"diff_registers"_s))])); // missing on both sides
    fillPairRow(ref, cand, hardwareRow(std::nullopt), row);
    QVERIFY(std::isnan(row[std::size_t(pairColumnOf(u"hw_sm_count"_s))]));
}

void TestFeatures::pairColumnNamesRoundTrip()
{
    const QStringList names = pairColumnNames();
    QCOMPARE(names.size(), kPairColumnCount);
    QCOMPARE(names.first(), u"ref_access_bytes"_s);
    QCOMPARE(names.at(kKernelFeatureCount), u"cand_access_bytes"_s);
    QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
    for (int c = 0; c < names.size(); ++c)
        QCOMPARE(pairColumnOf(names[c]), c);
    QCOMPARE(pairColumnOf(u"ref_no_such_feature"_s), -1);
    const PairColumn diff = pairColumn(pairColumnOf(u"diff_syncthreads"_s));
    QCOMPARE(diff.role, PairRole::Difference);
    QCOMPARE(diff.feature, int(KernelFeature::Syncthreads));
}

void TestFeatures::cacheReusesEntries()
{
    FeatureCache cache;
    Kernel a;
    a.source = kAxpy;
    a.language = u"cuda"_s;
    a.contentHash = contentHashOf(a.source);
    const FeatureCache::Entry first = cache.features(a);
    QCOMPARE(cache.features(a).get(), first.get());
    Kernel launched = a; // same source, a launch spec: a different entry
    launched.parameters = QJsonObject {{u"spec"_s, specOf(R"json({"launches": [{"grid": ["4","1","1"],
        "block": ["64","1","1"]}]})json")}};
    QVERIFY(cache.features(launched).get() != first.get());
    QCOMPARE(cache.features(launched)->value(KernelFeature::ThreadsPerBlock), 64.0f);
    QCOMPARE(cache.size(), 2);
    KernelFeatures compiled = *first;
    compiled.set(KernelFeature::Registers, 20);
    cache.insert(a, compiled);
    QCOMPARE(cache.features(a)->value(KernelFeature::Registers), 20.0f);
    QCOMPARE(cache.size(), 2);
    // A stored kernel is found by its id; replacing its features reaches that path too.
    Kernel stored = a;
    stored.id = 7;
    const FeatureCache::Entry byId = cache.features(stored);
    QCOMPARE(cache.features(stored).get(), byId.get());
    QCOMPARE(byId->value(KernelFeature::Registers), 20.0f);
    compiled.set(KernelFeature::Registers, 24);
    cache.insert(stored, compiled);
    QCOMPARE(cache.features(stored)->value(KernelFeature::Registers), 24.0f);
    QCOMPARE(cache.features(a)->value(KernelFeature::Registers), 24.0f);
    // The same id with another source (another store) is another kernel.
    Kernel elsewhere = launched;
    elsewhere.id = 7;
    elsewhere.source = kAxpyFloat4;
    elsewhere.contentHash = contentHashOf(elsewhere.source);
    QCOMPARE(cache.features(elsewhere)->value(KernelFeature::AccessBytes), 16.0f);
}

void TestFeatures::deterministic()
{
    for (const QString &src : {kAxpy, kTransposeTile, kTriton}) {
        const KernelFeatures a = extractSourceFeatures(src, u"cuda"_s);
        const KernelFeatures b = extractSourceFeatures(src, u"cuda"_s);
        for (int i = 0; i < kKernelFeatureCount; ++i) {
            const float x = a.values[std::size_t(i)], y = b.values[std::size_t(i)];
            QVERIFY((std::isnan(x) && std::isnan(y)) || x == y);
            QCOMPARE(a.spans[std::size_t(i)], b.spans[std::size_t(i)]);
        }
    }
}

QTEST_GUILESS_MAIN(TestFeatures)
#include "tst_features.moc"
