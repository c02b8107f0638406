// Transpose through a padded tile with a 32x32 block: one element per thread, 1024 threads per block.
#define TILE 32

extern "C" __global__ void __launch_bounds__(1024) transpose_block_32x32(const float* in, float* out, int rows,
                                                                          int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * TILE + ty;
    int c = blockIdx.x * TILE + tx;
    if (r < rows && c < cols) {
        tile[ty][tx] = in[(size_t)r * cols + c];
    }
    __syncthreads();
    int outRow = blockIdx.x * TILE + ty;
    int outCol = blockIdx.y * TILE + tx;
    if (outRow < cols && outCol < rows) {
        out[(size_t)outRow * rows + outCol] = tile[tx][ty];
    }
}
