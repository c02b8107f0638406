import torch
import triton
import triton.language as tl


@triton.jit
def ln_rows(x_ptr, w_ptr, b_ptr, y_ptr, rows, cols, eps, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, BLOCK)[None, :]
    mask = (r < rows) & (c < cols)
    x = tl.load(x_ptr + r * cols + c, mask=mask, other=0.0)
    mean = tl.sum(x, axis=1)[:, None] / cols
    d = tl.where(mask, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=1)[:, None] / cols + eps)
    w = tl.load(w_ptr + c, mask=c < cols)
    b = tl.load(b_ptr + c, mask=c < cols)
    tl.store(y_ptr + r * cols + c, d * rstd * w + b, mask=mask)


def custom_kernel(data):
    x, w, b = data
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    per = max(1, min(8, 4096 // block))  # w and b are loaded once per program and reused for every row in it
    y = torch.empty_like(x)
    ln_rows[(triton.cdiv(rows, per),)](x, w, b, y, rows, cols, 1e-5, ROWS=per, BLOCK=block,
                                       num_warps=max(1, min(16, per * block // 256)))
    return y
