// Padded 32x32 tile transpose with diagonal block ordering: consecutive blocks take tiles along a diagonal.
#define TILE 32
#define ROWS_PER_PASS 8

extern "C" __global__ void transpose_diagonal(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    // Renumber the blocks: block b works on tile (bx, by) = ((b / gridDim.y + b % gridDim.y) % gridDim.x,
    // b % gridDim.y). For each by the map over bx is a rotation, so every tile is still covered exactly once.
    int b = blockIdx.y * gridDim.x + blockIdx.x;
    int by = b % gridDim.y;
    int bx = (b / gridDim.y + by) % gridDim.x;
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = bx * TILE + tx;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int r = by * TILE + ty + j;
        if (r < rows && c < cols) {
            tile[ty + j][tx] = in[(size_t)r * cols + c];
        }
    }
    __syncthreads();
    int outRow0 = bx * TILE;
    int outCol = by * TILE + tx;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int outRow = outRow0 + ty + j;
        if (outRow < cols && outCol < rows) {
            out[(size_t)outRow * rows + outCol] = tile[tx][ty + j];
        }
    }
}
