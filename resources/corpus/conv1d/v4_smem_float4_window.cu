// conv1d, shared-memory tile read with 16-byte loads: 4 outputs per thread slide over aligned float4 chunks.
#define THREADS 256
#define OUTS 4
#define TILE (THREADS * OUTS)
#define MAX_NW 36 // taps after padding the radius to a multiple of 4: 2*16 + 4 for K <= 33

extern "C" __global__ void __launch_bounds__(THREADS) conv1d_smem_float4_window(const float* x, const float* w,
                                                                                float* y, int L, int K)
{
    __shared__ __align__(16) float xs[TILE + MAX_NW]; // xs[t] = x[i0 - P + t], zero outside the signal
    __shared__ __align__(16) float ws[MAX_NW];        // the filter shifted by P - R and zero-padded to NW taps
    int tid = threadIdx.x;
    int i0 = blockIdx.x * TILE;
    int R = K / 2;
    int P = (R + 3) & ~3; // radius rounded up to a multiple of 4 keeps every chunk 16-byte aligned
    int NW = 2 * P + 4;   // y[i] = sum_{m < NW} ws[m] * x[i - P + m]; taps beyond the real filter are zero
    const float* row = x + (size_t)blockIdx.y * L;
    for (int t = tid; t < TILE + NW; t += THREADS) {
        int j = i0 - P + t;
        xs[t] = (j >= 0 && j < L) ? row[j] : 0.0f;
    }
    if (tid < NW) {
        int k = tid - (P - R);
        ws[tid] = (k >= 0 && k < K) ? w[k] : 0.0f;
    }
    __syncthreads();

    // Thread tid owns outputs i0 + 4*tid + j (j < 4); tap m needs xs[4*tid + m + j], which lies in chunk
    // tid + m/4 or the next one. Lanes read consecutive 16-byte chunks, so the LDS.128 is conflict-free.
    const float4* xs4 = reinterpret_cast<const float4*>(xs) + tid;
    const float4* ws4 = reinterpret_cast<const float4*>(ws);
    float4 cur = xs4[0];
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (int c = 0; c < NW / 4; ++c) {
        float4 nxt = xs4[c + 1]; // largest index: chunk 255 + NW/4, i.e. xs[TILE + NW - 1]
        float4 wv = ws4[c];
        a0 += wv.x * cur.x; a1 += wv.x * cur.y; a2 += wv.x * cur.z; a3 += wv.x * cur.w;
        a0 += wv.y * cur.y; a1 += wv.y * cur.z; a2 += wv.y * cur.w; a3 += wv.y * nxt.x;
        a0 += wv.z * cur.z; a1 += wv.z * cur.w; a2 += wv.z * nxt.x; a3 += wv.z * nxt.y;
        a0 += wv.w * cur.w; a1 += wv.w * nxt.x; a2 += wv.w * nxt.y; a3 += wv.w * nxt.z;
        cur = nxt;
    }
    float* out = y + (size_t)blockIdx.y * L;
    int i = i0 + OUTS * tid;
    if ((L & 3) == 0 && i + 3 < L) { // rows start 16-byte aligned only when L % 4 == 0
        *reinterpret_cast<float4*>(out + i) = make_float4(a0, a1, a2, a3);
    } else {
        if (i < L) out[i] = a0;
        if (i + 1 < L) out[i + 1] = a1;
        if (i + 2 < L) out[i + 2] = a2;
        if (i + 3 < L) out[i + 3] = a3;
    }
}
