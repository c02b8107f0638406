// Tiled SGEMM family: C = A * B (row-major, float32). Each block computes a BM x BN tile of C, walking K in steps of
// BK through shared memory; each thread keeps a TM x TN tile of C in registers. Global loads move VEC floats at a
// time when the row length allows it. The tunables arrive as #defines above this text (gpuf-family/1).
#define A_LOADS ((BM * BK) / (THREADS * VEC))
#define B_LOADS ((BK * BN) / (THREADS * VEC))

// Loads VEC consecutive floats starting at p into v; `avail` is how many of them exist (may be <= 0). The wide load
// is used only when the address is VEC-aligned and all VEC elements exist; otherwise element by element.
__device__ __forceinline__ void loadVec(const float* p, bool aligned, int avail, float* v)
{
#if VEC == 4
    if (aligned && avail >= 4) {
        float4 q = *reinterpret_cast<const float4*>(p);
        v[0] = q.x;
        v[1] = q.y;
        v[2] = q.z;
        v[3] = q.w;
        return;
    }
#elif VEC == 2
    if (aligned && avail >= 2) {
        float2 q = *reinterpret_cast<const float2*>(p);
        v[0] = q.x;
        v[1] = q.y;
        return;
    }
#endif
#pragma unroll
    for (int i = 0; i < VEC; ++i) {
        v[i] = i < avail ? p[i] : 0.0f;
    }
}

extern "C" __global__ void __launch_bounds__(THREADS) sgemm_tiled(const float* A, const float* B, float* C, int M,
                                                                  int N, int K)
{
    // A's tile is stored k-major (As[k][m]) so that a thread's TM values for one k sit next to each other.
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int rowBase = blockIdx.y * BM;
    const int colBase = blockIdx.x * BN;
    const int threadRow = tid / (BN / TN);
    const int threadCol = tid % (BN / TN);
    // A row starts VEC-aligned only when K is a multiple of VEC (B: when N is); cuMemAlloc aligns the base.
    const bool alignedA = (K % VEC) == 0;
    const bool alignedB = (N % VEC) == 0;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            acc[i][j] = 0.0f;
        }
    }

    for (int t = 0; t < K; t += BK) {
#pragma unroll
        for (int l = 0; l < A_LOADS; ++l) {
            const int e = (l * THREADS + tid) * VEC; // element of the BM x BK tile, row-major
            const int m = e / BK;
            const int k = e % BK; // BK is a multiple of VEC: the VEC elements stay in one row
            const int gr = rowBase + m;
            const int gk = t + k;
            float v[VEC];
            const int avail = gr < M ? K - gk : 0;
            loadVec(A + (size_t)(gr < M ? gr : 0) * K + gk, alignedA, avail, v);
#pragma unroll
            for (int i = 0; i < VEC; ++i) {
                As[k + i][m] = v[i];
            }
        }
#pragma unroll
        for (int l = 0; l < B_LOADS; ++l) {
            const int e = (l * THREADS + tid) * VEC; // element of the BK x BN tile, row-major
            const int k = e / BN;
            const int n = e % BN;
            const int gk = t + k;
            const int gc = colBase + n;
            float v[VEC];
            const int avail = gk < K ? N - gc : 0;
            loadVec(B + (size_t)(gk < K ? gk : 0) * N + gc, alignedB, avail, v);
#pragma unroll
            for (int i = 0; i < VEC; ++i) {
                Bs[k][n + i] = v[i];
            }
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM];
            float b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) {
                a[i] = As[k][threadRow * TM + i];
            }
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                b[j] = Bs[k][threadCol * TN + j];
            }
#pragma unroll
            for (int i = 0; i < TM; ++i) {
#pragma unroll
                for (int j = 0; j < TN; ++j) {
                    acc[i][j] += a[i] * b[j];
                }
            }
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = rowBase + threadRow * TM + i;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int col = colBase + threadCol * TN + j;
            if (row < M && col < N) {
                C[(size_t)row * N + col] = acc[i][j];
            }
        }
    }
}
