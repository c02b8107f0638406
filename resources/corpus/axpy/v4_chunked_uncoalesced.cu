// axpy where each thread owns a contiguous chunk: neighbouring lanes touch addresses CHUNK floats apart.
#define CHUNK 32

extern "C" __global__ void axpy_chunked(const float* x, const float* y, float* out, float a, int n)
{
    long long begin = (long long)(blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    long long end = min(begin + CHUNK, (long long)n);
    for (long long i = begin; i < end; ++i) {
        out[i] = a * x[i] + y[i];
    }
}
