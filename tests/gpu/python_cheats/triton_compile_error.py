import torch
import triton
import triton.language as tl


@triton.jit
def broken(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs) + undefined_name)  # noqa: F821 - a Triton compile error


def custom_kernel(data):
    (x,) = data
    y = torch.empty_like(x)
    broken[(1,)](x, y, BLOCK=128)
    return y
