// Transpose through a 32x32 shared-memory tile: both the global read and the global write are coalesced.
#define TILE 32
#define ROWS_PER_PASS 8

extern "C" __global__ void transpose_smem_tile(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * TILE + tx;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int r = blockIdx.y * TILE + ty + j;
        if (r < rows && c < cols) {
            tile[ty + j][tx] = in[(size_t)r * cols + c];
        }
    }
    __syncthreads();
    // The block now writes the transposed tile: output row = input column, lanes walk the input rows.
    int outRow0 = blockIdx.x * TILE;
    int outCol = blockIdx.y * TILE + tx;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int outRow = outRow0 + ty + j;
        if (outRow < cols && outCol < rows) {
            out[(size_t)outRow * rows + outCol] = tile[tx][ty + j]; // column read: all lanes in one bank
        }
    }
}
