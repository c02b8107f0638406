// axpy with 16-byte vector accesses: each thread handles four consecutive floats.
extern "C" __global__ void axpy_float4(const float* x, const float* y, float* out, float a, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    int nvec = n >> 2;
    if (v < nvec) {
        float4 xv = reinterpret_cast<const float4*>(x)[v];
        float4 yv = reinterpret_cast<const float4*>(y)[v];
        float4 r;
        r.x = a * xv.x + yv.x;
        r.y = a * xv.y + yv.y;
        r.z = a * xv.z + yv.z;
        r.w = a * xv.w + yv.w;
        reinterpret_cast<float4*>(out)[v] = r;
    }
    // The last n % 4 elements do not fill a vector; the first threads finish them one by one.
    int tail = (nvec << 2) + v;
    if (v < (n & 3)) {
        out[tail] = a * x[tail] + y[tail];
    }
}
