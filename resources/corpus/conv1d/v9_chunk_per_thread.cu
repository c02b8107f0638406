// conv1d with each thread computing 64 consecutive outputs in a serial loop: lanes are 256 bytes apart.
#define CHUNK 64

extern "C" __global__ void conv1d_chunk_per_thread(const float* x, const float* w, float* y, int L, int K)
{
    int start = (blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    int end = min(start + CHUNK, L);
    const float* row = x + (size_t)blockIdx.y * L;
    float* out = y + (size_t)blockIdx.y * L;
    int R = K / 2;
    for (int i = start; i < end; ++i) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            int j = i + k - R;
            if (j >= 0 && j < L) {
                acc += w[k] * row[j]; // a warp's 32 loads land in 32 different 256-byte stretches
            }
        }
        out[i] = acc;
    }
}
