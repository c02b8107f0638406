// Padded 32x32 tile transpose with 16-byte global loads and stores: 8x32 threads, one float4 in and out each.
#define TILE 32

extern "C" __global__ void __launch_bounds__(256) transpose_float4(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y; // tx in [0, 8): a group of four columns; ty in [0, 32): a row
    int r = blockIdx.y * TILE + ty;
    int c = blockIdx.x * TILE + tx * 4;
    int outRow = blockIdx.x * TILE + ty; // an input column
    int outCol = blockIdx.y * TILE + tx * 4; // four input rows
    // Input rows (output rows) start 16-byte aligned only when cols (rows) is a multiple of 4.
    if (((rows | cols) & 3) == 0) {
        // With cols % 4 == 0 and c % 4 == 0, c < cols means all four columns exist (likewise for outCol).
        if (r < rows && c < cols) {
            float4 v = *reinterpret_cast<const float4*>(in + (size_t)r * cols + c);
            tile[ty][tx * 4 + 0] = v.x; // bank (ty + 4*tx + k) % 32: the warp's 4 rows x 8 groups are distinct
            tile[ty][tx * 4 + 1] = v.y;
            tile[ty][tx * 4 + 2] = v.z;
            tile[ty][tx * 4 + 3] = v.w;
        }
        __syncthreads();
        if (outRow < cols && outCol < rows) {
            float4 v = make_float4(tile[tx * 4 + 0][ty], tile[tx * 4 + 1][ty], tile[tx * 4 + 2][ty],
                                   tile[tx * 4 + 3][ty]);
            *reinterpret_cast<float4*>(out + (size_t)outRow * rows + outCol) = v;
        }
    } else {
        for (int k = 0; k < 4; ++k) {
            if (r < rows && c + k < cols) {
                tile[ty][tx * 4 + k] = in[(size_t)r * cols + c + k];
            }
        }
        __syncthreads();
        for (int k = 0; k < 4; ++k) {
            if (outRow < cols && outCol + k < rows) {
                out[(size_t)outRow * rows + outCol + k] = tile[tx * 4 + k][ty];
            }
        }
    }
}
