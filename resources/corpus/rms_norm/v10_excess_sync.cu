// RMS norm reference with a __syncthreads() after every 256-element step of both loops. The loops run a
// block-uniform number of steps (elements past the row end are skipped inside), so every barrier is reached by
// all threads.
#define THREADS 256

extern "C" __global__ void rmsnorm_excess_sync(const float* x, const float* w, float* y, int rows, int cols,
                                               float eps)
{
    __shared__ float red[THREADS];
    int tid = threadIdx.x;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float sq = 0.0f;
    for (int base = 0; base < cols; base += THREADS) {
        int c = base + tid;
        if (c < cols) {
            float v = xr[c];
            sq += v * v;
        }
        __syncthreads();
    }
    red[tid] = sq;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) {
            red[tid] += red[tid + s];
        }
        __syncthreads();
    }
    float scale = 1.0f / sqrtf(red[0] / cols + eps);

    for (int base = 0; base < cols; base += THREADS) {
        int c = base + tid;
        if (c < cols) {
            yr[c] = xr[c] * scale * w[c];
        }
        __syncthreads();
    }
}
