import torch
import triton
import triton.language as tl


@triton.jit
def quant_groups(x_ptr, q_ptr, s_ptr, n_groups, G: tl.constexpr, GROUP: tl.constexpr):
    gid = tl.program_id(0) * G + tl.arange(0, G)
    offs = gid[:, None] * GROUP + tl.arange(0, GROUP)[None, :]
    mask = gid[:, None] < n_groups
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    absmax = tl.maximum(tl.max(tl.abs(x), axis=1), 1e-10)
    inv = 448.0 / absmax  # one divide per group, then multiplies: rounding may differ by one step
    q = tl.clamp(x * inv[:, None], -448.0, 448.0)
    tl.store(q_ptr + offs, q.to(q_ptr.dtype.element_ty), mask=mask)
    tl.store(s_ptr + gid, absmax / 448.0, mask=gid < n_groups)


def custom_kernel(data):
    (x,) = data
    t, h = x.shape
    n = t * h // 128
    q = torch.empty((t, h), device=x.device, dtype=torch.float8_e4m3fn)
    s = torch.empty((t, h // 128), device=x.device, dtype=torch.float32)
    quant_groups[(triton.cdiv(n, 8),)](x, q, s, n, G=8, GROUP=128, num_warps=4)
    return (q, s)
