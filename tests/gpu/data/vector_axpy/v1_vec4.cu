// Four elements per thread through 16-byte loads and stores, grid-stride over the vectors.
extern "C" __global__ void axpy_vec4(const float4* x, const float4* y0, float4* y, float a, int n4)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 xv = x[i], yv = y0[i];
        y[i] = make_float4(a * xv.x + yv.x, a * xv.y + yv.y, a * xv.z + yv.z, a * xv.w + yv.w);
    }
}
