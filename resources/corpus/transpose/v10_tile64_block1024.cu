// Padded 64x64 tile transpose with 64x16 threads: 1024 threads per block, four elements per thread.
#define TILE 64
#define ROWS_PER_PASS 16

extern "C" __global__ void __launch_bounds__(1024) transpose_tile64_block1024(const float* in, float* out, int rows,
                                                                               int cols)
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
            out[(size_t)outRow * rows + outCol] = tile[tx][ty + j];
        }
    }
}
