// conv1d reference ('same' cross-correlation, zero padding): one thread per output, taps read straight from global.
extern "C" __global__ void conv1d_naive(const float* x, const float* w, float* y, int L, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= L) {
        return;
    }
    const float* row = x + (size_t)blockIdx.y * L;
    int R = K / 2;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
        int j = i + k - R;
        if (j >= 0 && j < L) { // taps that fall off either end of the signal see zero padding
            acc += w[k] * row[j];
        }
    }
    y[(size_t)blockIdx.y * L + i] = acc;
}
