import torch
import triton
import triton.language as tl


@triton.jit
def quant_row(x_ptr, q_ptr, s_ptr, hidden, n_groups_row, GP: tl.constexpr, GROUP: tl.constexpr):
    # One program per token: all of its groups as a [GP, 128] block (GP = groups per row, padded to a power of 2).
    row = tl.program_id(0)
    g = tl.arange(0, GP)
    offs = row * hidden + g[:, None] * GROUP + tl.arange(0, GROUP)[None, :]
    mask = g[:, None] < n_groups_row
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    scale = tl.maximum(tl.max(tl.abs(x), axis=1), 1e-10) / 448.0
    q = tl.clamp(x / scale[:, None], -448.0, 448.0)
    tl.store(q_ptr + offs, q.to(q_ptr.dtype.element_ty), mask=mask)
    tl.store(s_ptr + row * n_groups_row + g, scale, mask=g < n_groups_row)


def custom_kernel(data):
    (x,) = data
    t, h = x.shape
    gpr = h // 128
    q = torch.empty((t, h), device=x.device, dtype=torch.float8_e4m3fn)
    s = torch.empty((t, gpr), device=x.device, dtype=torch.float32)
    quant_row[(t,)](x, q, s, h, gpr, GP=triton.next_power_of_2(gpr), GROUP=128, num_warps=8)
    return (q, s)
