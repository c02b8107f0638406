// Transpose through a padded 64x64 tile with 64x4 threads: 16 elements per thread, 256-byte warp segments.
#define TILE 64
#define ROWS_PER_PASS 4

extern "C" __global__ void __launch_bounds__(256) transpose_tile64(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * TILE + tx;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int r = blockIdx.y * TILE + ty + j;
        if (r < rows && c < cols) {
            tile[ty + j][tx] = in[(size_t)r * cols + c];
        }
    }
    __syncthreads();
    int outRow0 = blockIdx.x * TILE;
    int outCol = blockIdx.y * TILE + tx;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int outRow = outRow0 + ty + j;
        if (outRow < cols && outCol < rows) {
            out[(size_t)outRow * rows + outCol] = tile[tx][ty + j]; // stride 65 words: lanes hit 32 distinct banks
        }
    }
}
