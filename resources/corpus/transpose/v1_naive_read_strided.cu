// Transpose with the naive mapping flipped: writes along output rows (coalesced), reads down input columns.
extern "C" __global__ void transpose_read_strided(const float* in, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int c = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    }
}
