// Row softmax with one thread per row: three serial loops, lanes of a warp read rows cols floats apart.
#define NEG_BIG (-3.402823466e+38f)

extern "C" __global__ void softmax_thread_per_row(const float* x, float* y, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) {
        return;
    }
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;
    float m = NEG_BIG;
    for (int c = 0; c < cols; ++c) {
        m = fmaxf(m, xr[c]);
    }
    float sum = 0.0f;
    for (int c = 0; c < cols; ++c) {
        sum += expf(xr[c] - m);
    }
    float inv = 1.0f / sum;
    for (int c = 0; c < cols; ++c) {
        yr[c] = expf(xr[c] - m) * inv;
    }
}
