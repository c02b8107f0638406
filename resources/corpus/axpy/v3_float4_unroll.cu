// axpy with float4 accesses, a grid-stride loop and four independent vectors in flight per thread.
#define UNROLL 4

extern "C" __global__ void __launch_bounds__(256) axpy_float4_unroll(const float* x, const float* y, float* out,
                                                                      float a, int n)
{
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const float4* y4 = reinterpret_cast<const float4*>(y);
    float4* o4 = reinterpret_cast<float4*>(out);
    int nvec = n >> 2;
    int stride = gridDim.x * blockDim.x;
    int base = blockIdx.x * blockDim.x + threadIdx.x;
    // Main loop: every thread issues all UNROLL loads before the first use, so more bytes are in flight.
    for (; base + (UNROLL - 1) * stride < nvec; base += UNROLL * stride) {
        float4 xv[UNROLL], yv[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            xv[u] = x4[base + u * stride];
            yv[u] = y4[base + u * stride];
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            float4 r;
            r.x = a * xv[u].x + yv[u].x;
            r.y = a * xv[u].y + yv[u].y;
            r.z = a * xv[u].z + yv[u].z;
            r.w = a * xv[u].w + yv[u].w;
            o4[base + u * stride] = r;
        }
    }
    for (; base < nvec; base += stride) {
        float4 xv = x4[base], yv = y4[base], r;
        r.x = a * xv.x + yv.x;
        r.y = a * xv.y + yv.y;
        r.z = a * xv.z + yv.z;
        r.w = a * xv.w + yv.w;
        o4[base] = r;
    }
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid < (n & 3)) {
        int i = (nvec << 2) + gid;
        out[i] = a * x[i] + y[i];
    }
}
