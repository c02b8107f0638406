// RMS norm reference kernel with the scale computed by rsqrtf (one MUFU.RSQ approximation) instead of 1.0f / sqrtf
// (a correctly rounded square root and division). It runs once per row.
#define THREADS 256

extern "C" __global__ void rmsnorm_rsqrtf(const float* x, const float* w, float* y, int rows, int cols, float eps)
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
    float scale = rsqrtf(red[0] / cols + eps);

    for (int c = tid; c < cols; c += THREADS) {
        yr[c] = xr[c] * scale * w[c];
    }
}
