import torch
import triton
import triton.language as tl


@triton.jit
def quant_group(x_ptr, q_ptr, s_ptr, GROUP: tl.constexpr):
    g = tl.program_id(0)
    offs = g * GROUP + tl.arange(0, GROUP)
    x = tl.load(x_ptr + offs).to(tl.float32)
    scale = tl.maximum(tl.max(tl.abs(x), axis=0), 1e-10) / 448.0
    q = tl.clamp(x / scale, -448.0, 448.0)
    tl.store(q_ptr + offs, q.to(q_ptr.dtype.element_ty))
    tl.store(s_ptr + g, scale)


def custom_kernel(data):
    (x,) = data
    t, h = x.shape
    q = torch.empty((t, h), device=x.device, dtype=torch.float8_e4m3fn)
    s = torch.empty((t, h // 128), device=x.device, dtype=torch.float32)
    quant_group[(t * h // 128,)](x, q, s, GROUP=128, num_warps=4)
    return (q, s)
