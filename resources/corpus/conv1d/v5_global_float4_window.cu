// conv1d without shared memory: 4 outputs per thread slide over float4 chunks loaded straight from global (via L1).
#define THREADS 256
#define OUTS 4

// x[s .. s+3] of one row, zero outside [0, L); one 16-byte load when the chunk is inside and rows are aligned.
__device__ __forceinline__ float4 load_chunk(const float* row, int s, int L, bool vec)
{
    if (vec && s >= 0 && s + 3 < L) {
        return *reinterpret_cast<const float4*>(row + s);
    }
    float4 v;
    v.x = (s >= 0 && s < L) ? row[s] : 0.0f;
    v.y = (s + 1 >= 0 && s + 1 < L) ? row[s + 1] : 0.0f;
    v.z = (s + 2 >= 0 && s + 2 < L) ? row[s + 2] : 0.0f;
    v.w = (s + 3 >= 0 && s + 3 < L) ? row[s + 3] : 0.0f;
    return v;
}

// Tap m of the filter shifted by P - R and zero-padded (see v4): w[m - (P - R)] or 0.
__device__ __forceinline__ float tap(const float* w, int m, int shift, int K)
{
    int k = m - shift;
    return (k >= 0 && k < K) ? __ldg(w + k) : 0.0f;
}

extern "C" __global__ void __launch_bounds__(THREADS) conv1d_global_float4_window(const float* x, const float* w,
                                                                                  float* y, int L, int K)
{
    int i = (blockIdx.x * THREADS + threadIdx.x) * OUTS;
    if (i >= L) {
        return;
    }
    int R = K / 2;
    int P = (R + 3) & ~3;
    int NW = 2 * P + 4;
    bool vec = (L & 3) == 0; // rows start 16-byte aligned only when L % 4 == 0
    const float* row = x + (size_t)blockIdx.y * L;
    // Neighbouring threads load overlapping chunks (each chunk by NW/4 + 1 threads): L1 serves the repeats.
    float4 cur = load_chunk(row, i - P, L, vec);
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (int c = 0; c < NW / 4; ++c) {
        float4 nxt = load_chunk(row, i - P + 4 * c + 4, L, vec);
        float w0 = tap(w, 4 * c, P - R, K), w1 = tap(w, 4 * c + 1, P - R, K);
        float w2 = tap(w, 4 * c + 2, P - R, K), w3 = tap(w, 4 * c + 3, P - R, K);
        a0 += w0 * cur.x; a1 += w0 * cur.y; a2 += w0 * cur.z; a3 += w0 * cur.w;
        a0 += w1 * cur.y; a1 += w1 * cur.z; a2 += w1 * cur.w; a3 += w1 * nxt.x;
        a0 += w2 * cur.z; a1 += w2 * cur.w; a2 += w2 * nxt.x; a3 += w2 * nxt.y;
        a0 += w3 * cur.w; a1 += w3 * nxt.x; a2 += w3 * nxt.y; a3 += w3 * nxt.z;
        cur = nxt;
    }
    float* out = y + (size_t)blockIdx.y * L;
    if (vec && i + 3 < L) {
        *reinterpret_cast<float4*>(out + i) = make_float4(a0, a1, a2, a3);
    } else {
        out[i] = a0; // i < L was checked above
        if (i + 1 < L) out[i + 1] = a1;
        if (i + 2 < L) out[i + 2] = a2;
        if (i + 3 < L) out[i + 3] = a3;
    }
}
