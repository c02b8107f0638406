// Sum reference: one element per thread, shared-memory tree per block, one atomicAdd per block.
#define THREADS 256

// All launches of a variant are timed together, so the accumulator is cleared by a first one-thread launch.
extern "C" __global__ void zero_output(float* out)
{
    out[0] = 0.0f;
}

extern "C" __global__ void reduce_block_tree(const float* x, float* out, int n)
{
    __shared__ float partial[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * THREADS + tid;
    partial[tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    // Sequential addressing: active threads stay contiguous, so whole warps retire together.
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) {
            partial[tid] += partial[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) {
        atomicAdd(out, partial[0]);
    }
}
