import torch
import triton
import triton.language as tl


@triton.jit
def ln_stats(x_ptr, mean_ptr, rstd_ptr, cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / cols
    d = tl.where(mask, x - mean, 0.0)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / cols + eps))


def custom_kernel(data):
    x, w, b = data
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    mean = torch.empty(rows, device=x.device, dtype=torch.float32)
    rstd = torch.empty_like(mean)
    ln_stats[(rows,)](x, mean, rstd, cols, 1e-5, BLOCK=block, num_warps=max(1, min(16, block // 256)))
    # The normalisation as PyTorch element-wise operations: a second full read of x and several temporaries.
    return (x - mean[:, None]) * rstd[:, None] * w + b
