// One thread per element.
extern "C" __global__ void axpy(const float* x, const float* y0, float* y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y0[i];
}
