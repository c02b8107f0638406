// Row softmax reference: one 256-thread block per row, shared-memory tree reductions, three passes over the row.
#define THREADS 256
#define NEG_BIG (-3.402823466e+38f)

extern "C" __global__ void softmax_block_tree(const float* x, float* y, int rows, int cols)
{
    __shared__ float red[THREADS];
    int tid = threadIdx.x;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float m = NEG_BIG;
    for (int c = tid; c < cols; c += THREADS) {
        m = fmaxf(m, xr[c]);
    }
    red[tid] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) {
            red[tid] = fmaxf(red[tid], red[tid + s]);
        }
        __syncthreads();
    }
    float rowMax = red[0];
    __syncthreads(); // everyone has read red[0] before it is reused for the sum

    float sum = 0.0f;
    for (int c = tid; c < cols; c += THREADS) {
        sum += expf(xr[c] - rowMax);
    }
    red[tid] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) {
            red[tid] += red[tid + s];
        }
        __syncthreads();
    }
    float inv = 1.0f / red[0];

    for (int c = tid; c < cols; c += THREADS) {
        yr[c] = expf(xr[c] - rowMax) * inv;
    }
}
