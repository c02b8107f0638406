// Row softmax like the reference, but thread 0 folds the 256 partial results alone while the block waits.
#define THREADS 256
#define NEG_BIG (-3.402823466e+38f)

extern "C" __global__ void softmax_serial_reduce(const float* x, float* y, int rows, int cols)
{
    __shared__ float red[THREADS];
    __shared__ float result;
    int tid = threadIdx.x;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;

    float m = NEG_BIG;
    for (int c = tid; c < cols; c += THREADS) {
        m = fmaxf(m, xr[c]);
    }
    red[tid] = m;
    __syncthreads();
    if (tid == 0) {
        float acc = NEG_BIG;
        for (int i = 0; i < THREADS; ++i) {
            acc = fmaxf(acc, red[i]);
        }
        result = acc;
    }
    __syncthreads();
    float rowMax = result;

    float sum = 0.0f;
    for (int c = tid; c < cols; c += THREADS) {
        sum += expf(xr[c] - rowMax);
    }
    red[tid] = sum;
    __syncthreads();
    if (tid == 0) {
        float acc = 0.0f;
        for (int i = 0; i < THREADS; ++i) {
            acc += red[i];
        }
        result = acc;
    }
    __syncthreads();
    float inv = 1.0f / result;

    for (int c = tid; c < cols; c += THREADS) {
        yr[c] = expf(xr[c] - rowMax) * inv;
    }
}
