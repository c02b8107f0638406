// axpy computed in double precision and rounded back: more arithmetic, the same bytes.
extern "C" __global__ void axpy_fp64(const float* x, const float* y, float* out, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double r = (double)a * (double)x[i] + (double)y[i];
        out[i] = (float)r;
    }
}
