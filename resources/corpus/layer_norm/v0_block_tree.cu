// Layer norm reference: one 256-thread block per row, shared-memory trees, mean then variance, then normalise.
#define THREADS 256

// Tree-reduces one value per thread; every thread gets the block total.
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
    __syncthreads(); // red may be reused by the next reduction only after everyone has read red[0]
    return total;
}

extern "C" __global__ void layernorm_block_tree(const float* x, const float* gamma, const float* beta, float* y,
                                                int rows, int cols, float eps)
{
    __shared__ float red[THREADS];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        s += xr[c];
    }
    float mean = blockSumTree(s, red) / cols;

    float sq = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        float d = xr[c] - mean;
        sq += d * d;
    }
    float rstd = rsqrtf(blockSumTree(sq, red) / cols + eps);

    for (int c = threadIdx.x; c < cols; c += THREADS) {
        yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
    }
}
