// Layer norm like the reference, with a block-wide barrier after every 256-element step of every loop.
#define THREADS 256

__device__ float blockSumTree(float v, float* red)
{
    int tid = threadIdx.x;
    red[tid] = v;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) {
            red[tid] += red[tid + s];
        }
        __syncthreads();
    }
    float total = red[0];
    __syncthreads();
    return total;
}

extern "C" __global__ void layernorm_excess_sync(const float* x, const float* gamma, const float* beta, float* y,
                                                 int rows, int cols, float eps)
{
    __shared__ float red[THREADS];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    // Loops run the same number of steps in every thread so that each barrier is reached by the whole block.
    float s = 0.0f;
    for (int base = 0; base < cols; base += THREADS) {
        int c = base + threadIdx.x;
        if (c < cols) {
            s += xr[c];
        }
        __syncthreads(); // needless: nothing is shared inside this loop
    }
    float mean = blockSumTree(s, red) / cols;

    float sq = 0.0f;
    for (int base = 0; base < cols; base += THREADS) {
        int c = base + threadIdx.x;
        if (c < cols) {
            float d = xr[c] - mean;
            sq += d * d;
        }
        __syncthreads();
    }
    float rstd = rsqrtf(blockSumTree(sq, red) / cols + eps);

    for (int base = 0; base < cols; base += THREADS) {
        int c = base + threadIdx.x;
        if (c < cols) {
            yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
        }
        __syncthreads();
    }
}
