// Transpose family: out[c][r] = in[r][c] for a rows x cols float32 matrix. A block of TW * BR threads moves a tile of
// TH rows x TW columns through shared memory: it reads the tile row by row (coalesced), then writes it out column
// by column of the input, which are rows of the output (coalesced again). PAD extra floats per shared-memory row
// shift the banks the column-wise reads fall on; DIAG 1 renumbers the blocks along diagonals so that blocks running
// at the same time touch different parts of memory. The tunables arrive as #defines above this text (gpuf-family/1).

extern "C" __global__ void __launch_bounds__(THREADS) transpose_family(const float* in, float* out, int rows, int cols)
{
    __shared__ float tile[TH][TW + PAD];
    int bx = blockIdx.x;
    const int by = blockIdx.y;
#if DIAG
    // Shifting x by y is a permutation of each row of blocks: every tile is still done exactly once.
    bx = (bx + by) % gridDim.x;
#endif
    const int colBase = bx * TW;
    const int rowBase = by * TH;
    const int t = threadIdx.x;

    // Read: element e of the tile is (e / TW, e % TW); consecutive threads take consecutive columns.
#pragma unroll
    for (int e = t; e < TH * TW; e += THREADS) {
        const int r = e / TW;
        const int c = e % TW;
        const int gr = rowBase + r;
        const int gc = colBase + c;
        if (gr < rows && gc < cols) {
            tile[r][c] = in[(size_t)gr * cols + gc];
        }
    }
    __syncthreads();
    // Write: output row = input column; consecutive threads take consecutive input rows (output columns).
#pragma unroll
    for (int e = t; e < TH * TW; e += THREADS) {
        const int c = e / TH;
        const int r = e % TH;
        const int gr = rowBase + r;
        const int gc = colBase + c;
        if (gr < rows && gc < cols) {
            out[(size_t)gc * rows + gr] = tile[r][c];
        }
    }
}
