import torch
import triton
import triton.language as tl


@triton.jit
def wild(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK).to(tl.int64) + (1 << 40)  # far outside any allocation
    tl.store(y_ptr + offs, tl.load(x_ptr + offs))


def custom_kernel(data):
    (x,) = data
    y = torch.empty_like(x)
    wild[(1,)](x, y, BLOCK=128)
    return y
