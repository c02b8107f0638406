// 32x32 tile transpose without padding: the tile's column index is XOR-swizzled with its row index instead.
#define TILE 32
#define ROWS_PER_PASS 8

extern "C" __global__ void transpose_xor_swizzle(const float* in, float* out, int rows, int cols)
{
    // Element (i, j) of the tile lives at tile[i][j ^ i]. Along a row (fixed i) and along a column (fixed j)
    // the XOR is a permutation of 0..31, so both the store and the transposed read hit 32 distinct banks.
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * TILE + tx;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int i = ty + j;
        int r = blockIdx.y * TILE + i;
        if (r < rows && c < cols) {
            tile[i][tx ^ i] = in[(size_t)r * cols + c];
        }
    }
    __syncthreads();
    int outRow0 = blockIdx.x * TILE;
    int outCol = blockIdx.y * TILE + tx;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int i = ty + j; // tile column = output row within the tile
        int outRow = outRow0 + i;
        if (outRow < cols && outCol < rows) {
            out[(size_t)outRow * rows + outCol] = tile[tx][i ^ tx];
        }
    }
}
