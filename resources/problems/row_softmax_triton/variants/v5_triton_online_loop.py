import torch
import triton
import triton.language as tl


@triton.jit
def softmax_online(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * cols
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < cols, other=-float("inf"))
        m_new = tl.maximum(m, x)
        # Lanes that have seen nothing yet keep m = -inf; guard the rescale so -inf - -inf never makes a NaN.
        scale = tl.where(m == -float("inf"), 0.0, tl.exp(m - m_new))
        s = s * scale + tl.where(x == -float("inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == -float("inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
    inv = 1.0 / total
    for start in range(0, cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < cols, other=-float("inf"))
        tl.store(y_ptr + base + offs, tl.exp(x - row_max) * inv, mask=offs < cols)


def custom_kernel(data):
    (x,) = data
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_online[(rows,)](x, y, cols, BLOCK=1024, num_warps=4)
    return y
