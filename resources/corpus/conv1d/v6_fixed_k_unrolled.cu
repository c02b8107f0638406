// conv1d like the reference but with the filter width as a template parameter: the tap loop unrolls completely.
template <int KK>
__device__ __forceinline__ float conv_fixed(const float* row, const float* w, int i, int L)
{
    constexpr int R = KK / 2;
    float acc = 0.0f;
    if (i >= R && i + R < L) { // interior: no tap can fall off the signal, so no per-tap bounds check
#pragma unroll
        for (int k = 0; k < KK; ++k) {
            acc += __ldg(w + k) * row[i + k - R];
        }
    } else {
#pragma unroll
        for (int k = 0; k < KK; ++k) {
            int j = i + k - R;
            if (j >= 0 && j < L) {
                acc += __ldg(w + k) * row[j];
            }
        }
    }
    return acc;
}

// Any other width: the reference loop.
__device__ __forceinline__ float conv_any(const float* row, const float* w, int i, int L, int K)
{
    int R = K / 2;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
        int j = i + k - R;
        if (j >= 0 && j < L) {
            acc += w[k] * row[j];
        }
    }
    return acc;
}

extern "C" __global__ void conv1d_fixed_k_unrolled(const float* x, const float* w, float* y, int L, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= L) {
        return;
    }
    const float* row = x + (size_t)blockIdx.y * L;
    float acc;
    switch (K) { // uniform across the grid: no divergence, just one instantiation per supported width
    case 7:
        acc = conv_fixed<7>(row, w, i, L);
        break;
    case 31:
        acc = conv_fixed<31>(row, w, i, L);
        break;
    default:
        acc = conv_any(row, w, i, L, K);
        break;
    }
    y[(size_t)blockIdx.y * L + i] = acc;
}
