// Atomic-free histogram: a block stages 4 KB of input in shared memory and thread t counts the bytes equal to t.
#define BINS 256
#define CHUNK 4096

// All launches of a variant are timed together, so the histogram is cleared by a first 256-thread launch.
extern "C" __global__ void zero_hist(int* hist)
{
    hist[threadIdx.x] = 0;
}

// Launched with BINS threads per block; each thread loads 16 bytes of a chunk, then scans the whole chunk.
extern "C" __global__ void __launch_bounds__(BINS) hist_owner_computes(const unsigned char* x, int* hist, int n)
{
    __shared__ uint4 chunk[CHUNK / 16];
    int t = threadIdx.x;
    unsigned int pattern = (unsigned int)t * 0x01010101u; // byte t in all four lanes of a word
    int count = 0; // this thread's own bin: a register, so no atomics and no contention at all
    for (int base = blockIdx.x * CHUNK; base < n; base += gridDim.x * CHUNK) {
        __syncthreads(); // the previous chunk has been scanned by every thread
        int off = base + t * 16;
        uint4 v;
        if (off + 16 <= n) {
            v = *reinterpret_cast<const uint4*>(x + off);
        } else {
            // The chunk that holds the end of x: missing bytes read as 0, corrected for bin 0 below.
            unsigned int w[4] = {0u, 0u, 0u, 0u};
            for (int k = 0; k < 16; ++k) {
                if (off + k < n) {
                    w[k >> 2] |= (unsigned int)x[off + k] << ((k & 3) * 8);
                }
            }
            v = make_uint4(w[0], w[1], w[2], w[3]);
        }
        chunk[t] = v;
        __syncthreads();
        // Every thread reads the same word at the same time (a broadcast) and compares its four bytes at once.
        const unsigned int* words = reinterpret_cast<const unsigned int*>(chunk);
#pragma unroll 8
        for (int k = 0; k < CHUNK / 4; ++k) {
            count += __popc(__vcmpeq4(words[k], pattern)) >> 3; // 0xFF per equal byte: 8 bits per match
        }
        if (t == 0 && base + CHUNK > n) {
            count -= base + CHUNK - n; // the zero bytes that filled the chunk past the end of x
        }
    }
    if (count != 0) {
        atomicAdd(&hist[t], count);
    }
}
