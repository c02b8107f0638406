import torch
import triton
import triton.language as tl


@triton.jit
def ln_persistent(x_ptr, w_ptr, b_ptr, y_ptr, rows, cols, eps, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    w = tl.load(w_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    for row in range(tl.program_id(0), rows, tl.num_programs(0)):
        x = tl.load(x_ptr + row * cols + offs, mask=mask, other=0.0)
        mean = tl.sum(x, axis=0) / cols
        d = tl.where(mask, x - mean, 0.0)
        rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / cols + eps)
        tl.store(y_ptr + row * cols + offs, d * rstd * w + b, mask=mask)


def custom_kernel(data):
    x, w, b = data
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    warps = max(1, min(16, block // 256))
    sms = torch.cuda.get_device_properties(x.device).multi_processor_count
    y = torch.empty_like(x)
    ln_persistent[(min(rows, sms * max(1, 32 // warps)),)](x, w, b, y, rows, cols, 1e-5, BLOCK=block,
                                                           num_warps=warps)
    return y
