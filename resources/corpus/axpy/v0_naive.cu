// axpy reference: one thread per element, out = a*x + y.
extern "C" __global__ void axpy_naive(const float* x, const float* y, float* out, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a * x[i] + y[i];
    }
}
