// Transpose through a padded tile with a barrier after every row of the tile is loaded and stored.
#define TILE 32
#define ROWS_PER_PASS 8

extern "C" __global__ void transpose_excess_sync(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * TILE + tx;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int r = blockIdx.y * TILE + ty + j;
        if (r < rows && c < cols) {
            tile[ty + j][tx] = in[(size_t)r * cols + c];
        }
        __syncthreads(); // unnecessary: no thread reads the tile until the loop is over
    }
    int outRow0 = blockIdx.x * TILE;
    int outCol = blockIdx.y * TILE + tx;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int outRow = outRow0 + ty + j;
        if (outRow < cols && outCol < rows) {
            out[(size_t)outRow * rows + outCol] = tile[tx][ty + j];
        }
        __syncthreads(); // unnecessary: the tile is only read here
    }
}
