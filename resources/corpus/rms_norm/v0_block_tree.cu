// RMS norm reference: one 256-thread block per row, the sum of squares reduced by a shared-memory tree, then a
// scaling pass; y = x / sqrt(mean(x^2) + eps) * w.
#define THREADS 256

extern "C" __global__ void rmsnorm_block_tree(const float* x, const float* w, float* y, int rows, int cols, float eps)
{
    __shared__ float red[THREADS];
    int tid = threadIdx.x;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float sq = 0.0f;
    for (int c = tid; c < cols; c += THREADS) {
        float v = xr[c];
        sq += v * v;
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

    for (int c = tid; c < cols; c += THREADS) {
        yr[c] = xr[c] * scale * w[c];
    }
}
